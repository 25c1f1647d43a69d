// Approach levels and branch distances over the unit's control dependences.
#include "mosaic/search/Reach.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace mosaic::search {

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

} // namespace

std::uint32_t Reach::functionOf(const std::vector<std::string> &linkageNames) const {
  for (std::uint32_t fi = 0; fi < d_.functions.size(); ++fi)
    for (const std::string &n : linkageNames)
      if (d_.functions[fi].linkageName == n) return fi;
  return 0;
}

Reach::Reach(const model::UnitDescription &d, std::vector<bool> entryPoints)
    : d_(d), entryPoints_(std::move(entryPoints)) {
  blockFunction_.assign(d.blocks, 0);
  blockLocal_.assign(d.blocks, 0);
  blockDeps_.assign(d.blocks, nullptr);
  always_.assign(d.blocks, false);
  sideBlock_.assign(d.sides, 0);
  functionBlocks_.assign(d.functions.size(), {});
  blockDependents_.assign(d.blocks, {});
  for (std::uint32_t fi = 0; fi < d.functions.size(); ++fi) {
    const model::FunctionInfo &f = d.functions[fi];
    std::map<std::uint32_t, const model::BlockInfo *> byId;
    for (const model::BlockInfo &b : f.blocks) byId[b.id] = &b;
    for (const model::BlockInfo &b : f.blocks) {
      if (b.id >= d.blocks) continue;
      blockFunction_[b.id] = fi;
      blockLocal_[b.id] = static_cast<std::uint32_t>(functionBlocks_[fi].size());
      functionBlocks_[fi].push_back(b.id);
      blockDeps_[b.id] = &b.deps;
      always_[b.id] = b.deps.empty() || postDominatesEntry(f, b.id, byId);
    }
    for (const model::BranchInfo &br : f.branches)
      for (const model::SideInfo &s : br.sides)
        if (s.id < d.sides) sideBlock_[s.id] = br.block;
  }
  for (std::uint32_t b = 0; b < d.blocks; ++b)
    if (blockDeps_[b])
      for (std::uint32_t s : *blockDeps_[b])
        if (s < d.sides && sideBlock_[s] < d.blocks) blockDependents_[sideBlock_[s]].push_back(b);
}

double Reach::block(std::uint32_t block, const Execution &e) const {
  if (ran(block, e)) return 0;
  const std::uint32_t fi = blockFunction_[block];
  const model::FunctionInfo &f = d_.functions[fi];
  if (!ran(f.entry, e)) return f.diameter + 1.0; // never called
  return approachLevels(fi, e)[blockLocal_[block]];
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
// 0.4 s. Every link costs exactly 1, so a priority queue is not needed:
// the starts sorted, and the blocks reached from them in a FIFO (each 1
// more than the one it came from, taken in order, so in order too), merged
// as two sorted queues (the heap took 30% of a DynaMOSA search's time on
// http_parser.c).
const std::vector<double> &Reach::approachLevels(std::uint32_t fi, const Execution &e) const {
  // The goals of one function are asked about one after the other: the
  // last memo first.
  for (size_t k = e.approach.size(); k-- > 0;)
    if (e.approach[k].first == fi) return e.approach[k].second;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  using Entry = std::pair<double, std::uint32_t>;
  const std::vector<std::uint32_t> &blocks = functionBlocks_[fi];
  std::vector<double> level(blocks.size(), kInf);
  auto at = [&](std::uint32_t b) -> double & { return level[blockLocal_[b]]; };
  std::vector<Entry> starts, reached;
  for (std::uint32_t b : blocks) {
    if (ran(b, e)) {
      at(b) = 0;
      continue;
    }
    double best = always_[b] ? 2.0 : kInf;
    if (blockDeps_[b])
      for (std::uint32_t s : *blockDeps_[b]) {
        if (s >= d_.sides) continue;
        if (s < e.sides.size() && e.sides[s] > 0) best = std::min(best, 1.0 + normalise(e.sides[s] - 1.0));
        else if (ran(sideBlock_[s], e)) best = std::min(best, 2.0); // the branch ran, its distance unrecorded
      }
    at(b) = best;
    if (best < kInf) starts.emplace_back(best, b);
  }
  std::sort(starts.begin(), starts.end());
  size_t nextStart = 0, nextReached = 0;
  while (nextStart < starts.size() || nextReached < reached.size()) {
    const bool fromStarts = nextReached == reached.size() ||
                            (nextStart < starts.size() && starts[nextStart].first <= reached[nextReached].first);
    const auto [cost, x] = fromStarts ? starts[nextStart++] : reached[nextReached++];
    if (cost > at(x)) continue;
    for (std::uint32_t b : blockDependents_[x])
      if (blockFunction_[b] == fi && !ran(b, e) && cost + 1.0 < at(b)) { // dependences stay within a function
        at(b) = cost + 1.0;
        reached.emplace_back(cost + 1.0, b);
      }
  }
  const double worst = d_.functions[fi].diameter + 2.0;
  for (double &v : level)
    if (std::isinf(v)) v = worst;
  e.approach.emplace_back(fi, std::move(level));
  return e.approach.back().second;
}

double Reach::side(std::uint32_t side, const Execution &e) const {
  if (side < e.sides.size() && e.sides[side] > 0) return normalise(e.sides[side] - 1.0);
  const double r = block(sideBlock_[side], e);
  // The branch ran but its distance was not recorded (it stopped on the
  // way): as far as possible while still at this level.
  return r == 0 ? 1.0 : r;
}

} // namespace mosaic::search
