// Global objects of an API as values (GlobalObjects.h).
#include "GlobalObjects.h"

#include "ModelBuilder.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Mangle.h>
#include <clang/Basic/SourceManager.h>

#include <map>
#include <set>

namespace mosaic::analysis {

namespace {

// The record's name as the model spells it: qualified, or a C typedef's
// name for an anonymous struct.
std::string recordName(const clang::RecordDecl *rd) {
  if (rd->getIdentifier()) return rd->getQualifiedNameAsString();
  if (const auto *td = rd->getTypedefNameForAnonDecl()) return td->getQualifiedNameAsString();
  return "";
}

void collect(const clang::DeclContext *dc, std::vector<const clang::VarDecl *> &out) {
  for (const clang::Decl *d : dc->decls()) {
    if (const auto *ns = llvm::dyn_cast<clang::NamespaceDecl>(d)) collect(ns, out);
    else if (const auto *ls = llvm::dyn_cast<clang::LinkageSpecDecl>(d)) collect(ls, out);
    else if (const auto *v = llvm::dyn_cast<clang::VarDecl>(d)) out.push_back(v);
  }
}

} // namespace

size_t addGlobalObjects(clang::ASTContext &ctx, model::Program &program) {
  const clang::SourceManager &sm = ctx.getSourceManager();
  std::set<std::string> names;
  for (const model::Callable &c : program.callables) names.insert(c.qualifiedName);
  std::map<std::string, model::RecordId> records;
  for (const model::Record &r : program.records)
    if (r.complete) records.emplace(r.name, r.id);
  // The pointer types parameters take, by record and constness.
  std::map<std::pair<model::RecordId, bool>, model::TypeId> pointers;
  for (const model::Callable &c : program.callables)
    for (const model::Param &param : c.params) {
      const model::Type &t = program.type(program.type(param.type).value);
      if (t.kind != model::TypeKind::Pointer || !t.pointee) continue;
      const model::Type &pointee = program.type(program.type(*t.pointee).value);
      if (pointee.kind == model::TypeKind::Record && pointee.recordId)
        pointers.emplace(std::make_pair(*pointee.recordId, t.pointeeConst), t.id);
    }
  std::vector<const clang::VarDecl *> vars;
  collect(ctx.getTranslationUnitDecl(), vars);
  clang::ASTNameGenerator mangler(ctx);
  std::set<const clang::VarDecl *> seen;
  size_t added = 0;
  for (const clang::VarDecl *v : vars) {
    const clang::VarDecl *first = v->getFirstDecl();
    if (!seen.insert(first).second || !v->hasExternalFormalLinkage() || v->isStaticDataMember() ||
        v->getDescribedVarTemplate() || v->isTemplated())
      continue;
    const clang::SourceLocation at = sm.getExpansionLoc(first->getLocation());
    if (at.isInvalid() || sm.isInSystemHeader(at) || sm.isInMainFile(at)) continue;
    const auto file = sm.getFileEntryRefForID(sm.getFileID(at));
    if (!file || !isHeaderPath(file->getName())) continue;
    const clang::QualType type = v->getType();
    const auto *rt = type->getAs<clang::RecordType>();
    if (!rt || type->isArrayType()) continue;
    const auto record = records.find(recordName(rt->getDecl()));
    if (record == records.end()) continue;
    const bool isConst = type.isConstQualified();
    auto pointer = pointers.find({record->second, true});
    if (!isConst && pointers.count({record->second, false})) pointer = pointers.find({record->second, false});
    if (pointer == pointers.end()) continue;
    const std::string name = v->getQualifiedNameAsString();
    if (!names.insert(name).second) continue;
    model::Callable c;
    c.id = static_cast<model::CallableId>(program.callables.size());
    c.kind = model::CallableKind::Function;
    c.name = v->getNameAsString();
    c.qualifiedName = name;
    c.signature = "&" + name;
    c.result = pointer->second;
    c.origin = model::Origin::External;
    c.declaredInHeader = true;
    c.cLinkage = v->isExternC() || !ctx.getLangOpts().CPlusPlus;
    c.globalObject = true;
    c.linkageNames = {mangler.getName(v)};
    const unsigned line = sm.getSpellingLineNumber(at);
    c.location = {sm.getFileManager().getCanonicalName(*file).str(), line, line};
    program.callables.push_back(std::move(c));
    ++added;
  }
  return added;
}

} // namespace mosaic::analysis
