#include "PureVirtuals.h"

#include <clang/AST/CXXInheritance.h>
#include <clang/AST/DeclCXX.h>

#include <set>

namespace mosaic::analysis {

namespace {

// Why a subclass that a test defines (no members, every pure virtual
// overridden, default-constructed) cannot be written; empty when it can.
std::string whyNoSubclass(TypeMapper &types, const clang::CXXRecordDecl *decl) {
  if (decl->isEffectivelyFinal()) return "the class is final";
  if (const clang::CXXDestructorDecl *d = decl->getDestructor();
      d && (d->isDeleted() || d->getAccess() == clang::AS_private))
    return "its destructor is private or deleted";
  // The subclass's implicit default constructor calls one of these.
  bool reachable = false;
  for (const clang::CXXConstructorDecl *c : decl->ctors())
    if (!c->isDeleted() && c->getAccess() != clang::AS_private && c->getMinRequiredArguments() == 0 &&
        types.linkable(c))
      reachable = true;
  if (!reachable) return "no constructor without arguments that a subclass can call";
  return {};
}

} // namespace

void collectPureVirtuals(TypeMapper &types, const clang::CXXRecordDecl *decl, model::Record &record) {
  record.notSubclassable = whyNoSubclass(types, decl);
  clang::CXXFinalOverriderMap overriders;
  decl->getFinalOverriders(overriders);
  std::set<std::string> seen; // name + signature: one override covers every subobject
  for (const auto &[method, bySubobject] : overriders) {
    for (const auto &[subobject, finals] : bySubobject) {
      for (const clang::UniqueVirtualMethod &u : finals) {
        const clang::CXXMethodDecl *m = u.Method;
        if (!m->isPureVirtual() || llvm::isa<clang::CXXDestructorDecl>(m)) continue;
        if (llvm::isa<clang::CXXConversionDecl>(m)) {
          record.notSubclassable = "a pure virtual conversion operator (" + m->getNameAsString() + ")";
          continue;
        }
        const auto *proto = m->getType()->castAs<clang::FunctionProtoType>();
        if (proto->isVariadic() || m->isVolatile()) {
          record.notSubclassable = "a variadic or volatile pure virtual (" + m->getNameAsString() + ")";
          continue;
        }
        model::PureVirtual v;
        v.name = m->getNameAsString();
        v.result = types.map(m->getReturnType());
        for (const clang::ParmVarDecl *p : m->parameters()) v.params.push_back(types.map(p->getType()));
        v.isConst = m->isConst();
        v.isNoexcept = proto->isNothrow();
        v.refQualifier = m->getRefQualifier() == clang::RQ_LValue   ? "&"
                         : m->getRefQualifier() == clang::RQ_RValue ? "&&"
                                                                    : "";
        std::string key = v.name + '\x1f' + m->getType().getCanonicalType().getAsString();
        if (seen.insert(key).second) record.pureVirtuals.push_back(std::move(v));
      }
    }
  }
}

} // namespace mosaic::analysis
