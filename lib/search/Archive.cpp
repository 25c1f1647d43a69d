// The archive of covering tests.
#include "mosaic/search/Archive.h"

#include <unordered_set>

namespace mosaic::search {

bool Archive::better(size_t goal, const Scored &candidate, const Scored &current) const {
  if (current.run.erroneous() != candidate.run.erroneous()) return current.run.erroneous();
  return secondary_.compare(goal, candidate, current) < 0;
}

std::vector<size_t> Archive::update(const std::shared_ptr<const testcase::TestCase> &test,
                                    const std::shared_ptr<const Execution> &run, const std::vector<size_t> &covered) {
  std::vector<size_t> fresh;
  for (size_t g : covered) {
    if (g >= best_.size()) continue;
    Solution &s = best_[g];
    if (!s.test) {
      solutions_.reset();
      s = {test, run};
      ++count_;
      erroneous_ += run->erroneous();
      fresh.push_back(g);
    } else if (better(g, {*test, *run}, {*s.test, *s.run})) {
      solutions_.reset();
      erroneous_ -= s.run->erroneous();
      s = {test, run};
      erroneous_ += run->erroneous();
    }
  }
  return fresh;
}

const std::vector<Solution> &Archive::solutions() const {
  if (solutions_) return *solutions_;
  std::vector<Solution> out;
  std::unordered_set<const testcase::TestCase *> seen;
  // A test is often the best for goals next to each other (a function's
  // lines and branches): the set is asked only when the test changes.
  const testcase::TestCase *last = nullptr;
  for (const Solution &s : best_) {
    if (!s.test || s.test.get() == last) continue;
    last = s.test.get();
    if (seen.insert(last).second) out.push_back(s);
  }
  return solutions_.emplace(std::move(out));
}

} // namespace mosaic::search
