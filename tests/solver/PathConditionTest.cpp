// The symbolic trace as the host reads it, and Z3 flipping its branches:
// regions built here as the runtime writes them (abi/Symbolic.h), with
// the hard goals of issue 22 (a magic number after arithmetic, a checksum,
// a length field) and the trace's defences against a hostile program.
#include "mosaic/abi/Symbolic.h"
#include "mosaic/solver/PathCondition.h"
#include "mosaic/solver/Solver.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace {

using namespace mosaic;
using namespace mosaic::solver;

// A region as the runtime fills it: small capacities, appended records.
class Region {
public:
  Region() : bytes_(mosaic_sym_size(kNodes, kConstraints, kInputs)) {
    h().magic = MOSAIC_SYM_MAGIC;
    h().version = MOSAIC_SYM_VERSION;
    h().node_capacity = kNodes;
    h().constraint_capacity = kConstraints;
    h().input_capacity = kInputs;
    h().node_offset = sizeof(mosaic_sym_header);
    h().constraint_offset = h().node_offset + kNodes * sizeof(mosaic_sym_node);
    h().input_offset = h().constraint_offset + kConstraints * sizeof(mosaic_sym_constraint);
    h().nodes = 1; // node 0: no node
  }

  mosaic_sym_header &h() { return *reinterpret_cast<mosaic_sym_header *>(bytes_.data()); }
  mosaic_sym_node *nodes() { return reinterpret_cast<mosaic_sym_node *>(bytes_.data() + h().node_offset); }

  // An input byte of statement `statement`, its node.
  std::uint32_t input(std::uint32_t statement, std::uint32_t offset, std::uint8_t concrete) {
    auto *in = reinterpret_cast<mosaic_sym_input *>(bytes_.data() + h().input_offset) + h().inputs;
    *in = {};
    in->statement = statement;
    in->offset = offset;
    in->kind = MOSAIC_SYM_IN_PRIMITIVE;
    in->concrete = concrete;
    return node(MOSAIC_SYM_INPUT, 8, 0, 0, 0, h().inputs++);
  }
  std::uint32_t node(std::uint8_t op, std::uint8_t width, std::uint32_t a, std::uint32_t b = 0, std::uint32_t c = 0,
                     std::uint64_t value = 0) {
    mosaic_sym_node &n = nodes()[h().nodes];
    n = {};
    n.op = op;
    n.width = width;
    n.a = a;
    n.b = b;
    n.c = c;
    n.value = value;
    return h().nodes++;
  }
  std::uint32_t constant(std::uint8_t width, std::uint64_t value) { return node(MOSAIC_SYM_CONST, width, 0, 0, 0, value); }
  std::uint32_t zext(std::uint32_t a, std::uint8_t width) { return node(MOSAIC_SYM_ZEXT, width, a); }
  void branch(std::uint32_t condition, bool taken, std::uint32_t side = 0) {
    auto *c = reinterpret_cast<mosaic_sym_constraint *>(bytes_.data() + h().constraint_offset) + h().constraints++;
    *c = {};
    c->node = condition;
    c->side = side;
    c->taken = taken;
  }
  std::span<const std::byte> span() const { return {bytes_.data(), bytes_.size()}; }
  SymbolicTrace read() const {
    auto t = readSymbolicTrace(span());
    EXPECT_TRUE(t) << (t ? "" : t.error().message);
    return t ? *t : SymbolicTrace{};
  }

private:
  static constexpr std::uint32_t kNodes = 256, kConstraints = 32, kInputs = 32;
  std::vector<std::byte> bytes_;
};

// A 16-bit little-endian integer from input bytes lo, hi.
std::uint32_t u16(Region &r, std::uint32_t lo, std::uint32_t hi) { return r.node(MOSAIC_SYM_CONCAT, 16, hi, lo); }

TEST(SymbolicTrace, AClauseIsPrefixTextWithInputsInBracesNegatedWhenNotTaken) {
  Region r;
  const std::uint32_t x = r.input(0, 0, 3);
  const std::uint32_t sum = r.node(MOSAIC_SYM_ADD, 32, r.zext(x, 32), r.constant(32, 7));
  r.branch(r.node(MOSAIC_SYM_ULT, 1, sum, r.constant(32, 10)), true);
  r.branch(r.node(MOSAIC_SYM_EQ, 1, x, r.constant(8, 65)), false);
  const SymbolicTrace t = r.read();
  ASSERT_EQ(t.constraints.size(), 2u);
  EXPECT_EQ(clauseText(t, t.constraints[0]), "ult(add(zext32({0}),7),10)");
  EXPECT_EQ(clauseText(t, t.constraints[1]), "not(eq({0},65))");
  EXPECT_EQ(t.inputs.at(0).concrete, 3);
}

TEST(SymbolicTrace, ASliceKeepsTheConstraintsThatShareAnInputTransitively) {
  Region r;
  const std::uint32_t a = r.input(0, 0, 1), b = r.input(1, 0, 2), c = r.input(2, 0, 3), d = r.input(3, 0, 4);
  const std::uint32_t zero = r.constant(8, 0);
  r.branch(r.node(MOSAIC_SYM_EQ, 1, a, zero), false);                                 // 0: a
  r.branch(r.node(MOSAIC_SYM_EQ, 1, b, zero), false);                                 // 1: b
  r.branch(r.node(MOSAIC_SYM_EQ, 1, r.node(MOSAIC_SYM_ADD, 8, a, c), zero), false);   // 2: a, c
  r.branch(r.node(MOSAIC_SYM_EQ, 1, d, zero), false);                                 // 3: d
  r.branch(r.node(MOSAIC_SYM_ULT, 1, c, r.constant(8, 9)), true);                     // 4: c
  const SymbolicTrace t = r.read();
  EXPECT_EQ(slice(t, 4), (std::vector<std::size_t>{0, 2, 4}));
  EXPECT_EQ(slice(t, 1), (std::vector<std::size_t>{1}));
  EXPECT_EQ(slice(t, 3), (std::vector<std::size_t>{3}));
  EXPECT_TRUE(slice(t, 9).empty());
  // One Slicer for many flips, forward and then back, as slice() alone.
  Slicer slicer(t);
  for (std::size_t last : {0, 1, 2, 3, 4, 1, 4}) EXPECT_EQ(slicer.slice(last), slice(t, last)) << last;
  // The queries made together are the queries made one by one.
  TraceQueries queries(t);
  for (std::size_t flip = 0; flip < 5; ++flip) {
    const Query together = queries.flip(flip), alone = flipQuery(t, flip);
    EXPECT_EQ(together.keep, alone.keep);
    EXPECT_EQ(together.key, alone.key);
  }
  EXPECT_EQ(queries.clause(1, true), "eq({1},0)");
  EXPECT_EQ(queries.clause(1, false), "not(eq({1},0))");
}

TEST(PathSolver, AMagicNumberAfterArithmeticIsSolved) {
  // if ((x * 3 + 1) == 0x369d) with x a 16-bit input the run gave 5: the
  // branch not taken; flipped, Z3 finds x = 0x1234 (3 is odd: one answer).
  Region r;
  const std::uint32_t x = u16(r, r.input(0, 0, 5), r.input(0, 1, 0));
  const std::uint32_t y = r.node(MOSAIC_SYM_ADD, 16, r.node(MOSAIC_SYM_MUL, 16, x, r.constant(16, 3)), r.constant(16, 1));
  r.branch(r.node(MOSAIC_SYM_EQ, 1, y, r.constant(16, 0x1234 * 3 + 1)), false);
  const SymbolicTrace t = r.read();
  PathSolver solver;
  const Answer a = solver.solve(t, flipQuery(t, 0));
  ASSERT_EQ(a.verdict, Verdict::Sat) << a.why;
  EXPECT_EQ(a.bytes.at(0), 0x34);
  EXPECT_EQ(a.bytes.at(1), 0x12);
}

TEST(PathSolver, AChecksumAndALengthFieldAreSolvedWithThePrefixKept) {
  // The run: len (byte 0) == 3 taken; the sum of bytes 1..3 == 0x2c1 not
  // taken. Flipping the checksum keeps len == 3 (its slice shares no
  // input, so it is not even asked) and gives bytes summing to 0x2c1.
  Region r;
  const std::uint32_t len = r.input(0, 0, 3);
  r.branch(r.node(MOSAIC_SYM_EQ, 1, len, r.constant(8, 3)), true);
  std::uint32_t sum = r.constant(32, 0);
  for (std::uint32_t k = 1; k <= 3; ++k) sum = r.node(MOSAIC_SYM_ADD, 32, sum, r.zext(r.input(1, k - 1, 0), 32));
  r.branch(r.node(MOSAIC_SYM_EQ, 1, sum, r.constant(32, 0x2c1)), false);
  const SymbolicTrace t = r.read();
  const Query q = flipQuery(t, 1);
  EXPECT_EQ(q.keep, (std::vector<std::size_t>{1}));
  PathSolver solver;
  const Answer a = solver.solve(t, q);
  ASSERT_EQ(a.verdict, Verdict::Sat) << a.why;
  ASSERT_EQ(a.bytes.size(), 3u);
  EXPECT_EQ(a.bytes.at(1) + a.bytes.at(2) + a.bytes.at(3), 0x2c1);
}

TEST(PathSolver, AContradictionIsUnsatAndARepeatedQueryIsAnsweredFromTheCache) {
  Region r;
  const std::uint32_t x = r.input(0, 0, 5);
  r.branch(r.node(MOSAIC_SYM_ULT, 1, x, r.constant(8, 10)), true);
  r.branch(r.node(MOSAIC_SYM_UGT, 1, x, r.constant(8, 20)), false);
  const SymbolicTrace t = r.read();
  PathSolver solver;
  EXPECT_EQ(solver.solve(t, flipQuery(t, 1)).verdict, Verdict::Unsat);
  const Answer again = solver.solve(t, flipQuery(t, 1));
  EXPECT_EQ(again.verdict, Verdict::Unsat);
  EXPECT_TRUE(again.cached);
  EXPECT_EQ(solver.stats().queries, 2u);
  EXPECT_EQ(solver.stats().unsat, 1u);
  EXPECT_EQ(solver.stats().cached, 1u);
  // Flipping the first (x >= 10) alone is satisfiable.
  const Answer first = solver.solve(t, flipQuery(t, 0));
  ASSERT_EQ(first.verdict, Verdict::Sat);
  EXPECT_GE(first.bytes.at(0), 10);
}

TEST(PathSolver, ASignedCompareAndAnIteAreTheirLlvmMeaning) {
  // (int8)x < -100 ? x : 0 ... == 0x90 (-112): needs x = 0x90.
  Region r;
  const std::uint32_t x = r.input(0, 0, 1);
  const std::uint32_t lt = r.node(MOSAIC_SYM_SLT, 1, x, r.constant(8, 0x9c)); // -100
  const std::uint32_t pick = r.node(MOSAIC_SYM_ITE, 8, lt, x, r.constant(8, 0));
  r.branch(r.node(MOSAIC_SYM_EQ, 1, pick, r.constant(8, 0x90)), false);
  const SymbolicTrace t = r.read();
  PathSolver solver;
  const Answer a = solver.solve(t, flipQuery(t, 0));
  ASSERT_EQ(a.verdict, Verdict::Sat);
  EXPECT_EQ(a.bytes.at(0), 0x90);
}

TEST(SymbolicTrace, ARegionTheProgramCorruptedIsAnErrorNotACrash) {
  {
    Region r;
    r.h().magic = 0;
    EXPECT_FALSE(readSymbolicTrace(r.span()));
  }
  {
    Region r; // an operand that is not before its node
    const std::uint32_t x = r.input(0, 0, 1);
    r.node(MOSAIC_SYM_ADD, 8, x, x + 5);
    EXPECT_FALSE(readSymbolicTrace(r.span()));
  }
  {
    Region r; // operands of the wrong widths
    const std::uint32_t x = r.input(0, 0, 1);
    r.node(MOSAIC_SYM_ADD, 32, x, x);
    EXPECT_FALSE(readSymbolicTrace(r.span()));
  }
  {
    Region r; // more nodes than the capacity
    r.h().nodes = 1u << 20;
    EXPECT_FALSE(readSymbolicTrace(r.span()));
  }
  {
    Region r; // a constraint on a byte, not a boolean
    r.branch(r.input(0, 0, 1), true);
    EXPECT_FALSE(readSymbolicTrace(r.span()));
  }
  {
    Region r; // an input node naming no input; an unknown operation
    r.node(MOSAIC_SYM_INPUT, 8, 0, 0, 0, 7);
    EXPECT_FALSE(readSymbolicTrace(r.span()));
    Region u;
    u.node(99, 8, 0);
    EXPECT_FALSE(readSymbolicTrace(u.span()));
  }
  Region tooSmall;
  EXPECT_FALSE(readSymbolicTrace(tooSmall.span().first(8)));
}

} // namespace

namespace {

TEST(SymbolicTrace, EvaluationAtTheRunsValuesFollowsSmtLibAtItsEdges) {
  Region r;
  const std::uint32_t x = r.input(0, 0, 0x80), zero = r.input(0, 1, 0), nine = r.constant(8, 9);
  const std::uint32_t udiv = r.node(MOSAIC_SYM_UDIV, 8, x, zero), urem = r.node(MOSAIC_SYM_UREM, 8, x, zero);
  const std::uint32_t sdiv = r.node(MOSAIC_SYM_SDIV, 8, x, zero), minusOne = r.constant(8, 0xff);
  const std::uint32_t overflow = r.node(MOSAIC_SYM_SDIV, 8, x, minusOne), srem = r.node(MOSAIC_SYM_SREM, 8, x, minusOne);
  const std::uint32_t shl = r.node(MOSAIC_SYM_SHL, 8, x, nine), ashr = r.node(MOSAIC_SYM_ASHR, 8, x, nine);
  const std::uint32_t concat = r.node(MOSAIC_SYM_CONCAT, 16, x, nine), sext = r.node(MOSAIC_SYM_SEXT, 16, x);
  const std::uint32_t extract = r.node(MOSAIC_SYM_EXTRACT, 4, concat, 0, 0, 6);
  const std::uint32_t slt = r.node(MOSAIC_SYM_SLT, 1, x, zero);
  r.branch(slt, true);
  r.branch(r.node(MOSAIC_SYM_EQ, 1, x, zero), true); // not what the run did
  const SymbolicTrace t = r.read();
  const std::vector<std::uint64_t> v = evaluate(t);
  EXPECT_EQ(v[udiv], 0xffu);  // x / 0: all ones
  EXPECT_EQ(v[urem], 0x80u);  // x % 0: x
  EXPECT_EQ(v[sdiv], 1u);     // negative / 0: 1
  EXPECT_EQ(v[overflow], 0x80u); // -128 / -1 wraps
  EXPECT_EQ(v[srem], 0u);
  EXPECT_EQ(v[shl], 0u);      // past the width
  EXPECT_EQ(v[ashr], 0xffu);
  EXPECT_EQ(v[concat], 0x8009u);
  EXPECT_EQ(v[sext], 0xff80u);
  EXPECT_EQ(v[extract], 0x0u); // bits 6..9 of 0x8009
  EXPECT_EQ(v[slt], 1u);
  EXPECT_EQ(firstDivergence(t), std::optional<std::size_t>(1));
}

} // namespace

namespace {

TEST(PathGoal, AFlagIsAsFarAsTheComparisonThatMadeItAndEqualityWrapsAroundTheWidth) {
  // if ((int)(x == 200)) with x = 190: flipped, the flag must be true.
  Region r;
  const std::uint32_t x = r.input(0, 0, 190);
  const std::uint32_t eq = r.node(MOSAIC_SYM_EQ, 1, x, r.constant(8, 200));
  const std::uint32_t flag = r.node(MOSAIC_SYM_ZEXT, 32, eq);
  r.branch(r.node(MOSAIC_SYM_NE, 1, flag, r.constant(32, 0)), false);
  const SymbolicTrace t = r.read();
  const PathGoal goal(t, {0}, 0);
  const std::vector<std::uint8_t> far{150}, near{199}, there{200}, below{5};
  EXPECT_GT(goal.distance(far), goal.distance(near)) << "a gradient the flag's own 0-or-1 distance lacks";
  EXPECT_EQ(goal.distance(there), 0.0);
  // 5 is 61 from 200 the short way round 8 bits (5 - 200 = 61 mod 256), not
  // 195; 150 is 50 from it.
  EXPECT_GT(goal.distance(below), goal.distance(far));
  EXPECT_EQ(goal.inputs(), std::vector<std::uint32_t>{0});
}

} // namespace
