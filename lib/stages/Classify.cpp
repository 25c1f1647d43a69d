// What a failing test claims (Classify.h).
#include "mosaic/stages/Classify.h"

#include "mosaic/abi/Trace.h"
#include "mosaic/support/Text.h"
#include "mosaic/testcase/Lifetime.h"

#include <algorithm>
#include <fmt/format.h>
#include <bit>
#include <functional>
#include <cctype>
#include <cstring>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

namespace mosaic::stages {

using testcase::Op;
using testcase::Ref;
using testcase::Statement;
using testcase::TestCase;

const char *toString(FailureClass c) {
  switch (c) {
  case FailureClass::Defect: return "defect";
  case FailureClass::Robustness: return "robustness";
  case FailureClass::Misuse: return "misuse";
  }
  return "?";
}

bool internal(const testcase::Catalog &catalog, const model::Callable &c) { return catalog.internalCallable(c); }

namespace {

using testcase::isCall;

// A call's arguments (its receiver excluded) and the parameter each fills.
struct Argument {
  Ref ref;
  const model::Param *param; // null for an extra argument of a variadic call
};

std::vector<Argument> argumentsOf(const model::Program &p, const Statement &s) {
  std::vector<Argument> out;
  const model::Callable &c = p.callable(s.callable);
  const size_t offset = s.op == Op::MethodCall ? 1 : 0;
  for (size_t k = offset; k < s.refs.size(); ++k) {
    const size_t i = k - offset;
    out.push_back({s.refs[k], i < c.params.size() ? &c.params[i] : nullptr});
  }
  return out;
}

std::string callName(const model::Program &p, const Statement &s) {
  return p.callable(s.callable).qualifiedName + "()";
}

// " (the result of f())" when `v` is a call, "" otherwise: how a message
// names where a null it quotes came from.
std::string resultOf(const model::Program &p, const Statement &v) {
  return isCall(v.op) ? " (the result of " + callName(p, v) + ")" : "";
}

std::string paramName(const Argument &a, size_t index) {
  if (a.param && !a.param->name.empty()) return a.param->name;
  return "argument " + std::to_string(index + 1);
}

// Statement `i` and every statement it depends on, directly or not,
// going on past a statement j != i only while `through(j)`.
std::set<size_t> coneThrough(const TestCase &t, size_t i, const std::function<bool(size_t)> &through) {
  std::set<size_t> seen;
  std::vector<size_t> work{i};
  while (!work.empty()) {
    const size_t j = work.back();
    work.pop_back();
    if (j >= t.statements.size() || !seen.insert(j).second) continue;
    if (j != i && through && !through(j)) continue;
    for (Ref r : t.statements[j].refs)
      if (r != testcase::kNoRef && r < j) work.push_back(r);
  }
  return seen;
}

std::set<size_t> cone(const TestCase &t, size_t i) { return coneThrough(t, i, nullptr); }

// The cone of statement `i` without what made the numbers in it: a call
// that returned a scalar (an integer, a character, a bool, an enumerator,
// a floating value) stands for its value alone, not for the objects it took.
std::set<size_t> objectCone(const testcase::Catalog &catalog, const TestCase &t, size_t i) {
  return coneThrough(t, i, [&](size_t j) {
    const Statement &s = t.statements[j];
    return s.op != Op::Call || !catalog.isScalar(catalog.program().callable(s.callable).result);
  });
}

// Whether argument `a` is for a callback parameter (a function pointer or
// a std::function).
bool callbackArgument(const model::Program &p, const Argument &a) {
  if (!a.param) return false;
  const model::TypeKind kind = p.type(p.type(a.param->type).value).kind;
  return kind == model::TypeKind::FunctionPointer || kind == model::TypeKind::StdFunction;
}

// Whether statement `r` is one of `objects` or the address of one
// (`mp_int *a = &x; ... mp_int *op = &x;` are two statements for one object).
bool oneOf(const TestCase &t, const std::set<size_t> &objects, Ref r) {
  if (objects.count(r)) return true;
  if (r >= t.statements.size()) return false;
  const Statement &h = t.statements[r];
  return h.op == Op::AddressOf && !h.refs.empty() && objects.count(h.refs[0]) > 0;
}

// The cone of call `i`, and that of each earlier call on one of its objects
// (objectCone): what the test gave the objects the failing call works on
// (libogg's oggpack_adv(&b, -943) before oggpack_read(&b, 0); muParserX's
// reader.AddValueReader(&stub) before reader.Clone()).
std::set<size_t> coneWithEarlierCalls(const testcase::Catalog &catalog, const TestCase &t, size_t i) {
  std::set<size_t> values = cone(t, i);
  const auto objects = objectCone(catalog, t, i);
  for (size_t j = 0; j < i; ++j) {
    const Statement &u = t.statements[j];
    if (isCall(u.op) && std::any_of(u.refs.begin(), u.refs.end(), [&](Ref r) { return oneOf(t, objects, r); }))
      values.merge(cone(t, j));
  }
  return values;
}

// The values the test built and handed to call `i`: its arguments, and
// what they hold through addresses, aggregates and arrays, without going
// into calls (whose results the API made).
std::vector<size_t> builtValues(const TestCase &t, size_t i) {
  std::vector<size_t> out, work(t.statements[i].refs.begin(), t.statements[i].refs.end());
  std::set<size_t> seen;
  while (!work.empty()) {
    const size_t j = work.back();
    work.pop_back();
    if (j >= t.statements.size() || !seen.insert(j).second) continue;
    out.push_back(j);
    const Op op = t.statements[j].op;
    if (op == Op::AddressOf || op == Op::Aggregate || op == Op::Array)
      for (Ref r : t.statements[j].refs)
        if (r != testcase::kNoRef && r < j) work.push_back(r);
  }
  return out;
}

// Whether statement `r` is value `j` or holds it: its address, an array
// of it, a struct the test filled with its address, at any depth (refs
// point backwards, so this ends).
bool holdsValue(const TestCase &t, Ref r, size_t j) {
  if (r == j) return true;
  if (r >= t.statements.size() || r < j) return false;
  const Statement &h = t.statements[r];
  if (h.op != Op::AddressOf && h.op != Op::Array && h.op != Op::Aggregate) return false;
  return std::any_of(h.refs.begin(), h.refs.end(),
                     [&](Ref e) { return e != testcase::kNoRef && e < r && holdsValue(t, e, j); });
}

// Whether a field of record `r` is a data pointer.
bool hasPointerField(const model::Program &p, const model::Record &r) {
  return std::any_of(r.fields.begin(), r.fields.end(),
                     [&](const model::Field &f) { return p.type(p.type(f.type).value).kind == model::TypeKind::Pointer; });
}

// Whether statement `j`'s result was a null pointer when the test ran.
bool nullAtRunTime(const std::vector<exec::Observation> &obs, size_t j) {
  for (const exec::Observation &o : obs)
    if (o.statement == j && o.target == MOSAIC_OBS_RESULT && o.field == -1 && o.kind == MOSAIC_OBS_NULL)
      return o.integer == 1;
  return false;
}

// The last call before statement `i` that was given variable `v`'s address
// and left it NULL (utf8proc_map(str, 0, &dst, ...) sets dst to NULL on an
// error), as the observations of what calls wrote say; none when none did.
// A pointer variable whose last writer's effect was not observed (the run
// alone did not repeat the failure in time) counts, unobserved: it may be
// NULL (libonig's onigenc_get_right_adjust_char_head_with_prev(enc, start,
// start, &start) leaves no character before the start), and a test that
// passes it on makes no claim on plain values.
struct Nulled {
  size_t by = 0;
  bool observed = true;
};
std::optional<Nulled> nulledThrough(const model::Program &p, const TestCase &t,
                                    const std::vector<exec::Observation> &obs, Ref v, size_t i) {
  std::optional<Nulled> last;
  const bool pointer = p.type(p.type(t.statements[v].type).value).kind == model::TypeKind::Pointer;
  for (size_t j = v + 1; j < i; ++j) {
    if (!isCall(t.statements[j].op)) continue;
    const auto args = argumentsOf(p, t.statements[j]);
    for (size_t m = 0; m < args.size(); ++m) {
      const Ref r = args[m].ref;
      if (r >= t.statements.size() || t.statements[r].op != Op::AddressOf || t.statements[r].refs.empty() ||
          t.statements[r].refs[0] != v)
        continue;
      bool seen = false;
      for (const exec::Observation &o : obs)
        if (o.statement == j && o.target == MOSAIC_OBS_ARG0 + m && o.field == -1) {
          seen = true;
          last = o.kind == MOSAIC_OBS_NULL && o.integer == 1 ? std::optional<Nulled>(Nulled{j, true}) : std::nullopt;
        }
      if (!seen && pointer) last = Nulled{j, false};
    }
  }
  return last;
}

// Whether `type` is a pointer to a record (an object a callee reads).
bool pointerToRecord(const model::Program &p, model::TypeId type) {
  const model::Type &t = p.type(p.type(type).value);
  return t.kind == model::TypeKind::Pointer && t.pointee && p.type(p.type(*t.pointee).value).kind == model::TypeKind::Record;
}

// Whether statement `j` is a null pointer: a literal NULL, or a call
// whose result was null when the test ran.
bool nullValue(const TestCase &t, const std::vector<exec::Observation> &obs, size_t j) {
  const Statement &v = t.statements[j];
  return v.op == Op::Null || (isCall(v.op) && nullAtRunTime(obs, j));
}

// How statement `j`'s result said it failed, when it did by the plainest
// conventions: a negative status (mp_init_size's MP_VAL, deflateInit's
// Z_STREAM_ERROR), false, or a null pointer; "" when it did not or was not
// observed.
std::string failedResult(const std::vector<exec::Observation> &obs, size_t j) {
  for (const exec::Observation &o : obs) {
    if (o.statement != j || o.target != MOSAIC_OBS_RESULT || o.field != -1) continue;
    if (o.kind == MOSAIC_OBS_INT && o.integer < 0) return std::to_string(o.integer);
    if (o.kind == MOSAIC_OBS_BOOL && o.integer == 0) return "false";
    if (o.kind == MOSAIC_OBS_NULL && o.integer == 1) return "NULL";
  }
  return "";
}

std::string typeName(const model::Program &p, model::TypeId t) { return p.type(t).spelling; }

// The record a statement's variable is, or points to.
std::optional<model::RecordId> recordOf(const model::Program &p, model::TypeId id) {
  const model::Type &t = p.type(p.type(id).value);
  if (t.kind == model::TypeKind::Record) return t.recordId;
  if ((t.kind == model::TypeKind::Pointer || t.kind == model::TypeKind::Reference) && t.pointee) {
    const model::Type &to = p.type(p.type(*t.pointee).value);
    if (to.kind == model::TypeKind::Record) return to.recordId;
  }
  return {};
}

// Whether `id` points to a wide character type (wchar_t, char16_t,
// char32_t), which the model keeps as integers: a wide string's elements.
bool wideCharPointer(const model::Program &p, model::TypeId id) {
  const model::Type &t = p.type(p.type(id).value);
  if (t.kind != model::TypeKind::Pointer || !t.pointee) return false;
  const std::string &c = p.type(p.type(*t.pointee).value).canonical;
  return c == "wchar_t" || c == "char16_t" || c == "char32_t";
}

size_t bytesOf(const Statement &s) {
  switch (s.op) {
  case Op::Buffer:
  case Op::StdString: return s.bytes.size();
  case Op::CString: return s.bytes.size() + 1; // and its NUL
  case Op::Array: return s.refs.size();
  default: return SIZE_MAX;
  }
}

// The integer or character statement `r` is the address of (`&byte`), if it is one.
const Statement *addressedPrimitive(const TestCase &t, Ref r) {
  const Statement &s = t.statements[r];
  if (s.op != Op::AddressOf || s.refs.empty() || s.refs[0] >= t.statements.size()) return nullptr;
  const Statement &v = t.statements[s.refs[0]];
  return v.op == Op::Primitive ? &v : nullptr;
}

// How many elements the value of statement `r` points at: a buffer's or an
// array's, or 1 for the address of a single variable (`&byte`).
size_t elementsAt(const TestCase &t, Ref r) { return addressedPrimitive(t, r) ? 1 : bytesOf(t.statements[r]); }

// The bytes, in memory order (little-endian), of what statement `r`
// points at when that is scalars: an array of them, or the address of one
// (`&value`); nullopt otherwise.
std::optional<std::string> scalarBytes(const model::Program &p, const TestCase &t, Ref r) {
  const Statement &v = t.statements[r];
  std::vector<Ref> elements;
  if (v.op == Op::Array) elements = v.refs;
  else if (addressedPrimitive(t, r)) elements = {v.refs[0]};
  else return std::nullopt;
  std::string out;
  for (Ref e : elements) {
    if (e >= t.statements.size() || t.statements[e].op != Op::Primitive) return std::nullopt;
    const Statement &x = t.statements[e];
    const model::Type &ty = p.type(p.type(x.type).value);
    if (ty.bits == 0 || ty.bits % 8 != 0 || ty.bits > 64) return std::nullopt;
    std::uint64_t bits = x.bits;
    if (ty.kind == model::TypeKind::Floating && ty.bits == 32) { // the bits of a double, as a float's
      const float narrow = static_cast<float>(std::bit_cast<double>(x.bits));
      bits = std::bit_cast<std::uint32_t>(narrow);
    }
    for (unsigned k = 0; k < ty.bits / 8; ++k) out.push_back(static_cast<char>((bits >> (8 * k)) & 0xff));
  }
  return out;
}

// Whether a parameter is an in-out length: a non-const pointer to an
// integer named like a length (zlib's `uLongf *destLen`, `size_t *size`).
// Whether a parameter's name says it is a length: a word ending in len,
// length, size or count (libtommath's `outlen`, `buflen`, `bufsize`), or
// the word capacity or avail.
bool lengthName(const std::string &name) {
  for (std::string w : identifierWords(name)) {
    std::transform(w.begin(), w.end(), w.begin(), [](unsigned char c) { return std::tolower(c); });
    for (const char *end : {"len", "length", "size", "count"})
      if (w.ends_with(end)) return true;
    if (w == "capacity" || w == "avail") return true;
  }
  return false;
}

bool inOutLength(const model::Program &p, const model::Param &param) {
  const model::Type &t = p.type(p.type(param.type).value);
  if (t.kind != model::TypeKind::Pointer || t.pointeeConst || !t.pointee) return false;
  if (p.type(p.type(*t.pointee).value).kind != model::TypeKind::Integer) return false;
  return lengthName(param.name);
}

// A name's words (identifierWords), lower-case.
std::vector<std::string> words(const std::string &name) {
  std::vector<std::string> out;
  for (const std::string &w : identifierWords(name)) out.push_back(lowercase(w));
  return out;
}

// Whether `callable` lends a pointer into something it was given rather
// than handing one over, by the naming C APIs follow: a getter, peek,
// find or lookup (cJSON_GetStringValue, json_object_get_string) returns
// memory its argument owns; one that also names a copy, a duplicate or an
// allocation hands it over, and so does one whose words (past the API's
// prefix) a release function of the API repeats (yajl_get_error's string,
// which yajl_free_error frees).
bool lendsItsResult(const model::Program &p, const model::Callable &callable) {
  if (callable.globalObject) return true; // the library's own object
  const std::vector<std::string> own = words(callable.name);
  bool lends = false;
  for (const std::string &word : own) {
    if (word == "get" || word == "peek" || word == "find" || word == "lookup" || word == "borrow") lends = true;
    if (word == "copy" || word == "dup" || word == "strdup" || word == "new" || word == "alloc" || word == "create" ||
        word == "detach" || word == "take" || word == "steal" || word == "release")
      return false;
  }
  if (!lends || callable.params.empty()) return false;
  for (const model::Callable &r : p.callables) {
    if (!testcase::releasedParam(p, r)) continue;
    // Past the words the two names start with (the API's prefix: yajl;
    // cJSON's c, json).
    const std::vector<std::string> theirs = words(r.name);
    size_t prefix = 0;
    while (prefix < theirs.size() && prefix < own.size() && theirs[prefix] == own[prefix]) ++prefix;
    for (size_t k = prefix; k < theirs.size(); ++k)
      if (!testcase::isDestroyerName(theirs[k]) && std::find(own.begin() + prefix, own.end(), theirs[k]) != own.end())
        return false;
  }
  return true;
}

// Whether `callable` takes over a buffer it is given, by its name: a word
// own, adopt, steal or take (pugixml's load_buffer_inplace_own).
bool takesOver(const model::Callable &callable) {
  for (const std::string &word : words(callable.name))
    if (word == "own" || word == "adopt" || word == "steal" || word == "take") return true;
  return false;
}

// What statement `s` releases, when it is a call of a release function
// (testcase::releasedParam): the object, an index into the test.
std::optional<Ref> releasedBy(const model::Program &p, const Statement &s) {
  if (!isCall(s.op)) return std::nullopt;
  const auto gone = testcase::releasedParam(p, p.callable(s.callable));
  const auto args = argumentsOf(p, s);
  if (!gone || *gone >= args.size()) return std::nullopt;
  return args[*gone].ref;
}

// The first argument of statement `v` that an earlier call made, an
// object of `record`. An index into the test, or nullopt.
std::optional<Ref> argumentOfRecord(const model::Program &p, const TestCase &t, Ref v, model::RecordId record) {
  for (Ref r : t.statements[v].refs)
    if (r < v && isCall(t.statements[r].op))
      if (const auto type = testcase::variableType(p, t, r); type && recordOf(p, *type) == record) return r;
  return std::nullopt;
}

// The object statement `v` is a part of, when it is one: the result of a
// call that took an object of its own record type and names no copy,
// duplicate or detach (cJSON_AddStringToObject(object, ...) returns the
// item it added, which `object` owns now; cJSON_GetArrayItem(array, 0)
// one it holds). An index into the test, or nullopt.
std::optional<Ref> ownerOf(const model::Program &p, const TestCase &t, Ref v) {
  const Statement &made = t.statements[v];
  if (made.op != Op::Call && made.op != Op::MethodCall) return std::nullopt;
  const model::Callable &c = p.callable(made.callable);
  // A maker given the parent of what it makes, whatever its name (mxml's
  // mxmlNewElement(parent, name), libxml2's xmlNewChild(parent, ...)): the
  // parent holds the new node, and releasing it releases the node.
  if (const auto part = recordOf(p, c.result); part && made.op == Op::Call)
    for (const Argument &a : argumentsOf(p, made)) {
      if (!a.param || a.ref >= v || !isCall(t.statements[a.ref].op)) continue;
      const auto words_ = words(a.param->name);
      const auto type = testcase::variableType(p, t, a.ref);
      if (std::find(words_.begin(), words_.end(), "parent") != words_.end() && type && recordOf(p, *type) == part)
        return a.ref;
    }
  for (const std::string &word : words(c.name))
    if (word == "copy" || word == "dup" || word == "duplicate" || word == "clone" || word == "new" ||
        word == "create" || word == "alloc" || word == "detach" || word == "take" || word == "steal" ||
        word == "parse" || word == "read" || word == "load")
      return std::nullopt;
  const auto part = recordOf(p, c.result);
  if (!part) return std::nullopt;
  return argumentOfRecord(p, t, v, *part);
}

// The argument a C function takes into an object of its own record type,
// which then owns it: a name that adds (add, insert, append, prepend, push,
// replace, attach, adopt) and names no reference, copy or duplicate, a
// first parameter that is a non-const pointer to a record (the container),
// and a later one to the same record, the last such (the item:
// cJSON_AddItemToArray(array, item); cJSON_ReplaceItemViaPointer(parent,
// item, replacement) takes `replacement`). Its index, or nullopt.
std::optional<size_t> adoptedArgument(const model::Program &p, const Statement &s) {
  if (s.op != Op::Call) return std::nullopt;
  const model::Callable &c = p.callable(s.callable);
  bool adds = false;
  for (const std::string &word : words(c.name)) {
    if (word == "add" || word == "insert" || word == "append" || word == "prepend" || word == "push" ||
        word == "replace" || word == "attach" || word == "adopt")
      adds = true;
    if (word == "reference" || word == "ref" || word == "copy" || word == "dup" || word == "duplicate" ||
        word == "clone" || word == "detach" || word == "remove")
      return std::nullopt;
  }
  const auto recordPointer = [&](const model::Param &param) -> std::optional<model::RecordId> {
    const model::Type &t = p.type(p.type(param.type).value);
    if (t.kind != model::TypeKind::Pointer || t.pointeeConst) return std::nullopt;
    return recordOf(p, param.type);
  };
  if (!adds || c.params.size() < 2) return std::nullopt;
  const auto container = recordPointer(c.params[0]);
  if (!container) return std::nullopt;
  for (size_t k = c.params.size(); k-- > 1;)
    if (recordPointer(c.params[k]) == container) return k;
  return std::nullopt;
}

// Whether a call between `from` and `to` (exclusive) takes `item` out of
// what holds it (a detach, remove or take given the item itself:
// cJSON_DetachItemViaPointer(parent, item)), so that it may go elsewhere.
bool detachedBetween(const model::Program &p, const TestCase &t, Ref item, size_t from, size_t to) {
  for (size_t j = from + 1; j < to; ++j) {
    const Statement &u = t.statements[j];
    if (!isCall(u.op) || std::find(u.refs.begin(), u.refs.end(), item) == u.refs.end()) continue;
    for (const std::string &word : words(p.callable(u.callable).name))
      if (word == "detach" || word == "remove" || word == "take" || word == "steal") return true;
  }
  return false;
}

// The object a call's result refers to without owning it: a call whose
// name says reference (cJSON_CreateObjectReference(child)) given an object
// of the result's own record type. An index into the test, or nullopt.
std::optional<Ref> referentOf(const model::Program &p, const TestCase &t, Ref v) {
  const Statement &made = t.statements[v];
  if (made.op != Op::Call) return std::nullopt;
  const model::Callable &c = p.callable(made.callable);
  const auto ws = words(c.name);
  if (std::find(ws.begin(), ws.end(), "reference") == ws.end()) return std::nullopt;
  const auto record = recordOf(p, c.result);
  if (!record) return std::nullopt;
  return argumentOfRecord(p, t, v, *record);
}

// Ownership gone wrong, up to statement `i`, as a C programmer reads the
// calls: an item given to a second owner (adoptedArgument) while the first
// still holds it (given earlier to another container, or to the same one;
// or a part of an object already, ownerOf: cJSON_GetArrayItem(a, 0) added
// to b); an object made a part of itself (given to its own part:
// cJSON_InsertItemInArray(cJSON_AddObjectToObject(o, "k"), 0, o)); a
// detach, remove or replace of an item its parent does not hold, or of
// what holds the parent; an item released by the test while what it was
// given to, or what it is a part of, still holds it (cJSON_Delete of what
// cJSON_AddNullToObject(o, "k") returned, then o used); an item, or a
// reference to one (referentOf), used after what held it, or what it
// refers to, was released. Each holder then frees or walks it as its own:
// the crash that follows is the test's doing, when the failing call works
// on one of the objects concerned (`relevant`, given them and what holds
// each, at any depth). "" when there is none, else what happened.
std::string sharedOwnership(const model::Program &p, const TestCase &t, size_t i,
                            const std::function<bool(const std::set<size_t> &)> &relevant) {
  struct Adoption {
    size_t at;
    Ref item, container;
  };
  std::vector<Adoption> adoptions;
  // Whether a call between `from` and `to` (exclusive) released `x`.
  const auto releasedBetween = [&](Ref x, size_t from, size_t to) {
    for (size_t j = from + 1; j < to; ++j)
      if (releasedBy(p, t.statements[j]) == x) return true;
    return false;
  };
  // What held `x` at statement `at`, and since when: its last adoption not
  // undone by a detach since, else the object it is a part of.
  const auto heldBy = [&](Ref x, size_t at) -> std::optional<std::pair<Ref, size_t>> {
    for (auto a = adoptions.rbegin(); a != adoptions.rend(); ++a)
      if (a->item == x) {
        if (detachedBetween(p, t, x, a->at, at)) return std::nullopt;
        return std::pair{a->container, a->at};
      }
    if (const auto owner = ownerOf(p, t, x); owner && !detachedBetween(p, t, x, x, at)) return std::pair{*owner, x};
    return std::nullopt;
  };
  // ... and still holds it: nothing once that holder was released (what
  // follows is argumentMisuse's).
  const auto holder = [&](Ref x, size_t at) -> std::optional<std::pair<Ref, size_t>> {
    const auto h = heldBy(x, at);
    if (h && releasedBetween(h->first, h->second, at)) return std::nullopt;
    return h;
  };
  // `x` and what holds it, at any depth (chains of at most 64: ours).
  const auto withHolders = [&](Ref x, size_t at) {
    std::vector<Ref> chain{x};
    for (int depth = 0; depth < 64; ++depth) {
      const auto h = heldBy(chain.back(), at);
      if (!h || std::find(chain.begin(), chain.end(), h->first) != chain.end()) break;
      chain.push_back(h->first);
    }
    return chain;
  };
  const auto holds = [&](Ref x, Ref y, size_t at) {
    const auto chain = withHolders(y, at);
    return std::find(chain.begin() + 1, chain.end(), x) != chain.end();
  };
  // The objects concerned: each, what holds it, and what a reference among
  // them refers to (cJSON_ReplaceItemInArray(ref, 0, ref) of a reference
  // to o breaks o).
  const auto concerned = [&](std::initializer_list<Ref> objects, size_t at) {
    std::set<size_t> all;
    for (Ref o : objects)
      for (Ref h : withHolders(o, at)) {
        all.insert(h);
        if (const auto r = referentOf(p, t, h))
          for (Ref rh : withHolders(*r, at)) all.insert(rh);
      }
    return relevant(all);
  };
  for (size_t j = 0; j <= i && j < t.statements.size(); ++j) {
    const Statement &u = t.statements[j];
    if (!isCall(u.op)) continue;
    const auto uargs = argumentsOf(p, u);
    const auto valid = [&](size_t k) { return k < uargs.size() && uargs[k].ref < t.statements.size(); };
    for (size_t k = 0; k < uargs.size(); ++k) {
      if (!valid(k)) continue;
      const Ref x = uargs[k].ref;
      // An item used after what held it, at any depth, was released.
      const auto chain = withHolders(x, j);
      for (size_t h = 1; h < chain.size(); ++h)
        if (releasedBetween(chain[h], chain[h - 1] < chain[h] ? chain[h] : chain[h - 1], j) &&
            concerned({x}, j))
          return fmt::format("{} uses an object released with what held it (made by {})", callName(p, u),
                             callName(p, t.statements[chain[h]]));
      // A reference used after what it refers to was released.
      if (const auto r = referentOf(p, t, x))
        for (Ref h : withHolders(*r, j))
          if (releasedBetween(h, std::max(h, x), j) && concerned({x, *r}, j))
            return fmt::format("{} uses a reference ({}) to an object released since", callName(p, u),
                               callName(p, t.statements[x]));
    }
    const auto adopted = adoptedArgument(p, u);
    if (adopted && valid(*adopted) && valid(0)) {
      const Adoption now{j, uargs[*adopted].ref, uargs[0].ref};
      if ((now.item == now.container || holds(now.item, now.container, j)) && concerned({now.item, now.container}, j))
        return fmt::format("{} makes an object a part of itself: it gives it to one of its own parts",
                           callName(p, u));
      if (const auto before = holder(now.item, j); before && concerned({now.item, now.container, before->first}, j)) {
        if (before->second == now.item)
          return fmt::format("{} gives an object a second owner: it is a part of what {} was given", callName(p, u),
                             callName(p, t.statements[now.item]));
        return fmt::format("{} gives an object a second owner: {} had given it to {}", callName(p, u),
                           callName(p, t.statements[before->second]),
                           before->first == now.container ? "the same one" : "another");
      }
      adoptions.push_back(now);
    }
    // A detach, remove or replace given an item its parent does not hold
    // (it is held by nothing, or by another), or what holds the parent
    // (cJSON_DetachItemViaPointer(part, whole)).
    bool takesOut = false;
    for (const std::string &word : words(p.callable(u.callable).name))
      takesOut |= word == "detach" || word == "remove" || word == "replace";
    if (takesOut && valid(0) && u.op == Op::Call && p.callable(u.callable).params.size() == uargs.size()) {
      const auto parentRecord = recordOf(p, p.callable(u.callable).params[0].type);
      for (size_t k = 1; parentRecord && k < uargs.size(); ++k) {
        if (!valid(k) || adopted == k || recordOf(p, p.callable(u.callable).params[k].type) != parentRecord) continue;
        const Ref parent = uargs[0].ref, item = uargs[k].ref;
        if (item == parent || !concerned({parent, item}, j)) continue;
        if (holds(item, parent, j))
          return fmt::format("{} takes out of an object what holds that object", callName(p, u));
        if (!holds(parent, item, j))
          return fmt::format("{} takes out of an object an item it does not hold", callName(p, u));
      }
    }
    const auto gone = releasedBy(p, u);
    if (!gone || *gone >= t.statements.size()) continue;
    if (const auto h = holder(*gone, j); h && concerned({*gone, h->first}, j)) {
      if (h->second == *gone)
        return fmt::format("{} releases a part of the object {} was given, which still holds it", callName(p, u),
                           callName(p, t.statements[*gone]));
      return fmt::format("{} releases an object that {} had given to another, which still holds it", callName(p, u),
                         callName(p, t.statements[h->second]));
    }
  }
  return "";
}

// The functions named like an initialiser (testcase::isInitialiserName)
// with a non-const pointer parameter to `record` anywhere in their list,
// and those that fill one with the library's defaults
// (model::defaultsFilled), callable or not (Catalog::initialisers: the
// callable ones).
std::vector<model::CallableId> initialisersAnywhere(const model::Program &p, model::RecordId record) {
  std::vector<model::CallableId> out;
  for (const model::Callable &c : p.callables) {
    if (model::defaultsFilled(p, c) == record) {
      out.push_back(c.id);
      continue;
    }
    if (c.kind != model::CallableKind::Function || !testcase::isInitialiserName(c.name)) continue;
    for (const model::Param &param : c.params) {
      const model::Type &t = p.type(p.type(param.type).value);
      if (t.kind == model::TypeKind::Pointer && !t.pointeeConst && t.pointee && recordOf(p, param.type) == record) {
        out.push_back(c.id);
        break;
      }
    }
  }
  return out;
}

// Whether `id` points to C strings (`const char *const *`, `char **`).
bool pointsToCStrings(const testcase::Catalog &catalog, model::TypeId id) {
  const model::Program &p = catalog.program();
  const model::Type &t = p.type(p.type(id).value);
  return t.kind == model::TypeKind::Pointer && t.pointee && catalog.isCharPointer(*t.pointee);
}

// Whether statement `v` is bytes with no NUL (a Buffer, or an Array of
// integer elements none of which is 0).
bool unterminated(const TestCase &t, const Statement &v) {
  if (v.op == Op::Buffer) return v.bytes.find('\0') == std::string::npos;
  return v.op == Op::Array && !v.refs.empty() && std::none_of(v.refs.begin(), v.refs.end(), [&](Ref e) {
           return e < t.statements.size() && t.statements[e].op == Op::Primitive && t.statements[e].bits == 0;
         });
}

// Why aggregate `s` of record `r` (fields `fields`) is a tagged union the
// test built inconsistently: an enumeration field (msgpack_object's `type`)
// names the member its union field (`via`) holds by the API's convention
// (MSGPACK_OBJECT_ARRAY holds `array`), but the test set the union through
// its first member (the only one an aggregate can: `boolean`), which the
// tag does not name. "" when consistent, zeroed, or no enumerator names a
// member (no convention to go by).
std::string taggedUnionMismatch(const testcase::Catalog &catalog, const TestCase &t, const Statement &s,
                                const model::Record &r, const std::vector<size_t> &fields) {
  const model::Program &p = catalog.program();
  for (size_t ti = 0; ti < fields.size(); ++ti) {
    const model::Type &tagType = p.type(p.type(r.fields[fields[ti]].type).value);
    if (tagType.kind != model::TypeKind::Enum || !tagType.enumId || s.refs[ti] >= t.statements.size()) continue;
    const Statement &tag = t.statements[s.refs[ti]];
    if (tag.op != Op::Primitive) continue;
    const model::Enum &e = p.enums.at(*tagType.enumId);
    for (size_t ui = 0; ui < fields.size(); ++ui) {
      const auto urec = recordOf(p, r.fields[fields[ui]].type);
      if (!urec || p.type(p.type(r.fields[fields[ui]].type).value).kind != model::TypeKind::Record) continue;
      const model::Record &u = p.record(*urec);
      const auto ufields = catalog.aggregateFields(*urec);
      if (u.tag != model::RecordTag::Union || !ufields || ufields->empty() || s.refs[ui] >= t.statements.size())
        continue;
      const Statement &held = t.statements[s.refs[ui]];
      if (held.op != Op::Aggregate || held.refs.empty()) continue;
      const auto names = [&](const model::Enumerator &n, const std::string &member) {
        const auto w = words(n.name);
        return std::find(w.begin(), w.end(), lowercase(member)) != w.end();
      };
      const bool convention = std::any_of(e.enumerators.begin(), e.enumerators.end(), [&](const model::Enumerator &n) {
        return std::any_of(u.fields.begin(), u.fields.end(), [&](const model::Field &f) { return names(n, f.name); });
      });
      const std::string &member = u.fields[ufields->front()].name;
      const auto value = static_cast<std::int64_t>(tag.bits);
      const auto it = std::find_if(e.enumerators.begin(), e.enumerators.end(),
                                   [&](const model::Enumerator &n) { return n.value == value; });
      if (!convention || it == e.enumerators.end() || names(*it, member)) continue;
      return fmt::format("a {} built by hand whose {} ({}) does not name the member of its {} the test set ({})",
                         r.name, r.fields[fields[ti]].name, it->name, r.fields[fields[ui]].name, member);
    }
  }
  return "";
}

// Whether `id` is `void *` (or `const void *`).
bool voidPointer(const model::Program &p, model::TypeId id) {
  const model::Type &t = p.type(p.type(id).value);
  return t.kind == model::TypeKind::Pointer && t.pointee && p.type(*t.pointee).kind == model::TypeKind::Void;
}

// Whether `c` takes an integer no other buffer claims that may be a
// length (unnamed, or named like one: LZ4_compress_fast_extState(state,
// src, dst, srcSize, dstCapacity, acceleration) has none left for
// `state`) or, with `inOut`, a length through a pointer (inOutLength).
bool takesALength(const model::Program &p, const model::Callable &c, bool inOut) {
  return std::any_of(c.params.begin(), c.params.end(), [&](const model::Param &q) {
    const bool free = (q.role != model::ParamRole::Length || !q.pairedWith) && (q.name.empty() || lengthName(q.name));
    return (free && p.type(p.type(q.type).value).kind == model::TypeKind::Integer) || (inOut && inOutLength(p, q));
  });
}

// Whether `c` makes a `void *` handle: it returns one and takes no integer
// (a size would make it an allocator, cJSON_malloc).
bool makesVoidHandle(const model::Program &p, const model::Callable &c) {
  return voidPointer(p, c.result) && !takesALength(p, c, false);
}

// A public function of the unit that makes `void *` handles (jansson's
// json_object_iter), or nullptr.
const model::Callable *voidHandleMaker(const testcase::Catalog &catalog) {
  for (const model::Callable &c : catalog.program().callables)
    if (c.declaredInHeader && !internal(catalog, c) && makesVoidHandle(catalog.program(), c)) return &c;
  return nullptr;
}

// Whether record `r` is an iterator: its name ends in `iterator`, any case
// (jsoncpp's ValueIteratorBase is not one by name, its ValueIterator is;
// the base's name has the word inside: `...IteratorBase`, also taken).
bool iteratorRecord(const model::Program &p, model::RecordId r) {
  std::string name = lowercase(p.record(r).name);
  if (const size_t colon = name.rfind(':'); colon != std::string::npos) name = name.substr(colon + 1);
  return name.find("iterator") != std::string::npos;
}

// Why call `i`, on an iterator, uses one no C++ caller may: a
// default-constructed (singular) one, or one a call returned that the test
// never compared with anything (an end() iterator, or begin() of an empty
// container: jsoncpp's Value(0u).begin().key()); "" when neither.
std::string singularIterator(const model::Program &p, const TestCase &t, size_t i) {
  const Statement &call = t.statements[i];
  if (call.op != Op::MethodCall || call.refs.empty() || call.refs[0] >= i) return "";
  const model::Callable &c = p.callable(call.callable);
  if (c.name == "operator=" || c.name == "operator==" || c.name == "operator!=") return "";
  Ref it = call.refs[0];
  const auto vt = testcase::variableType(p, t, it);
  const auto rec = vt ? recordOf(p, *vt) : std::nullopt;
  if (!rec || !iteratorRecord(p, *rec)) return "";
  // Through copies to the iterator they copy (each one the same iterator).
  std::set<Ref> same{it};
  while (testcase::copies(p, t.statements[it]) && t.statements[it].refs[0] < it)
    same.insert(it = t.statements[it].refs[0]);
  const Statement &made = t.statements[it];
  if (made.op == Op::Construct && made.refs.empty())
    return fmt::format("calls {} on a default-constructed {}, a singular iterator (only assigning to it is valid)",
                       callName(p, call), p.record(*rec).name);
  if (!isCall(made.op) || made.op == Op::Construct) return "";
  for (size_t j = it + 1; j < i; ++j) {
    const Statement &u = t.statements[j];
    if (!testcase::copies(p, u) && std::any_of(u.refs.begin(), u.refs.end(), [&](Ref r) { return same.count(r) > 0; }))
      return "";
  }
  return fmt::format("calls {} on the iterator {} returned, never compared with an end", callName(p, call),
                     callName(p, made));
}

// Call `i` given the address of a variable of the test's as a `void *`
// parameter (no role, or user data) that it reads as an object of its own
// (its argument `only`, or any): "F() the address of a T as p (void *),
// which it reads as an object of its own"; "" when none.
std::string ownObjectThroughVoid(const model::Program &p, const TestCase &t, size_t i,
                                 std::optional<size_t> only = std::nullopt) {
  const Statement &call = t.statements[i];
  if (!isCall(call.op)) return "";
  const auto args = argumentsOf(p, call);
  for (size_t k = 0; k < args.size(); ++k) {
    if (only && k != *only) continue;
    const Argument &a = args[k];
    if (!a.param || a.ref >= t.statements.size() || t.statements[a.ref].op != Op::AddressOf) continue;
    const model::Type &pt = p.type(a.param->type);
    if (pt.kind == model::TypeKind::Pointer && pt.pointee && p.type(*pt.pointee).kind == model::TypeKind::Void &&
        (a.param->role == model::ParamRole::None || a.param->role == model::ParamRole::UserData))
      return fmt::format("{} the address of a {} as {} (void *), which it reads as an object of its own",
                         callName(p, call), typeName(p, t.statements[t.statements[a.ref].refs[0]].type), paramName(a, k));
  }
  return "";
}

// (c): why call `i` (or what made its arguments) is misuse; "" when it is not.
// (c) by call `i`'s own arguments: a length beyond its buffer, bytes with no
// NUL as a string, a release of what the API did not allocate, the test's
// own object as the callee's `void *`; "" when none.
std::string argumentMisuse(const testcase::Catalog &catalog, const TestCase &t, size_t i) {
  const model::Program &p = catalog.program();
  const Statement &call = t.statements[i];
  if (!isCall(call.op)) return "";
  // A struct whose length field is beyond its buffer field (z_stream's
  // avail_in beyond next_in): no callee can check that either.
  for (size_t j : builtValues(t, i)) {
    const Statement &s = t.statements[j];
    const auto rec = s.op == Op::Aggregate ? recordOf(p, s.type) : std::nullopt;
    // The C library's own handles, which only it makes (fopen, opendir):
    // a zeroed FILE is no stream (libconfig's Config::read(&file)).
    if (rec) {
      const model::Record &h = p.record(*rec);
      if (h.inSystemHeader && (h.name == "FILE" || h.name == "_IO_FILE" || h.name == "DIR" || h.name == "__dirstream"))
        return fmt::format("gives {} a {} the test built by hand: only the C library makes one ({})",
                           callName(p, call), h.name, h.name == "DIR" || h.name == "__dirstream" ? "opendir" : "fopen");
    }
    const auto fields = rec ? catalog.aggregateFields(*rec) : std::nullopt;
    if (!fields || fields->size() != s.refs.size()) continue;
    const model::Record &r = p.record(*rec);
    if (std::string why = taggedUnionMismatch(catalog, t, s, r, *fields); !why.empty())
      return fmt::format("gives {} {}", callName(p, call), why);
    for (size_t k = 0; k < fields->size(); ++k) {
      const model::Field &f = r.fields[(*fields)[k]];
      if (!f.pairedWith || f.isLength) continue;
      const auto at = std::find(fields->begin(), fields->end(), *f.pairedWith);
      if (at == fields->end()) continue;
      const Statement &buffer = t.statements[s.refs[k]], &length = t.statements[s.refs[at - fields->begin()]];
      const size_t have = bytesOf(buffer);
      if (length.op == Op::Primitive && have != SIZE_MAX && length.bits > have)
        return fmt::format("gives {} a {} whose {} ({}) is beyond its {} ({})", callName(p, call), r.name,
                           r.fields[*f.pairedWith].name, length.bits, f.name, have);
      if (length.op == Op::Primitive && length.bits > 0 && buffer.op == Op::Null)
        return fmt::format("gives {} a {} whose {} is NULL with a {} of {}", callName(p, call), r.name, f.name,
                           r.fields[*f.pairedWith].name, length.bits);
    }
  }
  const auto args = argumentsOf(p, call);
  const model::Callable &c = p.callable(call.callable);
  // A release given an array that holds one object twice (hiredis's
  // sdsfreesplitres({s, s}, 2) frees s twice).
  if (testcase::isDestroyerName(c.name))
    for (size_t a = 0; a < args.size(); ++a) {
      if (args[a].ref >= t.statements.size() || t.statements[args[a].ref].op != Op::Array) continue;
      std::vector<Ref> elements = t.statements[args[a].ref].refs;
      std::erase_if(elements, [&](Ref r) { return r >= t.statements.size() || t.statements[r].op == Op::Null; });
      std::sort(elements.begin(), elements.end());
      if (std::adjacent_find(elements.begin(), elements.end()) != elements.end())
        return fmt::format("gives {} an array holding one object twice as {}, and it releases each", callName(p, call),
                           paramName(args[a], a));
    }
  // The test's own bytes as a pointer only the API makes (hiredis's
  // sdscat(s, t) given a char array as the sds s: sdslen reads a header
  // before its first byte).
  for (size_t a = 0; a < args.size(); ++a) {
    if (!args[a].param || args[a].ref >= t.statements.size() || !catalog.apiPointer(args[a].param->type)) continue;
    const Statement &v = t.statements[args[a].ref];
    if (v.op != Op::CString && v.op != Op::Buffer && v.op != Op::Array) continue;
    const std::vector<model::CallableId> &makers = catalog.returning(args[a].param->type);
    return fmt::format("gives {} {} bytes of the test's own as {}, a {} only the API makes ({}())", callName(p, call),
                       bytesOf(v), paramName(args[a], a), p.type(p.type(args[a].param->type).value).spelling,
                       makers.empty() ? std::string("its functions") : p.callable(makers.front()).qualifiedName);
  }
  // NULL where the declaration says never (libzip's `zip_file_t
  // *_Nonnull`, glibc's `__nonnull ((1))`); given to the call that made an
  // argument (zip_error_init of what zip_file_get_error(NULL) returned),
  // it is that earlier call's misuse (misuse: earlier calls on the object).
  for (size_t a = 0; a < args.size(); ++a)
    if (args[a].ref < t.statements.size() && t.statements[args[a].ref].op == Op::Null && args[a].param &&
        args[a].param->nonnull)
      return fmt::format("gives {} NULL as {}, which it declares never NULL", callName(p, call), paramName(args[a], a));
  // A temporary file where the callee wants something else it converts to
  // (bzip2's BZ2_bzRead given a FILE * as its BZFILE *, a handle of its
  // own that BZ2_bzReadOpen makes; Catalog::standsFor).
  for (size_t a = 0; a < args.size(); ++a) {
    if (!args[a].param || args[a].ref >= t.statements.size()) continue;
    const Statement &v = t.statements[args[a].ref];
    if (v.op == Op::File && !catalog.standsFor(v, args[a].param, args[a].param->type))
      return fmt::format("gives {} a temporary file's {} as {}, a {}", callName(p, call), p.type(v.type).spelling,
                         paramName(args[a], a), p.type(args[a].param->type).spelling);
    // And the other way: a handle of the API's own (a typedef of a void
    // pointer: bzip2's BZFILE *) where a plain `void *` means something
    // else (records.c's records_sink(void *file), a FILE *, given its reader).
    const auto vt = testcase::variableType(p, t, args[a].ref);
    if (vt && catalog.plainVoidPointer(args[a].param->type) && catalog.voidHandle(*vt))
      return fmt::format("gives {} the API's {} as {}, a {} meant for something else", callName(p, call),
                         p.type(*vt).spelling, paramName(args[a], a), p.type(args[a].param->type).spelling);
  }
  // Fewer elements than a parameter declared as an array states (libmd's
  // SHA256Transform(uint32_t state[8], const uint8_t data[64]) given the
  // address of one uint32_t).
  for (size_t a = 0; a < args.size(); ++a) {
    if (!args[a].param || !args[a].param->declaredLength || args[a].ref == testcase::kNoRef) continue;
    const size_t have = elementsAt(t, args[a].ref);
    if (have != SIZE_MAX && have < *args[a].param->declaredLength)
      return fmt::format("gives {} {} element(s) as {}, which it declares as an array of {}", callName(p, call), have,
                         paramName(args[a], a), *args[a].param->declaredLength);
  }
  // A variadic function without a format reads its extras by a contract
  // the test cannot know (a count, a terminator, their types).
  if (c.variadic && !c.formatParam)
    return fmt::format("calls the variadic {} with {} extra argument(s), which its contract (a count, a terminator, "
                       "their types) may not allow",
                       callName(p, call), args.size() > c.params.size() ? args.size() - c.params.size() : 0);
  for (size_t k = 0; k < args.size(); ++k) {
    const Argument &a = args[k];
    if (!a.param || a.ref >= t.statements.size()) continue;
    const Statement &v = t.statements[a.ref];
    // A length beyond its buffer: no callee can check that.
    if (a.param->role == model::ParamRole::Buffer && a.param->pairedWith && *a.param->pairedWith < args.size() &&
        c.params[*a.param->pairedWith].role == model::ParamRole::Length) {
      const Statement &len = t.statements[args[*a.param->pairedWith].ref];
      const size_t have = elementsAt(t, a.ref);
      if (len.op == Op::Primitive && have != SIZE_MAX && len.bits > have)
        return fmt::format("passes {} as {}, beyond the {} of {}", len.bits, paramName(args[*a.param->pairedWith], *a.param->pairedWith),
                           have, paramName(a, k));
    }
    // A length beyond the bytes right after it, which it may describe
    // whatever it was paired with: nettle's `(dst, length, src)`, where
    // length is src's (base64_encode_update(ctx, dst, 52, src) with 3
    // bytes of src reads past them), and `(buffer, length, data)`. Not a
    // C string after it (snprintf's `(buf, n, fmt)`: n is buf's).
    if (a.param->role == model::ParamRole::Length && v.op == Op::Primitive && k + 1 < args.size() &&
        args[k + 1].param && !args[k + 1].param->pairedWith && args[k + 1].ref < t.statements.size() &&
        args[k + 1].param->role != model::ParamRole::CString &&
        (!a.param->pairedWith || *a.param->pairedWith != k + 1)) {
      const model::Type &next = p.type(p.type(args[k + 1].param->type).value);
      const model::Type *element = next.kind == model::TypeKind::Pointer && next.pointee
                                       ? &p.type(p.type(*next.pointee).value)
                                       : nullptr;
      const bool bytes = element && (element->kind == model::TypeKind::Char || element->kind == model::TypeKind::Void ||
                                     (element->kind == model::TypeKind::Integer && element->bits == 8));
      const size_t have = elementsAt(t, args[k + 1].ref);
      if (bytes && have != SIZE_MAX && v.bits > have)
        return fmt::format("passes {} as {}, beyond the {} of {}, which it may describe", v.bits, paramName(a, k), have,
                           paramName(args[k + 1], k + 1));
    }
    // A buffer followed by an element size and a count whose product is
    // beyond it (fwrite's contract: zlib's gzfwrite(buf, 5, 4294963745, f)
    // with 5 bytes).
    if (k + 2 < args.size() && args[k + 1].param && args[k + 2].param && args[k + 1].ref < t.statements.size() &&
        args[k + 2].ref < t.statements.size()) {
      const Statement &size = t.statements[args[k + 1].ref], &count = t.statements[args[k + 2].ref];
      const auto named = [](const model::Param &param, std::initializer_list<const char *> words) {
        const std::string n = lowercase(param.name);
        return std::any_of(words.begin(), words.end(), [&](const char *w) { return n.find(w) != std::string::npos; });
      };
      const size_t have = elementsAt(t, a.ref);
      if (size.op == Op::Primitive && count.op == Op::Primitive && have != SIZE_MAX &&
          (v.op == Op::Buffer || v.op == Op::Array || v.op == Op::CString) &&
          named(*args[k + 1].param, {"size"}) && named(*args[k + 2].param, {"nitems", "nmemb", "count", "num"})) {
        const unsigned __int128 want = static_cast<unsigned __int128>(size.bits) * count.bits;
        if (want > have)
          return fmt::format("passes {} × {} as {} and {}, beyond the {} of {}", size.bits, count.bits,
                             paramName(args[k + 1], k + 1), paramName(args[k + 2], k + 2), have, paramName(a, k));
      }
    }
    // A buffer followed by an in-out length that says it holds more than
    // it does (`compress(&byte, &destLen)` with destLen 1416).
    if (k + 1 < args.size() && args[k + 1].param && inOutLength(p, *args[k + 1].param) &&
        args[k + 1].ref < t.statements.size())
      if (const Statement *len = addressedPrimitive(t, args[k + 1].ref)) {
        const size_t have = elementsAt(t, a.ref);
        if (have != SIZE_MAX && len->bits > have)
          return fmt::format("passes {} through {}, beyond the {} of {}", len->bits, paramName(args[k + 1], k + 1),
                             have, paramName(a, k));
      }
    // Bytes with no NUL where the callee reads a C string (or a wide one:
    // pugixml's save_file(const wchar_t *path) given {1, 1}).
    const bool cString = a.param->role == model::ParamRole::CString ||
                         (a.param->role == model::ParamRole::None &&
                          (catalog.isCharPointer(a.param->type) || wideCharPointer(p, a.param->type)));
    // A pointer one past a buffer's last byte where the callee reads a
    // string (pugixml's xpath_variable_set::set(name) given the end of 4
    // bytes): only an end parameter may take one.
    if (cString && v.op == Op::EndOf)
      return fmt::format("gives {} a pointer one past the end of a buffer as the string {}", callName(p, call),
                         paramName(a, k));
    if (cString && unterminated(t, v))
      return wideCharPointer(p, a.param->type)
                 ? fmt::format("gives {} {} wide characters with no NUL as the wide string {}", callName(p, call),
                               bytesOf(v), paramName(a, k))
                 : fmt::format("gives {} {} bytes with no NUL as the C string {}", callName(p, call), bytesOf(v),
                               paramName(a, k));
    // Bytes with no NUL where the callee takes signed or unsigned chars
    // with no length anywhere (utf8proc_NFKC_Casefold(const uint8_t *str)):
    // it reads up to a terminator, or a block of a size of its own, and
    // either way the test's bytes are no such thing. A parameter declared
    // as an array states its size (claims_mix's `block[8]`), which
    // argumentMisuse's declared-length rule checks.
    if (a.param->declaredLength) continue;
    const model::Type &declared = p.type(p.type(a.param->type).value);
    const model::Type &pointed = declared.kind == model::TypeKind::Pointer && declared.pointee
                                     ? p.type(p.type(*declared.pointee).value)
                                     : declared;
    if (declared.kind == model::TypeKind::Pointer && pointed.kind == model::TypeKind::Integer && pointed.bits == 8 &&
        a.param->role == model::ParamRole::None && !takesALength(p, c, true)) {
      if (unterminated(t, v))
        return fmt::format("gives {} {} bytes with no NUL as {}, which no length goes with", callName(p, call),
                           bytesOf(v), paramName(a, k));
      // Nor a pointer one past a buffer's last byte, where nothing is
      // (libonig's onigenc_strlen_null(enc, p) given the end of 28 bytes).
      if (v.op == Op::EndOf)
        return fmt::format("gives {} a pointer one past the end of a buffer as {}, which no length goes with",
                           callName(p, call), paramName(a, k));
    }
    // An array of C strings one of which has no NUL (cJSON_CreateStringArray
    // given {buffer of 1 byte, "\n"}).
    if (pointsToCStrings(catalog, a.param->type) && v.op == Op::Array)
      for (size_t e = 0; e < v.refs.size(); ++e)
        if (v.refs[e] < t.statements.size() && unterminated(t, t.statements[v.refs[e]]))
          return fmt::format("gives {} an array whose element {} is {} bytes with no NUL, as the C strings {}",
                             callName(p, call), e, bytesOf(t.statements[v.refs[e]]), paramName(a, k));
    const bool handMade = v.op == Op::AddressOf || v.op == Op::Aggregate || v.op == Op::Array || v.op == Op::Buffer ||
                          v.op == Op::CString;
    // A release of memory the API did not allocate.
    if (testcase::releasedParam(p, c) == k && handMade)
      return fmt::format("gives {} a {} the API did not allocate", callName(p, call), typeName(p, v.type));
    // What an earlier call already released, released again (yajl_free_error
    // of the same string twice) or used (json_object_get(o) after
    // json_object_free_userdata(x, o) freed o).
    // (An initialiser may take it again: mp_init(&a) after mp_clear(&a).)
    const bool initialiser = testcase::isInitialiserName(c.name);
    for (size_t j = 0; j < i && v.op != Op::Null && !initialiser; ++j)
      if (releasedBy(p, t.statements[j]) == a.ref)
        return fmt::format("gives {} what {} already released", callName(p, call), callName(p, t.statements[j]));
    // A part released with its owner, then used or released again
    // (cJSON_Delete(object); cJSON_Delete(item) of the item
    // cJSON_AddStringToObject(object, ...) returned); or an owner released
    // after the test released a part of it, which it still holds.
    if (const auto owner = ownerOf(p, t, a.ref))
      for (size_t j = *owner + 1; j < i; ++j)
        if (releasedBy(p, t.statements[j]) == owner)
          return fmt::format("gives {} what {} returned, a part of the object {} released with it",
                             callName(p, call), callName(p, v), callName(p, t.statements[j]));
    if (testcase::releasedParam(p, c) == k)
      for (size_t j = 0; j < i; ++j)
        if (const auto part = releasedBy(p, t.statements[j]); part && ownerOf(p, t, *part) == a.ref)
          return fmt::format("releases with {} an object whose part (from {}) {} already released",
                             callName(p, call), callName(p, t.statements[*part]), callName(p, t.statements[j]));
    // Memory of the test's own given to a function that takes the buffer
    // over and frees it later (pugixml's load_buffer_inplace_own; a name
    // with the word own, adopt, steal or take): as a release of it. A
    // string too (claims_adopt(doc, text) with `char text[] = "..."`).
    if ((v.op == Op::Buffer || v.op == Op::Array || v.op == Op::CString) && takesOver(c))
      return fmt::format("gives {} the test's own {} bytes as {}, which it takes over and frees", callName(p, call),
                         bytesOf(v), paramName(a, k));
    // A release of memory an accessor lent (cJSON_free of what
    // cJSON_GetStringValue returned: the item still owns it).
    if (testcase::releasedParam(p, c) == k && isCall(v.op) && lendsItsResult(p, p.callable(v.callable)))
      return fmt::format("gives {} what {} returned, memory that {} lends and its argument still owns",
                         callName(p, call), callName(p, v), callName(p, v));
    // An object of the test's own where the callee reads a `void *` as its own.
    if (std::string why = ownObjectThroughVoid(p, t, i, k); !why.empty()) return "gives " + why;
    // Bytes of the test's own as a `void *` that no length goes with: an
    // opaque handle the API made, not a buffer (jansson's
    // json_object_iter_value(void *iter), whose iter only json_object_iter
    // makes; the front end calls such a parameter user data). A callee
    // with any integer parameter may read it as a buffer of that length
    // (fwrite's buf, size, nitems), so it is left alone.
    const bool handle = voidPointer(p, a.param->type) &&
                        (a.param->role == model::ParamRole::None || a.param->role == model::ParamRole::UserData);
    if (handle && (v.op == Op::Buffer || v.op == Op::Array || v.op == Op::CString) && !takesALength(p, c, false))
      return fmt::format("gives {} {} bytes of the test's own as {} (void *), with no length: a handle only the API "
                         "makes",
                         callName(p, call), bytesOf(v), paramName(a, k));
    // An object the API made, of a type of its own, as the `void *` of an
    // API that makes `void *` handles itself (jansson's
    // json_object_iter_value(json_copy(j)), whose iter json_object_iter
    // makes): the callee reads it as the other kind.
    if (handle && isCall(v.op) && !voidPointer(p, p.callable(v.callable).result))
      if (const model::Callable *maker = voidHandleMaker(catalog))
        return fmt::format("gives {} what {} returned ({}) as {} (void *), a handle of the kind {}() makes",
                           callName(p, call), callName(p, v), typeName(p, p.callable(v.callable).result),
                           paramName(a, k), maker->name);
  }
  return "";
}

bool onlyReads(const model::Program &p, const Statement &u, Ref object);

// `inCone` (the cone of call `i`) and, again and again, the arguments of
// each earlier call that takes one of them to change it (not only to read
// it, onlyReads): what such a call may have kept inside it.
std::set<size_t> handedOn(const model::Program &p, const TestCase &t, size_t i, std::set<size_t> inCone) {
  const auto inside = [&](Ref r) { return oneOf(t, inCone, r); };
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t j = 0; j < i; ++j) {
      const Statement &u = t.statements[j];
      if ((u.op != Op::Call && u.op != Op::MethodCall) ||
          std::none_of(u.refs.begin(), u.refs.end(), [&](Ref r) { return inside(r) && !onlyReads(p, u, r); }))
        continue;
      for (Ref r : u.refs)
        if (r < t.statements.size() && !inside(r))
          for (size_t k : cone(t, r)) grew |= inCone.insert(k).second;
    }
  }
  return inCone;
}

// Whether object `object` holds nothing at statement `at`: made by a
// constructor or a creator given numbers at most, or copied from such an
// object, and given to no call since but calls that only read it (taglib's
// `List<String> a; List<String> b(a);`). The call that made it, or
// nullopt.
std::optional<size_t> emptyAt(const model::Program &p, const TestCase &t, Ref object, size_t at, int depth = 0) {
  if (object >= at || depth > 8) return std::nullopt; // ours: a chain of copies this long is no test's
  const Statement &made = t.statements[object];
  if (made.op != Op::Construct && made.op != Op::Call) return std::nullopt;
  std::optional<size_t> from;
  if (testcase::copies(p, made)) {
    from = emptyAt(p, t, made.refs[0], object, depth + 1);
    if (!from) return std::nullopt;
  } else {
    for (Ref r : made.refs)
      if (r >= t.statements.size() || t.statements[r].op != Op::Primitive) return std::nullopt;
    const model::Callable &maker = p.callable(made.callable);
    if (!(made.op == Op::Construct ? maker.parent : recordOf(p, maker.result))) return std::nullopt;
  }
  for (size_t j = object + 1; j < at; ++j) {
    const Statement &u = t.statements[j];
    if (testcase::copies(p, u)) continue;
    if (isCall(u.op) && std::find(u.refs.begin(), u.refs.end(), object) != u.refs.end() && !onlyReads(p, u, object))
      return std::nullopt;
    if (u.op == Op::AddressOf && std::find(u.refs.begin(), u.refs.end(), object) != u.refs.end()) return std::nullopt;
  }
  return from ? from : std::optional<size_t>(object);
}

// An element taken from a container nothing was put into, by an accessor
// whose precondition is that there is one (front, back, first, last, top,
// peek, or operator[] given an index; not at(), which checks), in the
// failing call or what made its arguments (taglib's
// `List<String> a; String s(a.back());`, as std::list::back() of an empty
// list). "" when none.
// Whether method call `u` takes an element by an accessor that checks
// nothing (elementOfNothing).
bool uncheckedAccessor(const model::Program &p, const Statement &u) {
  if (u.op != Op::MethodCall || u.refs.empty()) return false;
  const model::Callable &c = p.callable(u.callable);
  const std::string name = lowercase(c.name);
  if (c.params.empty())
    return name == "front" || name == "back" || name == "first" || name == "last" || name == "top" || name == "peek";
  return c.name == "operator[]" && c.params.size() == 1 &&
         p.type(p.type(c.params[0].type).value).kind == model::TypeKind::Integer;
}

std::string elementOfNothing(const model::Program &p, const TestCase &t, size_t i) {
  for (size_t j : cone(t, i)) {
    const Statement &u = t.statements[j];
    if (!uncheckedAccessor(p, u)) continue;
    const auto made = emptyAt(p, t, u.refs[0], j);
    if (!made) continue;
    const auto rec = testcase::variableType(p, t, u.refs[0]);
    const auto record = rec ? recordOf(p, *rec) : std::nullopt;
    return fmt::format("{} takes an element of a {} nothing was put into (made by {})", callName(p, u),
                       record ? p.record(*record).name : std::string("container"), callName(p, t.statements[*made]));
  }
  return "";
}

// A pointer only the API makes (Catalog::apiPointer: hiredis's sds) used by
// statement `i` after an earlier call replaced it, returning one of its
// type in its place (sdscat(s, t) may move s as it grows: the idiom is
// `s = sdscat(s, t)`), or after a function named like a release was given
// it, alone or in an array (sdsfreesplitres(tokens, n)). "" when none.
std::string staleApiPointer(const testcase::Catalog &catalog, const TestCase &t, size_t i) {
  const model::Program &p = catalog.program();
  const Statement &use = t.statements[i];
  if (!isCall(use.op)) return "";
  for (Ref x : use.refs) {
    if (x >= i) continue;
    const auto vt = testcase::variableType(p, t, x);
    if (!vt || !catalog.apiPointer(*vt)) continue;
    for (size_t j = x + 1; j < i; ++j) {
      const Statement &u = t.statements[j];
      if (!isCall(u.op)) continue;
      const model::Callable &c = p.callable(u.callable);
      const bool given = std::find(u.refs.begin(), u.refs.end(), x) != u.refs.end();
      bool inArray = false;
      for (Ref r : u.refs)
        if (r < t.statements.size() && t.statements[r].op == Op::Array &&
            std::find(t.statements[r].refs.begin(), t.statements[r].refs.end(), x) != t.statements[r].refs.end())
          inArray = true;
      if ((given || inArray) && testcase::isDestroyerName(c.name))
        return fmt::format("{} uses a {} that {} released before", callName(p, use), p.type(p.type(*vt).value).spelling,
                           callName(p, u));
      if (given && p.type(c.result).value == p.type(*vt).value)
        return fmt::format("{} uses a {} that {} replaced, returning the one to use in its place (`s = {}(s, ...)`)",
                           callName(p, use), p.type(p.type(*vt).value).spelling, callName(p, u), c.name);
    }
  }
  return "";
}

std::string testsOwnThroughAPointer(const testcase::Catalog &catalog, const TestCase &t, size_t i,
                                    bool onlyApiPointers);

// The word an initialiser's name gives its kind by: what its init word
// starts with (libogg's oggpack_readinit: "read"), or the word before it
// (BZ2_bzDecompressInit: "decompress"; inflateInit_: "inflate").
std::string initialisedKind(const std::string &name) {
  const std::vector<std::string> w = words(name);
  for (size_t k = 0; k < w.size(); ++k) {
    if (!testcase::isInitialiserWord(w[k])) continue;
    if (w[k].size() > 4 && w[k].ends_with("init")) return w[k].substr(0, w[k].size() - 4);
    if (k > 0) return w[k - 1];
  }
  return "";
}

// An object one initialiser set up given to a function of another of its
// type's initialisers' kinds (bzip2's BZ2_bzDecompressInit(&s) then
// BZ2_bzCompressEnd(&s) or BZ2_bzCompress(&s); zlib's inflateInit then
// deflate): each kind keeps its own state in the object. "" when none.
std::string otherKindsObject(const testcase::Catalog &catalog, const TestCase &t, size_t i) {
  const model::Program &p = catalog.program();
  const Statement &call = t.statements[i];
  if (!isCall(call.op)) return "";
  const std::vector<std::string> callee = words(p.callable(call.callable).name);
  // A word of the callee's is the kind, or starts with it (oggpack_writeclear: "write").
  const auto has = [&](const std::string &kind) {
    return std::any_of(callee.begin(), callee.end(), [&](const std::string &w) { return w.starts_with(kind); });
  };
  // The object behind an argument: the aggregate an address points at.
  const auto objectOf = [&](Ref r) -> std::optional<Ref> {
    if (r >= t.statements.size()) return std::nullopt;
    const Statement &v = t.statements[r];
    if (v.op == Op::AddressOf && !v.refs.empty() && v.refs[0] < t.statements.size() &&
        t.statements[v.refs[0]].op == Op::Aggregate)
      return v.refs[0];
    return std::nullopt;
  };
  for (Ref r : call.refs) {
    const auto x = objectOf(r);
    if (!x) continue;
    const auto rec = recordOf(p, t.statements[*x].type);
    if (!rec) continue;
    for (size_t j = *x + 1; j < i; ++j) {
      const Statement &u = t.statements[j];
      if (!isCall(u.op) || !testcase::isInitialiserName(p.callable(u.callable).name)) continue;
      if (std::none_of(u.refs.begin(), u.refs.end(), [&](Ref a) { return objectOf(a) == x; })) continue;
      const std::string kind = initialisedKind(p.callable(u.callable).name);
      if (kind.empty() || has(kind)) continue;
      for (model::CallableId other : catalog.initialisers(*rec)) {
        const std::string otherKind = initialisedKind(p.callable(other).name);
        if (!otherKind.empty() && otherKind != kind && has(otherKind))
          return fmt::format("gives {} a {} that {} set up: {}() sets up what it takes", callName(p, call),
                             p.record(*rec).name, callName(p, u), p.callable(other).qualifiedName);
      }
    }
  }
  return "";
}

// A handle of the API's own (Catalog::apiPointer: lcms2's `typedef void
// *cmsHANDLE`, shared by its dictionaries, IT8 sheets and MD5 contexts)
// given to a function for one kind (cmsIT8GetSheetType(cmsHANDLE hIT8):
// the parameter's name and the function's say IT8) that a function of
// another made (cmsDictDup's), when a function of that kind makes such
// handles (cmsIT8Alloc). "" when none.
std::string otherKindsHandle(const testcase::Catalog &catalog, const TestCase &t, size_t i) {
  const model::Program &p = catalog.program();
  const Statement &call = t.statements[i];
  if (!isCall(call.op)) return "";
  const auto args = argumentsOf(p, call);
  for (size_t k = 0; k < args.size(); ++k) {
    if (!args[k].param || args[k].ref >= i || !catalog.apiPointer(args[k].param->type)) continue;
    const Statement &made = t.statements[args[k].ref];
    if (made.op != Op::Call) continue;
    const auto &makers = catalog.returning(args[k].param->type);
    const std::string kind = model::handleKindOf(p, p.callable(call.callable).name, args[k].param->name, makers);
    if (kind.empty() || model::namesKind(p.callable(made.callable).name, kind)) continue;
    for (model::CallableId c : makers) {
      if (model::namesKind(p.callable(c).name, kind))
        return fmt::format("gives {} as {} a {} that {} made, where it takes one of the kind {}() makes", callName(p, call),
                           paramName(args[k], k), typeName(p, args[k].param->type), callName(p, made),
                           p.callable(c).qualifiedName);
    }
  }
  return "";
}

std::string misuse(const testcase::Catalog &catalog, const TestCase &t, size_t i,
                   const std::vector<exec::Observation> &obs) {
  const model::Program &p = catalog.program();
  const Statement &call = t.statements[i];
  const auto inCone = cone(t, i);
  if (std::string why = singularIterator(p, t, i); !why.empty()) return why;
  if (std::string why = elementOfNothing(p, t, i); !why.empty()) return why;
  if (std::string why = otherKindsObject(catalog, t, i); !why.empty()) return why;
  if (std::string why = otherKindsHandle(catalog, t, i); !why.empty()) return why;
  if (std::string why = testsOwnThroughAPointer(catalog, t, i, true); !why.empty()) return why;
  for (size_t j : inCone)
    if (std::string why = staleApiPointer(catalog, t, j); !why.empty()) return why;
  // An internal function: the failing call first, then what made its arguments.
  if (isCall(call.op) && internal(catalog, p.callable(call.callable)))
    return fmt::format("calls {}, {}, with arguments its own callers may never pass", callName(p, call),
                       catalog.insideOf(p.callable(call.callable)));
  for (size_t j : inCone)
    if (j != i && isCall(t.statements[j].op) && internal(catalog, p.callable(t.statements[j].callable)))
      return fmt::format("its arguments come from {}, {}", callName(p, t.statements[j]),
                         catalog.insideOf(p.callable(t.statements[j].callable)));
  // A function its library tells callers not to use (LZ4_decompress_fast:
  // "deprecated and unsafe", it trusts its input): no claim against it.
  if (isCall(call.op))
    if (const auto &message = p.callable(call.callable).deprecated)
      return fmt::format("calls {}, which its library declares deprecated{}", callName(p, call),
                         message->empty() ? std::string() : fmt::format(" (\"{}\")", *message));
  // An object owned twice, by two containers or by a container and the
  // test, and the failing call on one of them (or what it was handed on
  // into, handedOn).
  if (isCall(call.op)) {
    const auto reach = handedOn(p, t, i, inCone);
    const std::string shared = sharedOwnership(p, t, i, [&](const std::set<size_t> &objects) {
      return std::any_of(objects.begin(), objects.end(), [&](size_t o) { return oneOf(t, reach, o); });
    });
    if (!shared.empty()) return shared;
  }
  for (size_t j = 0; j < i; ++j) {
    const Statement &u = t.statements[j];
    // On the same objects: it takes one the failing call depends on, or
    // the address of one.
    const auto same = [&](Ref r) { return oneOf(t, inCone, r); };
    if (!isCall(u.op) || std::none_of(u.refs.begin(), u.refs.end(), same)) continue;
    // An earlier internal call on the same objects (expat's
    // externalParEntProcessor(parser, s, end, &next) with a buffer not the
    // parser's, then XML_GetCurrentLineNumber(parser) reads past it): it
    // left them in a state no public path makes.
    if (internal(catalog, p.callable(u.callable)))
      return fmt::format("an earlier call of {}, {}, on the same object", callName(p, u),
                         catalog.insideOf(p.callable(u.callable)));
    // An earlier call of a variadic function without a format on the same
    // objects (yajl_gen_config(g, yajl_gen_print_callback) with no callback
    // after it): it read its extras by a contract the test cannot know.
    if (p.callable(u.callable).variadic && !p.callable(u.callable).formatParam)
      return fmt::format("an earlier call of the variadic {} on the same object read extra arguments by a contract "
                         "(a count, a terminator, their types) the test may not have kept",
                         callName(p, u));
    // An earlier call on the same objects that was misuse by its own
    // arguments (libtommath's mp_export(a, ...) given the mp_int itself as
    // the buffer to write, then mp_to_unsigned_bin_n(a, ...) reads the
    // digits pointer it overwrote): what follows is its consequence.
    if (std::string why = argumentMisuse(catalog, t, j); !why.empty())
      return fmt::format("an earlier call on the same object was misuse: {}", why);
    // Or given it as another kind's (libogg's oggpack_readinit(&b, buf, n),
    // then oggpack_writeclear(&b) frees the test's buf, then oggpack_read1).
    if (std::string why = otherKindsObject(catalog, t, j); !why.empty())
      return fmt::format("an earlier call on the same object was misuse: {}", why);
  }
  // An earlier call of a release function internal to the unit itself, on
  // no object the failing call takes: what it freed may be what the
  // library's state still points to, which only its own callers know when
  // to free (mxml's static _mxml_destructor(global) frees the per-thread
  // data that the public mxml_error() then reads).
  for (size_t j = 0; j < i; ++j)
    if (const Statement &u = t.statements[j];
        isCall(u.op) && catalog.internalToUnit(p.callable(u.callable)) && releasedBy(p, u))
      return fmt::format("follows {}, a release internal to the unit, which may free what the library still holds",
                         callName(p, u));
  // An object the test moved from before this call, or a call it depends
  // on, used it (yaml-cpp's memory_holder h2(std::move(h));
  // h.create_node(), or memory_holder h3(h) after the move, then
  // h3.create_node()): a moved-from object is valid but unspecified, and
  // only assigning or destroying it is safe.
  for (size_t k : inCone) {
    const Statement &user = t.statements[k];
    if (!isCall(user.op)) continue;
    for (Ref used : user.refs)
      for (size_t j = used + 1; used < t.statements.size() && j < k; ++j) {
        const Statement &u = t.statements[j];
        if (!isCall(u.op)) continue;
        for (const Argument &a : argumentsOf(p, u))
          if (a.ref == used && a.param && p.type(a.param->type).kind == model::TypeKind::Reference &&
              p.type(a.param->type).isRvalue)
            return k == i ? fmt::format("uses an object after moving it into {}", callName(p, u))
                          : fmt::format("uses an object made by {} from one the test had moved into {}",
                                        callName(p, user), callName(p, u));
      }
  }
  // An object of a type only the unit's inside deals in, built by the test
  // and handed to a public function inside another value (zlib's
  // z_stream with a `state` of its own making).
  for (size_t j : builtValues(t, i)) {
    const Statement &s = t.statements[j];
    if (s.op != Op::Aggregate && s.op != Op::Buffer && s.op != Op::Array) continue;
    const auto rec = recordOf(p, s.type);
    if (!rec || !catalog.internalType(*rec)) continue;
    if (std::find(call.refs.begin(), call.refs.end(), j) != call.refs.end()) continue; // passed itself: said below
    return fmt::format("gives {} a {} of the test's own making inside its arguments, a type only the unit's "
                       "internal functions deal in",
                       callName(p, call), p.record(*rec).name);
  }
  // An object of a type the API makes, built by the test; or one the test
  // zeroed for an initialiser that then failed. Among the values the call
  // depends on, and those an earlier call put into one of them
  // (claims_buffer_init(&d, &b) keeps d in b, then claims_buffer_peek(&b)).
  for (size_t j : handedOn(p, t, i, inCone)) {
    const Statement &s = t.statements[j];
    // An array of zeroed ones (lua's `luaL_Buffer B[1] = {}`) is one too.
    const bool zeroedArray =
        s.op == Op::Array && std::all_of(s.refs.begin(), s.refs.end(), [&](Ref e) {
          return e < t.statements.size() && t.statements[e].op == Op::Aggregate && t.statements[e].refs.empty();
        });
    if (s.op != Op::Aggregate && !zeroedArray) continue;
    const auto record = recordOf(p, s.type);
    const model::Type &ty = p.type(p.type(s.type).value);
    if (!record || (s.op == Op::Aggregate && ty.kind != model::TypeKind::Record)) continue;
    const std::string &spelled = s.op == Op::Aggregate ? ty.spelling : p.type(p.record(*record).type).spelling;
    const std::string &maker = catalog.madeByApi(*record);
    const std::vector<model::CallableId> &inits = catalog.initialisers(*record);
    // Initialisers a test cannot call count too (internal ones: the
    // factory never calls them, but a zeroed one given first to anything
    // else was never initialised all the same).
    const std::vector<model::CallableId> later = initialisersAnywhere(p, *record);
    if (maker.empty() && inits.empty() && later.empty()) continue;
    if (s.op == Op::Aggregate && !s.refs.empty()) {
      if (maker.empty()) continue;
      return fmt::format("builds a {} field by field, a type the API makes itself ({})", spelled, maker);
    }
    // Zeroed: only an initialiser may be the first to get it (by value, by
    // address, or in an array); given first to anything else (claims.c's
    // claims_free_text(doc, text), then claims_length(doc) reads the NULL
    // text), it was never initialised.
    // It, or a value holding it: its address, an array of it, a struct
    // the test filled with its address (claims_buffer b = {.doc = &d}),
    // at any depth (refs point backwards, so this ends).
    const auto holds = [&](Ref r) { return holdsValue(t, r, j); };
    for (size_t k = j + 1; k <= i; ++k) {
      const Statement &u = t.statements[k];
      if (!isCall(u.op) || std::none_of(u.refs.begin(), u.refs.end(), holds)) continue;
      // An initialiser sets up the object it writes (Catalog::
      // initialisedParam), not one it reads: mp_init_copy(a, b) leaves b,
      // its const source, as zeroed as it was.
      const auto uargs = argumentsOf(p, u);
      const size_t written = catalog.initialisedParam(u.callable, *record);
      const bool initialises = (std::find(inits.begin(), inits.end(), u.callable) != inits.end() ||
                                std::find(later.begin(), later.end(), u.callable) != later.end()) &&
                               u.op != Op::MethodCall && written < uargs.size() && holds(uargs[written].ref);
      if (!maker.empty() && (k == i || !initialises))
        return fmt::format("gives {} a {} it never initialised (the API makes one: {})", callName(p, call), spelled,
                           maker);
      if (maker.empty() && !later.empty() && !initialises)
        return fmt::format("gives {} a {} it never initialised ({} initialises one)", callName(p, call), spelled,
                           p.callable(later.front()).qualifiedName);
      // Its initialiser said it failed (libtommath's mp_init_size(a, -1)
      // returns MP_VAL and leaves a's digits NULL), and the test went on.
      if (initialises && k < i)
        if (const std::string failed = failedResult(obs, k); !failed.empty())
          return fmt::format("gives {} a {} whose initialiser {} failed (it returned {})", callName(p, call),
                             spelled, callName(p, u), failed);
      break;
    }
  }
  return argumentMisuse(catalog, t, i);
}

// (b): why call `i` is robustness; "" when it is not.
// One object in two roles of call `i` (cJSON_DetachItemViaPointer(item,
// item): the parent and the child; tinyxml2's doc.InsertEndChild(&doc)): a
// node that is its own child is outside what any such API accepts. ""
// when none.
std::string twoRoles(const testcase::Catalog &catalog, const TestCase &t, size_t i) {
  const model::Program &p = catalog.program();
  const Statement &call = t.statements[i];
  if (!isCall(call.op)) return "";
  const auto args = argumentsOf(p, call);
  // The object behind a pointer or reference parameter of a record type
  // (the receiver: always one), or a pointer only the API makes (hiredis's
  // sdscat(s, s): s may move as it grows, leaving the source behind).
  const auto object = [&](Ref r, const model::Param *param) -> std::optional<Ref> {
    if (r >= t.statements.size() || (param && !recordOf(p, param->type) && !catalog.apiPointer(param->type)))
      return std::nullopt;
    const Statement &v = t.statements[r];
    if (v.op == Op::Null) return std::nullopt;
    return v.op == Op::AddressOf && !v.refs.empty() ? v.refs[0] : r;
  };
  std::vector<std::pair<Ref, std::string>> roles;
  if (call.op == Op::MethodCall && !call.refs.empty())
    if (const auto o = object(call.refs[0], nullptr)) roles.emplace_back(*o, "the object it is called on");
  for (size_t k = 0; k < args.size(); ++k)
    if (const auto o = args[k].param ? object(args[k].ref, args[k].param) : std::nullopt)
      roles.emplace_back(*o, paramName(args[k], k));
  for (size_t a = 0; a < roles.size(); ++a)
    for (size_t b = a + 1; b < roles.size(); ++b)
      if (roles[a].first == roles[b].first)
        return fmt::format("{} given one object as both {} and {}", callName(p, call), roles[a].second,
                           roles[b].second);
  return "";
}

// The number of leading words `a` and `b` share.
size_t sharedWords(const std::vector<std::string> &a, const std::vector<std::string> &b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return n;
}

// An object of one kind given to a function of another (json-c's
// json_object_array_shrink(json_object_new_string("x"), 0): a string where
// an array is expected). Kinds are read off the names of the functions
// that make the record: three or more sharing a prefix (json_object_new_)
// each name one by their next word (string, array, int, ...). The callee
// names one when the word after what it shares with the creator's name
// is such a word (json_object_|array_shrink; not json_object_|get_string
// or json_object_|to_json_string, which take any kind). "" when none.
std::string kindMismatch(const model::Program &p, const TestCase &t, size_t i) {
  const Statement &call = t.statements[i];
  if (call.op != Op::Call) return "";
  const std::vector<std::string> callee = words(p.callable(call.callable).name);
  const auto args = argumentsOf(p, call);
  for (size_t k = 0; k < args.size(); ++k) {
    if (args[k].ref >= i || !args[k].param) continue;
    const Statement &made = t.statements[args[k].ref];
    const auto record = recordOf(p, args[k].param->type);
    if (made.op != Op::Call || !record || recordOf(p, p.callable(made.callable).result) != record) continue;
    const std::vector<std::string> creator = words(p.callable(made.callable).name);
    // The record's creators: functions that return one and take none.
    std::vector<std::vector<std::string>> creators;
    for (const model::Callable &c : p.callables) {
      if (c.kind != model::CallableKind::Function || recordOf(p, c.result) != record) continue;
      if (std::none_of(c.params.begin(), c.params.end(),
                       [&](const model::Param &q) { return recordOf(p, q.type) == record; }))
        creators.push_back(words(c.name));
    }
    // The longest prefix of the creator's name that three creators share,
    // and the kinds they name after it.
    for (size_t prefix = creator.size() - 1; prefix > 0; --prefix) {
      std::set<std::string> kinds;
      size_t sharing = 0;
      for (const auto &c : creators)
        if (c.size() > prefix && sharedWords(c, creator) >= prefix) {
          ++sharing;
          kinds.insert(c[prefix]);
        }
      if (sharing < 3) continue; // ours: two could be a pair (new, new_ex) rather than kinds
      const size_t at = sharedWords(callee, creator);
      if (kinds.size() < 2 || at >= callee.size() || at > prefix || !kinds.count(callee[at]) ||
          callee[at] == creator[prefix] ||
          std::find(callee.begin(), callee.end(), creator[prefix]) != callee.end())
        break;
      return fmt::format("{} given as {} a {} made by {} (a {}, where the function is for a {})", callName(p, call),
                         paramName(args[k], k), typeName(p, args[k].param->type), callName(p, made), creator[prefix],
                         callee[at]);
    }
  }
  return "";
}

// Whether a parameter's name says it is an index (re2's GetRE2(int
// regexpid), an index, idx, pos or nth).
bool indexName(const std::string &name) {
  const std::string n = lowercase(name);
  if (n == "valid" || n == "invalid" || n == "void") return false;
  for (const char *end : {"id", "index", "idx", "pos", "position", "nth"})
    if (n.size() >= std::strlen(end) && n.compare(n.size() - std::strlen(end), std::string::npos, end) == 0)
      return true;
  return false;
}

// Whether call `u` takes the object of statement `object` only to read
// it: a const method of it, or a function whose parameters reach it only
// through pointers or references to const (re2's NumRegexps(), json-c's
// json_object_get_type()).
bool onlyReads(const model::Program &p, const Statement &u, Ref object) {
  const model::Callable &c = p.callable(u.callable);
  if (u.op == Op::MethodCall && !u.refs.empty() && u.refs[0] == object && !c.isConst) return false;
  for (const Argument &a : argumentsOf(p, u)) {
    if (a.ref != object) continue;
    if (!a.param) return false;
    const model::Type &ty = p.type(p.type(a.param->type).value);
    const bool viaConst = (ty.kind == model::TypeKind::Pointer || ty.kind == model::TypeKind::Reference) &&
                          ty.pointeeConst && !ty.isRvalue;
    if (!viaConst) return false;
  }
  return true;
}

// An index into an object nothing was put into: made by a constructor or
// a creator given numbers at most, and given to no call before this one
// but calls that only read it (re2's `FilteredRE2 f(0); f.GetRE2(0)`, and
// `f.GetRE2(f.NumRegexps())`): no index is valid there, and the API need
// not check one. "" when not.
std::string indexIntoNothing(const model::Program &p, const TestCase &t, size_t i) {
  const Statement &call = t.statements[i];
  if (!isCall(call.op) || call.refs.empty()) return "";
  const Ref object = call.refs[0];
  if (object >= i) return "";
  const Statement &made = t.statements[object];
  if (made.op != Op::Construct && made.op != Op::Call) return "";
  // Made from numbers alone (re2's FilteredRE2(int min_atom_len)): settings,
  // not contents.
  for (Ref r : made.refs)
    if (r >= t.statements.size() || t.statements[r].op != Op::Primitive) return "";
  const model::Callable &maker = p.callable(made.callable);
  const auto record = made.op == Op::Construct ? maker.parent : recordOf(p, maker.result);
  if (!record) return "";
  for (size_t j = object + 1; j < i; ++j) {
    const Statement &u = t.statements[j];
    if (isCall(u.op) && std::find(u.refs.begin(), u.refs.end(), object) != u.refs.end() && !onlyReads(p, u, object))
      return "";
    if (u.op == Op::AddressOf && std::find(u.refs.begin(), u.refs.end(), object) != u.refs.end()) return "";
  }
  const auto args = argumentsOf(p, call);
  for (size_t k = call.op == Op::MethodCall ? 0 : 1; k < args.size(); ++k) {
    if (!args[k].param || args[k].ref >= t.statements.size() || !indexName(args[k].param->name)) continue;
    const Statement &v = t.statements[args[k].ref];
    // A literal, or a number a call returned (its value does not matter:
    // none is an index of nothing).
    const model::Type &ty = p.type(p.type(isCall(v.op) ? p.callable(v.callable).result : v.type).value);
    if ((v.op != Op::Primitive && !isCall(v.op)) || ty.kind != model::TypeKind::Integer) continue;
    const std::string value = isCall(v.op) ? "(the result of " + callName(p, v) + ")"
                              : ty.isSigned ? std::to_string(static_cast<std::int64_t>(v.bits))
                                            : std::to_string(v.bits);
    return fmt::format("{} given {} {} into a {} nothing was put into (made by {})", callName(p, call),
                       args[k].param->name, value, p.record(*record).name, callName(p, made));
  }
  return "";
}

std::string robustness(const testcase::Catalog &catalog, const TestCase &t, size_t i,
                       const std::vector<exec::Observation> &obs) {
  const model::Program &p = catalog.program();
  const Statement &call = t.statements[i];
  if (!isCall(call.op)) return "";
  const auto args = argumentsOf(p, call);
  // A number as a file descriptor, in the failing call or one that made
  // its arguments: no descriptor the test opened (giflib's
  // DGifOpenFileHandle(-1, &error), whose fdopen fails and is not checked).
  for (size_t j : cone(t, i)) {
    const Statement &u = t.statements[j];
    if (!isCall(u.op)) continue;
    const auto uargs = argumentsOf(p, u);
    for (size_t k = 0; k < uargs.size(); ++k)
      if (uargs[k].param && uargs[k].ref < t.statements.size() && t.statements[uargs[k].ref].op == Op::Primitive &&
          catalog.fileDescriptor(*uargs[k].param))
        return fmt::format("{} given {} as {}, no file descriptor the test opened", callName(p, u),
                           static_cast<std::int64_t>(t.statements[uargs[k].ref].bits), paramName(uargs[k], k));
  }
  for (size_t k = 0; k < args.size(); ++k) {
    const Argument &a = args[k];
    if (a.ref >= t.statements.size()) continue;
    const Statement &v = t.statements[a.ref];
    if (v.op == Op::Null) return fmt::format("{} given NULL as {}", callName(p, call), paramName(a, k));
    if (isCall(v.op) && nullAtRunTime(obs, a.ref))
      return fmt::format("{} given NULL as {} (the result of {})", callName(p, call), paramName(a, k), callName(p, v));
    if (const auto nulled = nulledThrough(p, t, obs, a.ref, i))
      return nulled->observed
                 ? fmt::format("{} given NULL as {} (what {} left in it)", callName(p, call), paramName(a, k),
                               callName(p, t.statements[nulled->by]))
                 : fmt::format("{} given as {} what {} left in it, which the run did not observe (it may be NULL)",
                               callName(p, call), paramName(a, k), callName(p, t.statements[nulled->by]));
  }
  // A pointer a call returned after it was given NULL for the object it
  // reads (libzip's zip_file_get_error(NULL) returns &file->error, a few
  // bytes past NULL, which zip_error_init then writes): not NULL itself,
  // but made from one.
  for (size_t k = 0; k < args.size(); ++k) {
    if (args[k].ref >= t.statements.size()) continue;
    const Statement &v = t.statements[args[k].ref];
    if (v.op != Op::Call || p.type(p.type(p.callable(v.callable).result).value).kind != model::TypeKind::Pointer) continue;
    const auto vargs = argumentsOf(p, v);
    for (size_t m = 0; m < vargs.size(); ++m)
      if (vargs[m].param && vargs[m].ref < t.statements.size() && pointerToRecord(p, vargs[m].param->type) &&
          nullValue(t, obs, vargs[m].ref))
        return fmt::format("{} given as {} the result of {}, which was given NULL as {}", callName(p, call),
                           paramName(args[k], k), callName(p, v), paramName(vargs[m], m));
  }
  if (call.op == Op::MethodCall && !call.refs.empty() && call.refs[0] < t.statements.size() &&
      t.statements[call.refs[0]].op == Op::Null)
    return fmt::format("{} called on a null object", callName(p, call));
  if (std::string why = twoRoles(catalog, t, i); !why.empty()) return why;
  if (std::string why = kindMismatch(p, t, i); !why.empty()) return why;
  if (std::string why = indexIntoNothing(p, t, i); !why.empty()) return why;
  // An element taken by an accessor that checks nothing (operator[] given
  // an index, front(), back()), in the failing call or what made its
  // arguments: its precondition is the caller's to keep, as with
  // std::vector (taglib's `List<String> l; l.prepend(s); l[1].size()`).
  for (size_t j : cone(t, i))
    if (uncheckedAccessor(p, t.statements[j])) {
      const Statement &u = t.statements[j];
      std::string index;
      if (u.refs.size() > 1 && u.refs[1] < t.statements.size() && t.statements[u.refs[1]].op == Op::Primitive)
        index = " " + std::to_string(t.statements[u.refs[1]].bits);
      return fmt::format("takes an element{} through {}, which checks no bound: a caller keeps within the size",
                         index, callName(p, u));
    }
  // An earlier call on the same objects that gave one object two roles
  // (cJSON_AddItemReferenceToArray(array, array), then printing the array
  // recurses for ever). Not through a number it returned: claims_ratio(r, r)
  // with r = claims_init_copy(d, d) divides by a zero any call could pass.
  const auto inCone = cone(t, i);
  const auto objects = objectCone(catalog, t, i);
  for (size_t j = 0; j < i; ++j) {
    const Statement &u = t.statements[j];
    const auto same = [&](Ref r) { return oneOf(t, objects, r); };
    if (!isCall(u.op) || std::none_of(u.refs.begin(), u.refs.end(), same)) continue;
    if (std::string why = twoRoles(catalog, t, j); !why.empty())
      return "an earlier call on the same object gave it two roles: " + why;
  }
  // An object the failing call uses, constructed with NULL for a pointer
  // (pugixml's xml_writer_file(nullptr), whose write() then hands fwrite
  // a null FILE *; or a call's null result), or made by a creator given NULL for a callback it
  // keeps (json-c's lh_table_new(1, free_fn, NULL, equal_fn), whose
  // lookups then call the null hash function): the null pointer was given
  // to the API, where the object was made. (Other null pointers a C
  // creator takes are often documented defaults: yajl_gen_alloc(NULL).)
  for (size_t j : cone(t, i)) {
    const Statement &made = t.statements[j];
    if (j == i || (made.op != Op::Construct && made.op != Op::Call)) continue;
    const auto margs = argumentsOf(p, made);
    for (size_t k = 0; k < margs.size(); ++k) {
      // NULL itself, or a call's null result (muParserX's
      // TokenPtr<IValue>(fun.AsIValue()), which returns NULL for a function).
      if (margs[k].ref >= t.statements.size() || !nullValue(t, obs, margs[k].ref)) continue;
      if (made.op == Op::Construct || (callbackArgument(p, margs[k]) && t.statements[margs[k].ref].op == Op::Null))
        return fmt::format("{} on an object made with NULL as {} ({}{})", callName(p, call), paramName(margs[k], k),
                           callName(p, made),
                           isCall(t.statements[margs[k].ref].op)
                               ? "; NULL was the result of " + callName(p, t.statements[margs[k].ref])
                               : std::string());
    }
  }
  // A callback of the test's that returns NULL, where the library may need
  // a pointer (cmark's cmark_mem whose calloc returns NULL: cmark's own
  // allocator never does, it aborts first). A stub returns no pointer but
  // NULL, so whatever the library does with it is the test's choice; also
  // one given to an earlier call on the same objects (muParserX's
  // reader.AddValueReader(&stub), then reader.Clone() clones the stub).
  for (size_t j : coneWithEarlierCalls(catalog, t, i)) {
    const Statement &stub = t.statements[j];
    // A stub subclass's pure virtual that returns a pointer returns null
    // (jsoncpp's writeString(factory, v) with a StreamWriter::Factory stub
    // whose newStreamWriter() returns nullptr).
    if (stub.op == Op::Subclass)
      if (const auto rec = recordOf(p, stub.type))
        for (const model::PureVirtual &v : p.record(*rec).pureVirtuals) {
          const model::TypeKind k = p.type(p.type(v.result).value).kind;
          if (k == model::TypeKind::Pointer || k == model::TypeKind::UniquePtr || k == model::TypeKind::SharedPtr)
            return fmt::format("{} with a stub {} of the test's whose {}() returns nullptr", callName(p, call),
                               p.record(*rec).name, v.name);
        }
    if (stub.op != Op::Callback || !p.type(stub.type).signature) continue;
    const model::TypeKind result = p.type(p.type(p.type(stub.type).signature->result).value).kind;
    if (result != model::TypeKind::Pointer || (!stub.refs.empty() && t.statements[stub.refs[0]].op != Op::Null))
      continue;
    std::string where;
    for (size_t h : inCone)
      if (const Statement &holder = t.statements[h];
          holder.op == Op::Aggregate && std::find(holder.refs.begin(), holder.refs.end(), j) != holder.refs.end())
        if (const auto rec = recordOf(p, holder.type))
          if (const auto fields = catalog.aggregateFields(*rec)) {
            const auto at = static_cast<size_t>(std::find(holder.refs.begin(), holder.refs.end(), j) - holder.refs.begin());
            if (at < fields->size())
              where = fmt::format(" as the {} of a {}", p.record(*rec).fields[(*fields)[at]].name, typeName(p, holder.type));
          }
    return fmt::format("{} with a callback of the test's{} that returns NULL", callName(p, call), where);
  }
  for (size_t j : builtValues(t, i)) {
    const Statement &v = t.statements[j];
    // Also a call's null result (claims_get_content(NULL) put into the array).
    if (nullValue(t, obs, j) && std::find(call.refs.begin(), call.refs.end(), j) == call.refs.end()) {
      // A null inside a struct or array the test filled for it.
      for (size_t h = j + 1; h < i; ++h) {
        const Statement &holder = t.statements[h];
        if ((holder.op == Op::Aggregate || holder.op == Op::Array) &&
            std::find(holder.refs.begin(), holder.refs.end(), j) != holder.refs.end()) {
          std::string field;
          bool internalPointer = false;
          const auto rec = recordOf(p, holder.type);
          if (holder.op == Op::Aggregate && rec)
            if (auto fields = catalog.aggregateFields(*rec)) {
              const auto at = std::find(holder.refs.begin(), holder.refs.end(), j) - holder.refs.begin();
              if (static_cast<size_t>(at) < fields->size()) {
                const model::Field &f = p.record(*rec).fields[(*fields)[at]];
                field = f.name;
                // The API's own pointer (z_stream's state), left null for
                // it to fill: no claim.
                const auto to = recordOf(p, f.type);
                internalPointer = to && catalog.internalType(*to);
              }
            }
          if (internalPointer) break;
          return fmt::format("{} given a {} whose {} is NULL{}", callName(p, call), typeName(p, holder.type),
                             field.empty() ? "element" : "field " + field, resultOf(p, v));
        }
      }
    }
    // An enumeration value none of its enumerators has.
    const model::Type &ty = p.type(p.type(v.type).value);
    if (v.op == Op::Primitive && ty.kind == model::TypeKind::Enum && ty.enumId) {
      const model::Enum &e = p.enums.at(*ty.enumId);
      const auto value = static_cast<std::int64_t>(v.bits);
      const bool named = std::any_of(e.enumerators.begin(), e.enumerators.end(),
                                     [&](const model::Enumerator &n) { return n.value == value; });
      if (!named && !e.enumerators.empty())
        return fmt::format("{} given {} as a {}, which none of its enumerators is", callName(p, call), value, e.name);
    }
  }
  return "";
}

} // namespace

namespace {

// The statement a failing run stopped at, or the last call of the test.
size_t failingStatement(const TestCase &test, const exec::RunResult &result) {
  size_t i = result.statement >= 0 && static_cast<size_t>(result.statement) < test.statements.size()
                 ? static_cast<size_t>(result.statement)
                 : test.statements.size() - 1;
  if (!isCall(test.statements[i].op))
    for (size_t j = test.statements.size(); j-- > 0;)
      if (isCall(test.statements[j].op)) return j;
  return i;
}

// Whether integer statement `j` is a buffer's length (or end) to some call
// or aggregate: it follows its buffer.
bool pairedLength(const testcase::Catalog &catalog, const TestCase &t, size_t j) {
  const model::Program &p = catalog.program();
  for (size_t k = j + 1; k < t.statements.size(); ++k) {
    const Statement &s = t.statements[k];
    if (isCall(s.op)) {
      for (const Argument &a : argumentsOf(p, s))
        if (a.ref == j && a.param && (a.param->role == model::ParamRole::Length || a.param->role == model::ParamRole::End))
          return true;
    } else if (s.op == Op::Aggregate) {
      const auto rec = recordOf(p, s.type);
      const auto fields = rec ? catalog.aggregateFields(*rec) : std::nullopt;
      if (!fields || fields->size() != s.refs.size()) continue;
      for (size_t f = 0; f < fields->size(); ++f)
        if (s.refs[f] == j && p.record(*rec).fields[(*fields)[f]].isLength) return true;
    }
  }
  return false;
}

// Why a failure the failing call need not have caused (one after the
// test's last call, or a heap glibc found corrupted) is misuse: an earlier
// call was misuse by its own arguments, or of an internal function with
// the test's arguments. `happened` starts the sentence; "" when neither.
// The first argument of call `i` that is the address of a pointer to an
// object of the test's own (a variable, an array or an aggregate; not a
// call's result, not NULL), given to a `T **` parameter, described; "" when
// none.
// `onlyApiPointers`: only where the pointer pointed to is one only the
// API makes (Catalog::apiPointer: libplist's plist_from_xml(xml, n,
// plist_t *plist) given &p with p the address of the test's variable),
// which is misuse whatever the failure.
std::string testsOwnThroughAPointer(const testcase::Catalog &catalog, const TestCase &t, size_t i,
                                    bool onlyApiPointers) {
  const model::Program &p = catalog.program();
  const Statement &call = t.statements[i];
  if (!isCall(call.op)) return "";
  const auto args = argumentsOf(p, call);
  for (size_t k = 0; k < args.size(); ++k) {
    if (!args[k].param || args[k].ref >= t.statements.size()) continue;
    const model::Type &pt = p.type(p.type(args[k].param->type).value);
    if (pt.kind != model::TypeKind::Pointer || !pt.pointee || pt.pointeeConst ||
        p.type(p.type(*pt.pointee).value).kind != model::TypeKind::Pointer)
      continue;
    if (onlyApiPointers && !catalog.apiPointer(*pt.pointee)) continue;
    const Statement &outer = t.statements[args[k].ref];
    if (outer.op != Op::AddressOf || outer.refs.empty() || outer.refs[0] >= t.statements.size()) continue;
    const Statement &inner = t.statements[outer.refs[0]];
    const bool own = inner.op == Op::Array || inner.op == Op::Buffer ||
                     (inner.op == Op::AddressOf && !inner.refs.empty() && inner.refs[0] < t.statements.size() &&
                      !isCall(t.statements[inner.refs[0]].op));
    if (own)
      return fmt::format("gives {} the address of a pointer to the test's own memory as {}, which it frees or "
                         "reallocates: only what malloc returned can be",
                         callName(p, call), paramName(args[k], k));
  }
  return "";
}

// A struct the test built field by field for call `i`, one of whose
// pointer fields holds the test's own memory (a variable's address, an
// array, bytes, a string): its record and that field's name, or nullopt.
std::optional<std::pair<model::RecordId, std::string>> builtRecordAroundOwnMemory(const testcase::Catalog &catalog,
                                                                                  const TestCase &t, size_t i) {
  const model::Program &p = catalog.program();
  for (size_t j : builtValues(t, i)) {
    const Statement &s = t.statements[j];
    const auto rec = s.op == Op::Aggregate ? recordOf(p, s.type) : std::nullopt;
    const auto fields = rec ? catalog.aggregateFields(*rec) : std::nullopt;
    if (!fields || fields->size() != s.refs.size()) continue;
    for (size_t k = 0; k < fields->size(); ++k) {
      const model::Field &f = p.record(*rec).fields[(*fields)[k]];
      if (s.refs[k] >= t.statements.size() || p.type(p.type(f.type).value).kind != model::TypeKind::Pointer) continue;
      const Op v = t.statements[s.refs[k]].op;
      if (v == Op::AddressOf || v == Op::Array || v == Op::Buffer || v == Op::CString) return std::pair(*rec, f.name);
    }
  }
  return std::nullopt;
}

// A struct whose buffer the API allocates and grows (libogg's
// oggpack_buffer, which oggpack_write reallocates) cannot be given one of
// the test's memory: described, or "" when none.
std::string ownMemoryInABuiltRecord(const testcase::Catalog &catalog, const TestCase &t, size_t i) {
  const model::Program &p = catalog.program();
  if (const auto found = builtRecordAroundOwnMemory(catalog, t, i))
    return fmt::format("gives {} a {} built by hand whose {} points at the test's own memory, which it frees or "
                       "reallocates: only what malloc returned can be",
                       callName(p, t.statements[i]), p.record(found->first).name, found->second);
  return "";
}

// A call up to statement `last` given the address of an object the test
// made itself (constructed, or a stub of its own) as a non-const pointer to
// a class: a callee that takes ownership of what it is given (muParserX's
// TokenReader::AddValueReader(&reader), TokenPtr<IToken>(&token)) deletes
// it at the end, and only an object from `new` can be deleted. Described,
// or "" when none.
std::string ownObjectGivenAway(const testcase::Catalog &catalog, const TestCase &t, size_t last) {
  const model::Program &p = catalog.program();
  // What statement `r` is the address of, or `r` itself.
  const auto through = [&](Ref r) {
    const Statement &v = t.statements[r];
    return v.op == Op::AddressOf && !v.refs.empty() ? v.refs[0] : r;
  };
  for (size_t j = 0; j <= last && j < t.statements.size(); ++j) {
    const Statement &u = t.statements[j];
    if (!isCall(u.op)) continue;
    const auto args = argumentsOf(p, u);
    // The arguments given as a non-const pointer to a class.
    std::vector<size_t> owned;
    for (size_t k = 0; k < args.size(); ++k) {
      if (!args[k].param || args[k].ref >= t.statements.size()) continue;
      const model::Type &pt = p.type(p.type(args[k].param->type).value);
      if (pt.kind == model::TypeKind::Pointer && pt.pointee && !pt.pointeeConst && recordOf(p, args[k].param->type))
        owned.push_back(k);
    }
    for (size_t k : owned) {
      const Statement &v = t.statements[args[k].ref];
      if (v.op != Op::AddressOf || v.refs.empty() || v.refs[0] >= t.statements.size()) continue;
      const Op made = t.statements[v.refs[0]].op;
      if (made == Op::Construct || made == Op::Subclass)
        return fmt::format("gives {} the address of the test's own {} as {}: a callee that takes ownership deletes "
                           "what it is given, and only an object from new can be deleted",
                           callName(p, u), p.record(*recordOf(p, args[k].param->type)).name, paramName(args[k], k));
    }
    // Or a pointer, or the address of a reference, that a method of the
    // test's own object lent, at any depth (muParserX's
    // TokenPtr<IValue>(value.AsValue()), which is &value;
    // TokenPtr<IValue>(value.At(0, 0).AsValue()), an element of value's).
    for (size_t k : owned) {
      const Ref lender = through(args[k].ref);
      if (lender >= t.statements.size() || t.statements[lender].op != Op::MethodCall) continue;
      Ref owner = lender;
      while (owner < t.statements.size() && t.statements[owner].op == Op::MethodCall && !t.statements[owner].refs.empty())
        owner = t.statements[owner].refs[0] < t.statements.size() ? through(t.statements[owner].refs[0])
                                                                  : t.statements[owner].refs[0];
      if (owner < t.statements.size() && t.statements[owner].op == Op::Construct)
        return fmt::format("gives {} a pointer {} lent from the test's own object as {}: a callee that takes "
                           "ownership deletes what it is given, and only an object from new can be deleted",
                           callName(p, u), callName(p, t.statements[lender]), paramName(args[k], k));
    }
  }
  return "";
}

std::string earlierMisuse(const testcase::Catalog &catalog, const TestCase &t, size_t i, const std::string &happened) {
  const model::Program &p = catalog.program();
  for (size_t j = 0; j < i; ++j) {
    if (!isCall(t.statements[j].op)) continue;
    if (std::string why = argumentMisuse(catalog, t, j); !why.empty())
      return happened + ", and an earlier call was misuse: " + why;
    // An element of a container nothing was put into, whatever was then
    // done with it (swapped into another object, destroyed at the end); a
    // pointer only the API makes, used after a call replaced or released it.
    if (std::string why = elementOfNothing(p, t, j); !why.empty())
      return happened + ", and earlier " + why;
    if (std::string why = staleApiPointer(catalog, t, j); !why.empty()) return happened + ", and earlier " + why;
    const model::Callable &c = p.callable(t.statements[j].callable);
    if (internal(catalog, c))
      return fmt::format("{} after an earlier call of {}, {}, with arguments its own callers may never pass", happened,
                         callName(p, t.statements[j]), catalog.insideOf(c));
  }
  return "";
}

} // namespace

Classification classify(const testcase::Catalog &catalog, const TestCase &test, const exec::RunResult &result,
                        const std::vector<exec::Observation> &observations, const std::string &output) {
  const model::Program &p = catalog.program();
  if (test.statements.empty()) return {FailureClass::Misuse, "an empty test"};
  // Where it failed: the statement it stopped at, or (past the last one:
  // a destructor at the end) the last call.
  const size_t i = failingStatement(test, result);
  if (!isCall(test.statements[i].op)) return {FailureClass::Misuse, "the test failed while it built a value"};
  if (std::string why = misuse(catalog, test, i, observations); !why.empty()) return {FailureClass::Misuse, why};
  // A failure after the last call (at exit: `free(): double free
  // detected`), whatever objects it shares: an earlier call that was misuse
  // by its own arguments (state.c's free_text(text) of the test's array,
  // then next_id()) is its likelier cause than the last call.
  // So is an earlier call of an internal function with the test's
  // arguments (zstd's ZDICT_addEntropyTablesFromBuffer_advanced given
  // sample sizes beyond its buffer, then ZDICT_getDictHeaderSize).
  if (result.statement < 0 || static_cast<size_t>(result.statement) >= test.statements.size())
    if (std::string why = earlierMisuse(catalog, test, i, "it failed after the test's last call"); !why.empty())
      return {FailureClass::Misuse, why};
  // glibc found the heap corrupted (`malloc(): corrupted top size`): any
  // earlier call may have written past a block, whatever objects it
  // shares with the call that noticed; an earlier misuse, or a call of an
  // internal function with arguments of the test's, is the likelier cause
  // (json-c's static json_object_new(type, 13, ...), then
  // json_object_new_double_s() aborts in malloc).
  if (heapCorruption(output))
    if (std::string why = earlierMisuse(catalog, test, i, "glibc found the heap corrupted"); !why.empty())
      return {FailureClass::Misuse, why};
  // An earlier call given the address of a variable of the test's as a
  // `void *` it reads, and writes, as an object of its own: it wrote over
  // the test's stack, and a failure anywhere after it may be that (bzip2's
  // BZ2_bzread(&file, ...), the address of a FILE * as its BZFILE *, then
  // BZ2_bzopen crashed on a pointer of the test's it had overwritten).
  for (size_t j = 0; j < i; ++j)
    if (std::string why = ownObjectThroughVoid(p, test, j); !why.empty())
      return {FailureClass::Misuse, "it failed in " + callName(p, test.statements[i]) + " after an earlier call " + why};
  // A free or realloc of what malloc never returned, where the failing
  // call was given, through a pointer to a pointer, the address of the
  // test's own object (giflib's GifAddExtensionBlock(&count, &blocks, ...)
  // with blocks pointing at the test's ExtensionBlock: it reallocs
  // *blocks, which only malloc's memory can be), or a struct the test
  // built by hand around its own memory (libogg's oggpack_buffer with
  // .buffer = &byte, which oggpack_write reallocates).
  // (In the harness the test's bytes are on the heap: freed by the
  // callee, they are freed again when the test ends, a double free.)
  if (output.find("free(): invalid pointer") != std::string::npos ||
      output.find("realloc(): invalid pointer") != std::string::npos ||
      output.find("munmap_chunk(): invalid pointer") != std::string::npos ||
      output.find("not malloc()-ed") != std::string::npos || output.find("double free") != std::string::npos)
    for (const std::string &why : {testsOwnThroughAPointer(catalog, test, i, false), ownMemoryInABuiltRecord(catalog, test, i)})
      if (!why.empty()) return {FailureClass::Misuse, why};
  // A delete of what `new` never made: glibc's word on it, or a crash in
  // the destructors after the test's last statement.
  if (p.language == "c++" && (output.find("free(): invalid") != std::string::npos || output.find("double free") != std::string::npos ||
                    output.find("not malloc()-ed") != std::string::npos || result.statement < 0))
    if (std::string why = ownObjectGivenAway(catalog, test, i); !why.empty()) return {FailureClass::Misuse, why};
  if (std::string why = robustness(catalog, test, i, observations); !why.empty())
    return {FailureClass::Robustness, why};
  const std::string where = callName(p, test.statements[i]);
  switch (result.outcome) {
  case exec::Outcome::Timeout: return {FailureClass::Robustness, where + " does not return within the time limit"};
  case exec::Outcome::OutOfMemory: return {FailureClass::Robustness, where + " runs out of memory"};
  case exec::Outcome::Crash:
    if (exec::stoppedAtFileLimit(result))
      return {FailureClass::Robustness, where + " writes a file past the sandbox's size limit"};
    break;
  case exec::Outcome::Exit:
    return {FailureClass::Robustness, fmt::format("{} ends the process (exit({}))", where, result.exitCode)};
  default: break;
  }
  return {FailureClass::Defect, where + " fails through the public API with plain values and objects the API made"};
}


namespace {

// A function's name without template arguments and parameters, so that
// a demangled frame ("ns::Vector<char const>::SubVector(int, int)") and a
// callable's qualified name ("ns::Vector<const char>::SubVector") compare.
std::string bareName(const std::string &name) {
  std::string out;
  int angle = 0;
  for (size_t k = 0; k < name.size(); ++k) {
    const char ch = name[k];
    // "operator<" and "operator()" keep their brackets.
    if (name.compare(k, 8, "operator") == 0) {
      const size_t op = name.find_first_of("(", k + 8);
      const size_t len = op == std::string::npos ? name.size() - k : op - k + (name.compare(op, 2, "()") == 0 ? 2 : 0);
      out += name.substr(k, len);
      k += len - 1;
      continue;
    }
    if (ch == '<') ++angle;
    else if (ch == '>' && angle > 0) --angle;
    else if (ch == '(' && angle == 0) break;
    else if (angle == 0) out += ch;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

} // namespace

namespace {

// The function glibc's message names ("bignum.cc:125: uint64_t
// dc::HexCharValue(const int): Assertion `...' failed."): the last word
// before the first parenthesis of the part between the line number and
// "Assertion". "" when it cannot be read.
std::string assertingFunction(const std::string &output, size_t assertionAt) {
  const size_t lineStart = output.rfind('\n', assertionAt) == std::string::npos ? 0 : output.rfind('\n', assertionAt) + 1;
  const std::string line = output.substr(lineStart, assertionAt - lineStart);
  // FILE:LINE: SIGNATURE: 
  const size_t afterLine = [&] {
    for (size_t k = 0; k + 1 < line.size(); ++k)
      if (line[k] == ':' && std::isdigit(static_cast<unsigned char>(line[k + 1]))) {
        size_t e = k + 1;
        while (e < line.size() && std::isdigit(static_cast<unsigned char>(line[e]))) ++e;
        if (e + 1 < line.size() && line[e] == ':' && line[e + 1] == ' ') return e + 2;
      }
    return std::string::npos;
  }();
  if (afterLine == std::string::npos) return "";
  const std::string signature = line.substr(afterLine);
  const size_t paren = signature.find('(');
  if (paren == std::string::npos) return "";
  std::string head = signature.substr(0, paren);
  const size_t space = head.find_last_of(" *&");
  return space == std::string::npos ? head : head.substr(space + 1);
}

} // namespace

std::string libraryAssertion(const exec::RunResult &result, const std::string &output,
                             const std::vector<exec::Frame> &frames, const std::string &callable) {
  if (result.outcome != exec::Outcome::Abort) return "";
  const size_t at = output.find("Assertion `");
  // An abort() the library calls itself, with no message of glibc's or the
  // C++ runtime's (double-conversion's DOUBLE_CONVERSION_UNREACHABLE when a
  // Bignum would outgrow its fixed capacity): as deliberate as an
  // assertion. Not glibc's fatal checks ("*** buffer overflow detected ***",
  // a corrupted heap), nor an uncaught exception ("terminate called").
  if (at == std::string::npos) {
    if (frames.empty() || heapCorruption(output) || output.find("***") != std::string::npos ||
        output.find("terminate called") != std::string::npos || output.find("Sanitizer") != std::string::npos)
      return "";
    return fmt::format("{}() stops at an abort() of {}(): a check the library makes on purpose, so what the test "
                       "gave is outside what it accepts",
                       callable, bareName(frames.front().function));
  }
  const size_t end = output.find("' failed", at);
  if (end == std::string::npos) return "";
  const size_t from = at + std::string("Assertion `").size();
  const std::string expr = output.substr(from, end - from);
  const std::string asserting = frames.empty() ? assertingFunction(output, at) : frames.front().function;
  if (!asserting.empty() && bareName(asserting) == bareName(callable))
    return fmt::format("{}() rejects its arguments with its own assertion `{}`: a precondition its caller broke",
                       callable, expr);
  return fmt::format("{}() stops at the assertion `{}`{}: a check the library makes on purpose, so what the test "
                     "gave is outside what it accepts",
                     callable, expr, asserting.empty() ? "" : " of " + bareName(asserting) + "()");
}

namespace {

// Whether a sanitizer report says the run dereferenced a null pointer:
// UBSan's null-pointer checks ("member access within null pointer", "null
// pointer passed as argument 1"), or ASan's SEGV in the zero page (its own
// hint, or an address below 4096: Linux never maps the first page, whose
// vm.mmap_min_addr is at least 4096).
bool nullDereference(const std::string &report) {
  if (report.find("address points to the zero page") != std::string::npos) return true;
  if (report.find("runtime error: ") != std::string::npos && report.find("null pointer") != std::string::npos)
    return true;
  std::smatch m;
  if (!std::regex_search(report, m, std::regex(R"(SEGV on unknown address (?:0x)?([0-9a-fA-F]{1,16}))"))) return false;
  return std::stoull(m[1].str(), nullptr, 16) < 4096;
}

} // namespace

std::string errorReturnedEarlier(const testcase::Catalog &catalog, const TestCase &test, const exec::RunResult &result,
                                 const std::vector<exec::Observation> &observations) {
  if (test.statements.empty()) return "";
  const model::Program &p = catalog.program();
  const size_t i = failingStatement(test, result);
  if (!isCall(test.statements[i].op)) return "";
  const auto objects = objectCone(catalog, test, i);
  for (size_t j = 0; j < i; ++j) {
    const Statement &u = test.statements[j];
    if (!isCall(u.op) || std::none_of(u.refs.begin(), u.refs.end(), [&](Ref r) {
          // An object, not a number or a NULL both calls were given.
          return r < test.statements.size() && test.statements[r].op != Op::Null &&
                 test.statements[r].op != Op::Primitive && oneOf(test, objects, r);
        }))
      continue;
    const model::Type &result = p.type(p.type(p.callable(u.callable).result).value);
    for (const exec::Observation &o : observations) {
      if (o.statement != j || o.target != MOSAIC_OBS_RESULT || o.field != -1 ||
          (o.kind != MOSAIC_OBS_INT && o.kind != MOSAIC_OBS_UINT))
        continue;
      // An enumerator named for an error (xxhash's XXH_ERROR: a word err,
      // error, fail, failed, failure or invalid). Not a negative integer:
      // a comparison's -1 is no error.
      std::string said;
      if (result.kind == model::TypeKind::Enum && result.enumId)
        for (const model::Enumerator &e : p.enums.at(*result.enumId).enumerators)
          if (e.value == o.integer && anyIdentifierWord(e.name.substr(e.name.rfind(':') + 1), [](std::string_view w) {
                const std::string l = lowercase(std::string(w));
                return l == "err" || l == "error" || l == "fail" || l == "failed" || l == "failure" || l == "invalid";
              }))
            said = e.name;
      if (!said.empty())
        return fmt::format("follows the error {} that an earlier call on the same object returned, {} (statement {}), "
                           "which the test did not heed",
                           said, callName(p, u), j);
    }
  }
  return "";
}

std::string nullKeptEarlier(const testcase::Catalog &catalog, const TestCase &test, const exec::RunResult &result,
                            const std::vector<exec::Observation> &observations, const std::string &report) {
  if (test.statements.empty()) return "";
  // A null dereference, as the report says; or any failure after a null
  // callback was kept (leveldb's Cache::Insert(k, v, 1, nullptr), then
  // Cache::Erase(k) calls the deleter, wherever the fault lands).
  const bool nullRead = nullDereference(report);
  const model::Program &p = catalog.program();
  const size_t i = failingStatement(test, result);
  if (!isCall(test.statements[i].op)) return "";
  const auto inCone = cone(test, i);
  // An object the failing call uses (or its address), not a null itself.
  const auto used = [&](Ref r) {
    return r < test.statements.size() && test.statements[r].op != Op::Null && oneOf(test, inCone, r);
  };
  // A struct the test zero-initialised and gave to no call before this
  // one (libogg's `ogg_page og = {}; ogg_page_bos(&og)` reads
  // og.header[5]): the null it dereferenced is one of its pointer fields.
  if (nullRead)
    for (size_t j : builtValues(test, i)) {
      const Statement &s = test.statements[j];
      const auto rec = s.op == Op::Aggregate && s.refs.empty() ? recordOf(p, s.type) : std::nullopt;
      if (!rec || p.type(p.type(s.type).value).kind != model::TypeKind::Record || !hasPointerField(p, p.record(*rec)))
        continue;
      const bool earlier = std::any_of(test.statements.begin() + static_cast<std::ptrdiff_t>(j) + 1,
                                       test.statements.begin() + static_cast<std::ptrdiff_t>(i), [&](const Statement &u) {
                                         return isCall(u.op) && std::any_of(u.refs.begin(), u.refs.end(), [&](Ref r) {
                                                  return holdsValue(test, r, j);
                                                });
                                       });
      if (!earlier)
        return fmt::format("{} dereferences a null pointer in a {} the test zero-initialised and gave it first",
                           callName(p, test.statements[i]), p.record(*rec).name);
    }
  for (size_t j = 0; j < i; ++j) {
    const Statement &u = test.statements[j];
    if (u.op != Op::Call && u.op != Op::MethodCall) continue;
    // It may keep the null only in an object it is given to change.
    if (std::none_of(u.refs.begin(), u.refs.end(), [&](Ref r) { return used(r) && !onlyReads(p, u, r); })) continue;
    const auto args = argumentsOf(p, u);
    for (size_t k = 0; k < args.size(); ++k) {
      const Ref r = args[k].ref;
      if (r >= test.statements.size()) continue;
      if (!nullRead && !(callbackArgument(p, args[k]) && test.statements[r].op == Op::Null)) continue;
      if (nullValue(test, observations, r))
        return fmt::format("{} {} after {} was given NULL as {}{} for an object it uses", callName(p, test.statements[i]),
                           nullRead ? "dereferences a null pointer" : "fails", callName(p, u), paramName(args[k], k),
                           resultOf(p, test.statements[r]));
    }
  }
  return "";
}

std::string wrongKindDowncast(const testcase::Catalog &catalog, const TestCase &test, const exec::RunResult &result,
                              const std::string &report) {
  if (test.statements.empty()) return "";
  std::smatch m;
  if (!std::regex_search(report, m, std::regex(R"(runtime error: downcast of address \S+ which does not point to an object of type '([^']+)')")))
    return "";
  const size_t i = failingStatement(test, result);
  if (!isCall(test.statements[i].op)) return "";
  return fmt::format("{} cast an object it was given to {}, which that object is not: it takes only objects of that "
                     "kind",
                     callName(catalog.program(), test.statements[i]), m[1].str());
}

namespace {

// Whether ASan reports an access past a buffer of the heap or a stack (or
// a global's, with `globals`), or into memory it poisoned (a pool's).
bool reportsOverrun(const std::string &report, bool globals) {
  for (const char *kind : {"AddressSanitizer: heap-buffer-overflow", "AddressSanitizer: stack-buffer-overflow",
                           "AddressSanitizer: use-after-poison"})
    if (report.find(kind) != std::string::npos) return true;
  return globals && report.find("AddressSanitizer: global-buffer-overflow") != std::string::npos;
}

} // namespace

std::string overrunInABuiltStruct(const testcase::Catalog &catalog, const TestCase &test, const exec::RunResult &result,
                                  const std::string &report) {
  if (test.statements.empty()) return "";
  if (!reportsOverrun(report, /*globals=*/true)) return "";
  const size_t i = failingStatement(test, result);
  if (!isCall(test.statements[i].op)) return "";
  const auto found = builtRecordAroundOwnMemory(catalog, test, i);
  if (!found) return "";
  return fmt::format("{} overran a buffer given inside a {} built by hand (its {} is the test's): a {} the API fills "
                     "may hold more than the test gave",
                     callName(catalog.program(), test.statements[i]), catalog.program().record(found->first).name,
                     found->second, catalog.program().record(found->first).name);
}

std::string readPastAnArrayWithNoLength(const testcase::Catalog &catalog, const TestCase &test,
                                        const exec::RunResult &result, const std::string &report) {
  if (test.statements.empty()) return "";
  // Arrays a test makes are on the heap or its stack, never globals.
  bool overrun = report.find("READ of size") != std::string::npos && reportsOverrun(report, /*globals=*/false);
  // Or a read far past it, into memory that is not mapped (libspiro's
  // spiro.c: "SEGV on unknown address 0x508000040010 ... caused by a READ
  // memory access"); not near NULL, which is a null pointer's.
  std::smatch m;
  constexpr unsigned long long kNullPage = 0x10000; // ours: an offset from NULL stays below it
  if (!overrun && report.find("caused by a READ memory access") != std::string::npos &&
      std::regex_search(report, m, std::regex(R"(AddressSanitizer: SEGV on unknown address (0x[0-9a-f]+))")))
    overrun = std::stoull(m[1].str(), nullptr, 16) >= kNullPage;
  if (!overrun) return "";
  const size_t i = failingStatement(test, result);
  if (!isCall(test.statements[i].op)) return "";
  const model::Program &p = catalog.program();
  const auto args = argumentsOf(p, test.statements[i]);
  // An array a call returned, with a length of the test's own (libspiro's
  // spiro_to_bpath(run_spiro(src, 4), 2336, bc)): the test never knew how
  // long the array is.
  for (size_t k = 0; k < args.size(); ++k) {
    const model::Param *param = args[k].param;
    if (!param || param->role != model::ParamRole::Buffer || !param->pairedWith || args[k].ref >= i) continue;
    const unsigned n = *param->pairedWith;
    if (n >= args.size() || args[n].ref >= i || !isCall(test.statements[args[k].ref].op) ||
        test.statements[args[n].ref].op != Op::Primitive)
      continue;
    return fmt::format("{} read past the end of the array {} returned, given as {} with {} = {}, a length of the "
                       "test's own: only the caller that made the array knows its length",
                       callName(p, test.statements[i]), callName(p, test.statements[args[k].ref]),
                       paramName(args[k], k), paramName(args[n], n),
                       static_cast<std::int64_t>(test.statements[args[n].ref].bits));
  }
  // A call that takes a length anywhere may be told the array's size.
  if (std::any_of(args.begin(), args.end(), [](const Argument &a) { return a.param && a.param->pairedWith; })) return "";
  for (size_t k = 0; k < args.size(); ++k) {
    if (!args[k].param || args[k].ref >= i) continue;
    // A pointer to structs or to pointers (not bytes: a string has its NUL).
    const model::Type &param = p.type(p.type(args[k].param->type).value);
    if (param.kind != model::TypeKind::Pointer || !param.pointee) continue;
    const model::TypeKind element = p.type(p.type(*param.pointee).value).kind;
    if (element != model::TypeKind::Record && element != model::TypeKind::Pointer) continue;
    // An array the test made (its elements, or zeroed bytes), or the address of one object.
    const Statement &s = test.statements[args[k].ref];
    std::string given;
    if (s.op == Op::Array && !s.refs.empty()) given = fmt::format("the {}-element array", s.refs.size());
    else if (s.op == Op::Buffer) given = "the array of zeroes";
    else if (s.op == Op::AddressOf) given = "the address of one object";
    else continue;
    return fmt::format("{} read past the end of {} the test gave it as {}, with no length beside it: it finds the "
                       "array's end by a mark (a last element of its own kind) the test did not put there",
                       callName(p, test.statements[i]), given, paramName(args[k], k));
  }
  return "";
}

namespace {

// The thread a sanitizer report says the error happened in ("... T1)" on
// its ERROR line; T0 is the main thread, the test's): -1 when it says none.
int reportThread(const std::string &report) {
  const size_t error = report.find("ERROR: ");
  if (error == std::string::npos) return -1;
  const std::string line = report.substr(error, report.find('\n', error) - error);
  std::smatch m;
  if (!std::regex_search(line, m, std::regex(R"( T([0-9]+)\)?\s*$)"))) return -1;
  return std::stoi(m[1].str());
}

} // namespace

std::string misuseOutsideTheCall(const testcase::Catalog &catalog, const TestCase &test,
                                 const exec::RunResult &result, const std::vector<exec::Frame> &frames,
                                 const std::string &report) {
  if (test.statements.empty()) return "";
  const size_t i = failingStatement(test, result);
  if (!isCall(test.statements[i].op)) return "";
  const model::Program &p = catalog.program();
  const std::string called = bareName(p.callable(test.statements[i].callable).qualifiedName);
  std::string in;
  if (const int thread = reportThread(report); thread > 0) {
    in = "thread T" + std::to_string(thread);
  } else {
    if (frames.empty() || result.stack.size() >= MOSAIC_STACK_CAPACITY ||
        std::any_of(frames.begin(), frames.end(), [&](const exec::Frame &f) { return bareName(f.function) == called; }))
      return "";
    in = bareName(frames.front().function) + "()";
  }
  for (size_t j = 0; j < i; ++j) {
    if (!isCall(test.statements[j].op)) continue;
    if (std::string why = argumentMisuse(catalog, test, j); !why.empty())
      return fmt::format("it failed outside {}() (in {}), and an earlier call was misuse: {}", called, in, why);
    if (const model::Callable &c = p.callable(test.statements[j].callable); internal(catalog, c))
      return fmt::format("it failed outside {}() (in {}), after an earlier call of {}, {}, with arguments its own "
                         "callers may never pass",
                         called, in, callName(p, test.statements[j]), catalog.insideOf(c));
  }
  return "";
}

bool heapCorruption(const std::string &output) {
  // glibc's malloc checks (malloc.c's malloc_printerr and its assertions).
  for (const char *sign : {"double free", "free(): invalid", "malloc(): ", "realloc(): invalid",
                           "malloc assertion failure", "corrupted size vs. prev_size", "corrupted double-linked list",
                           "munmap_chunk(): invalid pointer"})
    if (output.find(sign) != std::string::npos) return true;
  return false;
}

std::vector<size_t> unusualIntegers(const testcase::Catalog &catalog, const TestCase &test,
                                    const exec::RunResult &result) {
  std::vector<size_t> out;
  if (test.statements.empty()) return out;
  const model::Program &p = catalog.program();
  const size_t i = failingStatement(test, result);
  // The failing call's cone, and that of each earlier call on one of its
  // objects (libogg's oggpack_adv(&b, -943), then oggpack_read(&b, 0)
  // reads before b's buffer).
  for (size_t j : coneWithEarlierCalls(catalog, test, i)) {
    const Statement &s = test.statements[j];
    if (s.op != Op::Primitive || p.type(p.type(s.type).value).kind != model::TypeKind::Integer) continue;
    if (s.bits == 0 || s.bits == 1 || pairedLength(catalog, test, j)) continue;
    out.push_back(j);
  }
  return out;
}

std::vector<UnsizedBuffer> unsizedBuffers(const testcase::Catalog &catalog, const TestCase &test,
                                          const exec::RunResult &result) {
  std::vector<UnsizedBuffer> out;
  if (test.statements.empty()) return out;
  const model::Program &p = catalog.program();
  const size_t last = failingStatement(test, result);
  std::set<size_t> seen;
  for (size_t i = 0; i <= last && i < test.statements.size(); ++i) {
    const Statement &s = test.statements[i];
    if (!isCall(s.op)) continue;
    const auto args = argumentsOf(p, s);
    for (size_t a = 0; a < args.size(); ++a) {
      const Argument &arg = args[a];
      if (!arg.param || arg.ref == testcase::kNoRef || arg.ref >= i) continue;
      const model::Param &param = *arg.param;
      // Half of a pair has its length; a string the callee only reads (a
      // `const char *`) ends at its NUL, and reading past it is the
      // callee's doing. A `char *` may be where it writes (libmd's
      // SHA1Data(const uint8_t *, size_t, char *), declared without names).
      if (param.pairedWith || param.role == model::ParamRole::Buffer || param.role == model::ParamRole::End ||
          param.role == model::ParamRole::Length || param.role == model::ParamRole::Callback)
        continue;
      const model::Type &pt = p.type(p.type(param.type).value);
      if (pt.kind != model::TypeKind::Pointer || !pt.pointee) continue;
      const bool readOnly = p.type(*pt.pointee).isConst;
      const Statement &v = test.statements[arg.ref];
      const bool cstring = v.op == Op::CString;
      if (cstring && param.role == model::ParamRole::CString && readOnly) continue;
      // Bytes, a string, or scalars: an array of them or the address of
      // one (libmodbus's modbus_get_float(const uint16_t *src) reads two).
      std::optional<std::string> bytes;
      if (v.op == Op::Buffer) bytes = v.bytes;
      else if (cstring) bytes = v.bytes + '\0';
      else bytes = scalarBytes(p, test, arg.ref);
      if (!bytes || bytes->size() >= kRoomyBuffer || !seen.insert(arg.ref).second) continue;
      out.push_back({arg.ref, i, paramName(arg, a), std::move(*bytes)});
    }
  }
  return out;
}

TestCase withRoomyBuffers(const TestCase &test, const std::vector<UnsizedBuffer> &buffers) {
  TestCase out = test;
  for (const UnsizedBuffer &b : buffers) {
    Statement &s = out.statements.at(b.statement);
    s.op = Op::Buffer;
    s.refs.clear();
    s.bytes = b.bytes;
    if (s.bytes.size() < kRoomyBuffer) s.bytes.resize(kRoomyBuffer, '\0');
  }
  return out;
}

TestCase withGrownBuffers(const TestCase &test, const std::vector<UnsizedBuffer> &buffers, size_t factor) {
  TestCase out = test;
  for (const UnsizedBuffer &b : buffers) {
    Statement &s = out.statements.at(b.statement);
    if (s.op == Op::Array || s.op == Op::AddressOf) {
      // Scalars (unsizedBuffers): the array's elements, or the one addressed.
      const std::vector<Ref> elements = s.refs;
      if (elements.empty()) continue;
      s.op = Op::Array;
      s.refs.resize(std::max<size_t>(elements.size() * factor, 1), elements.back());
      continue;
    }
    s.op = Op::Buffer;
    s.bytes = b.bytes;
    s.bytes.resize(std::max<size_t>(s.bytes.size(), 1) * factor, '\0');
  }
  return out;
}

std::string describeValue(const testcase::Catalog &catalog, const TestCase &test, size_t index) {
  const model::Program &p = catalog.program();
  const Statement &v = test.statements.at(index);
  const model::Type &ty = p.type(p.type(v.type).value);
  const std::string value = ty.isSigned ? std::to_string(static_cast<std::int64_t>(v.bits))
                                        : std::to_string(ty.bits >= 64 ? v.bits : v.bits & ((1ull << ty.bits) - 1));
  for (size_t k = index + 1; k < test.statements.size(); ++k) {
    const Statement &s = test.statements[k];
    if (!isCall(s.op)) continue;
    const auto args = argumentsOf(p, s);
    for (size_t a = 0; a < args.size(); ++a)
      if (args[a].ref == index) return value + " as " + paramName(args[a], a) + " of " + callName(p, s);
  }
  return value;
}

std::string sanitizerClass(const std::string &output) {
  // UBSan: the words of its message before the first value ("signed
  // integer overflow: 1 + 2", "addition of unsigned offset to 0x5020...").
  if (const size_t at = output.find("runtime error: "); at != std::string::npos) {
    std::istringstream words(output.substr(at + 15, output.find('\n', at) - at - 15));
    std::string cls;
    for (std::string w; words >> w;) {
      if (std::any_of(w.begin(), w.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); })) break;
      const bool last = w.back() == ':';
      if (last) w.pop_back();
      cls += (cls.empty() ? "" : " ") + w;
      if (last) break;
    }
    return cls;
  }
  // ASan and the others: "ERROR: AddressSanitizer: heap-buffer-overflow on ...".
  if (const size_t at = output.find("Sanitizer: "); at != std::string::npos) {
    const size_t from = at + 11;
    const size_t end = output.find_first_of(" \n:(", from);
    return output.substr(from, end == std::string::npos ? std::string::npos : end - from);
  }
  return "";
}

std::string failureSite(const exec::RunResult &result, const std::string &output, const std::vector<exec::Frame> &frames,
                        const std::string &where, size_t depth) {
  std::string kind = exec::toString(result.outcome);
  if (result.outcome == exec::Outcome::Crash || result.outcome == exec::Outcome::Abort)
    kind += " " + std::to_string(result.signal);
  if (result.outcome == exec::Outcome::Exit) kind += " " + std::to_string(result.exitCode);
  if (result.outcome == exec::Outcome::Sanitizer) kind += " " + sanitizerClass(output);
  if (frames.empty()) return kind + " in " + where;
  std::string site = kind + " at";
  for (size_t k = 0; k < frames.size() && k < depth; ++k)
    site += (k ? " < " : " ") + frames[k].function + ":" + std::to_string(frames[k].line);
  return site;
}

} // namespace mosaic::stages
