#include "FormatForwarding.h"

#include <clang/AST/Attr.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>

#include <array>
#include <string_view>

namespace mosaic::analysis {
namespace {

// The printf family that takes a va_list (C17 7.21.6.8-14, POSIX's
// vdprintf, glibc's vasprintf and vsyslog) and glibc's _FORTIFY_SOURCE
// spellings of them, for declarations that carry no format attribute.
constexpr std::array<std::string_view, 14> kVaPrintf = {
    "vprintf",         "vfprintf",         "vsprintf",       "vsnprintf",      "vasprintf",
    "vdprintf",        "vsyslog",          "__vprintf_chk",  "__vfprintf_chk", "__vsprintf_chk",
    "__vsnprintf_chk", "__vasprintf_chk",  "__vdprintf_chk", "__vsyslog_chk"};

// Wrappers of wrappers: a log function over a helper over vsnprintf.
constexpr int kMaxDepth = 3;

bool printfStyle(const clang::FunctionDecl *g) {
  for (const clang::FunctionDecl *d : g->redecls())
    if (const auto *f = d->getAttr<clang::FormatAttr>())
      return f->getType() && f->getType()->getName().contains("printf");
  const clang::IdentifierInfo *id = g->getIdentifier();
  if (!id) return false;
  for (std::string_view n : kVaPrintf)
    if (std::string_view(id->getName()) == n) return true;
  return false;
}

bool forwards(const clang::FunctionDecl *fn, const clang::ParmVarDecl *format, int depth);

// Whether `s` holds a call that hands `format` on to the printf family.
bool handsOn(const clang::Stmt *s, const clang::ParmVarDecl *format, int depth) {
  if (!s) return false;
  if (const auto *call = llvm::dyn_cast<clang::CallExpr>(s))
    if (const clang::FunctionDecl *g = call->getDirectCallee())
      for (unsigned k = 0; k < call->getNumArgs(); ++k) {
        const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(call->getArg(k)->IgnoreParenImpCasts());
        if (!ref || ref->getDecl() != format) continue;
        if (printfStyle(g)) return true;
        if (depth < kMaxDepth && k < g->getNumParams() && forwards(g, g->getParamDecl(k), depth + 1)) return true;
      }
  for (const clang::Stmt *child : s->children())
    if (handsOn(child, format, depth)) return true;
  return false;
}

bool forwards(const clang::FunctionDecl *fn, const clang::ParmVarDecl *format, int depth) {
  const clang::FunctionDecl *def = fn->getDefinition();
  if (!def || !def->hasBody()) return false;
  // The parameter as the definition names it (a declaration's own
  // ParmVarDecl is another object).
  const unsigned index = format->getFunctionScopeIndex();
  if (index >= def->getNumParams()) return false;
  return handsOn(def->getBody(), def->getParamDecl(index), depth);
}

} // namespace

bool forwardsPrintfFormat(const clang::FunctionDecl *fn, unsigned format) {
  if (format >= fn->getNumParams()) return false;
  return forwards(fn, fn->getParamDecl(format), 0);
}

} // namespace mosaic::analysis
