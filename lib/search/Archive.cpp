// The archive of covering tests.
#include "mosaic/search/Archive.h"

#include <set>

namespace mosaic::search {

bool Archive::better(const testcase::TestCase &candidate, const Execution &candidateRun,
                     const testcase::TestCase &current, const Execution &currentRun) {
  if (currentRun.erroneous() != candidateRun.erroneous()) return currentRun.erroneous();
  return candidate.statements.size() < current.statements.size();
}

std::vector<size_t> Archive::update(const std::shared_ptr<const testcase::TestCase> &test,
                                    const std::shared_ptr<const Execution> &run, const std::vector<size_t> &covered) {
  std::vector<size_t> fresh;
  for (size_t g : covered) {
    if (g >= best_.size()) continue;
    Solution &s = best_[g];
    if (!s.test) {
      s = {test, run};
      ++count_;
      fresh.push_back(g);
    } else if (better(*test, *run, *s.test, *s.run)) {
      s = {test, run};
    }
  }
  return fresh;
}

std::vector<Solution> Archive::solutions() const {
  std::vector<Solution> out;
  std::set<const testcase::TestCase *> seen;
  for (const Solution &s : best_)
    if (s.test && seen.insert(s.test.get()).second) out.push_back(s);
  return out;
}

} // namespace mosaic::search
