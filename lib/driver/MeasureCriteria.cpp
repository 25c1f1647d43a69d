// The eight criteria measured on a suite (MeasureCriteria.h).
#include "MeasureCriteria.h"

#include "mosaic/search/Criteria.h"
#include "mosaic/search/Goals.h"

#include <fmt/format.h>

#include <algorithm>

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
  std::vector<MeasuredCriterion> out;
  for (const auto &c : goals.criteria()) out.push_back({std::string(c->name()), 0, 0});
  for (size_t g = 0; g < goals.size(); ++g) {
    auto at = std::find_if(out.begin(), out.end(),
                           [&](const MeasuredCriterion &m) { return m.name == goals[g].criterion->name(); });
    if (at == out.end()) continue;
    ++at->total;
    at->covered += covered[g];
  }
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
