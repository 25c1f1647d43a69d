// The eight criteria measured on a suite (MeasureCriteria.h).
#include "MeasureCriteria.h"

#include "mosaic/search/Criteria.h"
#include "mosaic/search/Goals.h"
#include "mosaic/search/Search.h"

#include <fmt/format.h>

namespace mosaic::driver {

std::vector<MeasuredCriterion> measureCriteria(Session &session, exec::Limits limits,
                                               const std::vector<const testcase::TestCase *> &tests) {
  // "all" is always a valid selection: makeCriteria fails only on names.
  auto criteria = search::makeCriteria({"all"});
  const search::Goals goals(session.description, std::move(*criteria), {&session.program, session.targets});
  limits.persistent = false;
  ServerExecutor runs(*session.server, limits, {.outputs = goals.needsOutputs()});
  std::vector<bool> covered(goals.size(), false);
  for (const testcase::TestCase *t : tests) {
    auto e = runs.run(*t);
    if (!e) continue;
    goals.discover(*e); // exception goals: found by the run that covers them
    covered.resize(goals.size(), false);
    for (size_t g : goals.coveredBy(*e)) covered[g] = true;
  }
  // Named, not pointed to: the criteria die with `goals`.
  std::vector<MeasuredCriterion> out;
  for (const search::CriterionCoverage &c : search::coverageByCriterion(goals, covered))
    out.push_back({std::string(c.criterion->name()), c.covered, c.total});
  return out;
}

std::string measuredSummary(const std::vector<MeasuredCriterion> &measured) {
  std::string out;
  for (const MeasuredCriterion &m : measured)
    out += fmt::format("{}{} {}/{} ({:.1f}%)", out.empty() ? "" : ", ", m.name, m.covered, m.total,
                       m.total ? 100.0 * static_cast<double>(m.covered) / static_cast<double>(m.total) : 100.0);
  return out;
}

} // namespace mosaic::driver
