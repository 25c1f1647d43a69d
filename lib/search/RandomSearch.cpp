// Random testing: the baseline (a fresh random test each time; the archive
// keeps what covers).
#include "Algorithms.h"

namespace mosaic::search {

namespace {

class RandomSearch final : public Algorithm {
public:
  RandomSearch(Evaluator &e, Variation &v) : e_(e), v_(v) {}
  void run() override {
    std::vector<testcase::TestCase> tests;
    while (!e_.done()) {
      tests.clear();
      for (size_t i = 0; i < kEvaluationBatch; ++i) tests.push_back(v_.randomTest());
      e_.evaluateAll(tests);
    }
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
