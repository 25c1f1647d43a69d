// Concolic execution beside the search (Hybrid.h).
#include "mosaic/concolic/Hybrid.h"

#include "mosaic/abi/Symbolic.h"
#include "mosaic/concolic/Inputs.h"
#include "mosaic/testcase/TestCase.h"

#include <algorithm>

namespace mosaic::concolic {

namespace {

// Ours: one turn of the concolic side lasts at least this long (a solver
// query or a symbolic run each take milliseconds), so that turns are few.
constexpr double kTurnSeconds = 0.05;
// Ours: with nothing to do (no archived test left to trace, no branch
// waiting), the side waits this long before it looks again.
constexpr double kIdleSeconds = 0.5;
// Ours: branches waiting for the solver at most; past it, no test is traced
// until some are solved (each holds its run's trace).
constexpr size_t kMaxWaiting = 2000;
// Ours: the share grows by a quarter after a turn that covered a goal the
// search was stuck at and shrinks by a twentieth after one that did not.
constexpr double kGrow = 1.25, kShrink = 0.95;
// Ours: the search is stuck at a side when its branch was reached this
// long ago and the side is still not taken. On http_parser.c the solver's
// tests covered 157-223 goals in 60 s, nearly all that the search covered
// within a second or two of reaching their branch (bench/results/
// concolic-2026-11-27): a share rewarded for those took time the search
// would have used better (-2.4 points).
constexpr double kStuckSeconds = 3.0;
// Ours: tests of the search traced per uncovered side whose branch they
// reached (different tests reach it with different inputs symbolic), and
// at most this many waiting to be traced.
constexpr int kReachedPerSide = 3, kMaxReachedPerSide = 16;
constexpr size_t kMaxReached = 64;
// Ours: flips offered per branch side in one trace. A loop's test recorded
// once per iteration: flipping a late iteration contradicts the earlier
// ones, which pin the same bytes (on cJSON.c most unsatisfiable queries were
// such: `i < length` flipped at the third iteration and on).
constexpr int kFlipsPerSidePerTrace = 2;
// Ours: of an unsatisfiable flip's unsat core, the constraints flipped in
// turn, the latest first (the nearest to the flip: a loop's last test).
constexpr size_t kRelaxPerUnsat = 2;
// Ours: undecided path conditions made goals, one per side, at most this
// many (each is a goal the search ranks its population by).
constexpr size_t kMaxUndecided = 64;
// Ours: with the budget counted in executions (--max-executions) the
// side's clock is work, not time, so that a seed and a number of
// executions make the same run on a loaded machine as on an idle one (as
// the GRT bloodhound's period does): a test of the search counts 50 us, a
// run in the symbolic harness 2 ms and a question to Z3 4 ms. Sources:
// bench/results/speed-2026-11-29c (DynaMOSA ran 6,000-23,000 tests a
// second on its seven units) and concolic-2026-11-27 (symbolic runs took
// 0.5-2.4 ms and Z3's queries 2-5 ms on average on http_parser.c,
// xmltok.c, xmlparse.c, tinyxml2.cpp and pugixml.cpp).
constexpr double kWorkPerTest = 50e-6, kWorkPerSymbolicRun = 2e-3, kWorkPerQuery = 4e-3;

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

} // namespace

Hybrid::Hybrid(const model::Program &program, const model::UnitDescription &description, exec::ForkServer &symbolic,
               exec::Limits limits, std::unique_ptr<Selection> selection, HybridOptions options)
    : program_(program), symbolic_(symbolic), limits_(limits), selection_(std::move(selection)), options_(options),
      solver_(options.solverTimeoutMs, options.approachFlips), rng_(options.seed), share_(options.startShare) {
  limits_.persistent = false; // shadow memory starts empty in a fresh child
  if (options_.approachFlips) detours_ = selection_->another();
  for (const model::FunctionInfo &f : description.functions) {
    std::map<std::uint32_t, const model::BlockInfo *> blocks;
    for (const model::BlockInfo &b : f.blocks) blocks[b.id] = &b;
    if (options_.dependences) {
      for (const model::BlockInfo &b : f.blocks) depsOfBlock_[b.id] = b.deps;
      for (const model::BranchInfo &b : f.branches)
        for (const model::SideInfo &s : b.sides) blockOfSide_[s.id] = b.block;
    }
    for (const model::BranchInfo &b : f.branches) {
      auto block = blocks.find(b.block);
      if (block != blocks.end())
        for (std::uint32_t dep : block->second->deps)
          for (const model::SideInfo &s : b.sides) leadsTo_[dep].push_back(s.id);
    }
    for (const model::BranchInfo &b : f.branches) {
      if (b.sides.empty()) continue;
      if (!b.isSwitch) {
        // br: the constraint names the true side; the false side is its complement.
        if (b.sides.size() != 2) continue;
        flipTo_[{b.sides[0].id, true}] = b.sides[0].id;
        flipTo_[{b.sides[0].id, false}] = b.sides[1].id;
        continue;
      }
      for (const model::SideInfo &s : b.sides)
        if (s.value) flipTo_[{s.id, true}] = s.id;
    }
  }
  stats_.share = share_;
}

bool Hybrid::counted(const search::Evaluator &evaluator) { return evaluator.budget().maxExecutions > 0; }

double Hybrid::clock(const search::Evaluator &evaluator) const {
  return counted(evaluator) ? static_cast<double>(evaluator.executions()) * kWorkPerTest : evaluator.budget().elapsed();
}

double Hybrid::work(const search::Evaluator &evaluator) const {
  const std::uint64_t asked = stats_.solver.queries - stats_.solver.cached;
  return static_cast<double>(stats_.symbolicRuns) * kWorkPerSymbolicRun + static_cast<double>(asked) * kWorkPerQuery +
         static_cast<double>(evaluator.executions()) * kWorkPerTest;
}

bool Hybrid::due(const search::Evaluator &evaluator) {
  const double elapsed = clock(evaluator);
  return elapsed >= idleUntil_ && spent_ < share_ * elapsed;
}

std::optional<std::uint32_t> Hybrid::sideOfFlip(const solver::Constraint &c, const search::Evaluator &evaluator) const {
  if (c.side == MOSAIC_SYM_NO_SIDE) return std::nullopt;
  // The side the flipped condition leads to.
  const auto target = flipTo_.find({c.side, !c.taken});
  if (target == flipTo_.end()) return std::nullopt;
  if (open(target->second, evaluator)) return target->second;
  return std::nullopt;
}

bool Hybrid::open(std::uint32_t side, const search::Evaluator &evaluator) const {
  auto it = goalsOfSide_.find(side);
  if (it == goalsOfSide_.end() || taken_.count(side)) return false;
  for (size_t g : it->second)
    if (!evaluator.archive().covered(g)) return true;
  return false;
}

bool Hybrid::approaches(const solver::Constraint &c, std::uint32_t toward) const {
  if (c.side == MOSAIC_SYM_NO_SIDE) return false;
  const auto target = flipTo_.find({c.side, !c.taken});
  if (target == flipTo_.end()) return false;
  const auto next = leadsTo_.find(target->second);
  return next != leadsTo_.end() && std::find(next->second.begin(), next->second.end(), toward) != next->second.end();
}

void Hybrid::offer(const testcase::TestCase &test, const search::Evaluator &evaluator,
                   std::optional<std::uint32_t> toward) {
  const double started = now();
  auto run = symbolic_.run(testcase::encode(test), limits_);
  ++stats_.symbolicRuns;
  if (!run) {
    stats_.runSeconds += now() - started;
    return;
  }
  auto read = solver::readSymbolicTrace(symbolic_.symbolic());
  const double offering = now();
  stats_.runSeconds += offering - started;
  struct Clock {
    double from, &total;
    ~Clock() { total += now() - from; }
  } clock{offering, stats_.offerSeconds};
  if (read) stats_.concretized += read->concretized;
  if (!read || read->constraints.empty()) return;
  ++stats_.pathConditions;
  auto trace = std::make_shared<const solver::SymbolicTrace>(std::move(*read));
  std::map<std::uint32_t, int> offeredPerSide;
  solver::TraceQueries queries(*trace);
  // Each constraint's clause hashed once per polarity, for every query of
  // the trace that keeps it.
  std::vector<std::optional<ClauseHash>> hashes[2];
  for (auto &h : hashes) h.resize(trace->constraints.size());
  for (size_t i = 0; i < trace->constraints.size(); ++i) {
    // Toward an uncovered side; in a test made past an unsatisfiable flip
    // toward `toward`, also toward a covered side `toward`'s branch depends
    // on (words.c: a record made longer has its xor made to match, and so
    // reaches `n > 6` again).
    auto side = sideOfFlip(trace->constraints[i], evaluator);
    const bool approach = !side && toward && open(*toward, evaluator) && approaches(trace->constraints[i], *toward);
    if (approach) side = toward;
    if (!side || ++offeredPerSide[*side] > kFlipsPerSidePerTrace) continue;
    solver::Query q = queries.flip(i);
    if (!seenQueries_.insert(q.key).second) continue;
    std::vector<ClauseHash> clauses;
    for (size_t k : q.keep) {
      std::optional<ClauseHash> &h = hashes[k == i ? 1 : 0][k];
      if (!h) h = ClauseHash::of(queries.clause(k, k == i));
      clauses.push_back(*h);
    }
    enqueue(approach ? *detours_ : *selection_,
            Waiting{test, trace, std::move(q), std::move(clauses), *side, approach});
    stats_.approachCandidates += approach;
  }
}

void Hybrid::enqueue(Selection &to, Waiting w) {
  Fingerprint fingerprint;
  for (const ClauseHash &h : w.clauses) fingerprint.add(h);
  const std::uint64_t id = nextId_++;
  to.add({id, fingerprint});
  waiting_.emplace(id, std::move(w));
  ++stats_.candidates;
}

void Hybrid::indexGoals(const search::Goals &goals) {
  if (indexed_) return;
  indexed_ = true;
  std::set<std::uint32_t> targets;
  for (const auto &[recorded, side] : flipTo_) targets.insert(side);
  for (size_t g = 0; g < goals.size(); ++g)
    if (goals[g].side && !goals[g].passive && targets.count(*goals[g].side)) goalsOfSide_[*goals[g].side].push_back(g);
  if (!options_.dependences) return;
  // A goal of no side: the sides its blocks (and its waypoints', in the
  // functions that lead to it) depend on, and the sides the blocks of their
  // branches depend on, up to each function's entry.
  for (size_t g = 0; g < goals.size(); ++g) {
    if (goals[g].side || goals[g].passive) continue;
    std::set<std::uint32_t> seenBlocks, sides;
    std::vector<std::uint32_t> work(goals[g].blocks.begin(), goals[g].blocks.end());
    work.insert(work.end(), goals[g].waypoints.begin(), goals[g].waypoints.end());
    while (!work.empty()) {
      const std::uint32_t block = work.back();
      work.pop_back();
      if (!seenBlocks.insert(block).second) continue;
      auto deps = depsOfBlock_.find(block);
      if (deps == depsOfBlock_.end()) continue;
      for (std::uint32_t side : deps->second) {
        if (!sides.insert(side).second) continue;
        if (auto b = blockOfSide_.find(side); b != blockOfSide_.end()) work.push_back(b->second);
      }
    }
    for (std::uint32_t side : sides)
      if (targets.count(side)) {
        goalsOfSide_[side].push_back(g);
        onTheWay_.insert(side);
      }
  }
}

std::size_t Hybrid::noteTaken(const search::Execution &run) {
  std::size_t fresh = 0;
  for (std::uint32_t side : onTheWay_)
    if (side < run.sides.size() && run.sides[side] == 1 && taken_.insert(side).second) ++fresh;
  return fresh;
}

bool Hybrid::stuck(std::uint32_t side, const search::Evaluator &evaluator) const {
  auto it = firstReached_.find(side);
  return it != firstReached_.end() && clock(evaluator) - it->second >= kStuckSeconds;
}

void Hybrid::evaluated(const search::Evaluator &evaluator, const search::Evaluation &evaluation) {
  if (!evaluation.searching) return;
  indexGoals(evaluator.goals());
  if (options_.dependences) noteTaken(evaluation.run);
  // A failed run's path condition holds up to its failure: worth tracing
  // on the way to a crash (dependences), not toward goals of the suite.
  if (evaluation.run.failed() && !options_.dependences) return;
  const std::vector<double> &sides = evaluation.run.sides;
  const double elapsed = clock(evaluator);
  // One pass over the uncovered sides whose branch the run reached: each
  // one's first reach is noted, and the test is kept to trace for the first
  // side that still takes tests.
  bool kept = reached_.size() >= kMaxReached;
  for (const auto &[side, goals] : goalsOfSide_) {
    if (side >= sides.size() || sides[side] == 0 ||
        (options_.dependences ? !open(side, evaluator) : evaluator.archive().covered(goals.front())))
      continue;
    firstReached_.try_emplace(side, elapsed);
    if (kept) continue;
    int &taken = reachedPerSide_[side];
    if (taken >= allowance_.try_emplace(side, kReachedPerSide).first->second) continue;
    ++taken;
    reached_.push_back(evaluation.test);
    kept = true;
  }
}

void Hybrid::collect(search::Evaluator &evaluator) {
  if (!relaxed_.empty()) {
    const auto [t, toward] = std::move(relaxed_.front());
    relaxed_.pop_front();
    offer(t, evaluator, toward);
    return;
  }
  if (!reached_.empty()) {
    const testcase::TestCase t = std::move(reached_.front());
    reached_.pop_front();
    offer(t, evaluator);
    return;
  }
  for (const search::Solution &s : evaluator.archive().solutions()) {
    if (!s.test || traced_.count(s.test.get())) continue;
    traced_.insert(s.test.get());
    keep_.push_back(s.test);
    offer(*s.test, evaluator);
    return;
  }
}

void Hybrid::solveOne(search::Evaluator &evaluator) {
  double started = now();
  Selection &from = selection_->waiting() > 0 || !detours_ ? *selection_ : *detours_;
  const auto id = from.next(rng_);
  stats_.selectSeconds += now() - started;
  if (!id) return;
  auto it = waiting_.find(*id);
  if (it == waiting_.end()) return;
  Waiting w = std::move(it->second);
  waiting_.erase(it);
  // Covered meanwhile: not worth a query.
  if (!open(w.side, evaluator)) return;
  const solver::Answer answer = solver_.solve(*w.trace, w.query);
  stats_.solver = solver_.stats();
  if (answer.verdict != solver::Verdict::Sat) {
    int &allowed = allowance_.try_emplace(w.side, kReachedPerSide).first->second;
    allowed = std::min(kMaxReachedPerSide, allowed + 1);
  }
  if (answer.verdict == solver::Verdict::Unsat && options_.approachFlips && !w.relax) relax(w, answer);
  if (answer.verdict == solver::Verdict::Unknown) {
    // Its goal's fitness reads tests shaped like this one: the search
    // gets it to start from. (Not an approach flip's: its path condition
    // leads to a covered side, not to the goal's.)
    if (!w.approach && undecided(w, evaluator.goals()))
      if (auto run = evaluator.evaluate(w.test)) evaluator.propose(w.test, std::move(run));
    return;
  }
  started = now();
  from.learn(w.clauses, answer.verdict == solver::Verdict::Sat);
  stats_.selectSeconds += now() - started;
  if (answer.verdict != solver::Verdict::Sat) return;
  testcase::TestCase next = w.test;
  applyAnswer(program_, next, *w.trace, answer);
  started = now();
  const std::size_t takenBefore = taken_.size();
  auto run = evaluator.evaluate(next);
  stats_.evaluateSeconds += now() - started;
  if (run && options_.dependences) {
    noteTaken(*run);
    const std::size_t fresh = taken_.size() - takenBefore;
    stats_.newSides += fresh;
    if (stuck(w.side, evaluator)) stats_.stuckSides += fresh;
  }
  if (run && w.relax && evaluator.newlyCovered().empty()) relaxed_.emplace_back(next, w.side);
  if (run) {
    ++stats_.solverTests;
    stats_.newGoals += evaluator.newlyCovered().size();
    if (stuck(w.side, evaluator)) stats_.stuckGoals += evaluator.newlyCovered().size();
    evaluator.propose(std::move(next), std::move(run)); // into the population (seed 004's hybrid)
  }
}

void Hybrid::relax(const Waiting &w, const solver::Answer &answer) {
  solver::TraceQueries queries(*w.trace);
  size_t offered = 0;
  for (auto j = answer.core.rbegin(); j != answer.core.rend() && offered < kRelaxPerUnsat; ++j) {
    solver::Query q = queries.flip(*j);
    if (!seenQueries_.insert(q.key).second) continue;
    std::vector<ClauseHash> clauses;
    for (size_t k : q.keep) clauses.push_back(ClauseHash::of(queries.clause(k, k == *j)));
    enqueue(*detours_, Waiting{w.test, w.trace, std::move(q), std::move(clauses), w.side, true, true});
    ++stats_.relaxCandidates;
    ++offered;
  }
}

bool Hybrid::undecided(const Waiting &w, const search::Goals &goals) {
  if (!undecided_ || undecided_->size() >= kMaxUndecided || undecidedSides_.count(w.side)) return false;
  auto it = goalsOfSide_.find(w.side);
  if (it == goalsOfSide_.end() || it->second.empty()) return false;
  UndecidedPath p = undecidedPath(*w.trace, w.query.keep, w.query.flip, w.test);
  // A condition on a call's result the run fixed: the search cannot move
  // it by changing the test's values (a later test may pass a literal).
  for (const solver::InputByte &in : p.inputs)
    if (in.kind == MOSAIC_SYM_IN_RESULT) return false;
  undecidedSides_.insert(w.side);
  const search::Goal &g = goals[it->second.front()];
  p.side = w.side;
  p.function = g.function;
  p.line = g.line;
  p.label = "path condition " + std::to_string(undecided_->size() + 1) + " to " + g.label;
  undecided_->add(std::move(p));
  ++stats_.undecided;
  return true;
}

void Hybrid::run(search::Evaluator &evaluator) {
  indexGoals(evaluator.goals());
  const double start = now(), startWork = work(evaluator);
  const bool counted = Hybrid::counted(evaluator);
  auto turn = [&] { return counted ? work(evaluator) - startWork : now() - start; };
  const std::uint64_t before = stats_.stuckGoals + stats_.stuckSides;
  bool idle = false;
  while (!evaluator.done() && turn() < kTurnSeconds) {
    if (selection_->waiting() == 0 || (waiting_.size() < kMaxWaiting && rng_.chance(0.5))) {
      const std::uint64_t runs = stats_.symbolicRuns;
      collect(evaluator);
      if (stats_.symbolicRuns == runs && waitingFlips() == 0) {
        idle = true;
        break;
      }
    }
    if (waitingFlips() > 0) solveOne(evaluator);
  }
  spent_ += turn();
  stats_.seconds += now() - start;
  if (idle) idleUntil_ = clock(evaluator) + kIdleSeconds;
  share_ = stats_.stuckGoals + stats_.stuckSides > before ? std::min(options_.maxShare, share_ * kGrow)
                                    : std::max(options_.minShare, share_ * kShrink);
  stats_.share = share_;
}

} // namespace mosaic::concolic
