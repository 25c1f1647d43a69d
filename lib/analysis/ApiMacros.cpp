// Function-like macros of a C API as callables (ApiMacros.h).
#include "ApiMacros.h"

#include "ModelBuilder.h"

#include <clang/Basic/SourceManager.h>
#include <clang/Lex/MacroInfo.h>
#include <clang/Lex/Preprocessor.h>

#include <map>
#include <optional>
#include <set>

namespace mosaic::analysis {

namespace {

using Tokens = llvm::ArrayRef<clang::Token>;

// `( ... )` around the whole of `t`, once or more, taken off.
Tokens unwrap(Tokens t) {
  while (t.size() >= 2 && t.front().is(clang::tok::l_paren) && t.back().is(clang::tok::r_paren)) {
    int depth = 0;
    size_t close = 0;
    for (size_t i = 0; i < t.size(); ++i) {
      if (t[i].is(clang::tok::l_paren)) ++depth;
      else if (t[i].is(clang::tok::r_paren) && --depth == 0) {
        close = i;
        break;
      }
    }
    if (close != t.size() - 1) break; // `(a) + (b)`
    t = t.slice(1, t.size() - 2);
  }
  return t;
}

// The callee and the arguments of a body that is one call `F(a, ...)`.
std::optional<std::pair<std::string, std::vector<Tokens>>> asCall(Tokens body) {
  body = unwrap(body);
  if (body.size() < 3 || !body[0].is(clang::tok::identifier) || !body[1].is(clang::tok::l_paren) ||
      !body.back().is(clang::tok::r_paren))
    return std::nullopt;
  std::vector<Tokens> args;
  int depth = 0;
  size_t start = 2;
  for (size_t i = 1; i < body.size(); ++i) {
    if (body[i].isOneOf(clang::tok::l_paren, clang::tok::l_square, clang::tok::l_brace)) ++depth;
    else if (body[i].isOneOf(clang::tok::r_paren, clang::tok::r_square, clang::tok::r_brace)) {
      if (--depth == 0) {
        if (i != body.size() - 1) return std::nullopt; // `F(a)(b)`, `F(a) + 1`
        if (i > start) args.push_back(body.slice(start, i - start));
        else if (!args.empty()) return std::nullopt; // `F(a, )`
      }
    } else if (depth == 1 && body[i].is(clang::tok::comma)) {
      if (i == start) return std::nullopt;
      args.push_back(body.slice(start, i - start));
      start = i + 1;
    }
  }
  return std::make_pair(body[0].getIdentifierInfo()->getName().str(), std::move(args));
}

} // namespace

size_t addApiMacros(const clang::Preprocessor &pp, const clang::SourceManager &sm, model::Program &program) {
  std::map<std::string, std::vector<model::CallableId>> byName;
  for (const model::Callable &c : program.callables) byName[c.name].push_back(c.id);
  // By name: the preprocessor's table has no order, and callables' ids
  // must not change from run to run.
  std::map<std::string, const clang::MacroInfo *> macros;
  for (const auto &[ident, state] : pp.macros(false)) {
    (void)state;
    if (const clang::MacroInfo *mi = pp.getMacroInfo(ident)) macros[ident->getName().str()] = mi;
  }
  size_t added = 0;
  for (const auto &[name, mi] : macros) {
    if (!mi->isFunctionLike() || mi->isVariadic() || mi->isBuiltinMacro() || mi->getNumParams() == 0) continue;
    const clang::SourceLocation at = mi->getDefinitionLoc();
    if (at.isInvalid() || sm.isInSystemHeader(at) || sm.isWrittenInMainFile(at)) continue;
    const auto file = sm.getFileEntryRefForID(sm.getFileID(at));
    if (!file || !isHeaderPath(file->getName())) continue;
    if (byName.count(name)) continue;
    const auto call = asCall(mi->tokens());
    if (!call) continue;
    const auto callee = byName.find(call->first);
    if (callee == byName.end() || callee->second.size() != 1) continue;
    const model::Callable &f = program.callable(callee->second.front());
    if (f.parent || f.kind != model::CallableKind::Function || f.variadic || f.macroShadowed ||
        f.params.size() != call->second.size())
      continue;
    // Which argument each macro parameter is.
    std::map<const clang::IdentifierInfo *, size_t> params;
    for (size_t j = 0; j < mi->getNumParams(); ++j) params[mi->params()[j]] = j;
    std::vector<std::optional<size_t>> argOf(mi->getNumParams());
    bool ok = true;
    for (size_t i = 0; i < call->second.size() && ok; ++i) {
      const Tokens arg = unwrap(call->second[i]);
      if (arg.size() == 1 && arg[0].is(clang::tok::identifier) && params.count(arg[0].getIdentifierInfo())) {
        std::optional<size_t> &slot = argOf[params[arg[0].getIdentifierInfo()]];
        ok = !slot;
        slot = i;
        continue;
      }
      for (const clang::Token &t : call->second[i])
        ok = ok && !(t.is(clang::tok::identifier) && params.count(t.getIdentifierInfo())); // `-(n)-1`, `#p`
    }
    if (!ok || std::any_of(argOf.begin(), argOf.end(), [](const auto &a) { return !a; }) ||
        argOf.size() == f.params.size())
      continue;
    model::Callable m = f;
    m.id = static_cast<model::CallableId>(program.callables.size());
    m.name = m.qualifiedName = name;
    m.macroOf = f.qualifiedName;
    m.params.clear();
    for (const auto &i : argOf) m.params.push_back(f.params[*i]);
    m.formatParam.reset();
    m.constants = {};
    m.origin = model::Origin::External;
    m.declaredInMainHeader = false;
    m.declaredInHeader = true;
    m.internalLinkage = false;
    m.isInline = false;
    m.signature = name + "(";
    for (size_t i = 0; i < m.params.size(); ++i) m.signature += (i ? ", " : "") + program.type(m.params[i].type).spelling;
    m.signature += ")";
    const unsigned line = sm.getSpellingLineNumber(at);
    m.location = {sm.getFileManager().getCanonicalName(*file).str(), line, line};
    byName[name].push_back(m.id);
    program.callables.push_back(std::move(m));
    ++added;
  }
  return added;
}

} // namespace mosaic::analysis
