// GrowBuffers: regression tests whose buffers given with no length were too
// small for the callee's contract, given larger ones (Stage.h).
#include "Keeps.h"
#include "mosaic/stages/Classify.h"

#include <string_view>

namespace mosaic::stages {

namespace {

class GrowBuffers final : public Stage {
public:
  std::string_view name() const override { return "grow-buffers"; }

  void run(Work &work, Context &c) override {
    if (!c.sanitized) return;
    for (Candidate &k : work.passing) {
      if (c.failureDeadline.passed()) return;
      auto r = c.sanitized->run(k.test);
      if (!r || r->outcome() != exec::Outcome::Sanitizer || !c.sanitized->trace() ||
          c.sanitized->trace()->output().find("AddressSanitizer") == std::string_view::npos)
        continue;
      const std::vector<UnsizedBuffer> buffers = unsizedBuffers(c.catalog, k.test, r->result);
      if (buffers.empty()) continue;
      for (size_t factor = 2; factor <= kGrowthLimit && !c.failureDeadline.passed(); factor *= 2) {
        testcase::TestCase grown = withGrownBuffers(k.test, buffers, factor);
        auto s = c.sanitized->run(grown);
        if (!s || s->outcome() != exec::Outcome::Ok || !keepsGoals(c, work, k, grown)) continue;
        k.test = std::move(grown);
        ++work.counts.grown;
        break;
      }
    }
  }
};

} // namespace

std::unique_ptr<Stage> growBuffers() { return std::make_unique<GrowBuffers>(); }

} // namespace mosaic::stages
