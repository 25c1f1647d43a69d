// Goals and their fitness.
#include "mosaic/search/Goals.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <queue>

namespace mosaic::search {

const char *toString(GoalKind kind) {
  switch (kind) {
  case GoalKind::Branch: return "branch";
  case GoalKind::Line: return "line";
  case GoalKind::Function: return "function";
  }
  return "?";
}

namespace {

// Whether every path from the entry to a return passes through `block`:
// then the block runs whenever the function does (it post-dominates the
// entry, i.e. it is control dependent on the entry alone).
bool postDominatesEntry(const model::FunctionInfo &f, std::uint32_t block,
                        const std::map<std::uint32_t, const model::BlockInfo *> &byId) {
  if (block == f.entry) return true;
  std::vector<std::uint32_t> stack{f.entry};
  std::vector<std::uint32_t> seen{f.entry};
  while (!stack.empty()) {
    const std::uint32_t b = stack.back();
    stack.pop_back();
    auto it = byId.find(b);
    if (it == byId.end()) continue;
    if (it->second->successors.empty()) return false; // reached a return without passing `block`
    for (std::uint32_t s : it->second->successors) {
      if (s == block || std::find(seen.begin(), seen.end(), s) != seen.end()) continue;
      seen.push_back(s);
      stack.push_back(s);
    }
  }
  return true;
}

std::string sideName(const model::BranchInfo &b, size_t k) {
  const model::SideInfo &s = b.sides[k];
  if (!b.isSwitch) return k == 0 ? "true" : "false";
  if (s.isDefault) return "default";
  return "case " + std::to_string(s.value.value_or(0));
}

} // namespace

Goals::Goals(const model::UnitDescription &d, Criteria criteria) : d_(d) {
  blockFunction_.assign(d.blocks, 0);
  blockDeps_.assign(d.blocks, nullptr);
  always_.assign(d.blocks, false);
  sideBlock_.assign(d.sides, 0);
  sideGoal_.assign(d.sides, SIZE_MAX);
  dependents_.assign(d.sides, {});
  functionBlocks_.assign(d.functions.size(), {});
  blockDependents_.assign(d.blocks, {});
  const std::string file = std::filesystem::path(d.unit).filename().string();

  // Per block: which goals hang off it (released when it may be reached).
  std::vector<std::vector<size_t>> goalsOfBlock(d.blocks);
  for (std::uint32_t fi = 0; fi < d.functions.size(); ++fi) {
    const model::FunctionInfo &f = d.functions[fi];
    std::map<std::uint32_t, const model::BlockInfo *> byId;
    for (const model::BlockInfo &b : f.blocks) byId[b.id] = &b;
    for (const model::BlockInfo &b : f.blocks) {
      if (b.id >= d.blocks) continue;
      blockFunction_[b.id] = fi;
      functionBlocks_[fi].push_back(b.id);
      blockDeps_[b.id] = &b.deps;
      always_[b.id] = b.deps.empty() || postDominatesEntry(f, b.id, byId);
    }
    if (criteria.function) {
      Goal g{.kind = GoalKind::Function, .function = fi, .line = f.line, .blocks = {f.entry}};
      g.label = f.name + "()";
      initial_.push_back(goals_.size());
      goals_.push_back(std::move(g));
    }
    for (const model::BranchInfo &br : f.branches) {
      for (size_t k = 0; k < br.sides.size(); ++k) {
        const std::uint32_t side = br.sides[k].id;
        if (side >= d.sides) continue;
        sideBlock_[side] = br.block;
        if (!criteria.branch) continue;
        Goal g{.kind = GoalKind::Branch, .function = fi, .side = side, .line = br.line, .blocks = {br.block}};
        g.label = file + ":" + std::to_string(br.line) + (br.column ? ":" + std::to_string(br.column) : "") + " " +
                  sideName(br, k) + " (" + f.name + ")";
        sideGoal_[side] = goals_.size();
        if (br.block < d.blocks) goalsOfBlock[br.block].push_back(goals_.size());
        goals_.push_back(std::move(g));
      }
    }
    if (criteria.line) {
      std::map<std::uint32_t, std::vector<std::uint32_t>> blocksOfLine;
      for (const model::BlockInfo &b : f.blocks)
        for (std::uint32_t l : b.lines) blocksOfLine[l].push_back(b.id);
      for (auto &[line, blocks] : blocksOfLine) {
        Goal g{.kind = GoalKind::Line, .function = fi, .line = line, .blocks = blocks};
        g.label = file + ":" + std::to_string(line);
        for (std::uint32_t b : blocks)
          if (b < d.blocks) goalsOfBlock[b].push_back(goals_.size());
        goals_.push_back(std::move(g));
      }
    }
  }
  // A goal is current from the start when one of its blocks is reached
  // whenever its function is; otherwise it hangs off the branch sides its
  // blocks are control dependent on (BranchFitnessGraph in EvoSuite).
  std::vector<bool> isInitial(goals_.size(), false);
  for (size_t g : initial_) isInitial[g] = true;
  for (std::uint32_t b = 0; b < d.blocks; ++b) {
    for (size_t g : goalsOfBlock[b]) {
      if (always_[b]) {
        if (!isInitial[g]) initial_.push_back(g);
        isInitial[g] = true;
      } else if (blockDeps_[b]) {
        for (std::uint32_t s : *blockDeps_[b])
          if (s < d.sides && std::find(dependents_[s].begin(), dependents_[s].end(), g) == dependents_[s].end())
            dependents_[s].push_back(g);
      }
    }
  }
  std::sort(initial_.begin(), initial_.end());
  for (std::uint32_t b = 0; b < d.blocks; ++b)
    if (blockDeps_[b])
      for (std::uint32_t s : *blockDeps_[b])
        if (s < d.sides && sideBlock_[s] < d.blocks) blockDependents_[sideBlock_[s]].push_back(b);
}

size_t Goals::count(GoalKind kind) const {
  return static_cast<size_t>(std::count_if(goals_.begin(), goals_.end(), [&](const Goal &g) { return g.kind == kind; }));
}

const std::vector<size_t> &Goals::dependents(std::uint32_t side) const {
  static const std::vector<size_t> none;
  return side < dependents_.size() ? dependents_[side] : none;
}

size_t Goals::goalOfSide(std::uint32_t side) const { return side < sideGoal_.size() ? sideGoal_[side] : SIZE_MAX; }

double Goals::notCalled(size_t gi) const {
  const Goal &g = goals_[gi];
  return g.kind == GoalKind::Function ? 1.0 : d_.functions[g.function].diameter + 1.0;
}

bool Goals::covered(size_t gi, const Execution &e) const {
  const Goal &g = goals_[gi];
  switch (g.kind) {
  case GoalKind::Branch: return g.side < e.sides.size() && e.sides[g.side] == 1.0;
  case GoalKind::Line:
  case GoalKind::Function:
    for (std::uint32_t b : g.blocks)
      if (b < e.blocks.size() && e.blocks[b]) return true;
    return false;
  }
  return false;
}

std::vector<size_t> Goals::coveredBy(const Execution &e) const {
  std::vector<size_t> out;
  for (size_t g = 0; g < goals_.size(); ++g)
    if (covered(g, e)) out.push_back(g);
  return out;
}

// Approach level + ν(distance) for reaching `block` (0 when it ran).
double Goals::reach(std::uint32_t block, const Execution &e) const {
  if (block < e.blocks.size() && e.blocks[block]) return 0;
  const std::uint32_t fi = blockFunction_[block];
  const model::FunctionInfo &f = d_.functions[fi];
  if (f.entry >= e.blocks.size() || !e.blocks[f.entry]) return f.diameter + 1.0; // never called
  if (e.approach.size() != d_.blocks) e.approach.assign(d_.blocks, std::numeric_limits<double>::quiet_NaN());
  if (std::isnan(e.approach[block])) approachLevels(fi, e);
  return e.approach[block];
}

// Every block of a function that ran: the cheapest chain of control
// dependences from the block up to a decision the execution took, one level
// per link, plus ν(distance) at that decision (EvoSuite's approach level +
// branch distance). A block reached whenever its function is costs 2 (one
// level from the entry, the worst distance); one whose dependences lead to
// no decision that ran, the function's diameter + 2.
//
// Shortest paths from the decisions that ran (Dijkstra over the reversed
// control dependences), once per function and execution: following every
// chain separately, as a recursion does, is exponential in the number of
// dependences, and http_parser_execute's switch made one evaluation cost
// 0.4 s.
void Goals::approachLevels(std::uint32_t fi, const Execution &e) const {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  auto ran = [&](std::uint32_t b) { return b < e.blocks.size() && e.blocks[b]; };
  using Entry = std::pair<double, std::uint32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  for (std::uint32_t b : functionBlocks_[fi]) {
    if (ran(b)) {
      e.approach[b] = 0;
      continue;
    }
    double best = always_[b] ? 2.0 : kInf;
    if (blockDeps_[b])
      for (std::uint32_t s : *blockDeps_[b]) {
        if (s >= d_.sides) continue;
        if (s < e.sides.size() && e.sides[s] > 0) best = std::min(best, 1.0 + normalise(e.sides[s] - 1.0));
        else if (ran(sideBlock_[s])) best = std::min(best, 2.0); // the branch ran, its distance unrecorded
      }
    e.approach[b] = best;
    if (best < kInf) queue.emplace(best, b);
  }
  while (!queue.empty()) {
    const auto [cost, x] = queue.top();
    queue.pop();
    if (cost > e.approach[x]) continue;
    for (std::uint32_t b : blockDependents_[x])
      if (!ran(b) && cost + 1.0 < e.approach[b]) {
        e.approach[b] = cost + 1.0;
        queue.emplace(cost + 1.0, b);
      }
  }
  const double worst = d_.functions[fi].diameter + 2.0;
  for (std::uint32_t b : functionBlocks_[fi])
    if (std::isinf(e.approach[b])) e.approach[b] = worst;
}

double Goals::sideFitness(std::uint32_t side, const Execution &e) const {
  if (side < e.sides.size() && e.sides[side] > 0) return normalise(e.sides[side] - 1.0);
  const std::uint32_t block = sideBlock_[side];
  const double r = reach(block, e);
  // The branch ran but its distance was not recorded (it stopped on the
  // way): as far as possible while still at this level.
  return r == 0 ? 1.0 : r;
}

double Goals::fitness(size_t gi, const Execution &e) const {
  const Goal &g = goals_[gi];
  switch (g.kind) {
  case GoalKind::Branch: return sideFitness(g.side, e);
  case GoalKind::Line: {
    double best = std::numeric_limits<double>::infinity();
    for (std::uint32_t b : g.blocks) best = std::min(best, b < d_.blocks ? reach(b, e) : 1.0);
    return best;
  }
  case GoalKind::Function: return covered(gi, e) ? 0.0 : 1.0;
  }
  return 1.0;
}

} // namespace mosaic::search
