// A test's symbolic trace as the host reads it (abi/Symbolic.h): the
// expression DAG, the path condition (one constraint per symbolic branch,
// in the order the run met them) and where each input byte comes from.
// No Z3 here: the solver (Solver.h) turns these into terms; the learned
// selection (TARDIS) reads the clauses as text.
#pragma once

#include "mosaic/support/Expected.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace mosaic::solver {

struct Node {
  std::uint8_t op = 0; ///< abi/Symbolic.h's MOSAIC_SYM_*
  std::uint8_t width = 0;
  std::uint32_t a = 0, b = 0, c = 0; ///< operands; 0 (no node) past the operation's arity
  std::uint64_t value = 0;
};

struct Constraint {
  std::uint32_t node = 0; ///< a width-1 node
  std::uint32_t side = 0; ///< the branch side it decides (the pass's numbering)
  bool taken = false;
};

struct InputByte {
  std::uint32_t statement = 0;
  std::uint32_t offset = 0;
  std::uint8_t kind = 0; ///< MOSAIC_SYM_IN_*
  std::uint8_t concrete = 0;
};

struct SymbolicTrace {
  std::vector<Node> nodes; ///< nodes[0] is no node
  std::vector<Constraint> constraints;
  std::vector<InputByte> inputs;
  std::uint32_t concretized = 0; ///< symbolic operations the runtime made concrete
  std::uint32_t dropped = 0;     ///< nodes, constraints and inputs that did not fit
};

/// Reads and checks a trace region: the magic and version, counts within
/// their capacities and the region, every operand an earlier node, every
/// width and operation one the ABI defines, every input node an input of
/// the region, every constraint a width-1 node. The region is written by
/// the program under test, so anything else is an Input error, not a
/// crash of the host.
Expected<SymbolicTrace> readSymbolicTrace(std::span<const std::byte> region);

/// The input bytes (indices into SymbolicTrace::inputs) node `node` depends on.
std::set<std::uint32_t> inputsOf(const SymbolicTrace &trace, std::uint32_t node);

/// Every node's value with the input bytes at the run's values (`concrete`),
/// zero-extended to 64 bits; a width-1 node is 1 for true. Division by
/// zero and shifts past the width as SMT-LIB defines them, as Z3 solves.
std::vector<std::uint64_t> evaluate(const SymbolicTrace &trace);

/// The first constraint that does not hold as the run took it when its
/// expression is evaluated at the run's values: the runtime's expressions
/// (a model of the C library above all) disagree with what the run did.
/// None in a trace the runtime followed exactly.
std::optional<std::size_t> firstDivergence(const SymbolicTrace &trace);

/// A path condition as a goal for the search (SUSHI's path-condition
/// fitness, ALGORITHMS.md §7.4): constraints `keep` of a trace as its run
/// took them, `flip` negated, with the part of the DAG they read, ready to
/// be evaluated on other values of the trace's input bytes.
class PathGoal {
public:
  PathGoal(const SymbolicTrace &trace, const std::vector<std::size_t> &keep, std::size_t flip);
  /// N - sum over the clauses of 1 / (1 + d), d a clause's branch distance
  /// (==: 1 + |a - b|; !=: 1; an order: the gap, + 1 when strict; &&: the
  /// sum, ||: the least; negations pushed in) with the input bytes it reads
  /// at `inputs` (one per inputs(), in that order): 0 when every clause
  /// holds, at most N.
  double distance(std::span<const std::uint8_t> inputs) const;
  std::size_t clauses() const { return clauses_.size(); }
  /// The input bytes it reads, as indices into SymbolicTrace::inputs, in
  /// the order distance() takes their values.
  const std::vector<std::uint32_t> &inputs() const { return inputs_; }

private:
  double clauseDistance(std::uint32_t node, bool want, const std::vector<std::uint64_t> &values) const;
  std::vector<Node> nodes_; ///< the clauses' cone, renumbered; nodes_[0] is no node
  std::vector<std::pair<std::uint32_t, bool>> clauses_;
  std::vector<std::uint32_t> inputs_;
};

/// TARDIS's slice (ALGORITHMS.md §7.1): constraint `last` and the
/// constraints before it that share an input byte with it, transitively;
/// indices in order. What the others constrain cannot change whether
/// `last` can flip.
std::vector<std::size_t> slice(const SymbolicTrace &trace, std::size_t last);

/// The slices of one trace's constraints, for many `last`: each
/// constraint's input bytes are found once, and the constraints up to
/// `last` joined by a union-find over input bytes, so a slice costs one
/// pass over the prefix. Fastest with `last` ascending (a smaller one
/// starts the union over). The trace must outlive it.
class Slicer {
public:
  explicit Slicer(const SymbolicTrace &trace);
  std::vector<std::size_t> slice(std::size_t last);

private:
  const std::vector<std::uint32_t> &inputsOf(std::size_t constraint);
  std::uint32_t find(std::uint32_t input);
  const SymbolicTrace &trace_;
  std::vector<std::vector<std::uint32_t>> inputs_; ///< per constraint, once found
  std::vector<bool> found_;
  std::vector<std::uint32_t> seen_; ///< per node: the constraint whose walk saw it last, plus one
  std::vector<std::uint32_t> parent_; ///< per input byte
  std::size_t joined_ = 0;            ///< constraints [0, joined_) are joined
};

/// A constraint as text, the clause of TARDIS's fingerprints: the
/// condition as it holds on the run's path (negated when not taken), in
/// prefix form, input bytes as {N}, constants in decimal:
/// "ult(add(zext32({0}),7),10)"; a clause longer than 4,096 characters is
/// cut there (ours: a shared subexpression is printed at each use). Digits
/// are only widths, constants and input indices, so deleting them gives
/// the abstract clause.
std::string clauseText(const SymbolicTrace &trace, const Constraint &constraint);

} // namespace mosaic::solver
