// Inspectors and releases appended to finished tests (Inspect.h).
#include "mosaic/testcase/Inspect.h"

#include "mosaic/model/Derive.h"
#include "mosaic/testcase/Lifetime.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string>

namespace mosaic::testcase {

using model::TypeKind;

namespace {

// The record a variable of `type` is, or points to.
std::optional<model::RecordId> objectRecord(const model::Program &p, model::TypeId type) {
  const model::Type &t = p.type(p.type(type).value);
  if (t.kind == TypeKind::Record) return t.recordId;
  if (t.kind == TypeKind::Pointer && t.pointee) {
    const model::Type &pointee = p.type(p.type(*t.pointee).value);
    if (pointee.kind == TypeKind::Record) return pointee.recordId;
  }
  return std::nullopt;
}

// The pointee's value type of a pointer type, or nullopt.
std::optional<model::TypeId> pointeeOf(const model::Program &p, model::TypeId type) {
  const model::Type &t = p.type(p.type(type).value);
  if (t.kind != TypeKind::Pointer || !t.pointee) return std::nullopt;
  return p.type(*t.pointee).value;
}

// Whether a later call takes `object` with std::move: its state is then
// unspecified.
bool movedLater(const model::Program &p, const testcase::TestCase &test, Ref object) {
  for (size_t j = object + 1; j < test.statements.size(); ++j) {
    const Statement &u = test.statements[j];
    if (u.op != Op::Call && u.op != Op::MethodCall && u.op != Op::Construct) continue;
    const model::Callable &c = p.callable(u.callable);
    const size_t offset = u.op == Op::MethodCall ? 1 : 0;
    for (size_t k = 0; k < c.params.size() && k + offset < u.refs.size(); ++k)
      if (u.refs[k + offset] == object && model::passedByMove(p, c.params[k].type)) return true;
  }
  return false;
}

} // namespace

std::vector<Statement> inspectors(const model::Program &p, const testcase::Catalog &catalog,
                                  const testcase::TestCase &test, size_t perObject, size_t total) {
  std::vector<Statement> out;
  std::set<Ref> seen;
  for (size_t i = 0; i < test.statements.size() && out.size() < total; ++i) {
    const Statement &s = test.statements[i];
    Ref object = testcase::kNoRef;
    if (s.op == Op::Construct) object = static_cast<Ref>(i);
    else if (s.op == Op::MethodCall && !s.refs.empty()) object = s.refs[0];
    if (object == testcase::kNoRef || !seen.insert(object).second || movedLater(p, test, object)) continue;
    const auto type = testcase::variableType(p, test, object);
    if (!type) continue;
    const auto record = objectRecord(p, *type);
    if (!record) continue;
    size_t added = 0;
    for (model::CallableId m : p.record(*record).methods) {
      if (added == perObject || out.size() == total) break;
      const model::Callable &c = p.callable(m);
      if (c.kind != model::CallableKind::Method || !c.isConst || !c.params.empty() || !catalog.callable(m) ||
          !catalog.observable(c.result))
        continue;
      Statement call;
      call.op = Op::MethodCall;
      call.callable = m;
      call.refs = {object};
      out.push_back(std::move(call));
      ++added;
    }
  }
  return out;
}

std::vector<Statement> releases(const model::Program &p, const testcase::Catalog &catalog,
                                const testcase::TestCase &test) {
  std::vector<Statement> out;
  if (p.language != "c") return out;
  // Destroyers by the pointee they take (nullopt key: void *).
  auto destroyerFor = [&](model::TypeId pointee) -> std::optional<model::CallableId> {
    std::optional<model::CallableId> generic;
    for (const model::Callable &c : p.callables) {
      if (!catalog.callable(c.id) || !testcase::releasesItsArgument(p, c)) continue;
      const model::TypeId takes = *pointeeOf(p, c.params[0].type); // a pointer, as releasesItsArgument says
      if (takes == pointee) return c.id;
      if (p.type(takes).kind == TypeKind::Void && !generic) generic = c.id;
    }
    return generic;
  };
  for (size_t i = test.statements.size(); i-- > 0;) {
    const Statement &s = test.statements[i];
    if (s.op != Op::Call) continue;
    const model::Callable &c = p.callable(s.callable);
    if (testcase::isDestroyerName(c.name)) continue; // it released something itself
    if (c.globalObject) continue;                     // the library's own object
    const auto type = testcase::variableType(p, test, i);
    if (!type) continue;
    const model::Type &t = p.type(p.type(*type).value);
    if (t.kind != TypeKind::Pointer || t.pointeeConst || !t.pointee) continue;
    const model::TypeId pointee = p.type(*t.pointee).value;
    if (p.type(pointee).kind == TypeKind::FunctionPointer) continue;
    // A record handed back by a call that took one is likely a part of it
    // (a child in a tree). Bytes are not judged this way: a string from a
    // string is mostly a copy, and a pointer into the input (strchr's
    // kind) makes free() abort, which the re-execution sees.
    bool view = false;
    if (p.type(pointee).kind == TypeKind::Record)
      for (const model::Param &param : c.params)
        if (auto q = pointeeOf(p, param.type); q && *q == pointee) view = true;
    if (view) continue;
    bool handedOn = false;
    for (size_t j = i + 1; j < test.statements.size() && !handedOn; ++j) {
      const Statement &u = test.statements[j];
      if (u.op != Op::Call && u.op != Op::MethodCall) continue;
      const model::Callable &uc = p.callable(u.callable);
      for (size_t k = 0; k < u.refs.size() && k < uc.params.size(); ++k) {
        if (u.refs[k] != static_cast<Ref>(i)) continue;
        const model::Type &pt = p.type(p.type(uc.params[k].type).value);
        if (pt.kind == TypeKind::Pointer && !pt.pointeeConst) handedOn = true;
      }
    }
    if (handedOn) continue;
    const auto destroyer = destroyerFor(pointee);
    if (!destroyer) continue;
    Statement release;
    release.op = Op::Call;
    release.callable = *destroyer;
    release.refs = {static_cast<Ref>(i)};
    out.push_back(std::move(release));
  }
  return out;
}

} // namespace mosaic::testcase
