// Clang types -> model types (how each is spelt: TypeSpelling.cpp).
#include "TypeMapper.h"

#include "ParamRoles.h"
#include "PureVirtuals.h"
#include "TypeSpelling.h"
#include "mosaic/support/Text.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/QualTypeNames.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Sema/Sema.h>
#include <llvm/ADT/APFloat.h>

#include <optional>

namespace mosaic::analysis {

using model::TypeKind;

namespace {

model::Access accessOf(clang::AccessSpecifier a) {
  return a == clang::AS_private ? model::Access::Private
         : a == clang::AS_protected ? model::Access::Protected
                                    : model::Access::Public; // AS_public, and AS_none outside classes
}

clang::PrintingPolicy makePolicy(const clang::ASTContext &ctx) {
  clang::PrintingPolicy p(ctx.getLangOpts());
  // Spellings go into C++ test code, also for C units: `bool` not `_Bool`,
  // `__restrict` not `restrict`, no `(anonymous namespace)::` or inline
  // namespaces such as libstdc++'s `__cxx11::`.
  p.Bool = true;
  p.Restrict = false;
  p.SuppressUnwrittenScope = true;
  p.UseVoidForZeroParams = false;
  p.AnonymousTagLocations = false;
  p.SplitTemplateClosers = false;
  p.FullyQualifiedName = true;
  return p;
}

} // namespace

TypeMapper::TypeMapper(clang::ASTContext &ctx, clang::Sema &sema, model::Program &program)
    : ctx_(ctx), sema_(sema), program_(program), policy_(makePolicy(ctx)) {}

using namespace typenames;

model::TypeId TypeMapper::map(clang::QualType type) {
  const std::string spelling = spell(type);
  const std::string canonical = type.getCanonicalType().getAsString(policy_);
  const std::string key = spelling + '\x1f' + canonical;
  if (auto it = typeIds_.find(key); it != typeIds_.end()) return it->second;

  // Register first: the parts of a recursive type refer back to this id.
  const model::TypeId id = static_cast<model::TypeId>(program_.types.size());
  typeIds_.emplace(key, id);
  program_.types.emplace_back();

  model::Type t;
  t.id = id;
  t.spelling = spelling;
  t.canonical = canonical;
  if (!ctx_.getLangOpts().CPlusPlus) t.cxxSpelling = scopedForCxx(type, spelling);
  t.isConst = type.getCanonicalType().isConstQualified();
  const clang::SourceManager &sm = ctx_.getSourceManager();
  t.spelledInUnit = namesTypedef(type, [&](const clang::TypedefNameDecl *d) {
    const clang::SourceLocation at = sm.getExpansionLoc(d->getLocation());
    if (sm.isWrittenInMainFile(at) || sourceFileName(sm.getFilename(at).str())) return true;
    // Or in a header's block the unit switches on (xxhash.h's xxh_u64).
    const auto ref = program_.unitBlocks.empty() ? clang::OptionalFileEntryRef() : sm.getFileEntryRefForID(sm.getFileID(at));
    const unsigned line = sm.getExpansionLineNumber(at);
    return ref && program_.inUnitCode({sm.getFileManager().getCanonicalName(*ref).str(), line, line});
  });

  // Walk the sugar: each typedef or alias passed is recorded.
  clang::QualType cur = type;
  for (int guard = 0; guard < 64; ++guard) {
    const clang::Type *ty = cur.getTypePtr();
    if (const auto *td = llvm::dyn_cast<clang::TypedefType>(ty)) {
      t.aliases.push_back(qualifiedName(td->getDecl()));
      cur = td->desugar();
    } else if (const auto *ts = llvm::dyn_cast<clang::TemplateSpecializationType>(ty); ts && ts->isTypeAlias()) {
      t.aliases.push_back(spell(clang::QualType(ts, 0)));
      cur = ts->desugar();
    } else if (llvm::isa<clang::ElaboratedType, clang::ParenType, clang::AttributedType, clang::MacroQualifiedType,
                         clang::UsingType, clang::SubstTemplateTypeParmType>(ty)) {
      cur = ty->getLocallyUnqualifiedSingleStepDesugaredType();
    } else {
      break;
    }
  }

  classify(type, t);
  // The value type: what a variable of this type holds.
  t.value = id;
  if (t.kind == TypeKind::Reference) t.value = program_.types[*t.pointee].value;
  else if (type.hasQualifiers() || type.getCanonicalType().isConstQualified()) {
    const clang::QualType bare = type.getCanonicalType().isConstQualified() && !type.isLocalConstQualified()
                                     ? type.getCanonicalType().getUnqualifiedType()
                                     : type.getUnqualifiedType();
    if (bare != type) t.value = map(bare);
  }
  program_.types[id] = std::move(t);
  return id;
}

// Unsupported, and not even spellable in test code: no part of it is kept,
// and every type made of it is unspellable too.
void TypeMapper::markUnspellable(model::Type &t, std::string why) {
  unspellable_.insert(t.id);
  t.kind = TypeKind::Unsupported;
  t.unsupportedReason = std::move(why);
  t.pointee.reset();
  t.element.reset();
  t.key.reset();
}

void TypeMapper::classify(clang::QualType type, model::Type &t) {
  const clang::QualType canon = type.getCanonicalType();
  const clang::Type *ty = canon.getTypePtr();
  auto unsupported = [&](std::string why) {
    t.kind = TypeKind::Unsupported;
    t.unsupportedReason = std::move(why);
  };
  // Unsupported, and not even spellable in test code.
  auto unspellable = [&](std::string why) { markUnspellable(t, std::move(why)); };

  if (ty->isDependentType()) return unsupported("dependent type (uninstantiated template)");
  if (isVaList(canon)) return unsupported("va_list: the arguments of a variadic call cannot be built");
  if (const auto *bt = llvm::dyn_cast<clang::BuiltinType>(ty)) return classifyBuiltin(bt, t);
  if (const auto *et = llvm::dyn_cast<clang::EnumType>(ty)) {
    t.kind = TypeKind::Enum;
    t.bits = static_cast<unsigned>(ctx_.getTypeSize(canon));
    t.isSigned = et->getDecl()->getIntegerType()->isSignedIntegerOrEnumerationType();
    if (!et->getDecl()->getIdentifier() && !et->getDecl()->getTypedefNameForAnonDecl())
      return unspellable("anonymous enum cannot be named in a test");
    // Like a class: one nested in a private or protected section (yaml-cpp's
    // Stream::CharacterSet) cannot be named from a test.
    if (std::string why = hiddenSection(et->getDecl()); !why.empty()) return unspellable("enum " + why);
    t.enumId = enumFor(et->getDecl());
    return;
  }
  if (ty->isPointerType()) {
    const clang::QualType pointee = type->getPointeeType();
    if (pointee->isFunctionType()) {
      t.kind = TypeKind::FunctionPointer;
      t.signature = signatureOf(pointee->getAs<clang::FunctionType>());
      return;
    }
    t.kind = TypeKind::Pointer;
    t.pointeeConst = pointee.isConstQualified();
    t.pointee = map(pointee);
    if (unspellable_.count(*t.pointee)) return unspellable("points to a type a test cannot name: " +
                                                          program_.types[*t.pointee].unsupportedReason);
    return;
  }
  if (ty->isReferenceType()) {
    const clang::QualType pointee = type->getPointeeType();
    if (pointee->isFunctionType()) return unsupported("reference to a function");
    t.kind = TypeKind::Reference;
    t.isRvalue = ty->isRValueReferenceType();
    t.pointeeConst = pointee.isConstQualified();
    t.pointee = map(pointee);
    if (unspellable_.count(*t.pointee)) return unspellable("refers to a type a test cannot name: " +
                                                          program_.types[*t.pointee].unsupportedReason);
    return;
  }
  if (const auto *at = ctx_.getAsConstantArrayType(type)) {
    t.kind = TypeKind::Array;
    t.length = at->getZExtSize();
    t.element = map(at->getElementType());
    if (unspellable_.count(*t.element)) return unspellable("array of a type a test cannot name: " +
                                                          program_.types[*t.element].unsupportedReason);
    return;
  }
  if (ty->isIncompleteArrayType()) return unsupported("array of unknown size");
  if (ty->isVariableArrayType()) return unsupported("variable-length array");
  if (const auto *rt = llvm::dyn_cast<clang::RecordType>(ty)) return classifyRecord(type, rt->getDecl(), t);
  if (ty->isMemberPointerType()) return unsupported("pointer to member");
  if (ty->isVectorType() || ty->isExtVectorType()) return unsupported("SIMD vector type");
  if (ty->isAnyComplexType()) return unsupported("complex number type");
  if (ty->isAtomicType()) return unsupported("_Atomic type");
  if (ty->isBitIntType()) return unsupported("_BitInt type");
  if (ty->isFunctionType()) return unsupported("function type");
  if (ty->isBlockPointerType()) return unsupported("block pointer");
  unsupported(std::string("type class ") + ty->getTypeClassName() + " is not modelled");
}

void TypeMapper::classifyBuiltin(const clang::BuiltinType *bt, model::Type &t) {
  using clang::BuiltinType;
  const clang::QualType q(bt, 0);
  switch (bt->getKind()) {
  case BuiltinType::Void:
    t.kind = TypeKind::Void;
    return;
  case BuiltinType::Bool:
    t.kind = TypeKind::Bool;
    t.bits = static_cast<unsigned>(ctx_.getTypeSize(q));
    return;
  case BuiltinType::Char_S:
  case BuiltinType::Char_U:
    t.kind = TypeKind::Char;
    t.bits = 8;
    t.isSigned = bt->getKind() == BuiltinType::Char_S;
    return;
  case BuiltinType::Float:
  case BuiltinType::Double:
  case BuiltinType::LongDouble:
    t.kind = TypeKind::Floating;
    // Width of the value, not of its storage: x87 long double is 80 bits in 128.
    t.bits = llvm::APFloat::semanticsSizeInBits(ctx_.getFloatTypeSemantics(q));
    t.isSigned = true;
    return;
  case BuiltinType::NullPtr:
    t.kind = TypeKind::Unsupported;
    t.unsupportedReason = "std::nullptr_t";
    return;
  default:
    break;
  }
  if (bt->isInteger()) {
    t.kind = TypeKind::Integer;
    t.bits = static_cast<unsigned>(ctx_.getTypeSize(q));
    t.isSigned = bt->isSignedInteger();
    return;
  }
  t.kind = TypeKind::Unsupported;
  t.unsupportedReason = std::string("builtin type '") + bt->getName(policy_).str() + "'";
}

std::string TypeMapper::unnameableReason(const clang::RecordDecl *rd) const {
  if (const auto *cxx = llvm::dyn_cast<clang::CXXRecordDecl>(rd); cxx && cxx->isLambda())
    return "lambda closure type";
  // An instantiation over a type a test cannot name cannot be named either.
  if (const auto *spec = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(rd)) {
    for (const auto &a : spec->getTemplateArgs().asArray()) {
      if (a.getKind() != clang::TemplateArgument::Type) continue;
      clang::QualType arg = a.getAsType().getCanonicalType();
      while (!arg.isNull() && (arg->isPointerType() || arg->isReferenceType() || arg->isArrayType()))
        arg = arg->isArrayType() ? clang::QualType(arg->getArrayElementTypeNoTypeQual(), 0) : arg->getPointeeType();
      if (const clang::RecordDecl *inner = arg.isNull() ? nullptr : arg->getAsRecordDecl(); inner && inner != rd)
        if (std::string why = unnameableReason(inner); !why.empty()) return "template argument " + qualifiedName(inner) + ": " + why;
    }
  }
  // Nor a class nested in one a test cannot name (re2's
  // SparseArray<NFA::Thread *>::IndexValue, in a template over a private
  // class). In C a nested struct's tag is in the enclosing scope: no matter.
  if (const auto *outer = llvm::dyn_cast<clang::RecordDecl>(rd->getDeclContext());
      outer && ctx_.getLangOpts().CPlusPlus)
    if (std::string why = unnameableReason(outer); !why.empty()) return "in " + qualifiedName(outer) + ": " + why;
  if (!rd->getIdentifier() && !rd->getTypedefNameForAnonDecl())
    return std::string("anonymous ") + rd->getKindName().str() + " cannot be named in a test";
  if (rd->getParentFunctionOrMethod()) return "declared inside a function";
  // A class nested in a private or protected section cannot be named from a test.
  return hiddenSection(rd);
}

void TypeMapper::classifyRecord(clang::QualType type, const clang::RecordDecl *rd, model::Type &t) {
  auto unspellable = [&](std::string why) { markUnspellable(t, std::move(why)); };
  // Before the std templates: `std::unique_ptr<Group>` over a private
  // nested class (yaml-cpp's EmitterState::Group) cannot be written either.
  if (std::string why = unnameableReason(rd); !why.empty()) return unspellable(why);
  if (const auto *spec = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(rd);
      spec && rd->isInStdNamespace()) {
    if (classifyStd(type, spec, t)) {
      for (const auto &part : {t.element, t.key})
        if (part && unspellable_.count(*part))
          return unspellable("holds a type a test cannot name: " + program_.types[*part].unsupportedReason);
      return;
    }
  }
  if (rd->isInStdNamespace()) {
    t.kind = TypeKind::Unsupported;
    t.unsupportedReason = "std::" + rd->getNameAsString() + " is not modelled yet";
    return;
  }
  t.kind = TypeKind::Record;
  t.recordId = recordFor(rd);
}

// std types, by template name. The element types are taken from the type as
// written where it has arguments (so `std::vector<std::string>` keeps
// `std::string`), else from the canonical specialisation.
bool TypeMapper::classifyStd(clang::QualType type, const clang::ClassTemplateSpecializationDecl *spec,
                             model::Type &t) {
  const std::string name = spec->getName().str();
  const auto &canonArgs = spec->getTemplateArgs();
  llvm::SmallVector<clang::QualType, 4> argTypes;
  if (const auto *tst = type->getAs<clang::TemplateSpecializationType>();
      tst && tst->getTemplateName().getAsTemplateDecl() == spec->getSpecializedTemplate()) {
    for (const auto &a : tst->template_arguments())
      if (a.getKind() == clang::TemplateArgument::Type) argTypes.push_back(a.getAsType());
  }
  for (unsigned i = argTypes.size(); i < canonArgs.size(); ++i)
    if (canonArgs[i].getKind() == clang::TemplateArgument::Type) argTypes.push_back(canonArgs[i].getAsType());
  auto arg = [&](unsigned i) { return i < argTypes.size() ? argTypes[i] : clang::QualType(); };
  auto isChar = [&](unsigned i) {
    if (i >= canonArgs.size() || canonArgs[i].getKind() != clang::TemplateArgument::Type) return false;
    const clang::QualType a = canonArgs[i].getAsType();
    return a->isSpecificBuiltinType(clang::BuiltinType::Char_S) || a->isSpecificBuiltinType(clang::BuiltinType::Char_U);
  };

  // Strings, and the streams a unit reads or writes (yaml-cpp's
  // Scanner(std::istream &), Emitter(std::ostream &)): of char only.
  static const std::map<std::string, TypeKind> ofChar{{"basic_string", TypeKind::String},
                                                      {"basic_string_view", TypeKind::StringView},
                                                      {"basic_istream", TypeKind::InputStream},
                                                      {"basic_ostream", TypeKind::OutputStream}};
  if (auto k = ofChar.find(name); k != ofChar.end()) {
    if (!isChar(0)) {
      t.kind = TypeKind::Unsupported;
      t.unsupportedReason = "std::" + name + " of a character type other than char";
      return true;
    }
    t.kind = k->second;
    return true;
  }
  if (name == "vector" || name == "optional" || name == "unique_ptr" || name == "shared_ptr") {
    const clang::QualType e = arg(0);
    if (e.isNull()) return false;
    if (e->isArrayType()) {
      t.kind = TypeKind::Unsupported;
      t.unsupportedReason = "std::" + name + " of an array type";
      return true;
    }
    t.kind = name == "vector"       ? TypeKind::Vector
             : name == "optional"   ? TypeKind::Optional
             : name == "unique_ptr" ? TypeKind::UniquePtr
                                    : TypeKind::SharedPtr;
    t.element = map(e);
    return true;
  }
  if (name == "array") {
    if (canonArgs.size() < 2 || canonArgs[1].getKind() != clang::TemplateArgument::Integral || arg(0).isNull())
      return false;
    t.kind = TypeKind::StdArray;
    t.element = map(arg(0));
    t.length = canonArgs[1].getAsIntegral().getZExtValue();
    return true;
  }
  if (name == "map" || name == "unordered_map") {
    if (arg(0).isNull() || arg(1).isNull()) return false;
    t.kind = name == "map" ? TypeKind::Map : TypeKind::UnorderedMap;
    t.key = map(arg(0));
    t.element = map(arg(1));
    return true;
  }
  if (name == "pair" || name == "tuple") {
    t.kind = name == "pair" ? TypeKind::Pair : TypeKind::Tuple;
    // A tuple's arguments are one pack in the canonical specialisation.
    std::vector<clang::QualType> elems;
    for (const auto &a : canonArgs.asArray()) {
      if (a.getKind() == clang::TemplateArgument::Pack) {
        for (const auto &p : a.pack_elements()) elems.push_back(p.getAsType());
      } else if (a.getKind() == clang::TemplateArgument::Type) {
        elems.push_back(a.getAsType());
      }
    }
    if (name == "pair")
      for (unsigned i = 0; i < elems.size() && i < argTypes.size(); ++i) elems[i] = argTypes[i];
    for (clang::QualType e : elems) t.elements.push_back(map(e));
    return true;
  }
  if (name == "function") {
    const clang::QualType f = arg(0);
    if (f.isNull() || !f->isFunctionType()) return false;
    t.kind = TypeKind::StdFunction;
    t.signature = signatureOf(f->getAs<clang::FunctionType>());
    return true;
  }
  return false;
}

model::Signature TypeMapper::signatureOf(const clang::FunctionType *fn) {
  model::Signature s;
  s.result = map(fn->getReturnType());
  if (const auto *proto = llvm::dyn_cast<clang::FunctionProtoType>(fn)) {
    for (clang::QualType p : proto->getParamTypes()) s.params.push_back(map(p));
    s.variadic = proto->isVariadic();
  } else {
    s.variadic = true; // K&R `int (*)()`: any arguments
  }
  return s;
}

model::EnumId TypeMapper::enumFor(const clang::EnumDecl *decl) {
  const clang::EnumDecl *canon = decl->getCanonicalDecl();
  if (auto it = enumIds_.find(canon); it != enumIds_.end()) return it->second;
  const clang::EnumDecl *def = decl->getDefinition() ? decl->getDefinition() : decl;
  const auto id = static_cast<model::EnumId>(program_.enums.size());
  enumIds_.emplace(canon, id);
  program_.enums.emplace_back();

  model::Enum e;
  e.id = id;
  e.name = qualifiedName(def);
  if (e.name.empty() || !def->getIdentifier()) {
    if (const auto *td = def->getTypedefNameForAnonDecl()) e.name = qualifiedName(td);
  }
  e.scoped = def->isScoped();
  e.underlying = map(def->getIntegerType().isNull() ? ctx_.IntTy : def->getIntegerType());
  e.location = rangeOf(def->getSourceRange());
  for (const clang::EnumConstantDecl *c : def->enumerators()) {
    model::Enumerator en;
    en.name = qualifiedName(c);
    const llvm::APSInt &v = c->getInitVal();
    en.value = v.getBitWidth() <= 64 ? (v.isSigned() ? v.getSExtValue() : static_cast<std::int64_t>(v.getZExtValue()))
                                     : v.trunc(64).getSExtValue();
    e.enumerators.push_back(std::move(en));
  }
  program_.enums[id] = std::move(e);
  return id;
}

std::optional<model::RecordId> TypeMapper::recordFor(const clang::RecordDecl *decl) {
  if (!unnameableReason(decl).empty()) return std::nullopt;
  const auto *canon = llvm::cast<clang::RecordDecl>(decl->getCanonicalDecl());
  if (auto it = recordIds_.find(canon); it != recordIds_.end()) return it->second;
  const auto id = static_cast<model::RecordId>(program_.records.size());
  recordIds_.emplace(canon, id);
  program_.records.emplace_back();
  const clang::RecordDecl *def = decl->getDefinition() ? decl->getDefinition() : decl;
  recordDecls_.push_back(def);
  fillRecord(id, def); // may add records of its own (fields, bases)
  // Its own type (interned now if no parameter named it yet).
  const model::TypeId type = map(ctx_.getRecordType(def));
  program_.records[id].type = type;
  return id;
}

// Whether a declaration of `rd` (or, for an instantiation, of its template)
// is outside the main file and the source files it includes as parts of
// itself (lzo1x_9x.c's lzo_swd.ch; sourceFileName): then the test files,
// which include the unit's headers, see the name.
bool TypeMapper::declaredOutsideUnit(const clang::RecordDecl *rd) const {
  const clang::SourceManager &sm = ctx_.getSourceManager();
  auto outside = [&](const clang::Decl *d) {
    if (d->getLocation().isInvalid()) return false;
    const clang::SourceLocation at = sm.getExpansionLoc(d->getLocation());
    if (sm.isInMainFile(at) || sourceFileName(sm.getFilename(at).str())) return false;
    // Nor in a block of a header that the unit's macro switches on.
    const auto ref = sm.getFileEntryRefForID(sm.getFileID(at));
    const unsigned line = sm.getExpansionLineNumber(at);
    return !ref || !program_.inUnitCode({sm.getFileManager().getCanonicalName(*ref).str(), line, line});
  };
  for (const clang::TagDecl *r : rd->redecls())
    if (outside(r)) return true;
  if (const auto *spec = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(rd))
    for (const clang::RedeclarableTemplateDecl *t : spec->getSpecializedTemplate()->redecls())
      if (outside(t)) return true;
  return false;
}

void TypeMapper::fillRecord(model::RecordId id, const clang::RecordDecl *rd) {
  const clang::SourceManager &sm = ctx_.getSourceManager();
  model::Record r;
  r.id = id;
  r.name = qualifiedName(rd);
  r.tag = rd->isUnion() ? model::RecordTag::Union
          : rd->isClass() ? model::RecordTag::Class
                          : model::RecordTag::Struct;
  r.complete = rd->isCompleteDefinition();
  // Builtin records (__va_list_tag) have no location: treat them as system.
  r.inSystemHeader = rd->getLocation().isInvalid() || sm.isInSystemHeader(rd->getLocation());
  r.location = rangeOf(rd->getSourceRange());
  r.declaredOutsideUnit = declaredOutsideUnit(rd);
  const auto *cxx = llvm::dyn_cast<clang::CXXRecordDecl>(rd);
  r.isCxx = cxx != nullptr && ctx_.getLangOpts().CPlusPlus;

  if (const auto *spec = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(cxx)) {
    r.templateName = qualifiedName(spec->getSpecializedTemplate());
    for (const auto &a : spec->getTemplateArgs().asArray()) {
      std::string s;
      llvm::raw_string_ostream os(s);
      a.print(policy_, os, /*IncludeType=*/true);
      r.templateArgs.push_back(resugarStd(s));
    }
  }

  if (!r.complete) {
    // Opaque: only a factory or a pointer from elsewhere can give one.
    program_.records[id] = std::move(r);
    return;
  }

  if (r.isCxx) {
    auto *mut = const_cast<clang::CXXRecordDecl *>(cxx);
    // Implicit constructors exist in the AST only once used; declare them so
    // that "how to obtain one" sees the copy and move constructors too.
    sema_.ForceDeclarationOfImplicitMembers(mut);
    r.aggregate = cxx->isAggregate();
    r.abstract = cxx->isAbstract();
    r.polymorphic = cxx->isPolymorphic();
    for (const clang::CXXConstructorDecl *c : cxx->ctors()) {
      if (c->isDeleted() || c->getAccess() != clang::AS_public || !linkable(c)) continue;
      if (c->getMinRequiredArguments() == 0) r.defaultConstructible = true;
      if (c->isCopyConstructor()) r.copyConstructible = true;
      if (c->isMoveConstructor() || (c->isCopyConstructor() && c->getParamDecl(0)->getType().getNonReferenceType().isConstQualified()))
        r.moveConstructible = true;
    }
    if (r.abstract) {
      r.defaultConstructible = r.copyConstructible = r.moveConstructible = false;
      if (!r.inSystemHeader) collectPureVirtuals(*this, cxx, r);
    }
    if (const clang::CXXDestructorDecl *d = cxx->getDestructor())
      r.publicDestructor = d->getAccess() == clang::AS_public && !d->isDeleted();
  } else {
    // A C struct or union: brace-initialisable, copyable, zero-initialisable.
    r.aggregate = r.defaultConstructible = r.copyConstructible = r.moveConstructible = true;
  }

  // Fields. A system header's C++ class keeps its internals to itself; its
  // C structs (struct tm, struct timeval) are listed because tests fill them.
  const bool listFields = !r.inSystemHeader || !r.isCxx || (cxx && cxx->isCLike());
  if (listFields) {
    for (const clang::FieldDecl *f : rd->fields()) {
      model::Field field;
      field.name = f->getNameAsString();
      field.access = accessOf(f->getAccess());
      if (f->isBitField()) field.bitWidth = f->getBitWidthValue(ctx_);
      field.type = map(f->getType());
      r.fields.push_back(std::move(field));
    }
    if (cxx) {
      for (const clang::Decl *d : cxx->decls()) {
        const auto *v = llvm::dyn_cast<clang::VarDecl>(d);
        if (!v || !v->isStaticDataMember()) continue;
        model::Field field;
        field.name = v->getNameAsString();
        field.isStatic = true;
        field.access = accessOf(v->getAccess());
        field.type = map(v->getType());
        r.fields.push_back(std::move(field));
      }
    }
  }
  pairFields(r, program_);
  if (cxx && !r.inSystemHeader) {
    for (const clang::CXXBaseSpecifier &b : cxx->bases()) {
      if (b.getAccessSpecifier() != clang::AS_public) continue;
      if (const clang::CXXRecordDecl *base = b.getType()->getAsCXXRecordDecl(); base && !base->isInStdNamespace())
        if (auto bid = recordFor(base)) r.bases.push_back(*bid);
    }
  }
  program_.records[id] = std::move(r);
}

} // namespace mosaic::analysis

