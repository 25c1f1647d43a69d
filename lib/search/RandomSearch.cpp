// Random testing: the baseline (a fresh random test each time; the archive
// keeps what covers).
#include "Algorithms.h"

namespace mosaic::search {

namespace {

class RandomSearch final : public Algorithm {
public:
  RandomSearch(Evaluator &e, Variation &v) : e_(e), v_(v) {}
  // A batch of fresh tests at a time, made while the one before runs,
  // until the budget is spent.
  void run() override {
    e_.evaluateStream(
        [&] {
          std::vector<testcase::TestCase> tests;
          for (size_t i = 0; i < kEvaluationBatch; ++i) tests.push_back(v_.randomTest());
          return tests;
        },
        [](size_t, testcase::TestCase, std::shared_ptr<const Execution>) {});
  }

private:
  Evaluator &e_;
  Variation &v_;
};

} // namespace

std::unique_ptr<Algorithm> makeRandom(Evaluator &evaluator, Variation &variation) {
  return std::make_unique<RandomSearch>(evaluator, variation);
}

} // namespace mosaic::search
