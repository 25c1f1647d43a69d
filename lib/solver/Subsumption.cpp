// Mutant subsumption over bit-vectors (Subsumption.h).
#include "mosaic/solver/Subsumption.h"

#include "mosaic/abi/Hooks.h"

#include <z3++.h>

#include <optional>
#include <vector>

namespace mosaic::solver {

namespace {

bool isRelation(std::uint8_t op) { return op >= MOSAIC_MUT_EQ; }
// Multiplication, division, remainder: what bit-blasting makes slow.
bool isNonlinear(std::uint8_t op) { return op == MOSAIC_MUT_MUL || op == MOSAIC_MUT_DIV || op == MOSAIC_MUT_REM; }

// A result of an arithmetic or bitwise operation: its value and whether it
// traps instead (then the value means nothing).
struct Result {
  z3::expr value;
  z3::expr traps;
};

Result compute(z3::context &z, std::uint8_t op, const z3::expr &a, const z3::expr &b, const IntegerOperation &o) {
  const z3::expr no = z.bool_val(false);
  switch (op) {
  case MOSAIC_MUT_ADD: return {a + b, no};
  case MOSAIC_MUT_SUB: return {a - b, no};
  case MOSAIC_MUT_MUL: return {a * b, no};
  case MOSAIC_MUT_AND: return {a & b, no};
  case MOSAIC_MUT_OR: return {a | b, no};
  case MOSAIC_MUT_XOR: return {a ^ b, no};
  default: break; // DIV, REM
  }
  const z3::expr zero = z.bv_val(0, o.width);
  z3::expr traps = b == zero;
  if (o.isSigned) {
    // The least signed value: the sign bit alone.
    const z3::expr least = z3::shl(z.bv_val(1, o.width), z.bv_val(o.width - 1, o.width));
    traps = traps || (a == least && b == z.bv_val(-1, o.width));
    return {op == MOSAIC_MUT_DIV ? a / b : z3::srem(a, b), traps};
  }
  return {op == MOSAIC_MUT_DIV ? z3::udiv(a, b) : z3::urem(a, b), traps};
}

// Whether relation `op` holds between a and b, from abi's one definition
// (mosaic_mut_holds over the three positions).
z3::expr holds(z3::context &z, std::uint8_t op, const z3::expr &a, const z3::expr &b, bool isSigned) {
  const z3::expr below = isSigned ? a < b : z3::ult(a, b);
  const z3::expr equal = a == b;
  const z3::expr positions[3] = {below, equal, !below && !equal};
  z3::expr out = z.bool_val(false);
  for (unsigned p = MOSAIC_MUT_BELOW; p <= MOSAIC_MUT_ABOVE; ++p)
    if (mosaic_mut_holds(op, p)) out = out || positions[p];
  return out;
}

// Operands on which mutant `m` of `o` is infected.
z3::expr infected(z3::context &z, const IntegerOperation &o, std::uint8_t m, const z3::expr &a, const z3::expr &b) {
  if (isRelation(o.original))
    return holds(z, o.original, a, b, o.isSigned) != holds(z, m, a, b, o.isSigned);
  const Result r0 = compute(z, o.original, a, b, o), r1 = compute(z, m, a, b, o);
  return r0.traps != r1.traps || (!r0.traps && r0.value != r1.value);
}


// Operands worth trying before a proof: small values and each width's
// edges. A pair of mutants whose infection sets differ usually differs on
// one of these, and evaluating a formula on constants is instant where a
// proof over 64-bit multiplication and division runs past any timeout.
std::vector<z3::expr> probes(z3::context &z, unsigned width) {
  std::vector<z3::expr> out;
  for (int v : {0, 1, 2, 3, 4, 5, 6, 7, 8, -1, -2, -3, -4}) out.push_back(z.bv_val(v, width));
  const z3::expr one = z.bv_val(1, width);
  const z3::expr least = z3::shl(one, z.bv_val(width - 1, width)).simplify();
  out.push_back(least);
  out.push_back((least + one).simplify());
  out.push_back((least - one).simplify()); // the greatest signed value
  return out;
}

// Operands among probes() on which `formula` holds, as "a = .., b = ..".
std::optional<std::string> witness(z3::context &z, const z3::expr &formula, const z3::expr &a, const z3::expr &b,
                                   unsigned width) {
  const std::vector<z3::expr> values = probes(z, width);
  for (const z3::expr &x : values)
    for (const z3::expr &y : values) {
      z3::expr_vector from(z), to(z);
      from.push_back(a);
      from.push_back(b);
      to.push_back(x);
      to.push_back(y);
      if (z3::expr(formula).substitute(from, to).simplify().is_true())
        return "a = " + x.to_string() + ", b = " + y.to_string();
    }
  return std::nullopt;
}

} // namespace

struct MutantProver::State {
  z3::context z;
  z3::solver solver{z};
  explicit State(unsigned timeoutMs) {
    z3::params p(z);
    p.set("timeout", timeoutMs);
    solver.set(p);
  }
  // Whether `formula` holds for some operands: sat, unsat or unknown.
  z3::check_result satisfiable(const z3::expr &formula) {
    solver.push();
    solver.add(formula);
    const z3::check_result r = solver.check();
    if (r == z3::sat) model = solver.get_model();
    solver.pop();
    return r;
  }
  std::optional<z3::model> model;
};

MutantProver::MutantProver(unsigned timeoutMs) : s_(std::make_unique<State>(timeoutMs)) {}
MutantProver::~MutantProver() = default;

Proof MutantProver::subsumes(const IntegerOperation &op, std::uint8_t m1, std::uint8_t m2, std::string *example) {
  z3::context &z = s_->z;
  const z3::expr a = z.bv_const("a", op.width), b = z.bv_const("b", op.width);
  const z3::expr apart = infected(z, op, m1, a, b) && !infected(z, op, m2, a, b);
  const bool hard = isNonlinear(op.original) || isNonlinear(m1) || isNonlinear(m2);
  if (auto found = hard ? witness(z, apart, a, b, op.width) : std::nullopt) {
    if (example) *example = *found;
    return Proof::Fails;
  }
  switch (s_->satisfiable(apart)) {
  case z3::unsat: return Proof::Holds;
  case z3::sat:
    if (example)
      *example = "a = " + s_->model->eval(a, true).to_string() + ", b = " + s_->model->eval(b, true).to_string();
    return Proof::Fails;
  default: return Proof::Unknown;
  }
}

Proof MutantProver::infectable(const IntegerOperation &op, std::uint8_t m) {
  z3::context &z = s_->z;
  const z3::expr a = z.bv_const("a", op.width), b = z.bv_const("b", op.width);
  const z3::expr infects = infected(z, op, m, a, b);
  if ((isNonlinear(op.original) || isNonlinear(m)) && witness(z, infects, a, b, op.width)) return Proof::Holds;
  switch (s_->satisfiable(infects)) {
  case z3::sat: return Proof::Holds;
  case z3::unsat: return Proof::Fails;
  default: return Proof::Unknown;
  }
}

} // namespace mosaic::solver
