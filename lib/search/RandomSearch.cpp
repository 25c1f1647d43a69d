// Random testing: the baseline (a fresh random test each time; the archive
// keeps what covers).
#include "Algorithms.h"

namespace mosaic::search {

namespace {

class RandomSearch final : public Algorithm {
public:
  RandomSearch(Evaluator &e, Variation &v) : e_(e), v_(v) {}
  void run() override {
    while (!e_.done()) e_.evaluate(v_.randomTest());
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
