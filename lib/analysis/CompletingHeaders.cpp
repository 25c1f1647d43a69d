// Project headers that complete what a unit only declares (CompletingHeaders.h).
#include "CompletingHeaders.h"

#include "ModelBuilder.h"

#include "mosaic/model/Derive.h"
#include "mosaic/support/Text.h"

#include <clang/Basic/LangOptions.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <filesystem>

namespace mosaic::analysis {

namespace fs = std::filesystem;

namespace {

// `ns::Outer<int>::Stack<T>` -> `Stack`: the last component, without
// template arguments, as a header's text names the class.
std::string shortName(const std::string &qualified) {
  size_t start = 0;
  int depth = 0;
  for (size_t i = 0; i < qualified.size(); ++i) {
    const char c = qualified[i];
    if (c == '<') ++depth;
    else if (c == '>') --depth;
    else if (depth == 0 && c == ':' && i + 1 < qualified.size() && qualified[i + 1] == ':') start = i + 2;
  }
  std::string last = qualified.substr(start);
  if (last.rfind("operator", 0) == 0) return last;
  return last.substr(0, last.find('<'));
}

// The record a parameter or result is, refers to or (`throughPointer`)
// points to.
std::optional<model::RecordId> recordOf(const model::Program &p, model::TypeId id, bool throughPointer) {
  const model::Type *t = &p.type(id);
  if ((t->kind == model::TypeKind::Reference || (throughPointer && t->kind == model::TypeKind::Pointer)) && t->pointee)
    t = &p.type(*t->pointee);
  if (t->kind == model::TypeKind::Record && t->recordId) return t->recordId;
  return std::nullopt;
}

bool ownedCallable(const model::Program &p, const model::Callable &c) {
  return c.origin == model::Origin::Unit || c.declaredInMainHeader || (c.parent && p.record(*c.parent).ownedByUnit);
}

bool isIdentifier(const clang::Token &t) { return t.is(clang::tok::raw_identifier); }

} // namespace

Needs unitNeeds(const model::Program &p) {
  Needs needs;
  std::set<model::RecordId> used; // the unit's classes and those its callables take
  for (const model::Record &r : p.records)
    if (r.ownedByUnit) used.insert(r.id);
  for (const model::Callable &c : p.callables) {
    if (!ownedCallable(p, c)) continue;
    std::vector<model::TypeId> types{c.result};
    for (const model::Param &param : c.params) types.push_back(param.type);
    for (model::TypeId t : types) {
      const auto id = recordOf(p, t, /*throughPointer=*/true);
      if (!id || p.record(*id).inSystemHeader) continue;
      used.insert(*id);
      // A pointer to a class only declared is the C idiom of an opaque
      // handle, not something missing; a value or a reference is.
      if (!p.record(*id).complete && recordOf(p, t, /*throughPointer=*/false))
        needs.classes.insert(shortName(p.record(*id).name));
    }
  }
  for (const model::Callable &c : p.callables) {
    if (c.origin != model::Origin::External || !c.parent || c.isImplicit || !used.count(*c.parent)) continue;
    needs.members.insert(shortName(p.record(*c.parent).name) + "::" + shortName(c.name));
  }
  // Tables of functions taken through a pointer that nothing the unit sees
  // fills.
  std::set<model::RecordId> filled;
  for (const model::Callable &c : p.callables) {
    if (c.kind != model::CallableKind::Function) continue;
    if (const auto r = model::defaultsFilled(p, c)) filled.insert(*r);
    if (!model::isInitialiserName(c.name)) continue;
    for (const model::Param &param : c.params) {
      const model::Type &t = p.type(p.type(param.type).value);
      if (t.kind != model::TypeKind::Pointer || t.pointeeConst) continue;
      if (const auto r = recordOf(p, param.type, /*throughPointer=*/true)) filled.insert(*r);
    }
  }
  // Abstract classes taken by pointer or reference with no concrete class
  // derived from them in sight.
  std::set<model::RecordId> derivedFrom;
  for (const model::Record &r : p.records) {
    if (r.abstract) continue;
    std::vector<model::RecordId> todo = r.bases;
    while (!todo.empty()) {
      const model::RecordId b = todo.back();
      todo.pop_back();
      if (derivedFrom.insert(b).second)
        todo.insert(todo.end(), p.record(b).bases.begin(), p.record(b).bases.end());
    }
  }
  for (const model::Callable &c : p.callables) {
    if (!ownedCallable(p, c)) continue;
    for (const model::Param &param : c.params) {
      const auto id = recordOf(p, param.type, /*throughPointer=*/true);
      if (!id || p.record(*id).inSystemHeader) continue;
      const model::Record &r = p.record(*id);
      if (r.abstract && !derivedFrom.count(*id)) needs.subclassed.insert(shortName(r.name));
      if (p.type(p.type(param.type).value).kind == model::TypeKind::Pointer && !filled.count(*id) && r.complete &&
          model::hasFunctionField(p, *id))
        needs.initialised.insert(shortName(r.name));
    }
  }
  return needs;
}

HeaderDefinitions scanHeader(const std::string &text) {
  HeaderDefinitions found;
  clang::LangOptions lang;
  lang.CPlusPlus = lang.CPlusPlus11 = lang.CPlusPlus14 = lang.CPlusPlus17 = true;
  lang.LineComment = true;
  clang::Lexer lexer(clang::SourceLocation(), lang, text.data(), text.data(), text.data() + text.size());
  std::vector<clang::Token> toks;
  clang::Token tok;
  while (!lexer.LexFromRawLexer(tok)) toks.push_back(tok);
  if (tok.isNot(clang::tok::eof)) toks.push_back(tok);

  // `#include "a/b.h"` or `<a/b.h>`: a hash at a line's start, `include`,
  // then the name up to its closing quote or bracket.
  for (size_t i = 0; i + 1 < toks.size(); ++i) {
    if (!toks[i].is(clang::tok::hash) || !toks[i].isAtStartOfLine() || !isIdentifier(toks[i + 1]) ||
        toks[i + 1].getRawIdentifier() != "include")
      continue;
    const size_t at = static_cast<size_t>(toks[i + 1].getRawIdentifier().end() - text.data());
    const size_t open = text.find_first_of("\"<\n", at);
    if (open == std::string::npos || text[open] == '\n') continue;
    const size_t close = text.find_first_of(text[open] == '<' ? ">\n" : "\"\n", open + 1);
    if (close != std::string::npos && text[close] != '\n') found.includes.push_back(text.substr(open + 1, close - open - 1));
  }

  auto spelling = [&](size_t i) {
    return isIdentifier(toks[i]) ? toks[i].getRawIdentifier().str() : std::string();
  };
  // `init_name(..., T *...)` or `set_defaults(T *)`: T, when neither
  // `const T *` nor `T const *`.
  for (size_t i = 0; i + 1 < toks.size(); ++i) {
    const std::string name = spelling(i);
    if (name.empty() || !toks[i + 1].is(clang::tok::l_paren)) continue;
    if (!model::isInitialiserName(name) && !anyIdentifierWord(name, model::isDefaultsWord)) continue;
    int depth = 0;
    for (size_t j = i + 1; j < toks.size(); ++j) {
      if (toks[j].is(clang::tok::l_paren)) ++depth;
      else if (toks[j].is(clang::tok::r_paren) && --depth == 0) break;
      else if (toks[j].is(clang::tok::star) && depth == 1 && j >= 2 && isIdentifier(toks[j - 1])) {
        const std::string type = spelling(j - 1);
        if (type != "const" && type != "void" && type != "char" && spelling(j - 2) != "const")
          found.initialises.insert(type);
      }
    }
  }
  for (size_t i = 0; i < toks.size(); ++i) {
    const std::string word = spelling(i);
    // `class|struct|union [ATTRS...] Name [final] {|:` (not `::`).
    if (word == "class" || word == "struct" || word == "union") {
      size_t j = i + 1;
      std::string name;
      while (j < toks.size() && isIdentifier(toks[j])) {
        if (spelling(j) != "final") name = spelling(j);
        ++j;
      }
      if (!name.empty() && j < toks.size() && (toks[j].is(clang::tok::l_brace) || toks[j].is(clang::tok::colon)))
        found.classes.insert(name);
      // `: public ns::Base<T>, private Other {`: the last name before each
      // `,`, `<` or `{` at the top level.
      if (!name.empty() && j < toks.size() && toks[j].is(clang::tok::colon) &&
          !(j + 1 < toks.size() && toks[j + 1].is(clang::tok::colon))) {
        std::string last;
        int angle = 0;
        for (size_t k = j + 1; k < toks.size() && !toks[k].is(clang::tok::l_brace) && !toks[k].is(clang::tok::semi);
             ++k) {
          if (toks[k].is(clang::tok::less)) {
            if (angle++ == 0 && !last.empty()) found.bases.insert(last);
            last.clear();
          } else if (toks[k].is(clang::tok::greater)) --angle;
          else if (angle == 0 && toks[k].is(clang::tok::comma)) {
            if (!last.empty()) found.bases.insert(last);
            last.clear();
          } else if (angle == 0 && isIdentifier(toks[k])) {
            const std::string w = spelling(k);
            if (w != "public" && w != "private" && w != "protected" && w != "virtual") last = w;
          }
        }
        if (!last.empty()) found.bases.insert(last);
      }
      continue;
    }
    // `Class[<...>]::member(`, `Class::~Class(`, `Class::operator[](`.
    if (!toks[i].is(clang::tok::coloncolon) || i == 0) continue;
    size_t c = i - 1;
    if (toks[c].is(clang::tok::greater)) { // walk back over `<...>`
      int depth = 0;
      while (c > 0) {
        if (toks[c].is(clang::tok::greater)) ++depth;
        else if (toks[c].is(clang::tok::less) && --depth == 0) break;
        --c;
      }
      if (c == 0) continue;
      --c;
    }
    if (!isIdentifier(toks[c])) continue;
    size_t m = i + 1;
    std::string member;
    if (m < toks.size() && toks[m].is(clang::tok::tilde)) {
      member = "~";
      ++m;
    }
    if (m >= toks.size() || !isIdentifier(toks[m])) continue;
    member += spelling(m);
    ++m;
    if (member == "operator") {
      // The operator's tokens up to its parameter list (`()` is one
      // operator: its first parenthesis pair).
      if (m + 1 < toks.size() && toks[m].is(clang::tok::l_paren) && toks[m + 1].is(clang::tok::r_paren)) {
        member += "()";
        m += 2;
      }
      for (int k = 0; k < 3 && m < toks.size() && !toks[m].is(clang::tok::l_paren); ++k, ++m)
        member += clang::tok::getPunctuatorSpelling(toks[m].getKind()) ? clang::tok::getPunctuatorSpelling(toks[m].getKind())
                                                                         : spelling(m);
    }
    if (m < toks.size() && toks[m].is(clang::tok::l_paren)) found.members.insert(spelling(c) + "::" + member);
  }
  return found;
}

HeaderIndex::HeaderIndex(const std::vector<std::string> &args, const std::string &directory, const std::string &unit,
                         const std::string &root) {
  std::error_code ec;
  auto canonical = [&](const fs::path &p) {
    const fs::path c = fs::weakly_canonical(p.is_absolute() ? p : fs::path(directory) / p, ec);
    return ec ? fs::path() : c;
  };
  const std::string top = canonical(root).string();
  auto under = [&](const fs::path &p) {
    const std::string s = p.string();
    return !top.empty() && s.size() >= top.size() && s.compare(0, top.size(), top) == 0 &&
           (s.size() == top.size() || s[top.size()] == '/');
  };
  std::set<fs::path> dirs{canonical(fs::path(unit).parent_path())};
  for (size_t i = 0; i < args.size(); ++i)
    for (const std::string flag : {"-I", "-iquote"}) {
      if (args[i] == flag && i + 1 < args.size()) dirs.insert(canonical(args[i + 1]));
      else if (args[i].size() > flag.size() && args[i].compare(0, flag.size(), flag) == 0)
        dirs.insert(canonical(args[i].substr(flag.size())));
    }
  std::set<std::string> headers;
  for (const fs::path &dir : dirs) {
    if (dir.empty() || !under(dir)) continue;
    for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator() && headers.size() < kMaxHeaders; it.increment(ec))
      if (it->is_regular_file(ec) && isHeaderPath(it->path().string())) headers.insert(canonical(it->path()).string());
  }
  paths_.assign(headers.begin(), headers.end());
  for (const std::string &h : paths_) defs_.push_back(scanHeader(readFile(h)));
}

std::optional<std::string> HeaderIndex::best(const Needs &needs, const std::set<std::string> &skip, Needs &met) const {
  std::optional<std::string> best;
  for (size_t i = 0; i < paths_.size(); ++i) {
    if (skip.count(paths_[i])) continue;
    Needs here;
    for (const std::string &c : needs.classes)
      if (defs_[i].classes.count(c)) here.classes.insert(c);
    for (const std::string &m : needs.members)
      if (defs_[i].members.count(m)) here.members.insert(m);
    for (const std::string &r : needs.initialised)
      if (defs_[i].initialises.count(r)) here.initialised.insert(r);
    for (const std::string &r : needs.subclassed)
      if (defs_[i].bases.count(r)) here.subclassed.insert(r);
    if (here.size() > (best ? met.size() : 0)) {
      best = paths_[i];
      met = std::move(here);
    }
  }
  return best;
}

std::vector<std::string> HeaderIndex::includers(const std::string &header, const std::set<std::string> &skip) const {
  std::vector<std::string> found;
  for (size_t i = 0; i < paths_.size(); ++i) {
    if (skip.count(paths_[i]) || paths_[i] == header) continue;
    for (const std::string &spelled : defs_[i].includes) {
      // `#include "x.h"` beside it, or a path under an include folder.
      const std::string tail = "/" + spelled;
      if (header.size() > tail.size() && header.compare(header.size() - tail.size(), tail.size(), tail) == 0) {
        found.push_back(paths_[i]);
        break;
      }
    }
  }
  return found;
}

} // namespace mosaic::analysis
