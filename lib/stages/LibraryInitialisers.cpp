// The library's own initialisers, and a test run after one (Classify.h):
// the counterfactual that tells a library used before its initialiser from
// a defect.
#include "mosaic/model/Derive.h"
#include "mosaic/stages/Classify.h"
#include "mosaic/support/Text.h"

#include <algorithm>

namespace mosaic::stages {

using model::TypeKind;
using testcase::Op;
using testcase::Statement;

namespace {

// Whether `c` may be given 0 or NULL for each parameter, and takes no
// object of the caller's to initialise.
bool takesNoObject(const model::Program &p, const model::Callable &c) {
  return std::all_of(c.params.begin(), c.params.end(), [&](const model::Param &param) {
    const model::Type &t = p.type(p.type(param.type).value);
    switch (t.kind) {
    case TypeKind::Bool:
    case TypeKind::Char:
    case TypeKind::Integer:
    case TypeKind::Enum: return true;
    case TypeKind::Pointer:
      return t.pointee && p.type(p.type(*t.pointee).value).kind != TypeKind::Record;
    default: return false;
    }
  });
}

} // namespace

std::vector<model::CallableId> libraryInitialisers(const testcase::Catalog &catalog, const testcase::TestCase &test) {
  const model::Program &p = catalog.program();
  std::vector<model::CallableId> found;
  for (const model::Callable &c : p.callables) {
    if (c.kind != model::CallableKind::Function || c.parent || c.globalObject || !catalog.callable(c.id) ||
        !model::isInitialiserName(c.name) || !takesNoObject(p, c))
      continue;
    const bool called = std::any_of(test.statements.begin(), test.statements.end(), [&](const Statement &s) {
      return testcase::isCall(s.op) && s.callable == c.id;
    });
    if (!called) found.push_back(c.id);
  }
  // `initialize`, `initialise` or `global` in the name first, then by name.
  auto evocative = [&](model::CallableId id) {
    const std::string n = lowercase(p.callable(id).name);
    return n.find("initiali") != std::string::npos || n.find("global") != std::string::npos;
  };
  std::sort(found.begin(), found.end(), [&](model::CallableId a, model::CallableId b) {
    if (evocative(a) != evocative(b)) return evocative(a);
    if (p.callable(a).name != p.callable(b).name) return p.callable(a).name < p.callable(b).name;
    return a < b;
  });
  if (found.size() > kLibraryInitialisers) found.resize(kLibraryInitialisers);
  return found;
}

testcase::TestCase afterInitialiser(const model::Program &p, model::CallableId initialiser,
                                    const testcase::TestCase &test) {
  const model::Callable &c = p.callable(initialiser);
  testcase::TestCase out;
  Statement call{.op = Op::Call, .callable = initialiser};
  for (const model::Param &param : c.params) {
    const model::TypeId type = p.type(param.type).value;
    call.refs.push_back(static_cast<testcase::Ref>(out.statements.size()));
    out.statements.push_back(p.type(type).kind == TypeKind::Pointer ? Statement{.op = Op::Null, .type = type}
                                                                     : Statement{.op = Op::Primitive, .type = type});
  }
  out.statements.push_back(std::move(call));
  const auto shift = static_cast<testcase::Ref>(out.statements.size());
  for (Statement s : test.statements) {
    for (testcase::Ref &r : s.refs)
      if (r != testcase::kNoRef) r += shift;
    out.statements.push_back(std::move(s));
  }
  return out;
}

} // namespace mosaic::stages
