// Concolic execution through the real parts (issue 22): the fixture's
// harness built with the pass's symbolic mode, a test run by it in plain
// execution with its symbolic trace written out, the branch flipped by
// Z3, the answer put back into the test, and the new test run by the same
// harness: it takes the side the search alone rarely reaches.
#include "common/TestSupport.h"
#include "common/UnitHarness.h"
#include "mosaic/abi/Symbolic.h"
#include "mosaic/concolic/Inputs.h"
#include "mosaic/concolic/PathGoals.h"
#include "mosaic/solver/Solver.h"
#include "mosaic/support/Process.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>

using namespace mosaic;
using namespace mosaic::test;
namespace fs = std::filesystem;

namespace {

const std::string kFixtures = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/concolic/";

// The symbolic harness of a fixture, built once (cached under the build tree).
struct SymbolicHarness {
  model::Program program;
  std::unique_ptr<testcase::Catalog> catalog;
  harness::Harness built;
  model::UnitDescription description;
  fs::path scratch;

  static SymbolicHarness &gates() {
    static std::unique_ptr<SymbolicHarness> h = build(kFixtures + "gates.c");
    return *h;
  }
  static SymbolicHarness &words() {
    static std::unique_ptr<SymbolicHarness> h = build(kFixtures + "words.c");
    return *h;
  }
  static SymbolicHarness &finds() {
    static std::unique_ptr<SymbolicHarness> h = build(kFixtures + "finds.c");
    return *h;
  }
  static SymbolicHarness &lines() {
    static std::unique_ptr<SymbolicHarness> h = build(kFixtures + "lines.cpp");
    return *h;
  }

  static std::unique_ptr<SymbolicHarness> build(const std::string &unit) {
    {
      auto s = std::make_unique<SymbolicHarness>();
      auto p = analysis::analyzeUnit({MOSAIC_FIXTURE_CONCOLIC_DB_DIR, unit});
      if (!p) throw std::runtime_error(p.error().message);
      s->program = std::move(*p);
      (void)model::selectTargets(s->program, {});
      s->catalog = std::make_unique<testcase::Catalog>(s->program);
      harness::BuildOptions o;
      o.workDir = std::string(MOSAIC_BINARY_DIR) + "/test-harnesses";
      o.symbolic = true;
      auto b = harness::buildHarness(s->program, *s->catalog, testToolchain(), o);
      if (!b) throw std::runtime_error(b.error().message + "\n" + b.error().detail);
      s->built = std::move(*b);
      auto d = model::readDescription(s->built.description);
      if (!d) throw std::runtime_error(d.error().message);
      s->description = std::move(*d);
      // Its own folder: CTest runs these tests in processes side by side.
      s->scratch = makeTempDir("mosaic-concolic-run");
      return s;
    }
  }

  testcase::TestCase call(const std::string &name, const std::vector<Arg> &args) const {
    testcase::TestCase t;
    appendCall(program, t, name, args);
    return t;
  }

  // Runs `t` in plain execution; its report, and its symbolic trace.
  std::pair<std::string, solver::SymbolicTrace> run(const testcase::TestCase &t) const {
    const fs::path test = scratch / "test.bin", region = scratch / "region.bin";
    const std::vector<std::uint8_t> bytes = testcase::encode(t);
    std::ofstream(test, std::ios::binary).write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
    fs::remove(region);
    ProcessOptions o;
    o.env = {{MOSAIC_ENV_SYM_OUT, region.string()}};
    auto r = runProcess({built.binary, test.string()}, o);
    if (!r || r->exitCode != 0) throw std::runtime_error("the harness failed: " + (r ? r->output : r.error().message));
    std::ifstream in(region, std::ios::binary);
    const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto trace = solver::readSymbolicTrace({reinterpret_cast<const std::byte *>(data.data()), data.size()});
    if (!trace) throw std::runtime_error(trace.error().message);
    return {r->output, *trace};
  }

  // The `nth` branch at `line` of `function` (`a && b` is two).
  const model::BranchInfo &branch(const std::string &function, unsigned line, int nth = 0) const {
    for (const auto &f : description.functions)
      if (f.name == function)
        for (const auto &b : f.branches)
          if (b.line == line && nth-- == 0) return b;
    throw std::runtime_error("no branch at " + function + ":" + std::to_string(line));
  }

  // The constraint the run recorded for side `side` (the one that holds it
  // when true), or -1.
  static int constraintOf(const solver::SymbolicTrace &t, std::uint32_t side) {
    for (size_t i = 0; i < t.constraints.size(); ++i)
      if (t.constraints[i].side == side) return static_cast<int>(i);
    return -1;
  }
};

// Whether the plain run's report has side `side` taken (distance 0).
bool taken(const std::string &report, std::uint32_t side) {
  return std::regex_search(report, std::regex("(^|\\n)side " + std::to_string(side) + " 0(\\n|$)"));
}

// The side of `b` the run whose report is `report` did not take, whichever
// the compiled condition calls true.
std::uint32_t untaken(const std::string &report, const model::BranchInfo &b) {
  return taken(report, b.sides[0].id) ? b.sides[1].id : b.sides[0].id;
}

// Flips the constraint of `side`, solves, and applies the answer to `t`.
testcase::TestCase flipped(const SymbolicHarness &h, testcase::TestCase t, const solver::SymbolicTrace &trace,
                           std::uint32_t side) {
  const int c = SymbolicHarness::constraintOf(trace, side);
  if (c < 0) throw std::runtime_error("no constraint for side " + std::to_string(side));
  solver::PathSolver solver;
  const solver::Answer a = solver.solve(trace, solver::flipQuery(trace, static_cast<size_t>(c)));
  if (a.verdict != solver::Verdict::Sat) throw std::runtime_error("not solved: " + a.why);
  EXPECT_GT(concolic::applyAnswer(h.program, t, trace, a), 0u);
  return t;
}

TEST(ConcolicRun, AMagicNumberAfterArithmeticIsFoundFromTheRunsPathCondition) {
  SymbolicHarness &h = SymbolicHarness::gates();
  const model::BranchInfo &b = h.branch("after_arithmetic", 10);
  auto [report, trace] = h.run(h.call("after_arithmetic", {std::int64_t{5}}));
  EXPECT_TRUE(taken(report, b.sides[1].id)) << report;
  // The inputs are the two bytes of x, statement 0 (the branch is on
  // them), and the 4 of the call's result, a constant of the run.
  ASSERT_EQ(trace.inputs.size(), 6u);
  EXPECT_EQ(trace.inputs[0].statement, 0u);
  EXPECT_EQ(trace.inputs[0].kind, MOSAIC_SYM_IN_PRIMITIVE);
  EXPECT_EQ(trace.inputs[0].concrete, 5);
  EXPECT_EQ(trace.inputs[2].statement, 1u);
  EXPECT_EQ(trace.inputs[2].kind, MOSAIC_SYM_IN_RESULT);
  const int c = SymbolicHarness::constraintOf(trace, b.sides[0].id);
  ASSERT_GE(c, 0);
  EXPECT_FALSE(trace.constraints[static_cast<size_t>(c)].taken);
  const testcase::TestCase next = flipped(h, h.call("after_arithmetic", {std::int64_t{5}}), trace, b.sides[0].id);
  EXPECT_EQ(static_cast<std::uint16_t>(next.statements[0].bits * 3 + 1), 0x369d);
  EXPECT_TRUE(taken(h.run(next).first, b.sides[0].id));
}

TEST(ConcolicRun, AHashOfAStringsBytesIsSolvedThroughTheLoop) {
  SymbolicHarness &h = SymbolicHarness::gates();
  const model::BranchInfo &b = h.branch("rolling_hash", 18, 1);
  const testcase::TestCase start = h.call("rolling_hash", {std::string("abcd")});
  auto [report, trace] = h.run(start);
  // Its 4 bytes, then the terminator and the rest of the slack that lets
  // a model lengthen a C string.
  EXPECT_EQ(std::count_if(trace.inputs.begin(), trace.inputs.end(),
                          [](const solver::InputByte &in) { return in.kind == MOSAIC_SYM_IN_BYTES; }),
            4 + MOSAIC_SYM_CSTRING_SLACK);
  // `n == 4 && h == ...`: the second test is the hash's; flip it.
  const int c = SymbolicHarness::constraintOf(trace, b.sides[0].id);
  ASSERT_GE(c, 0) << "the first test (n == 4) is concrete; the hash's is recorded";
  const testcase::TestCase next = flipped(h, start, trace, b.sides[0].id);
  std::uint32_t hash = 7;
  for (char ch : next.statements[0].bytes) hash = hash * 31u + static_cast<unsigned char>(ch);
  EXPECT_EQ(hash, 0x0092f152u) << next.statements[0].bytes;
  EXPECT_TRUE(taken(h.run(next).first, b.sides[0].id));
}

TEST(ConcolicRun, ASwitchOnAComputedValueRecordsEachCaseAndReachesTheOneAskedFor) {
  SymbolicHarness &h = SymbolicHarness::gates();
  const model::BranchInfo &b = h.branch("opcode", 23);
  ASSERT_TRUE(b.isSwitch);
  auto caseSide = [&](std::int64_t value) {
    for (const model::SideInfo &s : b.sides)
      if (s.value == value) return s.id;
    throw std::runtime_error("no case " + std::to_string(value));
  };
  auto [report, trace] = h.run(h.call("opcode", {std::int64_t{1}}));
  // The default taken: both cases recorded, as not taken.
  for (std::int64_t v : {88, 697}) {
    const int c = SymbolicHarness::constraintOf(trace, caseSide(v));
    ASSERT_GE(c, 0) << v;
    EXPECT_FALSE(trace.constraints[static_cast<size_t>(c)].taken);
  }
  const testcase::TestCase second = flipped(h, h.call("opcode", {std::int64_t{1}}), trace, caseSide(697));
  EXPECT_EQ(static_cast<std::int32_t>(second.statements[0].bits) * 7 - 3, 697);
  EXPECT_TRUE(taken(h.run(second).first, caseSide(697)));
}

TEST(ConcolicRun, TwoInputsTiedByAnEquationAreSolvedTogetherKeepingTheOuterBranch) {
  SymbolicHarness &h = SymbolicHarness::gates();
  const model::BranchInfo &outer = h.branch("window", 31), &inner = h.branch("window", 32);
  testcase::TestCase t = h.call("window", {std::int64_t{3}, std::int64_t{4}});
  auto [report, trace] = h.run(t);
  t = flipped(h, t, trace, outer.sides[0].id);
  auto [report2, trace2] = h.run(t);
  EXPECT_TRUE(taken(report2, outer.sides[0].id)) << report2;
  t = flipped(h, t, trace2, inner.sides[0].id);
  const auto low = static_cast<std::int32_t>(t.statements[0].bits), high = static_cast<std::int32_t>(t.statements[1].bits);
  EXPECT_EQ(high - low, 1000);
  EXPECT_EQ(low * 3, high);
  EXPECT_TRUE(taken(h.run(t).first, inner.sides[0].id));
}

TEST(ConcolicRun, ACallsConstantResultTheFlipNeedsBecomesALiteral) {
  // window(window(8, 8), 1000): the first call returns the constant 0, so
  // `low` is no input the search gave; the model's low = 500 becomes a
  // literal inserted after that call, used in its place.
  SymbolicHarness &h = SymbolicHarness::gates();
  const model::BranchInfo &inner = h.branch("window", 32);
  testcase::TestCase t;
  appendCall(h.program, t, "window", {std::int64_t{8}, std::int64_t{8}});
  const size_t firstCall = t.statements.size() - 1;
  testcase::Statement high;
  high.op = testcase::Op::Primitive;
  high.type = t.statements[0].type;
  high.bits = 1000;
  t.statements.push_back(high);
  testcase::Statement call = t.statements[firstCall];
  call.refs = {static_cast<testcase::Ref>(firstCall), static_cast<testcase::Ref>(firstCall + 1)};
  t.statements.push_back(call);
  auto [report, trace] = h.run(t);
  ASSERT_TRUE(std::any_of(trace.inputs.begin(), trace.inputs.end(),
                          [&](const solver::InputByte &in) { return in.kind == MOSAIC_SYM_IN_RESULT && in.statement == firstCall; }));
  const testcase::TestCase next = flipped(h, t, trace, inner.sides[0].id);
  ASSERT_EQ(next.statements.size(), t.statements.size() + 1);
  const testcase::Statement &literal = next.statements[firstCall + 1];
  EXPECT_EQ(literal.op, testcase::Op::Primitive);
  EXPECT_EQ(static_cast<std::int32_t>(literal.bits), 500);
  EXPECT_EQ(next.statements.back().refs[0], firstCall + 1) << "the last call uses the literal";
  EXPECT_TRUE(taken(h.run(next).first, inner.sides[0].id));
}

TEST(ConcolicRun, AValueMadeConcreteIsCountedAndItsBranchRecordsNothing) {
  SymbolicHarness &h = SymbolicHarness::gates();
  auto [report, trace] = h.run(h.call("as_float", {std::int64_t{7}}));
  EXPECT_GE(trace.concretized, 1u) << "x converted to a double";
  EXPECT_TRUE(trace.constraints.empty()) << "the branch is on the double";
}

TEST(ConcolicRun, TheHarnessMarksPrimitivesAndStringsAsInputsUnderMosaicSymbolicOnly) {
  // abi/Harness.h defines MOSAIC_SYM_INPUT as nothing without
  // MOSAIC_SYMBOLIC: the search's harness, built from the same source,
  // marks nothing.
  SymbolicHarness &h = SymbolicHarness::gates();
  const std::string &source = h.built.generated.source;
  EXPECT_NE(source.find("MOSAIC_SYM_INPUT(ctx, v, sizeof *v, MOSAIC_SYM_IN_PRIMITIVE)"), std::string::npos);
  EXPECT_NE(source.find("MOSAIC_SYM_INPUT(ctx, b, s->len, MOSAIC_SYM_IN_BYTES)"), std::string::npos);
  EXPECT_EQ(source.find("MOSAIC_SYMBOLIC"), std::string::npos) << "the build decides, not the source";
}

} // namespace

// words.c, built at -O2: the C library's strcmp, strncmp, strlen, strtol
// (atoi is glibc's inline call of it) and <ctype.h>'s tables, modelled by
// the runtime.

TEST(ConcolicRun, TheCLibrarysModelsAgreeWithWhatTheRunDid) {
  SymbolicHarness &h = SymbolicHarness::words();
  const std::vector<std::pair<std::string, std::string>> calls = {
      {"keyword", "whale"},  {"keyword", "while"}, {"keyword", "#defin"},  {"keyword", "#defined"},
      {"keyword", "w"},      {"length_field", "L2abX"}, {"length_field", "L9"}, {"length_field", "L4abcd\x04"},
      {"number", "  -12x"},  {"number", "4711"},   {"number", "q0U"},     {"number", "+7"},
      {"number", "\t99999999"}, {"letters", "Q7Z"}, {"letters", "q"},   {"letters", "qxa"},
      {"letters", "~"}};
  for (const auto &[function, text] : calls) {
    auto [report, trace] = h.run(h.call(function, {text}));
    SCOPED_TRACE(function + "(\"" + text + "\")");
    EXPECT_FALSE(trace.constraints.empty());
    const std::optional<std::size_t> d = solver::firstDivergence(trace);
    EXPECT_FALSE(d.has_value()) << "constraint " << *d << ": " << solver::clauseText(trace, trace.constraints[*d]);
  }
}

TEST(ConcolicRun, AKeywordIsSolvedThroughStrcmpsModel) {
  SymbolicHarness &h = SymbolicHarness::words();
  const model::BranchInfo &b = h.branch("keyword", 13);
  const testcase::TestCase start = h.call("keyword", {std::string("whXle")});
  auto [report, trace] = h.run(start);
  const testcase::TestCase next = flipped(h, start, trace, b.sides[0].id);
  EXPECT_EQ(std::string(next.statements[0].bytes.c_str()), "while");
  EXPECT_TRUE(taken(h.run(next).first, b.sides[0].id));
}

TEST(ConcolicRun, ALengthFieldIsMadeToMatchTheStringThroughStrlensModel) {
  SymbolicHarness &h = SymbolicHarness::words();
  const model::BranchInfo &b = h.branch("length_field", 25);
  const testcase::TestCase start = h.call("length_field", {std::string("L7abc")});
  auto [report, trace] = h.run(start);
  ASSERT_TRUE(taken(report, b.sides[0].id)) << report;
  const testcase::TestCase next = flipped(h, start, trace, b.sides[0].id);
  const std::string record = next.statements[0].bytes;
  EXPECT_EQ(record.find('\0'), std::string::npos) << "a C string ends at its first zero byte";
  ASSERT_GE(record.size(), 3u) << next.statements[0].bytes;
  EXPECT_EQ(static_cast<std::size_t>(record[1] - '0') + 3, record.size()) << next.statements[0].bytes;
  EXPECT_TRUE(taken(h.run(next).first, b.sides[1].id));
}

TEST(ConcolicRun, AStringIsLengthenedWhereALoopMustRunOnceMore) {
  SymbolicHarness &h = SymbolicHarness::words();
  const model::BranchInfo &loop = h.branch("length_field", 26);
  // "L2ab" and the xor of "ab": n == 5, the length field matches, the
  // loop stops at i == 4. Running once more (4 + 1 < n) needs n >= 6: a
  // longer string, whose digit says so too (line 25). Before the slack
  // past a C string's terminator, strlen's model pinned n at most at 5,
  // and this was unsatisfiable.
  const testcase::TestCase start = h.call("length_field", {std::string("L2ab")});
  auto [report, trace] = h.run(start);
  std::optional<std::size_t> exit;
  for (std::size_t i = 0; i < trace.constraints.size(); ++i)
    if (trace.constraints[i].side == loop.sides[0].id || trace.constraints[i].side == loop.sides[1].id) exit = i;
  ASSERT_TRUE(exit.has_value()) << "the loop's condition is on n, symbolic through strlen's model";
  solver::PathSolver solver;
  const solver::Answer a = solver.solve(trace, solver::flipQuery(trace, *exit));
  ASSERT_EQ(a.verdict, solver::Verdict::Sat) << a.why;
  testcase::TestCase next = start;
  EXPECT_GT(concolic::applyAnswer(h.program, next, trace, a), 0u);
  const std::string record = next.statements[0].bytes;
  EXPECT_EQ(record.find('\0'), std::string::npos) << "a C string ends at its first zero byte";
  ASSERT_GE(record.size(), 6u) << record;
  EXPECT_EQ(static_cast<std::size_t>(record[1] - '0') + 3, record.size()) << record;
  EXPECT_TRUE(taken(h.run(next).first, loop.sides[0].id));
}

TEST(ConcolicRun, AnUnsatisfiableFlipNamesTheLoopsLastTestInItsUnsatCoreAndFlippingThatLengthensTheString) {
  SymbolicHarness &h = SymbolicHarness::words();
  const model::BranchInfo &loop = h.branch("length_field", 26);
  // "L2ab" and the xor of "ab" (3): n == 5, the xor matches, and `n > 6`
  // (the second branch of line 27) is false. Flipping it alone cannot be
  // satisfied: the loop stopped at i == 4, which pins n at 5. Z3's unsat
  // core names what stood in the way, the loop's last test among it; the
  // hybrid flips that next (Hybrid::relax) and gets a longer record.
  const testcase::TestCase start = h.call("length_field", {std::string("L2ab\x03")});
  auto [report, trace] = h.run(start);
  std::optional<std::size_t> exit, longEnough;
  std::set<std::uint32_t> loopSides{loop.sides[0].id, loop.sides[1].id};
  for (const model::BranchInfo &b : {h.branch("length_field", 27, 0), h.branch("length_field", 27, 1)})
    for (std::size_t i = 0; i < trace.constraints.size(); ++i)
      if (trace.constraints[i].side == b.sides[0].id) longEnough = i; // the last branch of line 27 recorded
  for (std::size_t i = 0; i < trace.constraints.size(); ++i)
    if (loopSides.count(trace.constraints[i].side)) exit = i;
  ASSERT_TRUE(exit && longEnough) << report;
  ASSERT_FALSE(trace.constraints[*longEnough].taken);
  solver::PathSolver solver;
  const solver::Answer a = solver.solve(trace, solver::flipQuery(trace, *longEnough));
  ASSERT_EQ(a.verdict, solver::Verdict::Unsat);
  ASSERT_FALSE(a.core.empty());
  EXPECT_TRUE(std::is_sorted(a.core.begin(), a.core.end()));
  EXPECT_LT(a.core.back(), *longEnough);
  EXPECT_NE(std::find(a.core.begin(), a.core.end(), *exit), a.core.end()) << "the loop's last test stood in the way";
  const solver::Answer longer = solver.solve(trace, solver::flipQuery(trace, *exit));
  ASSERT_EQ(longer.verdict, solver::Verdict::Sat) << longer.why;
  testcase::TestCase next = start;
  EXPECT_GT(concolic::applyAnswer(h.program, next, trace, longer), 0u);
  EXPECT_GE(next.statements[0].bytes.size(), 6u) << next.statements[0].bytes;
  EXPECT_TRUE(taken(h.run(next).first, loop.sides[0].id));
}

TEST(ConcolicRun, ANumberIsSolvedThroughAtoisModelWhateverTheBytesWere) {
  SymbolicHarness &h = SymbolicHarness::words();
  const model::BranchInfo &b = h.branch("number", 33);
  // No digit at all: how many bytes are digits is the solver's to choose.
  const testcase::TestCase start = h.call("number", {std::string("q0U/(m")});
  auto [report, trace] = h.run(start);
  const testcase::TestCase next = flipped(h, start, trace, b.sides[0].id);
  EXPECT_EQ(std::atoi(next.statements[0].bytes.c_str()), 4711) << next.statements[0].bytes;
  EXPECT_TRUE(taken(h.run(next).first, b.sides[0].id));
}

TEST(ConcolicRun, ACharactersCaseAndClassAreSolvedThroughTheCtypeTables) {
  SymbolicHarness &h = SymbolicHarness::words();
  const model::BranchInfo &lower = h.branch("letters", 39), &upper = h.branch("letters", 41);
  const testcase::TestCase a = h.call("letters", {std::string("a")});
  auto [report, trace] = h.run(a);
  const testcase::TestCase q = flipped(h, a, trace, lower.sides[0].id);
  EXPECT_EQ(std::tolower(static_cast<unsigned char>(q.statements[0].bytes[0])), 'q') << q.statements[0].bytes;
  EXPECT_TRUE(taken(h.run(q).first, lower.sides[1].id));

  const testcase::TestCase q7z = h.call("letters", {std::string("q7z")});
  auto [report2, trace2] = h.run(q7z);
  const testcase::TestCase next = flipped(h, q7z, trace2, upper.sides[0].id);
  EXPECT_TRUE(std::isupper(static_cast<unsigned char>(next.statements[0].bytes[2]))) << next.statements[0].bytes;
  const std::uint32_t other = untaken(report2, upper);
  EXPECT_TRUE(taken(h.run(next).first, other));
}

TEST(ConcolicRun, AnUndecidedPathConditionIsAGoalWhoseDistanceFallsToZeroOnValuesThatSatisfyIt) {
  SymbolicHarness &h = SymbolicHarness::gates();
  const model::BranchInfo &outer = h.branch("window", 31), &inner = h.branch("window", 32);
  const testcase::TestCase start = h.call("window", {std::int64_t{-7}, std::int64_t{993}});
  auto [report, trace] = h.run(start);
  ASSERT_TRUE(taken(report, outer.sides[0].id)) << report;
  const int c = SymbolicHarness::constraintOf(trace, inner.sides[0].id);
  ASSERT_GE(c, 0);
  const solver::Query q = solver::flipQuery(trace, static_cast<std::size_t>(c));
  const concolic::UndecidedPath path = concolic::undecidedPath(trace, q.keep, q.flip, start);
  EXPECT_EQ(path.goal.clauses(), 2u);
  EXPECT_EQ(path.inputs.size(), 8u) << "low's and high's four bytes each, nothing else of the trace";
  EXPECT_EQ(path.shape.size(), 2u) << "low's and high's statements";
  EXPECT_TRUE(concolic::sameShape(h.call("window", {std::int64_t{1}, std::int64_t{2}}), path));
  EXPECT_FALSE(concolic::sameShape(h.call("flag", {std::int64_t{1}}), path));
  auto at = [&](std::int64_t low, std::int64_t high) {
    return path.goal.distance(concolic::inputValues(h.call("window", {low, high}), path));
  };
  // |3 low - high| falls as low nears 500 along high = low + 1000; off
  // that line the kept clause adds its own distance.
  EXPECT_GT(at(-7, 993), at(100, 1100));
  EXPECT_GT(at(100, 1100), at(499, 1499));
  EXPECT_GT(at(499, 1498), at(499, 1499));
  EXPECT_EQ(at(500, 1500), 0.0);
}

// finds.c and lines.cpp, built at -O2: where a byte is (strchr's and
// memchr's answers, addresses compared with null and subtracted from the
// start; libstdc++'s std::string::find) and libstdc++'s
// std::string::compare, which `s == "literal"` calls, modelled by the
// runtime: before these models their branches recorded no constraint.

TEST(ConcolicRun, TheModelsOfWhereAByteIsAndOfStringCompareAgreeWithWhatTheRunDid) {
  struct Call {
    SymbolicHarness &h;
    std::string function;
    std::vector<Arg> args;
  };
  SymbolicHarness &f = SymbolicHarness::finds(), &l = SymbolicHarness::lines();
  const std::vector<Call> calls = {
      {f, "separated", {std::string("abcdef:x")}}, {f, "separated", {std::string("plain")}},
      {f, "separated", {std::string(":")}},        {f, "separated", {std::string("a:b:c")}},
      {f, "framed", {Bytes{"\x01\x7e\x42"}, std::int64_t{3}}}, {f, "framed", {Bytes{"\x01\x02"}, std::int64_t{2}}},
      {f, "framed", {Bytes{"\x7e"}, std::int64_t{1}}},         {l, "directive", {std::string("#pragma")}},
      {l, "directive", {std::string("#if")}},      {l, "directive", {std::string("#ifdef")}},
      {l, "directive", {std::string("#")}},        {l, "directive", {std::string("#pragmas")}},
      {l, "assignment", {std::string("name=1")}},  {l, "assignment", {std::string("none")}},
      {l, "assignment", {std::string("a=b=c")}},   {l, "quoted", {std::string("say \"hi\"")}},
      {l, "quoted", {std::string("plain")}}};
  for (const Call &c : calls) {
    auto [report, trace] = c.h.run(c.h.call(c.function, c.args));
    SCOPED_TRACE(c.function + " " + std::to_string(&c - calls.data()));
    EXPECT_FALSE(trace.constraints.empty()) << "the branch on the model's answer records a constraint";
    const std::optional<std::size_t> d = solver::firstDivergence(trace);
    EXPECT_FALSE(d.has_value()) << "constraint " << *d << ": " << solver::clauseText(trace, trace.constraints[*d]);
  }
}

TEST(ConcolicRun, ASeparatorIsPutInThroughStrchrsModelAndMovedToWhereTheKeyEnds) {
  SymbolicHarness &h = SymbolicHarness::finds();
  const model::BranchInfo &found = h.branch("separated", 12), &where = h.branch("separated", 13);
  const testcase::TestCase plain = h.call("separated", {std::string("abcdefgh")});
  auto [report, trace] = h.run(plain);
  const std::uint32_t some = untaken(report, found); // a colon somewhere
  const testcase::TestCase next = flipped(h, plain, trace, some);
  EXPECT_NE(next.statements[0].bytes.find(':'), std::string::npos) << next.statements[0].bytes;
  EXPECT_TRUE(taken(h.run(next).first, some));
  // A key of two bytes: the flip moves the colon to index 6, and every
  // byte before it stays a key's (neither a colon nor the end).
  const testcase::TestCase early = h.call("separated", {std::string("ab:cdefgh")});
  auto [report2, trace2] = h.run(early);
  ASSERT_TRUE(taken(report2, where.sides[1].id)) << report2;
  const testcase::TestCase moved = flipped(h, early, trace2, where.sides[0].id);
  EXPECT_EQ(moved.statements[0].bytes.find(':'), 6u) << moved.statements[0].bytes;
  EXPECT_TRUE(taken(h.run(moved).first, where.sides[0].id));
}

TEST(ConcolicRun, AFlagByteAndTheByteAfterItAreSolvedThroughMemchrsModel) {
  SymbolicHarness &h = SymbolicHarness::finds();
  const model::BranchInfo &found = h.branch("framed", 20);
  const testcase::TestCase none = h.call("framed", {Bytes{"\x01\x02\x03\x04"}, std::int64_t{4}});
  auto [report, trace] = h.run(none);
  const std::uint32_t some = untaken(report, found); // a flag somewhere
  const testcase::TestCase next = flipped(h, none, trace, some);
  const std::size_t flag = next.statements[0].bytes.find('\x7e');
  EXPECT_LT(flag, 4u) << "the flag within the first n bytes";
  EXPECT_TRUE(taken(h.run(next).first, some));
}

TEST(ConcolicRun, ALiteralAStdStringIsComparedWithIsSolvedThroughCompare) {
  SymbolicHarness &h = SymbolicHarness::lines();
  const model::BranchInfo &pragma = h.branch("directive", 11);
  // `line == "#pragma"` is libstdc++'s compare(const char *), out of the
  // pass's sight: its model takes the bytes to the solver (the length, a
  // std::string's own, stays as the test made it).
  const testcase::TestCase start = h.call("directive", {std::string("#prXgma")});
  auto [report, trace] = h.run(start);
  ASSERT_TRUE(taken(report, pragma.sides[1].id)) << report;
  const testcase::TestCase next = flipped(h, start, trace, pragma.sides[0].id);
  EXPECT_EQ(next.statements[0].bytes, "#pragma");
  EXPECT_TRUE(taken(h.run(next).first, pragma.sides[0].id));
}

TEST(ConcolicRun, WhereStdStringFindFindsACharacterIsSolvedThroughItsModel) {
  SymbolicHarness &h = SymbolicHarness::lines();
  const model::BranchInfo &none = h.branch("assignment", 18), &at = h.branch("assignment", 19);
  const testcase::TestCase start = h.call("assignment", {std::string("name:value")});
  auto [report, trace] = h.run(start);
  ASSERT_TRUE(taken(report, none.sides[0].id)) << report;
  const testcase::TestCase next = flipped(h, start, trace, none.sides[0].id);
  ASSERT_NE(next.statements[0].bytes.find('='), std::string::npos) << next.statements[0].bytes;
  const std::string &line = next.statements[0].bytes;
  auto [report2, trace2] = h.run(next);
  EXPECT_TRUE(taken(report2, none.sides[1].id)) << report2;
  if (line.find('=') != 4) { // the flip put it elsewhere: moved to index 4
    const testcase::TestCase moved = flipped(h, next, trace2, at.sides[0].id);
    EXPECT_EQ(moved.statements[0].bytes.find('='), 4u) << moved.statements[0].bytes;
    EXPECT_TRUE(taken(h.run(moved).first, at.sides[0].id));
  }
}

TEST(ConcolicRun, StdStrchrsAnswerComesBackThroughCppsInlineWrapper) {
  SymbolicHarness &h = SymbolicHarness::lines();
  const model::BranchInfo &quote = h.branch("quoted", 25);
  const testcase::TestCase start = h.call("quoted", {std::string("plain")});
  auto [report, trace] = h.run(start);
  ASSERT_TRUE(taken(report, quote.sides[0].id)) << report;
  const testcase::TestCase next = flipped(h, start, trace, quote.sides[0].id);
  EXPECT_NE(next.statements[0].bytes.find('"'), std::string::npos) << next.statements[0].bytes;
  EXPECT_TRUE(taken(h.run(next).first, quote.sides[1].id));
}
