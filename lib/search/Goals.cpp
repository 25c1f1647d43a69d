// Goals of every criterion and DynaMOSA's goal graph.
#include "mosaic/search/Goals.h"

#include <algorithm>
#include <set>

namespace mosaic::search {

namespace {

CriterionList orDefault(CriterionList criteria) {
  if (!criteria.empty()) return criteria;
  auto made = makeCriteria(defaultCriteria());
  return std::move(*made);
}

} // namespace

std::vector<bool> entryPoints(const model::UnitDescription &d, const Targets &targets) {
  if (!targets.program) return {};
  std::set<std::string> called;
  for (model::CallableId id : targets.callables)
    for (const std::string &name : targets.program->callable(id).linkageNames) called.insert(name);
  std::vector<bool> out(d.functions.size(), false);
  for (size_t fi = 0; fi < d.functions.size(); ++fi) out[fi] = called.count(d.functions[fi].linkageName) > 0;
  return out;
}

Goals::Goals(const model::UnitDescription &d, CriterionList criteria, const Targets &targets)
    : reach_(d, entryPoints(d, targets)), criteria_(orDefault(std::move(criteria))), targets_(targets) {
  dependents_.assign(d.sides, {});
  sideGoal_.assign(d.sides, SIZE_MAX);
  // Per block: which goals hang off it (released when it may be reached).
  std::vector<std::vector<size_t>> goalsOfBlock(d.blocks);
  std::vector<bool> isInitial;
  functionGoals_.assign(d.functions.size(), {0, 0});
  for (std::uint32_t fi = 0; fi < d.functions.size(); ++fi) {
    functionGoals_[fi].first = goals_.size();
    for (const auto &criterion : criteria_) {
      const size_t first = goals_.size();
      criterion->goals(fi, reach_, goals_);
      for (size_t g = first; g < goals_.size(); ++g) {
        goals_[g].criterion = criterion.get();
        isInitial.push_back(goals_[g].initial);
        // The branch criterion's goal stands for a side; a direct branch
        // goal on the same side only where there is none.
        if (goals_[g].side && *goals_[g].side < d.sides && sideGoal_[*goals_[g].side] == SIZE_MAX)
          sideGoal_[*goals_[g].side] = g;
        if (goals_[g].passive) { // kept, never sought: in no part of the goal graph
          ++passive_;
          continue;
        }
        if (goals_[g].initial) {
          initial_.push_back(g);
          continue;
        }
        for (std::uint32_t b : goals_[g].blocks)
          if (b < d.blocks) goalsOfBlock[b].push_back(g);
      }
    }
    functionGoals_[fi].second = goals_.size();
  }
  // Goals of what the tests call, after every function's.
  for (const auto &criterion : criteria_) {
    const size_t first = goals_.size();
    criterion->callableGoals(targets, reach_, goals_);
    for (size_t g = first; g < goals_.size(); ++g) {
      goals_[g].criterion = criterion.get();
      goals_[g].initial = true;
      isInitial.push_back(true);
      initial_.push_back(g);
    }
  }
  // A goal is current from the start when one of its blocks is reached
  // whenever its function is; otherwise it hangs off the branch sides its
  // blocks are control dependent on (BranchFitnessGraph in EvoSuite).
  for (std::uint32_t b = 0; b < d.blocks; ++b) {
    for (size_t g : goalsOfBlock[b]) {
      if (reach_.always(b)) {
        if (!isInitial[g]) initial_.push_back(g);
        isInitial[g] = true;
      } else if (const auto *deps = reach_.dependences(b)) {
        for (std::uint32_t s : *deps)
          if (s < d.sides && std::find(dependents_[s].begin(), dependents_[s].end(), g) == dependents_[s].end())
            dependents_[s].push_back(g);
      }
    }
  }
  std::sort(initial_.begin(), initial_.end());
  const size_t functionGoalsEnd = functionGoals_.empty() ? 0 : functionGoals_.back().second;
  goalEntry_.assign(functionGoalsEnd, d.blocks);
  goalFunction_.assign(functionGoalsEnd, 0);
  notCalled_.resize(functionGoalsEnd);
  for (std::uint32_t fi = 0; fi < functionGoals_.size(); ++fi)
    for (size_t g = functionGoals_[fi].first; g < functionGoals_[fi].second; ++g) {
      goalEntry_[g] = d.functions[fi].entry;
      goalFunction_[g] = fi;
    }
  for (size_t g = 0; g < functionGoalsEnd; ++g) notCalled_[g] = goals_[g].criterion->notCalled(goals_[g], reach_);
}

bool Goals::needsOutputs() const {
  return std::any_of(criteria_.begin(), criteria_.end(), [](const auto &c) { return c->needsOutputs(); });
}

bool Goals::needsDirectSides() const {
  return std::any_of(criteria_.begin(), criteria_.end(), [](const auto &c) { return c->needsDirectSides(); });
}

size_t Goals::count(const Criterion &criterion) const {
  return static_cast<size_t>(
      std::count_if(goals_.begin(), goals_.end(), [&](const Goal &g) { return g.criterion == &criterion; }));
}

size_t Goals::count(std::string_view name) const {
  return static_cast<size_t>(
      std::count_if(goals_.begin(), goals_.end(), [&](const Goal &g) { return g.criterion->name() == name; }));
}

const std::vector<size_t> &Goals::dependents(std::uint32_t side) const {
  static const std::vector<size_t> none;
  return side < dependents_.size() ? dependents_[side] : none;
}

size_t Goals::discover(const Execution &e) const {
  size_t added = 0;
  for (const auto &criterion : criteria_) {
    std::vector<Goal> found;
    criterion->discover(e, targets_, reach_, found);
    for (Goal &g : found) {
      if (!found_.insert({criterion.get(), g.label}).second) continue;
      g.criterion = criterion.get();
      goals_.push_back(std::move(g));
      ++added;
    }
  }
  return added;
}

std::vector<std::uint32_t> Goals::enteredFunctions(const Execution &e) const {
  std::vector<std::uint32_t> out;
  if (e.outcome() == exec::Outcome::Timeout) return out;
  const model::UnitDescription &d = reach_.description();
  for (std::uint32_t fi = 0; fi < d.functions.size(); ++fi) {
    if (ranEntry(d.functions[fi].entry, e)) out.push_back(fi);
  }
  return out;
}

std::vector<size_t> Goals::coveredBy(const Execution &e) const {
  std::vector<size_t> out;
  const model::UnitDescription &d = reach_.description();
  // A function's goals only where the run entered it (Criterion::goals'
  // contract): a run enters a few of a unit's hundreds of functions, and
  // this runs once per execution over every goal. (A run without block
  // coverage, as some tests build, is asked about every goal.)
  for (std::uint32_t fi = 0; fi < functionGoals_.size(); ++fi) {
    const auto [first, last] = functionGoals_[fi];
    if (!ranEntry(d.functions[fi].entry, e)) continue;
    for (size_t g = first; g < last; ++g)
      if (covered(g, e)) out.push_back(g);
  }
  for (size_t g = functionGoals_.empty() ? 0 : functionGoals_.back().second; g < goals_.size(); ++g)
    if (covered(g, e)) out.push_back(g);
  return out;
}

} // namespace mosaic::search
