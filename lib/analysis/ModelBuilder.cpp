// AST -> program model: which declarations become callables, and why the
// others are skipped.
#include "ModelBuilder.h"

#include "ConstantMiner.h"
#include "ExportMarks.h"
#include "FormatForwarding.h"
#include "InstalledHeaders.h"
#include "ParamRoles.h"
#include "TypeMapper.h"

#include "mosaic/model/Derive.h"
#include "mosaic/support/Text.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Mangle.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/OperatorKinds.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Sema/Sema.h>
#include <llvm/Support/Path.h>

#include <map>
#include <set>

namespace mosaic::analysis {

namespace {

// A specialization of a function template Clang declared while resolving an
// overload that another candidate won (yaml-cpp's RegEx::Match<std::string>
// beside Match(const std::string &)): never used, never defined, and its
// body may not even compile. Calling it would instantiate that body.
bool onlyDeduced(const clang::FunctionDecl *fd) {
  return fd->getTemplateSpecializationKind() == clang::TSK_ImplicitInstantiation && !fd->isDefined() &&
         !fd->isUsed(/*CheckUsedAttr=*/false);
}

// Finds the declarations worth looking at, in source order.
class Collector : public clang::RecursiveASTVisitor<Collector> {
public:
  explicit Collector(const clang::SourceManager &sm) : sm_(sm) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitFunctionDecl(clang::FunctionDecl *fd) {
    if (llvm::isa<clang::CXXMethodDecl>(fd) || fd->isImplicit() || fd->getBuiltinID() || fd->isLocalExternDecl())
      return true;
    if (fd->isDependentContext() || fd->getDescribedFunctionTemplate()) return true; // a pattern
    if (onlyDeduced(fd)) return true;
    // The implicit global operator new/delete have no location; their
    // redeclarations live in <new>.
    const clang::FunctionDecl *canon = fd->getCanonicalDecl();
    if (canon->isImplicit() || inSystem(canon) || inSystem(fd) || !seenFunctions_.insert(canon).second) return true;
    functions.push_back(canon);
    return true;
  }
  bool VisitRecordDecl(clang::RecordDecl *rd) {
    if (!rd->isThisDeclarationADefinition() || inSystem(rd)) return true;
    if (const auto *cxx = llvm::dyn_cast<clang::CXXRecordDecl>(rd)) {
      if (cxx->isInjectedClassName() || cxx->isLambda() || cxx->isDependentType() || cxx->getDescribedClassTemplate())
        return true;
    }
    records.push_back(rd);
    return true;
  }
  bool VisitEnumDecl(clang::EnumDecl *ed) {
    if (ed->isThisDeclarationADefinition() && !inSystem(ed) && !ed->isDependentType() &&
        (ed->getIdentifier() || ed->getTypedefNameForAnonDecl()))
      enums.push_back(ed);
    return true;
  }
  bool VisitVarDecl(clang::VarDecl *vd) {
    // Public static data members are state too (pugixml keeps its allocator
    // in xml_memory_management_function_storage<int>::allocate); the
    // suite's wrapper cannot reach private ones.
    if (vd->isStaticDataMember() && vd->getAccess() != clang::AS_public) return true;
    if (!vd->hasGlobalStorage() || vd->isStaticLocal() || vd->getDeclContext()->isDependentContext() ||
        llvm::isa<clang::ParmVarDecl>(vd) || llvm::isa<clang::VarTemplateSpecializationDecl>(vd) ||
        vd->getDescribedVarTemplate())
      return true;
    // Once per variable: at its definition, or at the C tentative definition
    // (`int count;`) that acts as one.
    const clang::VarDecl *def = vd->getDefinition();
    if (!def) def = vd->getActingDefinition();
    if (def != vd) return true;
    if (!sm_.isInMainFile(sm_.getExpansionLoc(vd->getLocation()))) return true;
    variables.push_back(vd);
    return true;
  }
  bool VisitClassTemplateDecl(clang::ClassTemplateDecl *ctd) {
    if (ctd->isThisDeclarationADefinition() && !inSystem(ctd)) classTemplates.push_back(ctd);
    return true;
  }
  bool VisitFunctionTemplateDecl(clang::FunctionTemplateDecl *ftd) {
    if (ftd->isThisDeclarationADefinition() && !inSystem(ftd) && !ftd->getDeclContext()->isRecord())
      functionTemplates.push_back(ftd);
    return true;
  }

  std::vector<const clang::FunctionDecl *> functions;
  std::vector<const clang::RecordDecl *> records;
  std::vector<const clang::EnumDecl *> enums;
  std::vector<const clang::ClassTemplateDecl *> classTemplates;
  std::vector<const clang::FunctionTemplateDecl *> functionTemplates;
  std::vector<const clang::VarDecl *> variables; ///< defined in the unit file, static storage

private:
  bool inSystem(const clang::Decl *d) const {
    const clang::SourceLocation loc = sm_.getExpansionLoc(d->getLocation());
    return loc.isInvalid() || sm_.isInSystemHeader(loc);
  }
  const clang::SourceManager &sm_;
  std::set<const clang::FunctionDecl *> seenFunctions_;
};

/// A const method whose class declares a non-const method of the same name
/// and parameter types: overload resolution on a non-const object picks
/// that one (with its own result type), so the const one is only reached
/// through a const view. Templates are not twins: they are not members the
/// model calls.
bool hasNonConstTwin(const clang::CXXMethodDecl &md) {
  for (const clang::NamedDecl *d : md.getParent()->lookup(md.getDeclName())) {
    const auto *other = llvm::dyn_cast<clang::CXXMethodDecl>(d);
    if (!other || other == &md || other->isConst() || other->isStatic() ||
        other->getNumParams() != md.getNumParams() || other->getRefQualifier() == clang::RQ_RValue)
      continue;
    bool same = true;
    for (unsigned i = 0; same && i < md.getNumParams(); ++i)
      same = md.getASTContext().hasSameType(md.getParamDecl(i)->getType(), other->getParamDecl(i)->getType());
    if (same) return true;
  }
  return false;
}

/// Whether the name of a C++ function finds another function or function
/// template in its scope, whatever its access (tinyxml2's public
/// `DeleteAttribute(const char *)` beside a private static
/// `DeleteAttribute(XMLAttribute *)`): a call with a literal argument
/// (`nullptr`, `0`) may then be ambiguous, though the model calls only one.
bool isOverloaded(const clang::FunctionDecl &fd) {
  if (!fd.getASTContext().getLangOpts().CPlusPlus) return false;
  const clang::DeclContext *scope = fd.getDeclContext()->getRedeclContext();
  for (const clang::NamedDecl *d : scope->lookup(fd.getDeclName())) {
    const clang::NamedDecl *u = d->getUnderlyingDecl();
    if (const auto *f = llvm::dyn_cast<clang::FunctionDecl>(u)) {
      if (f->getCanonicalDecl() != fd.getCanonicalDecl()) return true;
    } else if (const auto *t = llvm::dyn_cast<clang::FunctionTemplateDecl>(u)) {
      if (t->getTemplatedDecl()->getCanonicalDecl() != fd.getCanonicalDecl() &&
          fd.getPrimaryTemplate() != t)
        return true;
    }
  }
  return false;
}

bool isOperatorWorthCalling(clang::OverloadedOperatorKind op) {
  switch (op) {
  case clang::OO_EqualEqual:
  case clang::OO_ExclaimEqual:
  case clang::OO_Less:
  case clang::OO_LessEqual:
  case clang::OO_Greater:
  case clang::OO_GreaterEqual:
  case clang::OO_Subscript:
  case clang::OO_Call:
    return true;
  default:
    return false;
  }
}

const char *accessWord(clang::AccessSpecifier a) { return a == clang::AS_private ? "private" : "protected"; }

class Builder {
public:
  Builder(clang::ASTContext &ctx, clang::Sema &sema, const InstalledHeaders &installed, model::Program &program)
      : ctx_(ctx), sema_(sema), sm_(ctx.getSourceManager()), installed_(installed),
        exportMacros_(sm_, sema.getPreprocessor()), program_(program),
        types_(ctx, sema, program), collected_(sm_), names_(ctx) {}

  void run() {
    program_.language = ctx_.getLangOpts().CPlusPlus ? "c++" : "c";
    Collector &c = collected_;
    c.TraverseDecl(ctx_.getTranslationUnitDecl());
    for (const clang::EnumDecl *e : c.enums) types_.enumFor(e);
    for (const clang::RecordDecl *r : c.records) addRecord(r);
    for (const clang::FunctionDecl *f : c.functions) addFreeFunction(f);
    for (const clang::ClassTemplateDecl *t : c.classTemplates) {
      bool instantiated = false;
      for (const clang::ClassTemplateSpecializationDecl *s : t->specializations())
        instantiated |= s->isCompleteDefinition();
      if (!instantiated) skip(types_.qualifiedName(t), "class template", "no instantiation of it in this unit", t);
    }
    for (const clang::FunctionTemplateDecl *t : c.functionTemplates)
      if (t->specializations().empty())
        skip(types_.qualifiedName(t), "function template", "no instantiation of it in this unit", t);
    for (const clang::VarDecl *v : c.variables) addState(v);
    markOwnership();
    model::deriveFactories(program_);
    model::resolveValueTypes(program_);
  }

private:
  // Records a declaration mosaic cannot offer, at its definition when it has
  // one (so that a private method defined in the unit is seen as the unit's).
  // A variadic function's format parameter (Callable::formatParam): from
  // its format attribute (on any of its declarations), else a last fixed
  // parameter that is a char pointer named like a format (`fmt`, `format`,
  // `msg_format`) that the body hands on to the printf family (log
  // functions often go without the attribute; other format languages,
  // jansson's json_pack, have the name too).
  void formatOf(const clang::FunctionDecl *fd, model::Callable &c) {
    for (const clang::FunctionDecl *d : fd->redecls())
      if (const auto *f = d->getAttr<clang::FormatAttr>()) {
        const std::string style = f->getType() ? f->getType()->getName().str() : "";
        const int index = f->getFormatIdx() - 1; // 1-based, in parameters
        if (index < 0 || index >= static_cast<int>(c.params.size())) return;
        if (style.find("printf") != std::string::npos) c.formatParam = static_cast<size_t>(index);
        else if (style.find("scanf") != std::string::npos) {
          c.formatParam = static_cast<size_t>(index);
          c.scanfFormat = true;
        }
        return;
      }
    if (c.params.empty()) return;
    const model::Param &last = c.params.back();
    const model::Type &t = program_.type(last.type);
    std::string name = last.name;
    for (char &ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    const bool formatName = name.ends_with("fmt") || name.ends_with("format");
    const bool charPointer = t.kind == model::TypeKind::Pointer && t.pointee &&
                             program_.type(program_.type(*t.pointee).value).kind == model::TypeKind::Char;
    if (formatName && charPointer && forwardsPrintfFormat(fd, static_cast<unsigned>(c.params.size() - 1)))
      c.formatParam = c.params.size() - 1;
  }

  void skip(std::string name, std::string what, std::string reason, const clang::Decl *d,
            std::optional<model::RecordId> parent = std::nullopt) {
    if (const auto *fd = llvm::dyn_cast<clang::FunctionDecl>(d); fd && fd->getDefinition()) d = fd->getDefinition();
    program_.skipped.push_back(
        {std::move(name), std::move(what), std::move(reason), types_.rangeOf(d->getSourceRange()), parent});
  }

  bool inMainFile(const clang::Decl *d) const { return sm_.isInMainFile(sm_.getExpansionLoc(d->getLocation())); }

  void addRecord(const clang::RecordDecl *rd) {
    if (std::string why = types_.unnameableReason(rd); !why.empty()) {
      // Anonymous structs and unions are parts of their parent's fields.
      if (rd->getIdentifier() || rd->getTypedefNameForAnonDecl())
        skip(types_.qualifiedName(rd), rd->getKindName().str(), why, rd);
      return;
    }
    auto id = types_.recordFor(rd);
    if (!id) return;
    const auto *cxx = llvm::dyn_cast<clang::CXXRecordDecl>(rd);
    if (!cxx || !ctx_.getLangOpts().CPlusPlus) return;
    // A class the unit file defines (pugixml's pugi::impl classes, in an
    // anonymous namespace of pugixml.cpp; xml_node_struct, which its header
    // only declares) is incomplete in a test: no test can construct one or
    // call its members. Its code is reached through the functions using it.
    const model::Record &record = program_.records[*id];
    if (inMainFile(rd)) {
      if (record.complete)
        skip(record.name, rd->getKindName().str(),
             "defined in " + llvm::sys::path::filename(program_.unit).str() +
                 ", incomplete in a test: its constructors and methods are not called directly",
             rd, *id);
      return;
    }
    for (const clang::Decl *d : cxx->decls()) {
      if (const auto *md = llvm::dyn_cast<clang::CXXMethodDecl>(d)) {
        addMember(md, *id);
      } else if (const auto *ft = llvm::dyn_cast<clang::FunctionTemplateDecl>(d)) {
        bool any = false;
        for (const clang::FunctionDecl *s : ft->specializations())
          if (const auto *ms = llvm::dyn_cast<clang::CXXMethodDecl>(s); ms && !onlyDeduced(ms)) {
            addMember(ms, *id);
            any = true;
          }
        if (!any && ft->getAccess() == clang::AS_public)
          skip(types_.qualifiedName(ft), "member function template", "no instantiation of it in this unit", ft, *id);
      }
    }
  }

  void addMember(const clang::CXXMethodDecl *md, model::RecordId parent) {
    if (llvm::isa<clang::CXXDestructorDecl>(md)) return;
    const bool isCtor = llvm::isa<clang::CXXConstructorDecl>(md);
    const char *what = isCtor ? "constructor" : "method";
    if (md->isImplicit()) {
      // Only implicit constructors are worth listing; implicit assignment
      // operators are not calls a test makes, and deleted ones do not exist.
      if (!isCtor || md->isDeleted()) return;
    }
    const std::string name = types_.qualifiedName(md);
    if (md->getAccess() != clang::AS_public)
      return skip(name, what, std::string(accessWord(md->getAccess())) + " member", md, parent);
    if (md->isDeleted()) return skip(name, what, "deleted", md, parent);
    if (llvm::isa<clang::CXXConversionDecl>(md))
      return skip(name, "conversion operator", "conversion operators are not called by generated tests", md, parent);
    model::CallableKind kind = isCtor ? model::CallableKind::Constructor
                               : md->isStatic() ? model::CallableKind::StaticMethod
                                                : model::CallableKind::Method;
    if (md->isOverloadedOperator()) {
      if (!isOperatorWorthCalling(md->getOverloadedOperator())) {
        if (!md->isImplicit())
          skip(name, "operator", "not among the operators tests call (== != < <= > >= [] ())", md, parent);
        return;
      }
      kind = model::CallableKind::Operator;
    }
    if (isCtor && !types_.linkable(llvm::cast<clang::CXXConstructorDecl>(md)))
      return skip(name, what, "it or a base's constructor it calls is declared and never defined (not copyable)", md,
                  parent);
    if (isCtor && program_.records[parent].abstract) {
      if (!md->isImplicit()) skip(name, what, "the class is abstract", md, parent);
      return;
    }
    addCallable(md, kind, parent);
  }

  void addFreeFunction(const clang::FunctionDecl *fd) {
    model::CallableKind kind = model::CallableKind::Function;
    if (fd->isOverloadedOperator()) {
      if (!isOperatorWorthCalling(fd->getOverloadedOperator()))
        return skip(types_.qualifiedName(fd), "operator", "not among the operators tests call (== != < <= > >= [] ())",
                    fd);
      kind = model::CallableKind::Operator;
    }
    addCallable(fd, kind, std::nullopt);
  }

  // Where the code of `fd` is: its definition, or for a member of a class
  // template instantiation that was never used, the template's definition.
  static const clang::FunctionDecl *codeOf(const clang::FunctionDecl *fd) {
    if (const clang::FunctionDecl *def = fd->getDefinition()) return def;
    if (const clang::FunctionDecl *pattern = fd->getTemplateInstantiationPattern()) return pattern->getDefinition();
    return nullptr;
  }

  // Whether every declaration of `fd` is a friend declaration in a class.
  static bool hiddenFriend(const clang::FunctionDecl *fd) {
    if (fd->getDescribedFunctionTemplate() || fd->isFunctionTemplateSpecialization()) return false;
    for (const clang::FunctionDecl *r : fd->redecls())
      if (r->getFriendObjectKind() == clang::Decl::FOK_None) return false;
    return true;
  }

  void addCallable(const clang::FunctionDecl *fd, model::CallableKind kind, std::optional<model::RecordId> parent) {
    const clang::FunctionDecl *code = codeOf(fd);
    const clang::FunctionDecl *where = code ? code : fd;
    const std::string what = kind == model::CallableKind::Constructor ? "constructor"
                             : parent                                  ? "method"
                                                                       : "function";
    model::Callable c;
    c.kind = kind;
    c.name = fd->getNameAsString();
    c.qualifiedName = types_.qualifiedName(fd);
    // A hidden friend (declared only inside its class: libsquish's `friend
    // float Dot(Arg left, Arg right)` in Vec3) is found only by
    // argument-dependent lookup ([basic.lookup.argdep]/4): `squish::Dot`
    // names nothing, so calls spell the plain name.
    if (!parent && hiddenFriend(fd)) c.qualifiedName = c.name;
    const std::string shownName = types_.qualifiedName(fd);
    auto skipHere = [&](std::string reason) { skip(shownName, what, std::move(reason), where, parent); };

    if (fd->isDeleted()) return skipHere("deleted");
    if (fd->isConsteval()) return skipHere("consteval: cannot be called with run-time values");
    if (fd->isMain()) return skipHere("main() is the program's entry point, not an API to test");
    if (!fd->hasPrototype() && !(code && code->hasPrototype()))
      return skipHere("declared without a prototype (K&R style): argument types unknown");
    if (fd->isVariadic() && (parent || kind != model::CallableKind::Function))
      return skipHere("variadic (...) member: only free variadic functions are called (through libffi)");
    c.variadic = fd->isVariadic();
    // Inherited by later declarations: the header's attribute reaches the definition.
    if (std::string message; fd->isDeprecated(&message) || where->isDeprecated(&message)) c.deprecated = message;
    for (const clang::FunctionDecl *r : fd->redecls())
      if (!c.deprecated) c.deprecated = exportMacros_.deprecationMark(r);

    for (unsigned i = 0; i < fd->getNumParams(); ++i) {
      const clang::ParmVarDecl *p = fd->getParamDecl(i);
      model::Param param;
      // The definition names parameters the declaration may leave unnamed.
      const clang::ParmVarDecl *named = (code && i < code->getNumParams()) ? code->getParamDecl(i) : p;
      param.name = named->getNameAsString().empty() ? p->getNameAsString() : named->getNameAsString();
      // Top-level const of a parameter (`const char *const s`) is not part of
      // the function's type and does not matter to a caller.
      param.type = types_.map(p->getType().getUnqualifiedType());
      param.hasDefault = p->hasDefaultArg();
      // As declared, before it decayed: `uint32_t state[8]` (the first
      // declaration that gives a bound; the definition may write `state[]`).
      for (const clang::ParmVarDecl *d : {named, p})
        if (const auto *decayed = d->getType()->getAs<clang::DecayedType>())
          if (const auto *array = ctx_.getAsConstantArrayType(decayed->getOriginalType());
              array && !param.declaredLength && array->getSize().getZExtValue() > 0)
            param.declaredLength = array->getSize().getZExtValue();
      // Never NULL, by any declaration's word: `T *_Nonnull`, or
      // `__attribute__((nonnull))` on the parameter or (all of them, or
      // this one by index) on the function.
      for (const clang::FunctionDecl *r : fd->redecls()) {
        const clang::ParmVarDecl *d = i < r->getNumParams() ? r->getParamDecl(i) : nullptr;
        if (d && d->getType()->getNullability() == clang::NullabilityKind::NonNull) param.nonnull = true;
        if (d && d->hasAttr<clang::NonNullAttr>()) param.nonnull = true;
        for (const auto *a : r->specific_attrs<clang::NonNullAttr>())
          if (a->isNonNull(i)) param.nonnull = true;
      }
      const model::Type &t = program_.type(param.type);
      if (t.kind == model::TypeKind::Unsupported)
        return skipHere("parameter " + std::to_string(i + 1) + (param.name.empty() ? "" : " '" + param.name + "'") +
                        " has type '" + t.spelling + "': " + t.unsupportedReason);
      c.params.push_back(std::move(param));
    }
    if (c.variadic) formatOf(fd, c);
    c.result = types_.map(fd->getReturnType());
    c.parent = parent;
    c.origin = !code ? model::Origin::External : inMainFile(code) ? model::Origin::Unit : model::Origin::Header;
    c.internalLinkage = !fd->isExternallyVisible();
    c.linkageNames = linkageNames(*fd);
    c.cLinkage = fd->isExternC() || !ctx_.getLangOpts().CPlusPlus;
    c.isInline = fd->isInlined();
    c.isImplicit = fd->isImplicit();
    c.isTemplateInstance = fd->getTemplateSpecializationArgs() != nullptr;
    c.overloaded = isOverloaded(*fd);
    if (const auto *proto = fd->getType()->getAs<clang::FunctionProtoType>()) {
      // Implicit members have their exception specification computed lazily.
      if (clang::isUnresolvedExceptionSpec(proto->getExceptionSpecType()))
        proto = sema_.ResolveExceptionSpec(fd->getLocation(), proto);
      c.isNoexcept = proto && proto->isNothrow();
    }
    if (const auto *md = llvm::dyn_cast<clang::CXXMethodDecl>(fd)) {
      c.isConst = md->isConst();
      c.isVirtual = md->isVirtual();
      c.hasNonConstTwin = c.isConst && hasNonConstTwin(*md);
    }
    if (const auto *ctor = llvm::dyn_cast<clang::CXXConstructorDecl>(fd)) {
      c.isExplicit = ctor->isExplicit();
      c.isDefaultConstructor = ctor->isDefaultConstructor();
      c.isCopyConstructor = ctor->isCopyConstructor();
      c.isMoveConstructor = ctor->isMoveConstructor();
      c.result = types_.map(ctx_.VoidTy);
    }
    if (fd->isOverloadedOperator()) c.operatorSpelling = clang::getOperatorSpelling(fd->getOverloadedOperator());
    c.location = types_.rangeOf(fd->isImplicit() && parent ? types_.declOf(*parent)->getSourceRange()
                                                           : where->getSourceRange());
    if (code && code->hasBody()) c.constants = mineConstants(code->getBody(), ctx_);

    // The unique signature: name, parameter types, qualifiers.
    c.signature = c.qualifiedName + "(";
    for (size_t i = 0; i < c.params.size(); ++i)
      c.signature += (i ? ", " : "") + program_.type(c.params[i].type).spelling;
    c.signature += ")";
    if (c.isConst) c.signature += " const";
    if (const auto *md = llvm::dyn_cast<clang::CXXMethodDecl>(fd)) {
      if (md->getRefQualifier() == clang::RQ_LValue) c.signature += " &";
      if (md->getRefQualifier() == clang::RQ_RValue) c.signature += " &&";
    }

    assignParamRoles(*fd, c, program_, writes_);
    c.id = static_cast<model::CallableId>(program_.callables.size());
    decls_.push_back(fd);
    if (parent) {
      auto &rec = program_.records[*parent];
      (kind == model::CallableKind::Constructor ? rec.constructors : rec.methods).push_back(c.id);
    }
    program_.callables.push_back(std::move(c));
  }

  // A variable a test can leave changed for the next one, when its bytes
  // can be saved and restored (Program::state).
  void addState(const clang::VarDecl *v) {
    const clang::QualType t = v->getType();
    if (t.isConstQualified() || t->isReferenceType() || t->isIncompleteType() || t->isDependentType() ||
        !v->getIdentifier())
      return;
    if (ctx_.getLangOpts().CPlusPlus && !t.isTriviallyCopyableType(ctx_)) return;
    clang::PrintingPolicy policy(ctx_.getLangOpts());
    policy.SuppressUnwrittenScope = true; // anonymous namespaces: the unit's code names them plainly
    std::string name;
    llvm::raw_string_ostream os(name);
    v->printQualifiedName(os, policy);
    program_.state.push_back(os.str());
  }

  // The unit's own header: same file name as the unit, a header extension.
  bool inMainHeader(const clang::Decl *d) {
    const clang::FileID id = sm_.getFileID(sm_.getExpansionLoc(d->getLocation()));
    if (auto it = mainHeaderCache_.find(id); it != mainHeaderCache_.end()) return it->second;
    bool yes = false;
    if (auto ref = sm_.getFileEntryRefForID(id); ref && id != sm_.getMainFileID()) {
      const llvm::StringRef name = ref->getName();
      const bool header = isHeaderPath(name);
      const auto main = sm_.getFileEntryRefForID(sm_.getMainFileID());
      yes = header && main && llvm::sys::path::stem(name) == llvm::sys::path::stem(main->getName());
      if (yes && program_.mainHeader.empty())
        program_.mainHeader = sm_.getFileManager().getCanonicalName(*ref).str();
    }
    return mainHeaderCache_[id] = yes;
  }

  // A header of the project's interface: one its build installs, when the
  // build installs any; and whatever the build says, not one whose name
  // says otherwise.
  bool publicHeader(const clang::FileEntryRef &header) {
    const std::string path = header.getName().str();
    if (privateHeaderName(path)) return false;
    if (!installed_.known()) return true;
    auto it = publicHeaderCache_.find(path);
    if (it != publicHeaderCache_.end()) return it->second;
    const std::string canonical = sm_.getFileManager().getCanonicalName(header).str();
    return publicHeaderCache_[path] = installed_.installs(canonical);
  }

  // A header whose name says it is not the project's interface: a word
  // private, internal, int or impl (json_object_private.h, zstd_internal.h,
  // bn_int.h, node_impl.h). Ours.
  static bool privateHeaderName(llvm::StringRef path) {
    const std::string stem = llvm::sys::path::stem(path).str();
    for (const std::string &w : identifierWords(stem))
      if (w == "private" || w == "internal" || w == "int" || w == "impl" || w == "priv") return true;
    return false;
  }

  // A header of the project's (not a system one), which a test of the unit
  // includes: the unit's file-scope project includes are the suite's
  // (Program::unitIncludes), and what they include comes with them.
  // Not in a block the unit's macro switches on (Program::unitBlocks),
  // which the tests' include of the header leaves out.
  bool inProjectHeader(const clang::Decl *d) const {
    const clang::SourceLocation at = sm_.getExpansionLoc(d->getLocation());
    if (sm_.isInMainFile(at) || sm_.isInSystemHeader(at)) return false;
    const auto ref = sm_.getFileEntryRefForID(sm_.getFileID(at));
    if (!ref || !isHeaderPath(ref->getName())) return false;
    if (program_.unitBlocks.empty()) return true;
    const unsigned line = sm_.getExpansionLineNumber(at);
    return !program_.inUnitCode({sm_.getFileManager().getCanonicalName(*ref).str(), line, line});
  }

  // An explicit default visibility on `d` or on a class or namespace it is
  // in, written in the project (not in a system header: libstdc++ marks
  // namespace std): the project's own mark of what it exports (muParser's
  // API_EXPORT_CXX, yaml-cpp's YAML_CPP_API, as this build defines them);
  // or an export macro this build defines as nothing (msgpack-c's
  // MSGPACK_DLLEXPORT, EmptyExportMacros) on it or its class.
  bool exportMarked(const clang::Decl *d) const {
    for (; d; d = llvm::dyn_cast_or_null<clang::Decl>(d->getDeclContext())) {
      if (sm_.isInSystemHeader(sm_.getExpansionLoc(d->getLocation()))) return false;
      if (const auto *a = d->getAttr<clang::VisibilityAttr>()) return a->getVisibility() == clang::VisibilityAttr::Default;
      if ((llvm::isa<clang::FunctionDecl>(d) || llvm::isa<clang::RecordDecl>(d)) &&
          exportMacros_.marks(llvm::cast<clang::NamedDecl>(d)))
        return true;
      if (llvm::isa<clang::TranslationUnitDecl>(d)) break;
    }
    return false;
  }

  // A function compiled into the library (not inline, not a template's,
  // not static: each file that includes a header's static function compiles
  // its own, as msgpack-c's pack.h declares `static int msgpack_pack_int(...)`
  // and defines it inline elsewhere), which an export mark would have to
  // name for it to be the library's.
  static bool compiledIn(const clang::FunctionDecl *f) {
    if (f->isImplicit() || f->getTemplatedKind() != clang::FunctionDecl::TK_NonTemplate ||
        f->getFormalLinkage() == clang::Linkage::Internal)
      return false;
    for (const clang::FunctionDecl *r : f->redecls())
      if (r->isInlined()) return false;
    for (const clang::DeclContext *dc = f->getDeclContext(); dc; dc = dc->getParent())
      if (llvm::isa<clang::ClassTemplateSpecializationDecl>(dc)) return false;
    return true;
  }

  // Whether a declaration's documentation comment marks it with Doxygen's
  // `\internal` (or `@internal`): libexif's `/*! \internal */ void
  // exif_array_set_byte_order(...)`, beside "Please do not use this
  // function outside of the library."
  bool documentedInternal(const clang::FunctionDecl *f) const {
    for (const clang::FunctionDecl *r : f->redecls())
      if (const clang::RawComment *rc = ctx_.getRawCommentForDeclNoCache(r)) {
        const llvm::StringRef text = rc->getRawText(sm_);
        if (text.contains("\\internal") || text.contains("@internal")) return true;
      }
    return false;
  }

  // A record belongs to the unit when the unit or its main header defines
  // it, or the unit defines one of its members.
  void markOwnership() {
    for (const clang::FunctionDecl *f : collected_.functions) inMainHeader(f); // finds Program::mainHeader
    // When the project marks some of its functions or classes as exported,
    // one it declares in a header without the mark is its inside
    // (muParser's ParserByteCode beside the marked ParserBase), although
    // this build, without -fvisibility=hidden, exports it too.
    bool marksExports = false;
    for (const model::Callable &c : program_.callables)
      marksExports = marksExports || (inProjectHeader(decls_[c.id]) && exportMarked(decls_[c.id]));
    for (model::Callable &c : program_.callables) {
      bool inPublicHeader = false;
      for (const clang::FunctionDecl *r : decls_[c.id]->redecls()) {
        if (inMainHeader(r)) c.declaredInMainHeader = true;
        if (inProjectHeader(r)) {
          c.declaredInHeader = true;
          const auto header = sm_.getFileEntryRefForID(sm_.getFileID(sm_.getExpansionLoc(r->getLocation())));
          inPublicHeader |= header && publicHeader(*header);
        }
      }
      const clang::LinkageInfo lv = decls_[c.id]->getLinkageAndVisibility();
      const clang::FunctionDecl *f = decls_[c.id];
      const bool unmarked = marksExports && c.declaredInHeader && compiledIn(f) &&
                            std::none_of(f->redecls_begin(), f->redecls_end(),
                                         [&](const clang::FunctionDecl *r) { return exportMarked(r); });
      c.internalApi = (c.declaredInHeader && !inPublicHeader) || unmarked || documentedInternal(f) ||
                      (lv.getLinkage() == clang::Linkage::External && lv.getVisibility() == clang::HiddenVisibility);
    }
    for (model::Record &r : program_.records) {
      const clang::RecordDecl *rd = types_.declOf(r.id);
      r.ownedByUnit = !r.inSystemHeader && (inMainFile(rd) || inMainHeader(rd));
    }
    for (const model::Callable &c : program_.callables)
      if (c.parent && c.origin == model::Origin::Unit && !c.isImplicit) program_.records[*c.parent].ownedByUnit = true;
    // So does a member a test cannot call (a private one): yaml-cpp's
    // scantoken.cpp defines only Scanner's private Scan* methods, reached
    // through Scanner's public ones (defined in scanner.cpp).
    for (const model::Skipped &s : program_.skipped)
      if (s.parent && s.location.file == program_.unit) program_.records[*s.parent].ownedByUnit = true;
  }

  // A function's symbols: every variant of a constructor or destructor,
  // the one name of anything else. None for a template's pattern.
  std::vector<std::string> linkageNames(const clang::FunctionDecl &fd) {
    if (fd.isDependentContext()) return {};
    std::vector<std::string> out;
    if (llvm::isa<clang::CXXConstructorDecl>(fd) || llvm::isa<clang::CXXDestructorDecl>(fd))
      out = names_.getAllManglings(&fd);
    if (out.empty()) out.push_back(names_.getName(&fd));
    return out;
  }

  clang::ASTContext &ctx_;
  clang::Sema &sema_;
  const clang::SourceManager &sm_;
  const InstalledHeaders &installed_;
  EmptyExportMacros exportMacros_;
  std::map<std::string, bool> publicHeaderCache_;
  model::Program &program_;
  TypeMapper types_;
  WriteAnalysis writes_;
  Collector collected_;
  std::map<clang::FileID, bool> mainHeaderCache_;
  std::vector<const clang::FunctionDecl *> decls_; ///< by CallableId
  clang::ASTNameGenerator names_;
};

} // namespace

bool isHeaderPath(llvm::StringRef path) {
  const llvm::StringRef ext = llvm::sys::path::extension(path);
  return ext == ".h" || ext == ".hh" || ext == ".hpp" || ext == ".hxx" || ext == ".h++" || ext == ".H";
}

void buildModel(clang::ASTContext &ctx, clang::Sema &sema, const InstalledHeaders &installed,
                model::Program &program) {
  Builder(ctx, sema, installed, program).run();
}

} // namespace mosaic::analysis
