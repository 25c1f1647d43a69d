// A fixture unit's program model and catalog, from the front end alone (no
// harness build); a fake Executor whose runs a test decides; a hand-made
// unit description. For unit tests of the search's extension points and the
// post-search stages.
#pragma once

#include "mosaic/analysis/FrontEnd.h"
#include "mosaic/model/Derive.h"
#include "mosaic/model/Description.h"
#include "mosaic/search/Execution.h"
#include "mosaic/search/Search.h"
#include "mosaic/search/Variation.h"
#include "mosaic/support/Random.h"
#include "mosaic/testcase/Catalog.h"
#include "mosaic/testcase/ConstantPool.h"
#include "mosaic/testcase/TestFactory.h"
#include "mosaic/testcase/TestCase.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace mosaic::test {

/// An argument of a hand-written call: an integer (also bool, char, enum),
/// a double, a C string (a std::string or std::string_view where the
/// parameter is one), a byte buffer, or null.
struct Bytes {
  std::string data;
};
using Arg = std::variant<std::int64_t, double, std::string, Bytes, std::nullptr_t>;

/// Appends a call of `name` with `args`, each built by a statement before it.
inline void appendCall(const model::Program &program, testcase::TestCase &t, const std::string &name,
                       const std::vector<Arg> &args) {
  using testcase::Op;
  const model::Callable *found = nullptr;
  for (const auto &c : program.callables)
    if (c.qualifiedName == name) found = &c;
  if (!found) throw std::runtime_error("no callable " + name);
  const model::Callable &c = *found;
  if (args.size() != c.params.size()) throw std::runtime_error("wrong argument count for " + name);
  testcase::Statement call{.op = Op::Call, .callable = c.id};
  for (size_t i = 0; i < args.size(); ++i) {
    const model::TypeId type = program.type(c.params[i].type).value;
    testcase::Statement s{.type = type};
    if (auto *v = std::get_if<std::int64_t>(&args[i])) {
      s.op = Op::Primitive;
      s.bits = static_cast<std::uint64_t>(*v);
    } else if (auto *d = std::get_if<double>(&args[i])) {
      s.op = Op::Primitive;
      s.bits = testcase::bitsOf(*d);
    } else if (auto *str = std::get_if<std::string>(&args[i])) {
      const model::TypeKind kind = program.type(type).kind;
      s.op = kind == model::TypeKind::String || kind == model::TypeKind::StringView ? Op::StdString : Op::CString;
      s.bytes = *str;
    } else if (auto *b = std::get_if<Bytes>(&args[i])) {
      s.op = Op::Buffer;
      s.bytes = b->data;
    } else {
      s.op = Op::Null;
    }
    t.statements.push_back(std::move(s));
    call.refs.push_back(static_cast<testcase::Ref>(t.statements.size() - 1));
  }
  t.statements.push_back(std::move(call));
}

struct UnitModel {
  model::Program program;
  std::unique_ptr<testcase::Catalog> catalog;

  static std::unique_ptr<UnitModel> make(const std::string &dbDir, const std::string &unit) {
    auto m = std::make_unique<UnitModel>();
    auto p = analysis::analyzeUnit({dbDir, unit});
    if (!p) throw std::runtime_error(p.error().message + "\n" + p.error().detail);
    m->program = std::move(*p);
    (void)model::selectTargets(m->program, {});
    m->catalog = std::make_unique<testcase::Catalog>(m->program);
    return m;
  }

  const model::Callable &callable(const std::string &name) const {
    for (const auto &c : program.callables)
      if (c.qualifiedName == name) return c;
    throw std::runtime_error("no callable " + name);
  }

  /// A test that calls `name` with `args`.
  testcase::TestCase call(const std::string &name, const std::vector<Arg> &args) const {
    testcase::TestCase t;
    appendCall(program, t, name, args);
    return t;
  }
};

/// Runs `kind`'s search on `m`'s unit until `evaluator`'s budget ends: a
/// random generator seeded `seed`, an empty constant pool, the unit's own
/// test factory and variation operators.
inline void runSearch(search::AlgorithmKind kind, const UnitModel &m, search::Evaluator &evaluator, std::uint64_t seed,
                      const search::SearchOptions &options = {}) {
  Rng rng(seed);
  testcase::ConstantPool pool;
  testcase::TestFactory factory(*m.catalog, pool, rng);
  search::Variation variation(*m.catalog, factory, rng, m.program.targets);
  search::makeAlgorithm(kind, evaluator, variation, rng, options)->run();
}

/// An executor whose runs `decide` makes up; it counts them.
class FakeExecutor final : public search::Executor {
public:
  using Decide = std::function<std::optional<search::Execution>(const testcase::TestCase &)>;
  explicit FakeExecutor(Decide decide) : decide_(std::move(decide)) {}
  std::optional<search::Execution> run(const testcase::TestCase &test) override {
    ++runs;
    return decide_(test);
  }
  int runs = 0;

private:
  Decide decide_;
};

/// One function `f` of four blocks (f.c, lines 10 to 14):
///   b0: if (c0) -> b1 else -> b2        sides 0 (true), 1 (false)
///   b1: if (c1) -> b3 else -> b2        sides 2 (true), 3 (false); b1 depends on side 0
///   b3: ...      -> b2                   b3 depends on side 2
///   b2: return                           post-dominates the entry
inline model::UnitDescription fourBlocks() {
  model::UnitDescription d;
  d.unit = "/src/f.c";
  d.blocks = 4;
  d.sides = 4;
  model::FunctionInfo f;
  f.name = "f";
  f.entry = 0;
  f.diameter = 3;
  f.blocks = {{0, {10}, {1, 2}, {}}, {1, {11}, {3, 2}, {0}}, {2, {14}, {}, {}}, {3, {12}, {2}, {2}}};
  f.branches = {{0, false, 10, 7, {{0, 1, std::nullopt, false}, {1, 2, std::nullopt, false}}},
                {1, false, 11, 9, {{2, 3, std::nullopt, false}, {3, 2, std::nullopt, false}}}};
  d.functions.push_back(f);
  return d;
}

/// A run of fourBlocks(): the blocks that ran and the sides taken.
inline search::Execution fourBlocksRun(bool c0, bool c1) {
  search::Execution e;
  e.blocks = {1, c0, 1, static_cast<std::uint8_t>(c0 && c1)};
  e.sides = {c0 ? 1.0 : 2.0, c0 ? 2.0 : 1.0, 0, 0};
  if (c0) {
    e.sides[2] = c1 ? 1.0 : 2.0;
    e.sides[3] = c1 ? 2.0 : 1.0;
  }
  return e;
}

} // namespace mosaic::test
