// The algorithms behind makeAlgorithm (internal to lib/search).
#pragma once

#include "mosaic/search/Search.h"

namespace mosaic::search {

/// A test and its last run.
struct Individual {
  testcase::TestCase test;
  std::shared_ptr<const Execution> run;
};

std::unique_ptr<Algorithm> makeMosa(Evaluator &evaluator, Variation &variation, Rng &rng, const SearchOptions &options,
                                    bool dynamic);
std::unique_ptr<Algorithm> makeWholeSuite(Evaluator &evaluator, Variation &variation, Rng &rng,
                                          const SearchOptions &options);
std::unique_ptr<Algorithm> makeMio(Evaluator &evaluator, Variation &variation, Rng &rng, const SearchOptions &options);
std::unique_ptr<Algorithm> makeRandom(Evaluator &evaluator, Variation &variation);
std::unique_ptr<Algorithm> makeGrt(Evaluator &evaluator, Variation &variation, Rng &rng, const SearchOptions &options);

} // namespace mosaic::search
