// Clang types -> model types (model/Type.h), interned in the Program.
#pragma once

#include "mosaic/model/Program.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/PrettyPrinter.h>
#include <clang/AST/Type.h>

#include <map>
#include <set>
#include <string>

namespace clang {
class Sema;
}

namespace mosaic::analysis {

/// Maps Clang types to model types, creating Type, Record and Enum entries
/// in `program` on first sight. Every entry is interned: the same type as
/// written maps to the same TypeId. Recursive types (a struct holding a
/// pointer to itself) are handled by registering an entry before its parts.
class TypeMapper {
public:
  TypeMapper(clang::ASTContext &ctx, clang::Sema &sema, model::Program &program);

  /// The TypeId of `type` as written (sugar kept for the spelling).
  model::TypeId map(clang::QualType type);

  /// The Record for `decl` (its definition when there is one); nullopt for a
  /// record a test cannot name (anonymous, lambda, local).
  std::optional<model::RecordId> recordFor(const clang::RecordDecl *decl);

  model::EnumId enumFor(const clang::EnumDecl *decl);

  /// Why a record cannot be named in a test, or empty.
  std::string unnameableReason(const clang::RecordDecl *decl) const;

  /// Whether a declaration of `rd` is outside the unit file (Record::declaredOutsideUnit).
  bool declaredOutsideUnit(const clang::RecordDecl *rd) const;

  /// The decl a record entry was made from.
  const clang::RecordDecl *declOf(model::RecordId id) const { return recordDecls_.at(id); }

  /// How C++ test code spells `type`: fully qualified, typedefs kept.
  std::string spell(clang::QualType type) const;
  /// `type` with every name in it qualified from the global scope.
  clang::QualType qualify(clang::QualType type, int depth = 0) const;
  /// Whether a call of constructor `c` links (see the definition).
  bool linkable(const clang::CXXConstructorDecl *c, int depth = 0) const;
  /// How C++ test code names `decl` (qualified, template arguments included).
  std::string qualifiedName(const clang::NamedDecl *decl) const;

  const clang::PrintingPolicy &policy() const { return policy_; }

  /// A source range in model form (expansion locations, absolute file).
  model::SourceRange rangeOf(clang::SourceRange range) const;

private:
  bool isVaList(clang::QualType canonical) const;
  void markUnspellable(model::Type &t, std::string why);
  void classify(clang::QualType type, model::Type &out);
  void classifyBuiltin(const clang::BuiltinType *type, model::Type &out);
  void classifyRecord(clang::QualType type, const clang::RecordDecl *decl, model::Type &out);
  bool classifyStd(clang::QualType type, const clang::ClassTemplateSpecializationDecl *decl, model::Type &out);
  model::Signature signatureOf(const clang::FunctionType *fn);
  void fillRecord(model::RecordId id, const clang::RecordDecl *decl);

  clang::ASTContext &ctx_;
  clang::Sema &sema_;
  model::Program &program_;
  clang::PrintingPolicy policy_;
  std::map<std::string, model::TypeId> typeIds_;                    // key: spelling + canonical
  std::map<const clang::RecordDecl *, model::RecordId> recordIds_;  // key: canonical decl
  std::map<const clang::EnumDecl *, model::EnumId> enumIds_;        // key: canonical decl
  std::vector<const clang::RecordDecl *> recordDecls_;
  std::set<model::TypeId> unspellable_; // types a test cannot even write down
};

} // namespace mosaic::analysis
