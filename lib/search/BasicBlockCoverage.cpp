// The basic-block-coverage secondary objective (seed 003; ALGORITHMS.md
// §5.1, rebuilt from EvoSuite-BBC's BasicBlockCoverage and Botsing's
// BasicBlockUtility): between two tests equally fit for a line, branch or
// mutant goal, at least one of which failed or threw, prefer the one that
// ran more of the blocks on the way to the goal to their end. A block a
// test entered but did not finish (a call in it crashed, threw, exited)
// hides an implicit branch that fitness cannot see.
//
// Ours, for a trace of block entries: a block is fully covered when it ran
// and one of its successors ran, or it has none and ran; semi-covered when
// it ran and no successor did. The listing's first scenario compares the
// lines two tests covered inside the same semi-covered block; the trace
// shows it at the granularity of calls (abi/Trace.h: a block's byte is 1 +
// the calls of its last run that returned), so the test whose run got past
// more of the block's calls is better, and equal counts tie (the tie goes
// to the next objective). Usage and sleep are counted in the
// fraction of the budget used, so a run bounded by executions stays
// deterministic.
#include "mosaic/search/Secondary.h"

#include "mosaic/search/Goals.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <unordered_map>

namespace mosaic::search {

namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

std::uint64_t mix(std::uint64_t x) { // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

class BasicBlockCoverage final : public SecondaryObjective {
public:
  BasicBlockCoverage(const Goals &goals, std::unique_ptr<const SecondaryObjective> then, BbcOptions options)
      : goals_(goals), then_(std::move(then)), o_(std::move(options)) {
    const model::UnitDescription &d = goals.reach().description();
    block_.assign(d.blocks, nullptr);
    function_.assign(d.blocks, 0);
    for (std::uint32_t f = 0; f < d.functions.size(); ++f)
      for (const model::BlockInfo &b : d.functions[f].blocks)
        if (b.id < d.blocks) {
          block_[b.id] = &b;
          function_[b.id] = f;
        }
  }

  std::string_view name() const override { return "bbc"; }

  int compare(size_t goal, const Scored &a, const Scored &b) const override {
    if (const int r = bbc(goal, a.run, b.run); r != 0) return r;
    return then_->compare(goal, a, b);
  }

private:
  struct Collected {
    std::vector<std::uint32_t> full; ///< sorted
    std::uint32_t semi = kNone;      ///< the semi-covered block nearest to the goal's
  };

  bool active(size_t goal) const {
    const double used = o_.progress ? o_.progress() : 1.0;
    if (used <= o_.sleep) return false;
    // One draw per goal and hundredth of the budget: a sort or a scan
    // asks one question throughout (a draw per comparison would not be an
    // order), and over the run the goal uses BBC `usage` of the time.
    const auto window = static_cast<std::uint64_t>(used * 100);
    return mix(o_.seed ^ mix(goal * 131 + window)) % 100 < o_.usagePercent;
  }

  static bool failed(const Execution &e) { return e.outcome() != exec::Outcome::Ok || e.threw; }
  bool ran(std::uint32_t b, const Execution &e) const { return b < e.blocks.size() && e.blocks[b]; }
  /// 0: block `b` never ran; else 1 + the calls of its last run that returned.
  static int progress(std::uint32_t b, const Execution &e) { return b < e.blocks.size() ? e.blocks[b] : 0; }

  // Per block of the goal's function: its distance (in edges) to `target`,
  // kNone when it cannot reach it. Computed once per target block.
  const std::vector<std::uint32_t> &distances(std::uint32_t target) const {
    auto [it, fresh] = distances_.try_emplace(target);
    if (!fresh) return it->second;
    std::vector<std::uint32_t> &dist = it->second;
    dist.assign(block_.size(), kNone);
    const model::FunctionInfo &f = goals_.reach().description().functions[function_[target]];
    // Reverse edges within the function, then a breadth-first search from the target.
    std::vector<std::vector<std::uint32_t>> preds(block_.size());
    for (const model::BlockInfo &b : f.blocks)
      for (std::uint32_t s : b.successors)
        if (s < preds.size()) preds[s].push_back(b.id);
    std::deque<std::uint32_t> q{target};
    dist[target] = 0;
    while (!q.empty()) {
      const std::uint32_t x = q.front();
      q.pop_front();
      for (std::uint32_t p : preds[x])
        if (dist[p] == kNone) {
          dist[p] = dist[x] + 1;
          q.push_back(p);
        }
    }
    return dist;
  }

  // The listing's start: the nearest block up the control dependences of
  // the target whose branch `e` ran, else the function's entry.
  std::uint32_t start(std::uint32_t target, const Execution &e) const {
    const Reach &reach = goals_.reach();
    std::deque<std::uint32_t> q{target};
    std::vector<bool> seen(block_.size(), false);
    seen[target] = true;
    while (!q.empty()) {
      const std::uint32_t x = q.front();
      q.pop_front();
      if (const auto *deps = reach.dependences(x))
        for (std::uint32_t side : *deps) {
          const std::uint32_t branching = reach.sideBlock(side);
          if (branching >= seen.size() || seen[branching]) continue;
          if (ran(branching, e)) return branching;
          seen[branching] = true;
          q.push_back(branching);
        }
    }
    return goals_.reach().description().functions[function_[target]].entry;
  }

  Collected collect(std::uint32_t from, const std::vector<std::uint32_t> &dist, const Execution &e) const {
    Collected c;
    std::deque<std::uint32_t> q{from};
    std::vector<bool> seen(block_.size(), false);
    seen[from] = true;
    while (!q.empty()) {
      const std::uint32_t x = q.front();
      q.pop_front();
      if (!ran(x, e) || !block_[x]) continue;
      const auto &succ = block_[x]->successors;
      const bool full = succ.empty() || std::any_of(succ.begin(), succ.end(), [&](std::uint32_t s) { return ran(s, e); });
      if (!full) {
        if (c.semi == kNone || dist[x] < dist[c.semi] || (dist[x] == dist[c.semi] && x < c.semi)) c.semi = x;
        continue;
      }
      c.full.push_back(x);
      for (std::uint32_t s : succ)
        if (s < seen.size() && !seen[s] && dist[s] != kNone) {
          seen[s] = true;
          q.push_back(s);
        }
    }
    std::sort(c.full.begin(), c.full.end());
    return c;
  }

  static bool subset(const std::vector<std::uint32_t> &a, const std::vector<std::uint32_t> &b) {
    return std::includes(b.begin(), b.end(), a.begin(), a.end());
  }
  static bool contains(const std::vector<std::uint32_t> &v, std::uint32_t x) {
    return std::binary_search(v.begin(), v.end(), x);
  }

  // The listing's BBC(T1, T2): positive when T2 (b) is better.
  int bbc(size_t goal, const Execution &t1, const Execution &t2) const {
    const Goal &g = goals_[goal];
    const std::string_view criterion = g.criterion->name();
    if (criterion != "line" && criterion != "branch" && criterion != "wm") return 0;
    if (g.blocks.empty() || g.blocks.front() >= block_.size() || !block_[g.blocks.front()]) return 0;
    if (!failed(t1) && !failed(t2)) return 0;
    if (!active(goal)) return 0;
    const std::uint32_t target = g.blocks.front();
    if (ran(target, t1) && ran(target, t2)) return 0;
    const model::FunctionInfo &f = goals_.reach().description().functions[function_[target]];
    if (std::all_of(f.blocks.begin(), f.blocks.end(),
                    [&](const model::BlockInfo &b) { return progress(b.id, t1) == progress(b.id, t2); }))
      return 0;
    const std::vector<std::uint32_t> &dist = distances(target);
    const std::uint32_t from = start(target, t1);
    const Collected c1 = collect(from, dist, t1), c2 = collect(from, dist, t2);
    const bool nested = subset(c1.full, c2.full) || subset(c2.full, c1.full);
    if (nested && c1.semi == c2.semi && c1.semi != kNone) // scenario 1: how far into the same block
      return progress(c2.semi, t2) - progress(c1.semi, t1);
    const bool same = c1.semi == kNone && c2.semi == kNone && c1.full == c2.full;
    if (!same && ((subset(c1.full, c2.full) && (c1.semi == kNone || contains(c2.full, c1.semi))) ||
                  (subset(c2.full, c1.full) && (c2.semi == kNone || contains(c1.full, c2.semi)))))
      return static_cast<int>(c2.full.size()) - static_cast<int>(c1.full.size()); // scenario 2
    return 0;
  }

  const Goals &goals_;
  std::unique_ptr<const SecondaryObjective> then_;
  BbcOptions o_;
  std::vector<const model::BlockInfo *> block_; ///< per block id
  std::vector<std::uint32_t> function_;         ///< per block id
  mutable std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> distances_; ///< per target block
};

} // namespace

std::unique_ptr<const SecondaryObjective> basicBlockCoverage(const Goals &goals,
                                                             std::unique_ptr<const SecondaryObjective> then,
                                                             BbcOptions options) {
  return std::make_unique<BasicBlockCoverage>(goals, std::move(then), std::move(options));
}

double bbcSleep(double budgetSeconds) {
  const double sleep = budgetSeconds <= 60 ? 10 : budgetSeconds <= 300 ? 30 : 60;
  return budgetSeconds > 0 ? std::min(1.0, sleep / budgetSeconds) : 0;
}

} // namespace mosaic::search
