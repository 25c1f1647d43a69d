// How test code spells a Clang type (TypeMapper's spell, qualify,
// qualifiedName, linkable, and the helpers of TypeSpelling.h).
#include "TypeMapper.h"
#include "TypeSpelling.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/QualTypeNames.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Sema/Sema.h>

#include <algorithm>
#include <cctype>
#include <optional>

namespace mosaic::analysis {

namespace {

// Whether `decide` says yes of some part of `type` as written. It is asked
// of each layer, outermost first, and answers yes, no (stop here) or
// nullopt (look inside: through sugar, pointers, references, arrays and
// template type arguments).
template <class Decide> bool anyWrittenPart(clang::QualType type, const Decide &decide, int depth = 0) {
  if (type.isNull() || depth > 16) return false;
  const clang::Type *t = type.getTypePtr();
  if (const std::optional<bool> answer = decide(t)) return *answer;
  if (const auto *tst = llvm::dyn_cast<clang::TemplateSpecializationType>(t)) {
    for (const auto &a : tst->template_arguments()) {
      if (a.getKind() == clang::TemplateArgument::Type && anyWrittenPart(a.getAsType(), decide, depth + 1)) return true;
      if (a.getKind() == clang::TemplateArgument::Pack)
        for (const auto &e : a.pack_elements())
          if (e.getKind() == clang::TemplateArgument::Type && anyWrittenPart(e.getAsType(), decide, depth + 1))
            return true;
    }
    return false;
  }
  // Sugar first: isPointerType() looks through a typedef.
  // A decayed array parameter (AdjustedType) is printed as what it decayed
  // to: zstd_v02.c's `rankVal_t` as `U32 (*)[17]`, with the unit's U32.
  if (llvm::isa<clang::ElaboratedType, clang::ParenType, clang::AttributedType, clang::MacroQualifiedType,
                clang::UsingType, clang::AdjustedType>(t))
    return anyWrittenPart(t->getLocallyUnqualifiedSingleStepDesugaredType(), decide, depth + 1);
  if (llvm::isa<clang::PointerType, clang::ReferenceType>(t)) return anyWrittenPart(t->getPointeeType(), decide, depth + 1);
  if (const auto *a = llvm::dyn_cast<clang::ArrayType>(t)) return anyWrittenPart(a->getElementType(), decide, depth + 1);
  return false;
}

// Whether a function type appears in `type` other than behind a typedef:
// getFullyQualifiedName leaves the types inside it as written (`Item` for
// `shop::Item`), which would not compile outside the namespace.
// Also true for template arguments written as expressions (`sizeof(Elem)`),
// which are printed as written, unqualified: the canonical type has the value.
bool hasBareFunctionType(clang::QualType type) {
  return anyWrittenPart(type, [](const clang::Type *t) -> std::optional<bool> {
    if (llvm::isa<clang::TypedefType>(t)) return false;
    if (llvm::isa<clang::FunctionType>(t)) return true;
    if (const auto *tst = llvm::dyn_cast<clang::TemplateSpecializationType>(t))
      for (const auto &a : tst->template_arguments())
        if (a.getKind() == clang::TemplateArgument::Expression) return true;
    return std::nullopt;
  });
}

// Whether `type` is written with an alias template's specialization, or
// with a specialization over a parameter pack (fmt's make_format_args
// returns `format_arg_store<Context, remove_cvref_t<Args>...>`, and
// `format_string_checker<Char, ErrorHandler, Args...>` is one):
// getFullyQualifiedType leaves the alias's arguments and the pack's types
// as substituted, unqualified (`basic_string_view<char>` outside namespace
// fmt); the canonical type prints each with its scope.
bool packArgument(const clang::TemplateArgument &a) {
  return a.getKind() == clang::TemplateArgument::Pack && a.pack_size() > 0;
}

// Whether `type` is a class template's specialization with a non-empty
// pack among its arguments (however it is written: the injected class name
// of its own move constructor's `format_string_checker &&` too).
bool packSpecialization(clang::QualType type) {
  const auto *spec =
      llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(type->getAsCXXRecordDecl());
  return spec && std::any_of(spec->getTemplateArgs().asArray().begin(), spec->getTemplateArgs().asArray().end(),
                             packArgument);
}

bool namesAliasOrPack(clang::QualType type) {
  return anyWrittenPart(type, [](const clang::Type *t) -> std::optional<bool> {
    if (const auto *tst = llvm::dyn_cast<clang::TemplateSpecializationType>(t)) {
      if (tst->isTypeAlias()) return true;
      if (std::any_of(tst->template_arguments().begin(), tst->template_arguments().end(), packArgument)) return true;
    }
    return std::nullopt;
  });
}


// A typedef only its class may use (double-conversion's `Bignum::Chunk`).
bool hiddenTypedef(const clang::TypedefNameDecl *d) {
  return d->getAccess() == clang::AS_private || d->getAccess() == clang::AS_protected;
}

// A typedef declared in a class: getFullyQualifiedName leaves its scope
// partly unqualified (pugixml's `auto_deleter<void>::D` inside pugi::impl).
bool memberTypedef(const clang::TypedefNameDecl *d) { return d->getDeclContext()->isRecord(); }


} // namespace

namespace typenames {

std::string resugarStd(std::string s) {
  static constexpr std::pair<std::string_view, std::string_view> kNames[] = {
      {"std::basic_string<char, std::char_traits<char>, std::allocator<char>>", "std::string"},
      {"std::basic_string<char>", "std::string"},
      {"std::basic_string_view<char, std::char_traits<char>>", "std::string_view"},
      {"std::basic_string_view<char>", "std::string_view"},
  };
  for (auto [from, to] : kNames)
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
      s.replace(at, from.size(), to);
  return s;
}

bool namesTypedef(clang::QualType type, llvm::function_ref<bool(const clang::TypedefNameDecl *)> pred) {
  return anyWrittenPart(type, [&](const clang::Type *t) -> std::optional<bool> {
    if (const auto *td = llvm::dyn_cast<clang::TypedefType>(t)) return pred(td->getDecl());
    return std::nullopt;
  });
}

std::string hiddenSection(const clang::Decl *decl) {
  for (const clang::DeclContext *dc = llvm::dyn_cast<clang::DeclContext>(decl); dc && !dc->isFileContext();
       dc = dc->getParent()) {
    const auto *d = llvm::dyn_cast<clang::Decl>(dc);
    // A specialization of a member class template has the access of the
    // template it specializes (taglib's List<T>::ListPrivate<TP>, declared
    // private): its own is none.
    if (const auto *spec = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(d);
        spec && spec->getAccess() == clang::AS_none)
      d = spec->getSpecializedTemplate();
    if (d && d->getAccess() != clang::AS_public && d->getAccess() != clang::AS_none)
      return std::string("nested in a ") + (d->getAccess() == clang::AS_private ? "private" : "protected") + " section";
  }
  return {};
}

std::string scopedForCxx(clang::QualType type, const std::string &spelling) {
  for (int guard = 0; guard < 32 && !type.isNull(); ++guard) {
    const clang::Type *t = type.getTypePtr();
    if (const auto *e = llvm::dyn_cast<clang::ElaboratedType>(t)) type = e->getNamedType();
    else if (const auto *p = llvm::dyn_cast<clang::ParenType>(t)) type = p->getInnerType();
    else break;
  }
  const auto *tt = type.isNull() ? nullptr : llvm::dyn_cast<clang::RecordType>(type.getTypePtr());
  if (!tt || !tt->getDecl()->getIdentifier()) return "";
  const clang::RecordDecl *rd = tt->getDecl();
  std::string scope;
  for (const auto *outer = llvm::dyn_cast<clang::RecordDecl>(rd->getLexicalDeclContext()); outer;
       outer = llvm::dyn_cast<clang::RecordDecl>(outer->getLexicalDeclContext())) {
    const clang::NamedDecl *named = outer->getIdentifier() ? static_cast<const clang::NamedDecl *>(outer)
                                                            : outer->getTypedefNameForAnonDecl();
    if (!named) return "";
    scope = named->getName().str() + "::" + scope;
  }
  if (scope.empty()) return "";
  const std::string written = rd->getKindName().str() + " " + rd->getName().str();
  auto wordChar = [&](size_t i) { return std::isalnum(static_cast<unsigned char>(spelling[i])) || spelling[i] == '_'; };
  for (size_t at = spelling.find(written); at != std::string::npos; at = spelling.find(written, at + 1)) {
    const size_t end = at + written.size();
    if ((at == 0 || !wordChar(at - 1)) && (end == spelling.size() || !wordChar(end)))
      return spelling.substr(0, at) + rd->getKindName().str() + " " + scope + rd->getName().str() + spelling.substr(end);
  }
  return "";
}


} // namespace typenames

using namespace typenames;

std::string TypeMapper::spell(clang::QualType type) const {
  // The canonical type prints every record with its scope; it is used where
  // a bare function type, an alias template's arguments or a pack's would otherwise
  // lose the qualification, and where the written type names a typedef
  // only its class may use.
  if (hasBareFunctionType(type) || namesTypedef(type, hiddenTypedef) || namesAliasOrPack(type))
    return resugarStd(type.getCanonicalType().getAsString(policy_));
  // A class's own typedef, as the type itself: by its qualified name
  // (`pugi::impl::utf8_counter::value_type`); inside another type, by what
  // it stands for.
  clang::QualType bare = type;
  while (const auto *e = llvm::dyn_cast<clang::ElaboratedType>(bare.getTypePtr()))
    bare = clang::QualType(e->getNamedType().getTypePtr(), bare.getLocalFastQualifiers() |
                                                             e->getNamedType().getLocalFastQualifiers());
  // A typedef of a class template's pattern, not of a specialization
  // (re2's `SparseSetT::iterator`, from inside SparseSetT<Value>): no name
  // outside the template reaches it without arguments; what it stands for.
  if (const auto *td = llvm::dyn_cast<clang::TypedefType>(bare.getTypePtr());
      td && memberTypedef(td->getDecl()) && td->getDecl()->getDeclContext()->isDependentContext() &&
      !type->isDependentType())
    return resugarStd(type.getCanonicalType().getAsString(policy_));
  if (const auto *td = llvm::dyn_cast<clang::TypedefType>(bare.getTypePtr()); td && memberTypedef(td->getDecl())) {
    std::string out = bare.getLocalQualifiers().getAsString(policy_);
    return resugarStd((out.empty() ? "" : out + " ") + qualifiedName(td->getDecl()));
  }
  if (namesTypedef(type, memberTypedef)) return resugarStd(type.getCanonicalType().getAsString(policy_));
  return resugarStd(qualify(type).getAsString(policy_));
}

// getFullyQualifiedType leaves parts as written where it does not recurse:
// an array's element (`Chunk[128]` inside class Bignum), a decayed array
// parameter (`xpath_ast_node **`), a class or enum named from inside its
// scope (`xpath_parser::binary_op_t` in pugi::impl). Pointers, references
// and arrays are rebuilt around their qualified parts here; a class or enum
// is its canonical type, which prints with its whole scope.
clang::QualType TypeMapper::qualify(clang::QualType type, int depth) const {
  if (type.isNull() || depth > 16) return type;
  const clang::Qualifiers q = type.getLocalQualifiers();
  const clang::Type *t = type.getTypePtr();
  auto with = [&](clang::QualType inner) { return ctx_.getQualifiedType(inner, q); };
  if (const auto *d = llvm::dyn_cast<clang::DecayedType>(t)) return with(qualify(d->getDecayedType(), depth + 1));
  if (const auto *p = llvm::dyn_cast<clang::ParenType>(t)) return with(qualify(p->getInnerType(), depth + 1));
  // decltype(expr) prints its expression as written, names unqualified
  // (fmt's has_const_formatter_impl returns `decltype(typename
  // basic_format_context<appender, char>::formatter_type<int>()..., true)`):
  // once resolved it is the type the expression has (bool).
  if (const auto *d = llvm::dyn_cast<clang::DecltypeType>(t); d && !d->isDependentType())
    return with(qualify(d->getUnderlyingType(), depth + 1));
  if (const auto *d = llvm::dyn_cast<clang::TypeOfExprType>(t); d && !d->isDependentType())
    return with(qualify(d->getUnderlyingExpr()->getType(), depth + 1));
  if (const auto *p = llvm::dyn_cast<clang::PointerType>(t))
    return with(ctx_.getPointerType(qualify(p->getPointeeType(), depth + 1)));
  if (const auto *r = llvm::dyn_cast<clang::LValueReferenceType>(t))
    return with(ctx_.getLValueReferenceType(qualify(r->getPointeeType(), depth + 1)));
  if (const auto *r = llvm::dyn_cast<clang::RValueReferenceType>(t))
    return with(ctx_.getRValueReferenceType(qualify(r->getPointeeType(), depth + 1)));
  if (const auto *a = llvm::dyn_cast<clang::ConstantArrayType>(t))
    return with(ctx_.getConstantArrayType(qualify(a->getElementType(), depth + 1), a->getSize(), nullptr,
                                          a->getSizeModifier(), a->getIndexTypeCVRQualifiers()));
  if (const auto *a = llvm::dyn_cast<clang::IncompleteArrayType>(t))
    return with(ctx_.getIncompleteArrayType(qualify(a->getElementType(), depth + 1), a->getSizeModifier(),
                                            a->getIndexTypeCVRQualifiers()));
  // A specialization over a pack: getFullyQualifiedType leaves the pack's
  // types as substituted, unqualified (namesAliasOrPack).
  if (packSpecialization(type)) return with(ctx_.getCanonicalType(type.getLocalUnqualifiedType()));
  clang::QualType named = type;
  if (const auto *e = llvm::dyn_cast<clang::ElaboratedType>(t)) named = e->getNamedType();
  if (const auto *tag = llvm::dyn_cast<clang::TagType>(named.getTypePtr());
      tag && ctx_.getLangOpts().CPlusPlus && !llvm::isa<clang::TemplateSpecializationType>(named.getTypePtr())) {
    // An explicit specialization or instantiation prints its arguments as
    // its declaration wrote them, in its own namespace (yaml-cpp's
    // `template <> struct convert<Node>` inside YAML); outside it only the
    // canonical ones name it (`YAML::convert<YAML::Node>`).
    if (const auto *spec = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(tag->getDecl());
        spec && spec->getTemplateArgsAsWritten()) {
      const clang::QualType canonical = ctx_.getCanonicalType(clang::QualType(tag, 0));
      const clang::QualType written = ctx_.getTemplateSpecializationType(
          clang::TemplateName(spec->getSpecializedTemplate()), spec->getTemplateArgs().asArray(), canonical);
      return with(clang::TypeName::getFullyQualifiedType(written, ctx_, /*WithGlobalNsPrefix=*/false));
    }
    return with(ctx_.getCanonicalType(clang::QualType(tag, 0)));
  }
  return clang::TypeName::getFullyQualifiedType(type, ctx_, /*WithGlobalNsPrefix=*/false);
}

std::string TypeMapper::qualifiedName(const clang::NamedDecl *decl) const {
  if (const auto *rd = llvm::dyn_cast<clang::RecordDecl>(decl)) {
    // A record's type prints with its template arguments (`ns::Stack<int>`).
    clang::PrintingPolicy p = policy_;
    p.SuppressTagKeyword = true;
    // getFullyQualifiedName leaves the types of a pack argument as
    // substituted, unqualified (fmt's format_string_checker<char,
    // error_handler, basic_string_view<char>, char[3]>): the canonical
    // type prints each with its scope.
    if (packSpecialization(ctx_.getRecordType(rd)))
      return resugarStd(ctx_.getRecordType(rd).getCanonicalType().getAsString(p));
    return resugarStd(clang::TypeName::getFullyQualifiedName(qualify(ctx_.getRecordType(rd)), ctx_, p, false));
  }
  std::string out;
  llvm::raw_string_ostream os(out);
  decl->printQualifiedName(os, policy_);
  if (const auto *fd = llvm::dyn_cast<clang::FunctionDecl>(decl)) {
    if (const auto *args = fd->getTemplateSpecializationArgs())
      clang::printTemplateArgumentList(os, args->asArray(), policy_);
  }
  return resugarStd(out);
}

model::SourceRange TypeMapper::rangeOf(clang::SourceRange range) const {
  const clang::SourceManager &sm = ctx_.getSourceManager();
  model::SourceRange out;
  clang::SourceLocation begin = sm.getExpansionLoc(range.getBegin());
  clang::SourceLocation end = sm.getExpansionLoc(range.getEnd());
  if (begin.isInvalid()) return out;
  if (auto ref = sm.getFileEntryRefForID(sm.getFileID(begin)))
    out.file = sm.getFileManager().getCanonicalName(*ref).str();
  out.beginLine = sm.getExpansionLineNumber(begin);
  out.endLine = end.isValid() ? sm.getExpansionLineNumber(end) : out.beginLine;
  return out;
}

// va_list in any of its forms: the builtin type, or (as a parameter) the
// pointer it decays to, down to the target's __va_list_tag record.
bool TypeMapper::isVaList(clang::QualType canon) const {
  if (ctx_.hasSameType(canon, ctx_.getBuiltinVaListType())) return true;
  clang::QualType inner = canon;
  if (inner->isPointerType()) inner = inner->getPointeeType();
  else if (const auto *a = ctx_.getAsArrayType(inner)) inner = a->getElementType();
  const auto *rd = inner->getAsRecordDecl();
  return rd && rd == ctx_.getVaListTagDecl();
}

// Whether a call of constructor `c` links: a user-declared one that is
// neither defined here nor public is the pre-C++11 "noncopyable" idiom (a
// private copy constructor declared and never defined: pugixml's
// xpath_variable); an implicit or defaulted one calls its bases' own.
bool TypeMapper::linkable(const clang::CXXConstructorDecl *c, int depth) const {
  if (c->isDeleted()) return false;
  if (depth > 8) return true;
  if (!c->isImplicit() && !c->isDefaulted()) return c->isDefined() || c->getAccess() == clang::AS_public;
  if (!c->isCopyOrMoveConstructor()) return true;
  for (const clang::CXXBaseSpecifier &b : c->getParent()->bases()) {
    const clang::CXXRecordDecl *base = b.getType()->getAsCXXRecordDecl();
    if (!base || !base->hasDefinition()) continue;
    sema_.ForceDeclarationOfImplicitMembers(const_cast<clang::CXXRecordDecl *>(base->getDefinition()));
    bool any = false, usable = false;
    for (const clang::CXXConstructorDecl *bc : base->getDefinition()->ctors())
      if (bc->isCopyConstructor() && (c->isCopyConstructor() || c->isMoveConstructor())) {
        any = true;
        usable |= linkable(bc, depth + 1);
      }
    if (any && !usable) return false;
  }
  return true;
}

} // namespace mosaic::analysis
