// Reading a failing test (Claims.h): the arguments of a call, the values and
// objects a statement builds or reaches, what the run observed of them.
#include "Claims.h"

#include "mosaic/abi/Trace.h"
#include "mosaic/support/Text.h"
#include "mosaic/testcase/Lifetime.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstring>
#include <fmt/format.h>
#include <functional>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

namespace mosaic::stages {

namespace claims {

namespace {

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

} // namespace

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

std::string resultOf(const model::Program &p, const Statement &v) {
  return isCall(v.op) ? " (the result of " + callName(p, v) + ")" : "";
}

std::string paramName(const Argument &a, size_t index) {
  if (a.param && !a.param->name.empty()) return a.param->name;
  return "argument " + std::to_string(index + 1);
}

std::set<size_t> cone(const TestCase &t, size_t i) { return coneThrough(t, i, nullptr); }

std::set<size_t> objectCone(const testcase::Catalog &catalog, const TestCase &t, size_t i) {
  return coneThrough(t, i, [&](size_t j) {
    const Statement &s = t.statements[j];
    return s.op != Op::Call || !catalog.isScalar(catalog.program().callable(s.callable).result);
  });
}

bool callbackArgument(const model::Program &p, const Argument &a) {
  if (!a.param) return false;
  const model::TypeKind kind = p.type(p.type(a.param->type).value).kind;
  return kind == model::TypeKind::FunctionPointer || kind == model::TypeKind::StdFunction;
}

bool oneOf(const TestCase &t, const std::set<size_t> &objects, Ref r) {
  if (objects.count(r)) return true;
  if (r >= t.statements.size()) return false;
  const Statement &h = t.statements[r];
  return h.op == Op::AddressOf && !h.refs.empty() && objects.count(h.refs[0]) > 0;
}

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

bool holdsValue(const TestCase &t, Ref r, size_t j) {
  if (r == j) return true;
  if (r >= t.statements.size() || r < j) return false;
  const Statement &h = t.statements[r];
  if (h.op != Op::AddressOf && h.op != Op::Array && h.op != Op::Aggregate) return false;
  return std::any_of(h.refs.begin(), h.refs.end(),
                     [&](Ref e) { return e != testcase::kNoRef && e < r && holdsValue(t, e, j); });
}

bool hasPointerField(const model::Program &p, const model::Record &r) {
  return std::any_of(r.fields.begin(), r.fields.end(),
                     [&](const model::Field &f) { return p.type(p.type(f.type).value).kind == model::TypeKind::Pointer; });
}

bool nullAtRunTime(const std::vector<exec::Observation> &obs, size_t j) {
  for (const exec::Observation &o : obs)
    if (o.statement == j && o.target == MOSAIC_OBS_RESULT && o.field == -1 && o.kind == MOSAIC_OBS_NULL)
      return o.integer == 1;
  return false;
}

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

bool pointerToRecord(const model::Program &p, model::TypeId type) {
  const model::Type &t = p.type(p.type(type).value);
  return t.kind == model::TypeKind::Pointer && t.pointee && p.type(p.type(*t.pointee).value).kind == model::TypeKind::Record;
}

bool nullValue(const TestCase &t, const std::vector<exec::Observation> &obs, size_t j) {
  const Statement &v = t.statements[j];
  return v.op == Op::Null || (isCall(v.op) && nullAtRunTime(obs, j));
}

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

std::optional<model::RecordId> recordOf(const model::Program &p, model::TypeId id) {
  const model::Type &t = p.type(p.type(id).value);
  if (t.kind == model::TypeKind::Record) return t.recordId;
  if ((t.kind == model::TypeKind::Pointer || t.kind == model::TypeKind::Reference) && t.pointee) {
    const model::Type &to = p.type(p.type(*t.pointee).value);
    if (to.kind == model::TypeKind::Record) return to.recordId;
  }
  return {};
}

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

const Statement *addressedPrimitive(const TestCase &t, Ref r) {
  const Statement &s = t.statements[r];
  if (s.op != Op::AddressOf || s.refs.empty() || s.refs[0] >= t.statements.size()) return nullptr;
  const Statement &v = t.statements[s.refs[0]];
  return v.op == Op::Primitive ? &v : nullptr;
}

size_t elementsAt(const TestCase &t, Ref r) { return addressedPrimitive(t, r) ? 1 : bytesOf(t.statements[r]); }

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

std::vector<std::string> words(const std::string &name) {
  std::vector<std::string> out;
  for (const std::string &w : identifierWords(name)) out.push_back(lowercase(w));
  return out;
}

} // namespace claims

} // namespace mosaic::stages
