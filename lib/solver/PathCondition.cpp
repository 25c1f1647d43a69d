// Reading a symbolic trace region, and the slices and clause texts of its
// path condition (PathCondition.h).
#include "mosaic/solver/PathCondition.h"

#include "mosaic/abi/Symbolic.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace mosaic::solver {

namespace {

bool knownOp(std::uint8_t op) {
  return op == MOSAIC_SYM_CONST || op == MOSAIC_SYM_INPUT || (op >= MOSAIC_SYM_ADD && op <= MOSAIC_SYM_NEG) ||
         (op >= MOSAIC_SYM_EQ && op <= MOSAIC_SYM_SGE) || (op >= MOSAIC_SYM_ZEXT && op <= MOSAIC_SYM_ITE);
}

// How many operands an operation reads.
int arity(std::uint8_t op) {
  if (op == MOSAIC_SYM_CONST || op == MOSAIC_SYM_INPUT) return 0;
  if (op == MOSAIC_SYM_NOT || op == MOSAIC_SYM_NEG || op == MOSAIC_SYM_ZEXT || op == MOSAIC_SYM_SEXT ||
      op == MOSAIC_SYM_EXTRACT)
    return 1;
  return op == MOSAIC_SYM_ITE ? 3 : 2;
}

// The node's own widths agree with its operation's rules.
bool wellTyped(const std::vector<Node> &nodes, const Node &n) {
  const auto w = [&](std::uint32_t i) { return nodes[i].width; };
  switch (n.op) {
  case MOSAIC_SYM_CONST: return true;
  case MOSAIC_SYM_INPUT: return n.width == 8;
  case MOSAIC_SYM_NOT:
  case MOSAIC_SYM_NEG: return w(n.a) == n.width;
  case MOSAIC_SYM_ZEXT:
  case MOSAIC_SYM_SEXT: return w(n.a) <= n.width;
  case MOSAIC_SYM_EXTRACT: return n.value + n.width <= w(n.a);
  case MOSAIC_SYM_CONCAT: return w(n.a) + w(n.b) == n.width;
  case MOSAIC_SYM_ITE: return w(n.a) == 1 && w(n.b) == n.width && w(n.c) == n.width;
  default: break;
  }
  if (n.op >= MOSAIC_SYM_EQ && n.op <= MOSAIC_SYM_SGE) return n.width == 1 && w(n.a) == w(n.b);
  return w(n.a) == n.width && w(n.b) == n.width;
}

const char *opName(std::uint8_t op) {
  switch (op) {
  case MOSAIC_SYM_ADD: return "add";
  case MOSAIC_SYM_SUB: return "sub";
  case MOSAIC_SYM_MUL: return "mul";
  case MOSAIC_SYM_UDIV: return "udiv";
  case MOSAIC_SYM_SDIV: return "sdiv";
  case MOSAIC_SYM_UREM: return "urem";
  case MOSAIC_SYM_SREM: return "srem";
  case MOSAIC_SYM_SHL: return "shl";
  case MOSAIC_SYM_LSHR: return "lshr";
  case MOSAIC_SYM_ASHR: return "ashr";
  case MOSAIC_SYM_AND: return "and";
  case MOSAIC_SYM_OR: return "or";
  case MOSAIC_SYM_XOR: return "xor";
  case MOSAIC_SYM_NOT: return "not";
  case MOSAIC_SYM_NEG: return "neg";
  case MOSAIC_SYM_EQ: return "eq";
  case MOSAIC_SYM_NE: return "ne";
  case MOSAIC_SYM_ULT: return "ult";
  case MOSAIC_SYM_ULE: return "ule";
  case MOSAIC_SYM_UGT: return "ugt";
  case MOSAIC_SYM_UGE: return "uge";
  case MOSAIC_SYM_SLT: return "slt";
  case MOSAIC_SYM_SLE: return "sle";
  case MOSAIC_SYM_SGT: return "sgt";
  case MOSAIC_SYM_SGE: return "sge";
  case MOSAIC_SYM_ZEXT: return "zext";
  case MOSAIC_SYM_SEXT: return "sext";
  case MOSAIC_SYM_EXTRACT: return "extract";
  case MOSAIC_SYM_CONCAT: return "concat";
  case MOSAIC_SYM_ITE: return "ite";
  default: return "?";
  }
}

constexpr std::size_t kClauseChars = 4096; // PathCondition.h

void print(const SymbolicTrace &t, std::uint32_t i, std::string &out) {
  if (out.size() >= kClauseChars) return;
  const Node &n = t.nodes[i];
  if (n.op == MOSAIC_SYM_CONST) {
    out += std::to_string(n.value);
    return;
  }
  if (n.op == MOSAIC_SYM_INPUT) {
    out += "{" + std::to_string(n.value) + "}";
    return;
  }
  out += opName(n.op);
  if (n.op == MOSAIC_SYM_ZEXT || n.op == MOSAIC_SYM_SEXT) out += std::to_string(n.width);
  if (n.op == MOSAIC_SYM_EXTRACT) out += std::to_string(n.value) + "_" + std::to_string(n.width);
  out += "(";
  const std::uint32_t ops[3] = {n.a, n.b, n.c};
  for (int k = 0; k < arity(n.op); ++k) {
    if (k) out += ",";
    print(t, ops[k], out);
  }
  out += ")";
}

template <typename T> bool readArray(std::span<const std::byte> region, std::uint32_t offset, std::uint32_t count,
                                     std::uint32_t capacity, std::vector<T> &out) {
  if (count > capacity || offset < sizeof(mosaic_sym_header) || offset > region.size() ||
      (region.size() - offset) / sizeof(T) < capacity)
    return false;
  out.resize(count);
  if (count) std::memcpy(out.data(), region.data() + offset, count * sizeof(T));
  return true;
}

} // namespace

Expected<SymbolicTrace> readSymbolicTrace(std::span<const std::byte> region) {
  mosaic_sym_header h;
  if (region.size() < sizeof h) return Error::input("symbolic trace: the region is smaller than its header");
  std::memcpy(&h, region.data(), sizeof h);
  if (h.magic != MOSAIC_SYM_MAGIC || h.version != MOSAIC_SYM_VERSION)
    return Error::input("symbolic trace: not a version " + std::to_string(MOSAIC_SYM_VERSION) + " region");
  std::vector<mosaic_sym_node> nodes;
  std::vector<mosaic_sym_constraint> constraints;
  std::vector<mosaic_sym_input> inputs;
  if (!readArray(region, h.node_offset, h.nodes, h.node_capacity, nodes) ||
      !readArray(region, h.constraint_offset, h.constraints, h.constraint_capacity, constraints) ||
      !readArray(region, h.input_offset, h.inputs, h.input_capacity, inputs))
    return Error::input("symbolic trace: a count beyond its capacity or an area beyond the region");
  if (nodes.empty()) return Error::input("symbolic trace: no node 0");
  SymbolicTrace t;
  t.concretized = h.concretized;
  t.dropped = h.dropped_nodes + h.dropped_constraints + h.dropped_inputs;
  t.nodes.reserve(nodes.size());
  t.nodes.push_back({});
  for (std::uint32_t i = 1; i < nodes.size(); ++i) {
    const mosaic_sym_node &r = nodes[i];
    Node n{r.op, r.width, r.a, r.b, r.c, r.value};
    const std::string at = "symbolic trace: node " + std::to_string(i);
    if (!knownOp(n.op)) return Error::input(at + " has an unknown operation " + std::to_string(n.op));
    if (n.width < 1 || n.width > 64) return Error::input(at + " has width " + std::to_string(n.width));
    const std::uint32_t ops[3] = {n.a, n.b, n.c};
    for (int k = 0; k < arity(n.op); ++k)
      if (ops[k] == MOSAIC_SYM_NONE || ops[k] >= i) return Error::input(at + " uses a node not before it");
    // What the operation does not read is no node (the runtime may leave anything there).
    if (arity(n.op) < 3) n.c = MOSAIC_SYM_NONE;
    if (arity(n.op) < 2) n.b = MOSAIC_SYM_NONE;
    if (arity(n.op) < 1) n.a = MOSAIC_SYM_NONE;
    if (n.op == MOSAIC_SYM_INPUT && n.value >= inputs.size()) return Error::input(at + " names no input byte");
    if (!wellTyped(t.nodes, n)) return Error::input(at + " (" + opName(n.op) + ") has operands of the wrong widths");
    t.nodes.push_back(n);
  }
  for (const mosaic_sym_constraint &c : constraints) {
    if (c.node == MOSAIC_SYM_NONE || c.node >= t.nodes.size() || t.nodes[c.node].width != 1)
      return Error::input("symbolic trace: a constraint on no boolean node");
    t.constraints.push_back({c.node, c.side, c.taken != 0});
  }
  for (const mosaic_sym_input &in : inputs) t.inputs.push_back({in.statement, in.offset, in.kind, in.concrete});
  return t;
}

namespace {

std::uint64_t mask(std::uint64_t v, unsigned width) { return width >= 64 ? v : v & ((1ull << width) - 1); }

std::int64_t signedOf(std::uint64_t v, unsigned width) {
  if (width >= 64) return static_cast<std::int64_t>(v);
  const std::uint64_t m = 1ull << (width - 1);
  return static_cast<std::int64_t>((mask(v, width) ^ m) - m);
}

// Node `n`'s value from its operands' values `v` (indices into `nodes`);
// an input node's value is `input`.
std::uint64_t apply(const Node &n, const std::vector<std::uint64_t> &v, const std::vector<Node> &nodes, std::uint64_t input) {
  const unsigned w = n.width;
  const std::uint64_t a = n.a ? v[n.a] : 0, b = n.b ? v[n.b] : 0;
  const unsigned aw = n.a ? nodes[n.a].width : w;
  const std::int64_t sa = signedOf(a, aw), sb = signedOf(b, aw);
  switch (n.op) {
  case MOSAIC_SYM_CONST: return mask(n.value, w);
  case MOSAIC_SYM_INPUT: return input;
  case MOSAIC_SYM_ADD: return mask(a + b, w);
  case MOSAIC_SYM_SUB: return mask(a - b, w);
  case MOSAIC_SYM_MUL: return mask(a * b, w);
  case MOSAIC_SYM_UDIV: return b == 0 ? mask(~0ull, w) : a / b;
  case MOSAIC_SYM_UREM: return b == 0 ? a : a % b;
  case MOSAIC_SYM_SDIV:
    if (b == 0) return mask(sa < 0 ? 1 : ~0ull, w);
    if (sb == -1) return mask(0 - a, w); // also INT_MIN / -1, which wraps
    return mask(static_cast<std::uint64_t>(sa / sb), w);
  case MOSAIC_SYM_SREM:
    if (b == 0) return a;
    if (sb == -1) return 0;
    return mask(static_cast<std::uint64_t>(sa % sb), w);
  case MOSAIC_SYM_SHL: return b >= w ? 0 : mask(a << b, w);
  case MOSAIC_SYM_LSHR: return b >= w ? 0 : a >> b;
  case MOSAIC_SYM_ASHR: return mask(static_cast<std::uint64_t>(b >= w ? (sa < 0 ? -1 : 0) : sa >> b), w);
  case MOSAIC_SYM_AND: return a & b;
  case MOSAIC_SYM_OR: return a | b;
  case MOSAIC_SYM_XOR: return a ^ b;
  case MOSAIC_SYM_NOT: return mask(~a, w);
  case MOSAIC_SYM_NEG: return mask(0 - a, w);
  case MOSAIC_SYM_EQ: return a == b;
  case MOSAIC_SYM_NE: return a != b;
  case MOSAIC_SYM_ULT: return a < b;
  case MOSAIC_SYM_ULE: return a <= b;
  case MOSAIC_SYM_UGT: return a > b;
  case MOSAIC_SYM_UGE: return a >= b;
  case MOSAIC_SYM_SLT: return sa < sb;
  case MOSAIC_SYM_SLE: return sa <= sb;
  case MOSAIC_SYM_SGT: return sa > sb;
  case MOSAIC_SYM_SGE: return sa >= sb;
  case MOSAIC_SYM_ZEXT: return a;
  case MOSAIC_SYM_SEXT: return mask(static_cast<std::uint64_t>(sa), w);
  case MOSAIC_SYM_EXTRACT: return mask(a >> n.value, w);
  case MOSAIC_SYM_CONCAT: return mask((a << nodes[n.b].width) | b, w);
  case MOSAIC_SYM_ITE: return a ? b : v[n.c];
  default: return 0; // readSymbolicTrace let no other operation through
  }
}

} // namespace

std::vector<std::uint64_t> evaluate(const SymbolicTrace &trace) {
  // Operands come before the nodes that use them (readSymbolicTrace checked).
  std::vector<std::uint64_t> values(trace.nodes.size(), 0);
  for (std::size_t i = 1; i < trace.nodes.size(); ++i) {
    const Node &n = trace.nodes[i];
    values[i] = apply(n, values, trace.nodes, n.op == MOSAIC_SYM_INPUT ? trace.inputs[n.value].concrete : 0);
  }
  return values;
}

namespace {

bool isComparison(std::uint8_t op) { return op >= MOSAIC_SYM_EQ && op <= MOSAIC_SYM_SGE; }

// The comparison that holds when `op` does not: EQ-NE, ULT-UGE, ULE-UGT, ...
std::uint8_t dual(std::uint8_t op) {
  switch (op) {
  case MOSAIC_SYM_EQ: return MOSAIC_SYM_NE;
  case MOSAIC_SYM_NE: return MOSAIC_SYM_EQ;
  case MOSAIC_SYM_ULT: return MOSAIC_SYM_UGE;
  case MOSAIC_SYM_UGE: return MOSAIC_SYM_ULT;
  case MOSAIC_SYM_ULE: return MOSAIC_SYM_UGT;
  case MOSAIC_SYM_UGT: return MOSAIC_SYM_ULE;
  case MOSAIC_SYM_SLT: return MOSAIC_SYM_SGE;
  case MOSAIC_SYM_SGE: return MOSAIC_SYM_SLT;
  case MOSAIC_SYM_SLE: return MOSAIC_SYM_SGT;
  default: return MOSAIC_SYM_SLE; // MOSAIC_SYM_SGT
  }
}

// How far `op` is from holding for a and b (branch distance, ALGORITHMS.md
// §7.4: 0 when it holds, 1 + |a - b| for == (modulo the width), 1 for !=,
// the gap (+1 when strict) for an order).
double comparisonDistance(std::uint8_t op, std::uint64_t a, std::uint64_t b, unsigned width) {
  const bool isSigned = op >= MOSAIC_SYM_SLT;
  const double x = isSigned ? static_cast<double>(signedOf(a, width)) : static_cast<double>(a);
  const double y = isSigned ? static_cast<double>(signedOf(b, width)) : static_cast<double>(b);
  switch (op) {
  case MOSAIC_SYM_EQ: {
    // The nearer way round the width's circle: 0xfffffffe is 3 from 1, as
    // an int's -2 is.
    const std::uint64_t up = mask(a - b, width), down = mask(b - a, width);
    return a == b ? 0 : 1 + static_cast<double>(std::min(up, down));
  }
  case MOSAIC_SYM_NE: return a != b ? 0 : 1;
  case MOSAIC_SYM_ULT:
  case MOSAIC_SYM_SLT: return x < y ? 0 : 1 + (x - y);
  case MOSAIC_SYM_ULE:
  case MOSAIC_SYM_SLE: return x <= y ? 0 : x - y;
  case MOSAIC_SYM_UGT:
  case MOSAIC_SYM_SGT: return x > y ? 0 : 1 + (y - x);
  default: return x >= y ? 0 : y - x; // UGE, SGE
  }
}

} // namespace

PathGoal::PathGoal(const SymbolicTrace &trace, const std::vector<std::size_t> &keep, std::size_t flip) {
  // The cone of the clauses' nodes, in the trace's order (operands first),
  // renumbered from 1.
  std::vector<std::uint32_t> index(trace.nodes.size(), 0);
  std::vector<std::uint32_t> todo;
  for (std::size_t k : keep) todo.push_back(trace.constraints[k].node);
  while (!todo.empty()) {
    const std::uint32_t i = todo.back();
    todo.pop_back();
    if (i == MOSAIC_SYM_NONE || index[i]) continue;
    index[i] = 1;
    for (std::uint32_t o : {trace.nodes[i].a, trace.nodes[i].b, trace.nodes[i].c}) todo.push_back(o);
  }
  nodes_.push_back(Node{});
  for (std::size_t i = 1; i < trace.nodes.size(); ++i) {
    if (!index[i]) continue;
    Node n = trace.nodes[i];
    n.a = index[n.a] ? index[n.a] : 0;
    n.b = n.b && index[n.b] ? index[n.b] : 0;
    n.c = n.c && index[n.c] ? index[n.c] : 0;
    if (n.op == MOSAIC_SYM_INPUT) { // numbered in the goal's own order (inputs())
      inputs_.push_back(static_cast<std::uint32_t>(n.value));
      n.value = inputs_.size() - 1;
    }
    index[i] = static_cast<std::uint32_t>(nodes_.size());
    nodes_.push_back(n);
  }
  for (std::size_t k : keep) {
    const Constraint &c = trace.constraints[k];
    clauses_.push_back({index[c.node], k == flip ? !c.taken : c.taken});
  }
}

double PathGoal::clauseDistance(std::uint32_t node, bool want, const std::vector<std::uint64_t> &v) const {
  const Node &n = nodes_[node];
  // A flag: a boolean widened and compared with 0 or 1 (C's `if (flag)`)
  // is as far as the boolean is, whose own distance has a gradient where
  // the flag's has none.
  if (n.op == MOSAIC_SYM_EQ || n.op == MOSAIC_SYM_NE)
    for (auto [x, y] : {std::pair{n.a, n.b}, std::pair{n.b, n.a}}) {
      const Node &wide = nodes_[x], &k = nodes_[y];
      if (k.op != MOSAIC_SYM_CONST || (wide.op != MOSAIC_SYM_ZEXT && wide.op != MOSAIC_SYM_SEXT) ||
          nodes_[wide.a].width != 1 || (k.value != 0 && !(k.value == 1 && wide.op == MOSAIC_SYM_ZEXT)))
        continue;
      // flag == 0, flag != 1: the boolean is false; flag != 0, flag == 1: true.
      const bool holdsWhenTrue = (n.op == MOSAIC_SYM_NE) == (k.value == 0);
      return clauseDistance(wide.a, holdsWhenTrue == want, v);
    }
  if (isComparison(n.op))
    return comparisonDistance(want ? n.op : dual(n.op), v[n.a], v[n.b], nodes_[n.a].width);
  if (n.width == 1) {
    // De Morgan pushes a negation inwards (ALGORITHMS.md §1.2).
    if (n.op == MOSAIC_SYM_NOT) return clauseDistance(n.a, !want, v);
    if (n.op == MOSAIC_SYM_AND || n.op == MOSAIC_SYM_OR) {
      const double x = clauseDistance(n.a, want, v), y = clauseDistance(n.b, want, v);
      return (n.op == MOSAIC_SYM_AND) == want ? x + y : std::min(x, y);
    }
  }
  return (v[node] != 0) == want ? 0 : 1;
}

double PathGoal::distance(std::span<const std::uint8_t> inputs) const {
  std::vector<std::uint64_t> v(nodes_.size(), 0);
  for (std::size_t i = 1; i < nodes_.size(); ++i) {
    const Node &n = nodes_[i];
    const std::uint64_t in = n.op == MOSAIC_SYM_INPUT && n.value < inputs.size() ? inputs[n.value] : 0;
    v[i] = apply(n, v, nodes_, in);
  }
  double similar = 0;
  for (const auto &[node, want] : clauses_) similar += 1.0 / (1.0 + clauseDistance(node, want, v));
  return static_cast<double>(clauses_.size()) - similar;
}

std::optional<std::size_t> firstDivergence(const SymbolicTrace &trace) {
  const std::vector<std::uint64_t> values = evaluate(trace);
  for (std::size_t i = 0; i < trace.constraints.size(); ++i)
    if ((values[trace.constraints[i].node] != 0) != trace.constraints[i].taken) return i;
  return std::nullopt;
}

namespace {

// Calls `found` with the input index of each input node in `node`'s cone,
// each node visited once: `seen` holds, per node, the mark of the walk
// that saw it last (walks with distinct marks can share one vector).
template <typename Found>
void walkInputs(const SymbolicTrace &trace, std::uint32_t node, std::vector<std::uint32_t> &seen, std::uint32_t mark,
                Found found) {
  std::vector<std::uint32_t> todo{node};
  while (!todo.empty()) {
    const std::uint32_t i = todo.back();
    todo.pop_back();
    if (i == MOSAIC_SYM_NONE || i >= trace.nodes.size() || seen[i] == mark) continue;
    seen[i] = mark;
    const Node &n = trace.nodes[i];
    if (n.op == MOSAIC_SYM_INPUT) found(static_cast<std::uint32_t>(n.value));
    const std::uint32_t ops[3] = {n.a, n.b, n.c};
    for (int k = 0; k < arity(n.op); ++k) todo.push_back(ops[k]);
  }
}

} // namespace

std::set<std::uint32_t> inputsOf(const SymbolicTrace &trace, std::uint32_t node) {
  std::set<std::uint32_t> out;
  std::vector<std::uint32_t> seen(trace.nodes.size(), 0);
  walkInputs(trace, node, seen, 1, [&](std::uint32_t input) { out.insert(input); });
  return out;
}

std::vector<std::size_t> slice(const SymbolicTrace &trace, std::size_t last) { return Slicer(trace).slice(last); }

Slicer::Slicer(const SymbolicTrace &trace)
    : trace_(trace), inputs_(trace.constraints.size()), found_(trace.constraints.size(), false),
      seen_(trace.nodes.size(), 0) {}

const std::vector<std::uint32_t> &Slicer::inputsOf(std::size_t constraint) {
  if (found_[constraint]) return inputs_[constraint];
  found_[constraint] = true;
  std::vector<std::uint32_t> &out = inputs_[constraint];
  walkInputs(trace_, trace_.constraints[constraint].node, seen_, static_cast<std::uint32_t>(constraint + 1),
             [&](std::uint32_t input) { out.push_back(input); });
  return out;
}

std::uint32_t Slicer::find(std::uint32_t input) {
  if (input >= parent_.size()) {
    const auto from = static_cast<std::uint32_t>(parent_.size());
    parent_.resize(input + 1);
    for (std::uint32_t k = from; k <= input; ++k) parent_[k] = k;
  }
  while (parent_[input] != input) input = parent_[input] = parent_[parent_[input]];
  return input;
}

std::vector<std::size_t> Slicer::slice(std::size_t last) {
  if (last >= trace_.constraints.size()) return {};
  if (joined_ > last + 1) { // going back: join again from the start
    parent_.clear();
    joined_ = 0;
  }
  for (; joined_ <= last; ++joined_) {
    const std::vector<std::uint32_t> &in = inputsOf(joined_);
    for (std::size_t k = 1; k < in.size(); ++k) {
      const std::uint32_t a = find(in[0]), b = find(in[k]);
      if (a != b) parent_[b] = a;
    }
  }
  const std::vector<std::uint32_t> &mine = inputsOf(last);
  std::vector<std::size_t> out;
  if (mine.empty()) return {last};
  const std::uint32_t root = find(mine[0]);
  for (std::size_t i = 0; i <= last; ++i) {
    const std::vector<std::uint32_t> &in = inputsOf(i);
    if (!in.empty() && find(in[0]) == root) out.push_back(i);
  }
  return out;
}

std::string clauseText(const SymbolicTrace &trace, const Constraint &constraint) {
  std::string out = constraint.taken ? "" : "not(";
  print(trace, constraint.node, out);
  if (!constraint.taken) out += ")";
  if (out.size() > kClauseChars) out.resize(kClauseChars);
  return out;
}

} // namespace mosaic::solver
