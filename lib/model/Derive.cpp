// Factories and target selection over a built model.
#include "mosaic/model/Derive.h"

#include "mosaic/support/Text.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace mosaic::model {

namespace {

std::optional<RecordId> producedRecord(const Program &p, TypeId result) {
  const Type *t = &p.type(result);
  if (t->kind == TypeKind::Pointer && t->pointee) t = &p.type(*t->pointee);
  else if ((t->kind == TypeKind::UniquePtr || t->kind == TypeKind::SharedPtr) && t->element) t = &p.type(*t->element);
  if (t->kind == TypeKind::Record) return t->recordId;
  return std::nullopt;
}

// `ns::Stack<int>` -> `Stack<int>`, and `Stack<int>` -> `Stack`.
std::string lastComponent(const std::string &qualified) {
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < qualified.size(); ++i) {
    if (qualified[i] == '<') ++depth;
    else if (qualified[i] == '>') --depth;
    else if (depth == 0 && qualified.compare(i, 2, "::") == 0) start = i + 2;
  }
  return qualified.substr(start);
}

} // namespace

void deriveFactories(Program &p) {
  for (Record &r : p.records) r.factories.clear();
  for (const Callable &c : p.callables) {
    if (c.kind == CallableKind::Constructor) continue;
    if (auto rid = producedRecord(p, c.result)) p.records[*rid].factories.push_back(c.id);
  }
}

void resolveValueTypes(Program &p) {
  for (Type &t : p.types)
    if (t.kind == TypeKind::Reference && t.pointee) t.value = p.types[*t.pointee].value;
}

bool concernsUnit(const Program &p, const Skipped &s) {
  if (s.parent && p.record(*s.parent).ownedByUnit) return true;
  return s.location.file == p.unit || (!p.mainHeader.empty() && s.location.file == p.mainHeader);
}

Expected<size_t> selectTargets(Program &p, const Selection &sel) {
  p.targets.clear();
  if (!sel.function.empty() && !sel.className.empty())
    return Error::usage("give either --function or --class, not both");

  if (!sel.function.empty()) {
    std::vector<std::string> names;
    for (const Callable &c : p.callables) {
      if (c.kind == CallableKind::Constructor) continue;
      names.push_back(c.qualifiedName);
      if (c.name == sel.function || c.qualifiedName == sel.function) p.targets.push_back(c.id);
    }
    if (p.targets.empty()) {
      std::string msg = "no function '" + sel.function + "' in " + p.unit;
      if (auto near = closestMatches(sel.function, names); !near.empty()) msg += "; did you mean " + joinOr(near) + "?";
      return Error::usage(msg);
    }
    return p.targets.size();
  }

  if (!sel.className.empty()) {
    std::vector<std::string> names;
    std::vector<RecordId> chosen;
    for (const Record &r : p.records) {
      if (r.inSystemHeader) continue;
      names.push_back(r.name);
      const std::string last = lastComponent(r.name);
      const bool match = r.name == sel.className || last == sel.className ||
                         (!r.templateName.empty() &&
                          (r.templateName == sel.className || lastComponent(r.templateName) == sel.className));
      if (match) chosen.push_back(r.id);
    }
    if (chosen.empty()) {
      std::string msg = "no class '" + sel.className + "' in " + p.unit;
      if (auto near = closestMatches(sel.className, names); !near.empty()) msg += "; did you mean " + joinOr(near) + "?";
      return Error::usage(msg);
    }
    for (RecordId id : chosen) {
      const Record &r = p.record(id);
      p.targets.insert(p.targets.end(), r.constructors.begin(), r.constructors.end());
      p.targets.insert(p.targets.end(), r.methods.begin(), r.methods.end());
    }
    std::sort(p.targets.begin(), p.targets.end());
    p.targets.erase(std::unique(p.targets.begin(), p.targets.end()), p.targets.end());
    if (p.targets.empty())
      return Error::usage("class '" + sel.className + "' has no public constructor or method to call");
    return p.targets.size();
  }

  for (const Callable &c : p.callables) {
    const bool ownMember = c.parent && p.record(*c.parent).ownedByUnit;
    const bool inMainHeader = !p.mainHeader.empty() && c.location.file == p.mainHeader;
    // A macro of the API over a function (Callable::macroOf) is a way to
    // call it, not more code to test; a global object's address is a value.
    if (!c.macroOf.empty() || c.globalObject) continue;
    if (c.origin == Origin::Unit || ownMember || (!c.parent && inMainHeader)) p.targets.push_back(c.id);
  }
  return p.targets.size();
}

bool passedByMove(const Program &program, TypeId param) {
  const Type &declared = program.type(param);
  const Type &value = program.type(declared.value);
  const bool moveOnly = (value.kind == TypeKind::Record && !program.record(*value.recordId).copyConstructible) ||
                        value.kind == TypeKind::UniquePtr;
  return (declared.kind == TypeKind::Reference && declared.isRvalue) || (declared.kind != TypeKind::Reference && moveOnly);
}

bool isInitialiserWord(std::string_view w) {
  return w.size() >= 4 && (containsFolded(w.substr(0, 4), "init") || containsFolded(w.substr(w.size() - 4), "init"));
}

bool isInitialiserName(const std::string &name) { return anyIdentifierWord(name, isInitialiserWord); }

std::string handleKind(const std::string &name) {
  if (name.size() >= 3 && name[0] == 'h' && std::isupper(static_cast<unsigned char>(name[1])))
    return lowercase(name.substr(1));
  return name.size() >= 2 ? lowercase(name) : "";
}

bool namesKind(const std::string &functionName, const std::string &kind) {
  return !kind.empty() && anyIdentifierWord(functionName, [&](std::string_view w) { return lowercase(std::string(w)) == kind; });
}

std::string handleKindOf(const std::string &functionName, const std::string &paramName,
                         const std::vector<std::string> &makerNames) {
  const std::string named = handleKind(paramName);
  if (namesKind(functionName, named)) return named;
  // A Hungarian handle (hProfile) says its kind when a maker names it, even
  // where the function's name names another (lcms2's
  // cmsMD5computeID(cmsHPROFILE hProfile), a profile's MD5).
  const bool hungarian = named.size() + 1 == paramName.size();
  if (hungarian && std::any_of(makerNames.begin(), makerNames.end(), [&](const std::string &m) { return namesKind(m, named); }))
    return named;
  if (makerNames.size() < 2) return "";
  std::vector<std::vector<std::string>> makers;
  for (const std::string &m : makerNames) makers.push_back(identifierWords(m));
  // The words every maker's name starts with: the library's prefix.
  size_t shared = 0;
  while (std::all_of(makers.begin(), makers.end(), [&](const auto &w) {
    return w.size() > shared + 1 && w[shared] == makers.front()[shared];
  }))
    ++shared;
  // A kind is the word after the prefix of a maker whose name goes on
  // (cmsIT8Alloc: it8); in zip_source_buffer and zip_source_file the last
  // word names a variant of one kind.
  std::set<std::string> kinds;
  for (const auto &w : makers)
    if (w.size() > shared + 1) kinds.insert(w[shared]);
  const std::vector<std::string> words = identifierWords(functionName);
  if (shared == 0 || kinds.size() < 2 || words.size() <= shared + 1 ||
      !std::equal(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(shared), makers.front().begin()))
    return "";
  return kinds.count(words[shared]) ? words[shared] : "";
}

std::string handleKindOf(const Program &program, const std::string &functionName, const std::string &paramName,
                         const std::vector<CallableId> &makers) {
  std::vector<std::string> names;
  for (CallableId c : makers) names.push_back(program.callable(c).name);
  return handleKindOf(functionName, paramName, names);
}

bool Program::inUnitCode(const SourceRange &at) const {
  if (at.file == unit) return true;
  return std::any_of(unitBlocks.begin(), unitBlocks.end(), [&](const SourceRange &b) {
    return b.file == at.file && b.beginLine <= at.beginLine && at.endLine <= b.endLine;
  });
}

bool isDefaultsWord(std::string_view w) {
  const std::string l = lowercase(std::string(w));
  return l == "default" || l == "defaults";
}

std::optional<RecordId> defaultsFilled(const Program &p, const Callable &c) {
  if (c.kind != CallableKind::Function || c.params.size() != 1 || !anyIdentifierWord(c.name, isDefaultsWord))
    return std::nullopt;
  const Type &t = p.type(p.type(c.params[0].type).value);
  if (t.kind != TypeKind::Pointer || t.pointeeConst || !t.pointee) return std::nullopt;
  const Type &pointee = p.type(p.type(*t.pointee).value);
  if (pointee.kind != TypeKind::Record || !pointee.recordId || !p.record(*pointee.recordId).complete) return std::nullopt;
  return pointee.recordId;
}

bool hasFunctionField(const Program &p, RecordId record) {
  const Record &r = p.record(record);
  return std::any_of(r.fields.begin(), r.fields.end(), [&](const Field &f) {
    return !f.isStatic && p.type(p.type(f.type).value).kind == TypeKind::FunctionPointer;
  });
}

} // namespace mosaic::model
