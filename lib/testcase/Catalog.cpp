// The build and call rules shared by the test generator and the harness.
#include "mosaic/testcase/Catalog.h"

#include "mosaic/support/Text.h"

#include "mosaic/abi/Format.h"
#include "mosaic/abi/TestWire.h"

#include "mosaic/testcase/TestCase.h"

#include <filesystem>
#include <functional>

namespace mosaic::testcase {

using model::TypeKind;

Catalog::Catalog(const model::Program &program, Unlinked unlinked) : program_(program), unlinked_(std::move(unlinked)) {
  for (const model::Record &r : program.records)
    for (const model::Record &other : program.records)
      if (other.id != r.id && derivesFrom(other.id, r.id)) derived_[r.id].push_back(other.id);

  // Buildable types and callable callables depend on each other (a class is
  // buildable through a constructor whose parameters are buildable): grow
  // both to a fixed point, starting from "nothing callable".
  callable_.assign(program.callables.size(), false);
  for (bool changed = true; changed;) {
    changed = false;
    notBuildable_.clear();
    producers_.clear();
    for (const model::Callable &c : program.callables)
      if (!callable_[c.id] && reasonNotCallable(c).empty()) callable_[c.id] = changed = true;
  }
  notBuildable_.clear();
  producers_.clear();
  notCallable_.resize(program.callables.size());
  for (const model::Callable &c : program.callables)
    if (!callable_[c.id]) notCallable_[c.id] = reasonNotCallable(c);
  for (const model::Type &t : program.types)
    if (t.value == t.id && isVarargType(t.id) && buildable(t.id)) varargTypes_.push_back(t.id);
}

// What libffi passes as it is after the default argument promotions: a
// narrower integer or a float would be promoted by a C caller and read by
// the callee as int or double, so a test passes those only.
bool Catalog::isVarargType(model::TypeId type) const {
  const model::Type &t = program_.type(type);
  switch (t.kind) {
  case TypeKind::Integer: return t.bits >= 32 && t.bits <= 64;
  case TypeKind::Floating: return t.bits == 64;
  case TypeKind::Pointer: return true;
  default: return false;
  }
}

char Catalog::varargKind(model::TypeId type) const {
  const model::Type &t = program_.type(type);
  if (t.kind == TypeKind::Floating) return MOSAIC_VARARG_DOUBLE;
  if (t.kind == TypeKind::Integer) return t.bits == 32 ? MOSAIC_VARARG_INT : MOSAIC_VARARG_LONG;
  return isCharPointer(type) ? MOSAIC_VARARG_STRING : MOSAIC_VARARG_POINTER;
}

// A fixed parameter or result of a variadic function libffi can pass: a
// scalar or a pointer by value (not a class, an array or a reference).
static bool ffiPassable(const model::Program &p, model::TypeId id) {
  const model::Type &t = p.type(id);
  switch (t.kind) {
  case TypeKind::Void:
  case TypeKind::Bool:
  case TypeKind::Char:
  case TypeKind::Enum:
  case TypeKind::Pointer:
  case TypeKind::FunctionPointer: return true;
  case TypeKind::Integer: return t.bits <= 64;
  case TypeKind::Floating: return t.bits == 32 || t.bits == 64;
  default: return false;
  }
}

// Why a variadic function cannot be called: libffi calls it with scalars
// and pointers only, and a test calls it by name (a static one would need
// its extra arguments forwarded through the wrapper, which C cannot do).
static std::string whyNotVariadicCallable(const model::Program &p, const model::Callable &c) {
  if (c.internalLinkage || (c.origin == model::Origin::Unit && !c.declaredInHeader))
    return "variadic and not declared in a header the test includes: its extra arguments cannot be forwarded";
  for (size_t i = 0; i < c.params.size(); ++i)
    if (!ffiPassable(p, c.params[i].type))
      return "variadic, with parameter " + std::to_string(i + 1) + " (" + p.type(c.params[i].type).spelling +
             ") neither a scalar nor a pointer (libffi)";
  if (!ffiPassable(p, c.result))
    return "variadic, with a result (" + p.type(c.result).spelling + ") neither a scalar nor a pointer (libffi)";
  return {};
}

std::string Catalog::reasonNotCallable(const model::Callable &c) const {
  if (auto it = unlinked_.uncompilable.find(c.signature); it != unlinked_.uncompilable.end())
    return it->second.rfind("it does not link", 0) == 0 ? "its call" + it->second.substr(2) // Link.h: unlinkableCallables
                                                        : "its call does not compile in the harness: " + it->second;
  if (unlinked_.contains(c.qualifiedName, c.params.size()))
    return "declared, but no object the harness links defines it (defined in a file the build does not compile?)";
  for (size_t i = 0; i < c.params.size(); ++i) {
    const model::Type &t = program_.type(c.params[i].type);
    if (std::string reason = whyNotBuildable(t.value); !reason.empty())
      return "parameter " + std::to_string(i + 1) + " (" + t.spelling + "): " + reason;
  }
  if (c.variadic)
    if (std::string why = whyNotVariadicCallable(program_, c); !why.empty()) return why;
  if (c.kind == model::CallableKind::Constructor && program_.record(*c.parent).abstract) return "abstract class";
  // What a test makes it must destroy; a result held by value is destroyed too.
  if (c.kind == model::CallableKind::Constructor)
    if (std::string why = unlinkedDestructor(*c.parent); !why.empty()) return why;
  if (const model::Type &r = program_.type(c.result); r.kind == TypeKind::Record && r.recordId) {
    // A call cannot return an object of a class whose definition it does
    // not see (yaml-cpp's node.cpp: Node::begin() returns an iterator_base
    // of a template defined in a header node.cpp does not include).
    if (!program_.record(*r.recordId).complete) return "result " + r.spelling + ": a class the unit only declares";
    if (std::string why = unlinkedDestructor(*r.recordId); !why.empty()) return "result " + r.spelling + ": " + why;
  }
  const bool member = c.kind == model::CallableKind::Method || (c.kind == model::CallableKind::Operator && c.parent);
  if (member && !buildable(program_.record(*c.parent).type))
    return "no way to obtain a " + program_.record(*c.parent).name + " to call it on";
  return {};
}

std::string Unlinked::destructorOf(const std::string &type) {
  std::string last = type.substr(0, type.find('<'));
  if (auto colon = last.rfind("::"); colon != std::string::npos) last = last.substr(colon + 2);
  return type + "::~" + last;
}

std::string Catalog::unlinkedDestructor(model::RecordId id, int depth) const {
  if (unlinked_.functions.empty() || depth > 16) return {};
  const model::Record &r = program_.record(id);
  if (unlinked_.contains(Unlinked::destructorOf(r.name), 0))
    return "its destructor is declared, but no object the harness links defines it";
  for (model::RecordId b : r.bases)
    if (!unlinkedDestructor(b, depth + 1).empty()) return "a base class's destructor is not linked";
  for (const model::Field &f : r.fields) {
    const model::Type &ft = program_.type(program_.type(f.type).value);
    if (!f.isStatic && ft.kind == TypeKind::Record && ft.recordId && !unlinkedDestructor(*ft.recordId, depth + 1).empty())
      return "the destructor of field '" + f.name + "' is not linked";
  }
  return {};
}

std::vector<model::CallableId> Catalog::undefinedDeclarations() const {
  std::vector<model::CallableId> out;
  if (program_.language != "c") return out;
  for (const model::Callable &c : program_.callables)
    if (c.kind == model::CallableKind::Function && c.origin == model::Origin::External &&
        unlinked_.contains(c.qualifiedName, c.params.size()))
      out.push_back(c.id);
  return out;
}

bool Catalog::derivesFrom(model::RecordId d, model::RecordId base) const {
  std::function<bool(model::RecordId, int)> walk = [&](model::RecordId r, int depth) {
    if (depth > 16) return false;
    for (model::RecordId b : program_.record(r).bases)
      if (b == base || walk(b, depth + 1)) return true;
    return false;
  };
  return walk(d, 0);
}

const std::vector<model::RecordId> &Catalog::derived(model::RecordId record) const {
  static const std::vector<model::RecordId> kNone;
  auto it = derived_.find(record);
  return it == derived_.end() ? kNone : it->second;
}

std::optional<std::vector<size_t>> Catalog::aggregateFields(model::RecordId id) const {
  const model::Record &r = program_.record(id);
  if (!r.complete || r.abstract || (r.isCxx && (!r.aggregate || !r.bases.empty()))) return std::nullopt;
  std::vector<size_t> out;
  for (size_t i = 0; i < r.fields.size(); ++i) {
    const model::Field &f = r.fields[i];
    if (f.isStatic) continue;
    if (f.access != model::Access::Public || f.name.empty() || !buildable(f.type)) return std::nullopt;
    const model::Type &ft = program_.type(f.type);
    if (ft.isConst && r.isCxx) return std::nullopt;
    if (ft.kind == TypeKind::Reference) return std::nullopt;
    if (ft.kind == TypeKind::Array && (r.isCxx || !arrayElement(*ft.element))) return std::nullopt;
    out.push_back(i);
    if (r.tag == model::RecordTag::Union) break; // a union is initialised through its first member
  }
  return out;
}

bool Catalog::arrayElement(model::TypeId id) const {
  const model::Type &t = program_.type(program_.type(id).value);
  if (isScalar(t.id) || t.kind == TypeKind::Pointer) return true;
  return t.kind == TypeKind::Record && !program_.record(*t.recordId).isCxx && program_.record(*t.recordId).complete;
}

bool Catalog::pointedArrayElement(model::TypeId id) const {
  if (arrayElement(id)) return true;
  const model::Type &t = program_.type(program_.type(id).value);
  if (t.kind != TypeKind::Record) return false;
  const model::Record &r = program_.record(*t.recordId);
  return r.isCxx && r.complete && !r.abstract && r.copyConstructible && r.publicDestructor;
}

std::optional<model::TypeId> Catalog::resultVariable(model::CallableId id) const {
  return callResultVariable(program_, id);
}

bool Catalog::passable(model::TypeId varId, model::TypeId paramId) const {
  if (!fits(varId, paramId)) return false;
  const model::Type &param = program_.type(paramId), &var = program_.type(varId);
  const bool mayWrite = (param.kind == TypeKind::Reference && !param.pointeeConst && !param.isRvalue) ||
                        (param.kind == TypeKind::Pointer && !param.pointeeConst);
  const bool constView = (var.kind == TypeKind::Reference && var.pointeeConst) ||
                         (var.kind == TypeKind::Pointer && var.pointeeConst);
  return !(mayWrite && constView);
}

bool Catalog::readOnly(model::TypeId id) const {
  const model::Type &t = program_.type(id);
  return t.isConst || (t.kind == TypeKind::Reference && t.pointeeConst);
}

bool Catalog::isPrivate(model::TypeId id) const {
  const model::Type &t = program_.type(program_.type(id).value);
  return t.kind == TypeKind::Record && program_.record(*t.recordId).location.file == program_.unit;
}

bool Catalog::observable(model::TypeId v) const {
  const model::Type &ty = program_.type(program_.type(v).value);
  switch (ty.kind) {
  case TypeKind::Bool:
  case TypeKind::Char:
  case TypeKind::Integer:
  case TypeKind::Floating:
  case TypeKind::Enum:
  case TypeKind::Pointer:
  case TypeKind::String:
  case TypeKind::StringView:
    return ty.kind != TypeKind::Integer || ty.bits <= 64;
  case TypeKind::Record: {
    const model::Record &r = program_.record(*ty.recordId);
    if (!r.complete) return false;
    for (const model::Field &f : r.fields) {
      const model::Type &ft = program_.type(program_.type(f.type).value);
      if (f.isStatic || f.access != model::Access::Public || f.name.empty()) continue;
      if (isScalar(ft.id) || ft.kind == TypeKind::Pointer) return true;
    }
    return false;
  }
  default:
    return false;
  }
}

bool Catalog::isScalar(model::TypeId id) const {
  switch (program_.type(program_.type(id).value).kind) {
  case TypeKind::Bool:
  case TypeKind::Char:
  case TypeKind::Integer:
  case TypeKind::Floating:
  case TypeKind::Enum:
    return true;
  default:
    return false;
  }
}

// Whether `id` is a pointer whose pointee is of kind `kind` (char, void).
static bool pointerTo(const model::Program &p, model::TypeId id, TypeKind kind) {
  const model::Type &t = p.type(p.type(id).value);
  return t.kind == TypeKind::Pointer && t.pointee && p.type(*t.pointee).kind == kind;
}

bool Catalog::isCharPointer(model::TypeId id) const { return pointerTo(program_, id, TypeKind::Char); }

bool Catalog::standsFor(const Statement &s, const model::Param *param, model::TypeId type) const {
  if (s.op == Op::Buffer) return !(param && param->role == model::ParamRole::CString);
  if (s.op != Op::File) return true;
  if (descriptorType(s.type)) return param && fileDescriptor(*param);
  return fileStream(type) || plainVoidPointer(type);
}

bool Catalog::voidHandle(model::TypeId type) const {
  return pointerTo(program_, type, TypeKind::Void) && !plainVoidPointer(type);
}

bool Catalog::plainVoidPointer(model::TypeId type) const {
  const std::string &spelled = program_.type(type).spelling;
  return pointerTo(program_, type, TypeKind::Void) && (spelled == "void *" || spelled == "const void *");
}

bool Catalog::fileStream(model::TypeId id) const {
  const model::Type &t = program_.type(program_.type(id).value);
  if (t.kind != TypeKind::Pointer || !t.pointee) return false;
  const model::Type &pointee = program_.type(program_.type(*t.pointee).value);
  if (pointee.kind != TypeKind::Record || !pointee.recordId) return false;
  const model::Record &r = program_.record(*pointee.recordId);
  return r.inSystemHeader && (r.name == "FILE" || r.name == "_IO_FILE");
}

bool Catalog::descriptorType(model::TypeId id) const {
  const model::Type &t = program_.type(program_.type(id).value);
  return t.kind == TypeKind::Integer && t.bits == 32 && t.isSigned;
}

bool Catalog::fileDescriptor(const model::Param &param) const {
  if (!descriptorType(param.type)) return false;
  const std::string n = foldedIdentifier(param.name);
  // With a prefix too: gif_lib.h declares DGifOpenFileHandle(int
  // GifFileHandle, ...), where dgif_lib.c names it FileHandle.
  return n.ends_with("filedes") || n.ends_with("fildes") || n.ends_with("filehandle") || n.ends_with("filedesc") ||
         (n.size() >= 2 && n.size() <= 8 && n.ends_with("fd"));
}

bool Catalog::descriptorArgument(const TestCase &test, size_t index) const {
  for (size_t j = index + 1; j < test.statements.size(); ++j) {
    const Statement &s = test.statements[j];
    if (!isCall(s.op)) continue;
    const model::Callable &c = program_.callable(s.callable);
    const size_t offset = s.op == Op::MethodCall ? 1 : 0;
    for (size_t k = 0; k < c.params.size() && offset + k < s.refs.size(); ++k)
      if (s.refs[offset + k] == index && fileDescriptor(c.params[k])) return true;
  }
  return false;
}

const std::vector<model::CallableId> &Catalog::returning(model::TypeId type) const {
  const model::TypeId key = program_.type(type).value;
  if (auto it = returning_.find(key); it != returning_.end()) return it->second;
  std::vector<model::CallableId> out;
  for (const model::Callable &c : program_.callables)
    if (c.kind == model::CallableKind::Function && callable_[c.id] && program_.type(c.result).value == key)
      out.push_back(c.id);
  return returning_.emplace(key, std::move(out)).first->second;
}

bool Catalog::apiPointer(model::TypeId id) const {
  const model::TypeId key = program_.type(id).value;
  if (auto it = apiPointers_.find(key); it != apiPointers_.end()) return it->second;
  const model::Type &t = program_.type(key);
  bool made = false;
  // A typedef's name alone (`sds`, `plist_t`), not `char *` or `gchar *`.
  const bool toVoid = t.kind == TypeKind::Pointer && t.pointee && program_.type(*t.pointee).kind == TypeKind::Void;
  if ((isCharPointer(key) || toVoid) && t.spelling != t.canonical && t.spelling.find_first_of("* ") == std::string::npos)
    for (model::CallableId c : returning(key)) {
      const auto &params = program_.callable(c).params;
      made = made || std::none_of(params.begin(), params.end(),
                                  [&](const model::Param &p) { return program_.type(p.type).value == key; });
    }
  return apiPointers_[key] = made;
}

std::optional<Passing> Catalog::fits(model::TypeId varId, model::TypeId paramId) const {
  const model::Type &var = program_.type(program_.type(varId).value);
  const model::Type &param = program_.type(program_.type(paramId).value);
  auto recordOf = [&](const model::Type &t) -> std::optional<model::RecordId> {
    return t.kind == TypeKind::Record ? t.recordId : std::nullopt;
  };
  // One type under two spellings: `struct cJSON_Hooks` and its typedef
  // `cJSON_Hooks` are interned apart (the model keeps how each was spelled)
  // but are the same record.
  auto same = [&](const model::Type &a, const model::Type &b) {
    return a.id == b.id || (recordOf(a) && recordOf(a) == recordOf(b));
  };
  if (same(var, param)) return Passing::Same;
  const bool cxx = program_.language == "c++";
  auto pointeeValue = [&](const model::Type &t) -> const model::Type & {
    return program_.type(program_.type(*t.pointee).value);
  };
  // Derived to base, when a test can write it: a class only the unit
  // defines is held as `void *`, which converts to no base class
  // (pugixml's impl::xpath_variable_boolean to pugi::xpath_variable).
  auto upcast = [&](model::RecordId from, model::RecordId to) {
    if (isPrivate(program_.record(from).type) && !isPrivate(program_.record(to).type)) return false;
    return derivesFrom(from, to);
  };

  if (param.kind == TypeKind::Record) {
    if (cxx && var.kind == TypeKind::Record && upcast(*var.recordId, *param.recordId)) return Passing::Derived;
    if (var.kind == TypeKind::Pointer) {
      const model::Type &pv = pointeeValue(var);
      if (same(pv, param) || (cxx && recordOf(pv) && upcast(*pv.recordId, *param.recordId))) return Passing::Deref;
    }
    return std::nullopt;
  }
  if (param.kind == TypeKind::Pointer && var.kind == TypeKind::Pointer) {
    const model::Type &pp = pointeeValue(param), &vp = pointeeValue(var);
    if (same(pp, vp)) return Passing::Pointer; // adds const
    if (pp.kind == TypeKind::Void) return Passing::Pointer;
    if (cxx && recordOf(pp) && recordOf(vp) && upcast(*vp.recordId, *pp.recordId)) return Passing::Pointer;
  }
  return std::nullopt;
}

const std::vector<std::pair<model::TypeId, Passing>> &Catalog::fitting(model::TypeId param) const {
  const model::TypeId key = program_.type(param).value;
  auto it = fitting_.find(key);
  if (it != fitting_.end()) return it->second;
  std::vector<std::pair<model::TypeId, Passing>> out;
  for (const model::Type &t : program_.types)
    if (t.kind != TypeKind::Unsupported)
      if (auto how = fits(t.id, key)) out.emplace_back(t.id, *how);
  return fitting_.emplace(key, std::move(out)).first->second;
}

const std::vector<model::CallableId> &Catalog::producers(model::TypeId type) const {
  const model::TypeId key = program_.type(type).value;
  auto it = producers_.find(key);
  if (it != producers_.end()) return it->second;
  std::vector<model::CallableId> out;
  for (const model::Callable &c : program_.callables) {
    if (c.kind == model::CallableKind::Constructor || !callable_[c.id]) continue;
    if (program_.type(c.result).kind == TypeKind::Void) continue;
    if (fits(c.result, key)) out.push_back(c.id);
  }
  return producers_.emplace(key, std::move(out)).first->second;
}

std::string Catalog::whyNotBuildable(model::TypeId type) const {
  const model::TypeId key = program_.type(type).value;
  auto it = notBuildable_.find(key);
  if (it != notBuildable_.end()) return it->second;
  notBuildable_[key] = ""; // assume yes while recursing (records that hold pointers to themselves)
  std::string why = computeWhyNotBuildable(key);
  notBuildable_[key] = why;
  return why;
}

std::string Catalog::computeWhyNotBuildable(model::TypeId id) const {
  const model::Type &t = program_.type(id);
  const bool cxx = program_.language == "c++";
  switch (t.kind) {
  case TypeKind::Bool:
  case TypeKind::Char:
  case TypeKind::Enum:
    return {};
  case TypeKind::Integer:
    return t.bits <= 64 ? std::string() : "integers wider than 64 bits are not generated yet";
  case TypeKind::Floating:
    return {};
  case TypeKind::Pointer:
    return {}; // null at least
  case TypeKind::Array:
    return whyNotBuildable(*t.element);
  case TypeKind::String:
  case TypeKind::StringView:
  case TypeKind::InputStream:
  case TypeKind::OutputStream:
    return {};
  case TypeKind::UniquePtr:
  case TypeKind::Optional: {
    // An empty one, but destroying it needs the element's definition: a
    // pimpl's std::unique_ptr<Impl> to a class the unit only declares
    // (yaml-cpp's Emitter and EmitterState in emit.cpp) cannot be made here.
    const model::Type &e = program_.type(program_.type(*t.element).value);
    if (e.kind == TypeKind::Record && !program_.record(*e.recordId).complete)
      return t.spelling + " of a class the unit only declares";
    return {};
  }
  case TypeKind::SharedPtr:
    return {}; // empty (its deleter is made where it is filled)
  case TypeKind::FunctionPointer:
  case TypeKind::StdFunction: {
    if (t.signature->variadic) return "callback with variadic parameters";
    const model::Type &r = program_.type(program_.type(t.signature->result).value);
    if (r.kind == TypeKind::Record && !program_.record(*r.recordId).defaultConstructible)
      return "callback returning a " + r.spelling + " that cannot be default-constructed";
    if (r.kind == TypeKind::Unsupported) return "callback returning " + r.spelling;
    for (model::TypeId p : t.signature->params)
      if (program_.type(p).kind == TypeKind::Unsupported) return "callback taking " + program_.type(p).spelling;
    return {};
  }
  case TypeKind::Record: {
    const model::Record &r = program_.record(*t.recordId);
    if (!r.complete) return "opaque type: only pointers to it can be had";
    // A test cannot name a record the unit file defines, so cannot hold one
    // (pugixml's impl::utf8_decoder, expat's XML_ParserStruct): only
    // pointers to it, which the unit hands out.
    if (isPrivate(id)) return "defined in " + std::filesystem::path(program_.unit).filename().string() +
                              ": a test cannot name it, only hold pointers the unit hands out";
    if (!cxx || !r.isCxx) return {}; // a C struct or union: field by field
    if (std::string why = unlinkedDestructor(r.id); !why.empty()) return why;
    if (!r.abstract) {
      for (model::CallableId c : r.constructors)
        if (callable_[c]) return {};
      if (r.aggregate) return {};
    }
    if (!producers(id).empty()) return {};
    for (model::RecordId d : derived(r.id))
      if (buildable(program_.record(d).type)) return {};
    if (!r.abstract) return "no public constructor, factory or concrete subclass of " + r.name;
    const std::string stub = whyNotSubclassable(r.id);
    if (stub.empty()) return {}; // a stub subclass the test derives
    return "no factory or concrete subclass of the abstract " + r.name + ", and no stub subclass: " + stub;
  }
  case TypeKind::Void:
    return "void";
  case TypeKind::Reference:
    return whyNotBuildable(*t.pointee);
  case TypeKind::Vector:
  case TypeKind::StdArray:
  case TypeKind::Map:
  case TypeKind::UnorderedMap:
  case TypeKind::Pair:
  case TypeKind::Tuple:
    return std::string(model::toString(t.kind)) + " arguments are not generated yet";
  case TypeKind::Unsupported:
    return t.unsupportedReason;
  }
  return "unknown type kind";
}

} // namespace mosaic::testcase

namespace mosaic::testcase {

// The first ill-typed statement's error: dispatches each statement to the
// check of its op.
std::string Catalog::typeError(const TestCase &t) const {
  for (size_t i = 0; i < t.statements.size(); ++i) {
    std::string e;
    switch (t.statements[i].op) {
    case Op::Construct:
    case Op::Call:
    case Op::MethodCall: e = callTypeError(t, i); break;
    case Op::Aggregate: e = aggregateTypeError(t, i); break;
    case Op::AddressOf: e = addressOfTypeError(t, i); break;
    case Op::Array: e = arrayTypeError(t, i); break;
    case Op::EndOf: e = endOfTypeError(t, i); break;
    case Op::Subclass: e = subclassTypeError(t, i); break;
    case Op::FieldSet: e = fieldSetTypeError(t, i); break;
    case Op::File:
      if (!fileStream(t.statements[i].type) && !descriptorType(t.statements[i].type))
        e = "statement " + std::to_string(i) + " makes a temporary file as a " + program_.type(t.statements[i].type).spelling +
            ", neither a FILE * nor a descriptor";
      break;
    default: e = laterReferenceError(t, i);
    }
    if (!e.empty()) return e;
  }
  return "";
}

// Reference k of statement i must name an earlier variable that fits type
// `want` (`where` it is used, for the message); "" when it does or is no
// reference.
std::string Catalog::referenceTypeError(const TestCase &t, size_t i, size_t k, model::TypeId want,
                                        const std::string &where) const {
  const model::Program &p = program_;
  const Ref r = t.statements[i].refs[k];
  if (r == kNoRef) return "";
  if (r >= i) return "statement " + std::to_string(i) + " refers to statement " + std::to_string(r) + ", not earlier";
  const auto have = variableType(p, t, r);
  if (!have) return "statement " + std::to_string(i) + " refers to statement " + std::to_string(r) + ", no variable";
  if (fits(*have, want)) return "";
  return "statement " + std::to_string(i) + " passes a " + p.type(*have).spelling + " (statement " +
         std::to_string(r) + ") as " + where + " of type " + p.type(want).spelling;
}

// A call or construction: as many arguments as parameters (and a receiver
// for a method), each fitting.
std::string Catalog::callTypeError(const TestCase &t, size_t i) const {
  const model::Program &p = program_;
  const Statement &s = t.statements[i];
  std::string e;
  const model::Callable &c = p.callable(s.callable);
  const size_t self = s.op == Op::MethodCall ? 1 : 0;
  const size_t fixed = c.params.size() + self;
  if (s.refs.size() != fixed && !(c.variadic && s.refs.size() > fixed && s.refs.size() <= fixed + MOSAIC_MAX_VARARGS))
    return "statement " + std::to_string(i) + " calls " + c.qualifiedName + " with " + std::to_string(s.refs.size()) +
           " arguments";
  if (self) e = referenceTypeError(t, i, 0, p.record(*c.parent).type, "the receiver");
  for (size_t k = 0; e.empty() && k < c.params.size(); ++k)
    e = referenceTypeError(t, i, k + self, c.params[k].type, "parameter " + std::to_string(k + 1) + " of " + c.qualifiedName);
  // The test runner's own stdio as a file descriptor (fileDescriptor).
  for (size_t k = 0; e.empty() && k < c.params.size() && k + self < s.refs.size(); ++k) {
    const Ref r = s.refs[k + self];
    if (r < i && t.statements[r].op == Op::Primitive && t.statements[r].bits <= 2 && fileDescriptor(c.params[k]))
      e = "statement " + std::to_string(i) + " passes " + std::to_string(t.statements[r].bits) + ", a descriptor of "
          "the test runner's own stdio, as " + c.params[k].name + " of " + c.qualifiedName;
  }
  // An extra argument is passed as the type it has: one libffi passes as it is.
  for (size_t k = fixed; e.empty() && k < s.refs.size(); ++k) {
    const Ref r = s.refs[k];
    const auto vt = r < i ? variableType(p, t, r) : std::nullopt;
    if (!vt || !isVarargType(*vt))
      e = "statement " + std::to_string(i) + " passes extra argument " + std::to_string(k - fixed + 1) + " of " +
          c.qualifiedName + " as no type a variadic call takes";
  }
  return e;
}

// An aggregate: of a record, zero-initialised or with a value fitting each
// field of its field list.
std::string Catalog::aggregateTypeError(const TestCase &t, size_t i) const {
  const model::Program &p = program_;
  const Statement &s = t.statements[i];
  std::string e;
  const model::Type &ty = p.type(p.type(s.type).value);
  if (ty.kind != model::TypeKind::Record) return "statement " + std::to_string(i) + ": an aggregate of a non-record";
  const model::Record &rec = p.record(*ty.recordId);
  const auto fields = aggregateFields(rec.id);
  if (s.refs.empty()) // zero-initialised
    return zeroInitialisable(rec.id) ? ""
                                     : "statement " + std::to_string(i) + ": a " + rec.name +
                                           " cannot be zero-initialised (no default constructor)";
  if (!fields || fields->size() != s.refs.size())
    return "statement " + std::to_string(i) + " lists " + std::to_string(s.refs.size()) + " fields of " + rec.name;
  for (size_t k = 0; e.empty() && k < fields->size(); ++k) {
    const model::Field &f = rec.fields[(*fields)[k]];
    if (p.type(p.type(f.type).value).kind == model::TypeKind::Array) continue; // filled from an Array
    e = referenceTypeError(t, i, k, f.type, "field " + f.name + " of " + rec.name);
  }
  return e;
}

// An address: a pointer to an earlier variable's type, to void, or (C++) to
// a base of it, and not to non-const for a constant.
std::string Catalog::addressOfTypeError(const TestCase &t, size_t i) const {
  const model::Program &p = program_;
  const Statement &s = t.statements[i];
  const model::Type &ty = p.type(p.type(s.type).value);
  if (ty.kind != model::TypeKind::Pointer || s.refs.size() != 1)
    return "statement " + std::to_string(i) + ": an address that is not a pointer";
  const Ref r = s.refs[0];
  if (r >= i) return "statement " + std::to_string(i) + " takes the address of a later statement";
  const auto have = variableType(p, t, r);
  // &x as a pointer to x's type (`struct tape` and its typedef `tape` are
  // one record), to void, or (C++) to a base of it.
  const model::Type *h = have ? &p.type(p.type(*have).value) : nullptr;
  const model::Type &pointee = p.type(p.type(*ty.pointee).value);
  const bool records = h && h->kind == model::TypeKind::Record && pointee.kind == model::TypeKind::Record;
  const bool ok = h && (h->id == pointee.id || pointee.kind == model::TypeKind::Void ||
                        (records && (h->recordId == pointee.recordId || derivesFrom(*h->recordId, *pointee.recordId))));
  if (ok && !ty.pointeeConst && readOnly(*have))
    return "statement " + std::to_string(i) + " takes a " + ty.spelling + " to a constant " + p.type(*have).spelling;
  if (!ok)
    return "statement " + std::to_string(i) + " takes the address of a " +
           (have ? p.type(*have).spelling : std::string("non-variable")) + " as a " + ty.spelling;
  return "";
}

// An array: of an element type, each element fitting it.
std::string Catalog::arrayTypeError(const TestCase &t, size_t i) const {
  const model::Program &p = program_;
  const Statement &s = t.statements[i];
  std::string e;
  const model::Type &ty = p.type(p.type(s.type).value);
  const auto element = ty.kind == model::TypeKind::Array ? ty.element : ty.pointee;
  if (!element) return "statement " + std::to_string(i) + ": an array without an element type";
  for (size_t k = 0; e.empty() && k < s.refs.size(); ++k) e = referenceTypeError(t, i, k, *element, "an element");
  return e;
}

// An end: one past the bytes of an earlier pointer to the same element type.
std::string Catalog::endOfTypeError(const TestCase &t, size_t i) const {
  const model::Program &p = program_;
  const Statement &s = t.statements[i];
  const model::Type &ty = p.type(p.type(s.type).value);
  if (ty.kind != model::TypeKind::Pointer || s.refs.size() != 1 || s.refs[0] >= i)
    return "statement " + std::to_string(i) + ": an end that is not a pointer past an earlier one";
  const auto have = variableType(p, t, s.refs[0]);
  const model::Type *h = have ? &p.type(p.type(*have).value) : nullptr;
  if (!h || h->kind != model::TypeKind::Pointer || p.type(*h->pointee).value != p.type(*ty.pointee).value ||
      (h->pointeeConst && !ty.pointeeConst))
    return "statement " + std::to_string(i) + ": an end of a " + (h ? h->spelling : std::string("non-variable")) +
           " as a " + ty.spelling;
  return "";
}

// A stub subclass: of a subclassable record, with none or all of its
// results, each fitting its pure virtual's result type.
std::string Catalog::subclassTypeError(const TestCase &t, size_t i) const {
  const model::Program &p = program_;
  const Statement &s = t.statements[i];
  std::string e;
  const model::Type &ty = p.type(p.type(s.type).value);
  if (ty.kind != model::TypeKind::Record || !subclassable(*ty.recordId))
    return "statement " + std::to_string(i) + ": a stub subclass of " + ty.spelling + ", which cannot have one";
  const model::Record &rec = p.record(*ty.recordId);
  const auto results = stubResults(rec.id);
  if (!s.refs.empty() && s.refs.size() != results.size())
    return "statement " + std::to_string(i) + " sets " + std::to_string(s.refs.size()) + " results of a stub " + rec.name;
  for (size_t k = 0; e.empty() && k < s.refs.size(); ++k)
    e = referenceTypeError(t, i, k, rec.pureVirtuals[results[k]].result,
                           "the result of " + rec.name + "::" + rec.pureVirtuals[results[k]].name);
  return e;
}

// A field set: of a field that exists, to a value fitting it.
std::string Catalog::fieldSetTypeError(const TestCase &t, size_t i) const {
  const model::Program &p = program_;
  const Statement &s = t.statements[i];
  const model::Type &ty = p.type(p.type(s.type).value);
  if (ty.kind != model::TypeKind::Record || s.refs.size() != 2) return "";
  const model::Record &rec = p.record(*ty.recordId);
  if (s.field >= rec.fields.size()) return "statement " + std::to_string(i) + " sets a field that does not exist";
  return referenceTypeError(t, i, 1, rec.fields[s.field].type, "field " + rec.fields[s.field].name + " of " + rec.name);
}

// Any other statement: no reference to itself or a later statement.
std::string Catalog::laterReferenceError(const TestCase &t, size_t i) const {
  for (Ref r : t.statements[i].refs)
    if (r != kNoRef && r >= i) return "statement " + std::to_string(i) + " refers to a later statement";
  return "";
}

} // namespace mosaic::testcase
