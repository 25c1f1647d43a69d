// Extend: getters and releases appended to kept tests (Stage.h).
#include "Keeps.h"
#include "mosaic/testcase/Inspect.h"

namespace mosaic::stages {

namespace {

class Extend final : public Stage {
public:
  std::string_view name() const override { return "extend"; }

  void run(Work &work, Context &c) override {
    for (Candidate &k : work.passing) {
      if (c.deadline.passed()) break;
      std::vector<testcase::Statement> extra = testcase::inspectors(c.program, c.catalog, k.test);
      const size_t inspecting = extra.size();
      for (testcase::Statement &r : testcase::releases(c.program, c.catalog, k.test)) extra.push_back(std::move(r));
      if (extra.empty()) continue;
      k.appendedFrom = k.test.statements.size();
      testcase::TestCase all = k.test;
      all.statements.insert(all.statements.end(), extra.begin(), extra.end());
      if (keepsGoals(c, work, k, all)) {
        k.test = std::move(all);
        work.counts.inspectors += static_cast<int>(inspecting);
        work.counts.releases += static_cast<int>(extra.size() - inspecting);
        continue;
      }
      for (size_t i = 0; i < extra.size() && !c.deadline.passed(); ++i) {
        testcase::TestCase one = k.test;
        one.statements.push_back(extra[i]);
        if (!keepsGoals(c, work, k, one)) continue;
        k.test = std::move(one);
        (i < inspecting ? work.counts.inspectors : work.counts.releases) += 1;
      }
    }
  }
};

} // namespace

std::unique_ptr<Stage> extend() { return std::make_unique<Extend>(); }

} // namespace mosaic::stages
