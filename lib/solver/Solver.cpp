// Flipping a path condition's branch with Z3 (Solver.h).
#include "mosaic/solver/Solver.h"

#include "mosaic/abi/Symbolic.h"

#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <functional>
#include <optional>

namespace mosaic::solver {

namespace {

// Every node is a bit-vector of its width; a width-1 node is 1 for true.
class Terms {
public:
  Terms(z3::context &z, const SymbolicTrace &t) : z_(z), t_(t), memo_(t.nodes.size()) {}

  z3::expr term(std::uint32_t root) {
    // Operands first, without recursion (a trace's DAG can be deep).
    std::vector<std::uint32_t> todo{root};
    while (!todo.empty()) {
      const std::uint32_t i = todo.back();
      if (memo_[i]) {
        todo.pop_back();
        continue;
      }
      const Node &n = t_.nodes[i];
      bool ready = true;
      for (std::uint32_t o : {n.a, n.b, n.c})
        if (o != MOSAIC_SYM_NONE && !memo_[o]) {
          todo.push_back(o);
          ready = false;
        }
      if (!ready) continue;
      memo_[i] = build(n);
      todo.pop_back();
    }
    return *memo_[root];
  }

  z3::expr input(std::uint32_t index) { return z_.bv_const(("in" + std::to_string(index)).c_str(), 8); }

private:
  z3::expr boolean(const z3::expr &b) { return z3::ite(b, z_.bv_val(1, 1), z_.bv_val(0, 1)); }

  z3::expr build(const Node &n) {
    if (n.op == MOSAIC_SYM_CONST) {
      const std::uint64_t mask = n.width == 64 ? ~0ull : ((1ull << n.width) - 1);
      return z_.bv_val(static_cast<std::uint64_t>(n.value & mask), n.width);
    }
    if (n.op == MOSAIC_SYM_INPUT) return input(static_cast<std::uint32_t>(n.value));
    const z3::expr a = *memo_[n.a];
    switch (n.op) {
    case MOSAIC_SYM_NOT: return ~a;
    case MOSAIC_SYM_NEG: return -a;
    case MOSAIC_SYM_ZEXT: return z3::zext(a, n.width - a.get_sort().bv_size());
    case MOSAIC_SYM_SEXT: return z3::sext(a, n.width - a.get_sort().bv_size());
    case MOSAIC_SYM_EXTRACT:
      return a.extract(static_cast<unsigned>(n.value + n.width - 1), static_cast<unsigned>(n.value));
    case MOSAIC_SYM_ITE: return z3::ite(a == z_.bv_val(1, 1), *memo_[n.b], *memo_[n.c]);
    default: break;
    }
    const z3::expr b = *memo_[n.b];
    switch (n.op) {
    case MOSAIC_SYM_ADD: return a + b;
    case MOSAIC_SYM_SUB: return a - b;
    case MOSAIC_SYM_MUL: return a * b;
    case MOSAIC_SYM_UDIV: return z3::udiv(a, b);
    case MOSAIC_SYM_SDIV: return a / b;
    case MOSAIC_SYM_UREM: return z3::urem(a, b);
    case MOSAIC_SYM_SREM: return z3::srem(a, b);
    case MOSAIC_SYM_SHL: return z3::shl(a, b);
    case MOSAIC_SYM_LSHR: return z3::lshr(a, b);
    case MOSAIC_SYM_ASHR: return z3::ashr(a, b);
    case MOSAIC_SYM_AND: return a & b;
    case MOSAIC_SYM_OR: return a | b;
    case MOSAIC_SYM_XOR: return a ^ b;
    case MOSAIC_SYM_CONCAT: return z3::concat(a, b);
    case MOSAIC_SYM_EQ: return boolean(a == b);
    case MOSAIC_SYM_NE: return boolean(a != b);
    case MOSAIC_SYM_ULT: return boolean(z3::ult(a, b));
    case MOSAIC_SYM_ULE: return boolean(z3::ule(a, b));
    case MOSAIC_SYM_UGT: return boolean(z3::ugt(a, b));
    case MOSAIC_SYM_UGE: return boolean(z3::uge(a, b));
    case MOSAIC_SYM_SLT: return boolean(a < b);
    case MOSAIC_SYM_SLE: return boolean(a <= b);
    case MOSAIC_SYM_SGT: return boolean(a > b);
    default: return boolean(a >= b); // MOSAIC_SYM_SGE: readSymbolicTrace let no other through
    }
  }

  z3::context &z_;
  const SymbolicTrace &t_;
  std::vector<std::optional<z3::expr>> memo_;
};

// Ours: past this many answers the cache starts again (a run's distinct
// queries are far fewer; this bounds a long run's memory).
constexpr std::size_t kCacheEntries = 100000;

// The kept constraints of an unsatisfiable `query` in an unsat core with
// the flipped one: asked again, each kept constraint behind an assumption
// (only for unsatisfiable queries, so that the others cost nothing more).
// Empty when Z3 cannot tell (a timeout).
std::vector<std::size_t> unsatCore(z3::context &z, Terms &terms, const SymbolicTrace &trace, const Query &query,
                                   unsigned timeoutMs) {
  z3::solver s(z, "QF_BV");
  z3::params p(z);
  p.set("timeout", timeoutMs);
  s.set(p);
  z3::expr_vector assumptions(z);
  std::map<unsigned, std::size_t> byId;
  for (std::size_t i : query.keep) {
    const Constraint &c = trace.constraints[i];
    const bool want = i == query.flip ? !c.taken : c.taken;
    const z3::expr holds = terms.term(c.node) == z.bv_val(want ? 1 : 0, 1);
    if (i == query.flip) {
      s.add(holds);
      continue;
    }
    const z3::expr a = z.bool_const(("k" + std::to_string(i)).c_str());
    s.add(z3::implies(a, holds));
    assumptions.push_back(a);
    byId[a.id()] = i;
  }
  std::vector<std::size_t> core;
  if (s.check(assumptions) != z3::unsat) return core;
  const z3::expr_vector found = s.unsat_core();
  for (unsigned k = 0; k < found.size(); ++k)
    if (auto it = byId.find(found[k].id()); it != byId.end()) core.push_back(it->second);
  std::sort(core.begin(), core.end());
  return core;
}

} // namespace

Query flipQuery(const SymbolicTrace &trace, std::size_t flip) { return TraceQueries(trace).flip(flip); }

TraceQueries::TraceQueries(const SymbolicTrace &trace) : trace_(trace), slicer_(trace) {
  for (auto &t : texts_) t.resize(trace.constraints.size());
  for (auto &h : hashes_) h.resize(trace.constraints.size());
}

const std::string &TraceQueries::clause(std::size_t i, bool flipped) {
  std::optional<std::string> &text = texts_[flipped ? 1 : 0][i];
  if (!text) {
    Constraint c = trace_.constraints[i];
    if (flipped) c.taken = !c.taken;
    text = clauseText(trace_, c);
  }
  return *text;
}

Query TraceQueries::flip(std::size_t flip) {
  Query q;
  q.flip = flip;
  q.keep = slicer_.slice(flip);
  for (std::size_t i : q.keep) {
    std::optional<std::uint64_t> &h = hashes_[i == flip ? 1 : 0][i];
    if (!h) h = std::hash<std::string>{}(clause(i, i == flip));
    q.key.append(reinterpret_cast<const char *>(&*h), sizeof *h);
  }
  return q;
}

struct PathSolver::Impl {
  z3::context z;
  unsigned timeoutMs;
  bool cores;
};

PathSolver::PathSolver(unsigned timeoutMs, bool cores) : impl_(std::make_unique<Impl>()) {
  impl_->timeoutMs = timeoutMs;
  impl_->cores = cores;
}
PathSolver::~PathSolver() = default;

Answer PathSolver::solve(const SymbolicTrace &trace, const Query &query) {
  ++stats_.queries;
  if (auto hit = cache_.find(query.key); hit != cache_.end()) {
    ++stats_.cached;
    Answer a = hit->second;
    a.cached = true;
    return a;
  }
  const auto start = std::chrono::steady_clock::now();
  Answer answer;
  if (impl_->timeoutMs == 0) { // no time: undecided, as a timeout would leave it
    answer.why = "no time";
    ++stats_.unknown;
    return answer;
  }
  try {
    z3::context &z = impl_->z;
    Terms terms(z, trace);
    // QF_BV's tactic (simplify, bit-blast, SAT): measured on the fixtures'
    // traces, 2-13 ms a query where the general solver took 10-30 ms.
    z3::solver s(z, "QF_BV");
    z3::params p(z);
    p.set("timeout", impl_->timeoutMs);
    s.set(p);
    std::set<std::uint32_t> used;
    for (std::size_t i : query.keep) {
      const Constraint &c = trace.constraints[i];
      const bool want = i == query.flip ? !c.taken : c.taken;
      s.add(terms.term(c.node) == z.bv_val(want ? 1 : 0, 1));
      const std::set<std::uint32_t> in = inputsOf(trace, c.node);
      used.insert(in.begin(), in.end());
    }
    switch (s.check()) {
    case z3::sat: {
      answer.verdict = Verdict::Sat;
      const z3::model m = s.get_model();
      for (std::uint32_t in : used) {
        const z3::expr v = m.eval(terms.input(in), /*model_completion=*/true);
        answer.bytes[in] = static_cast<std::uint8_t>(v.get_numeral_uint());
      }
      ++stats_.sat;
      break;
    }
    case z3::unsat:
      answer.verdict = Verdict::Unsat;
      if (impl_->cores) answer.core = unsatCore(z, terms, trace, query, impl_->timeoutMs);
      ++stats_.unsat;
      break;
    default:
      answer.why = s.reason_unknown();
      ++stats_.unknown;
      break;
    }
  } catch (const z3::exception &e) {
    answer.verdict = Verdict::Unknown;
    answer.why = e.msg();
    ++stats_.unknown;
  }
  stats_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (cache_.size() >= kCacheEntries) cache_.clear();
  cache_.emplace(query.key, answer);
  return answer;
}

} // namespace mosaic::solver
