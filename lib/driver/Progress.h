// The live progress line of a search, and the per-criterion coverage
// summary that reports print: one text for `run` and `generate`.
#pragma once

#include "mosaic/search/Search.h"

#include <chrono>
#include <functional>
#include <iosfwd>
#include <string>

namespace mosaic::driver {

/// "functions 2/2, branches 14/16, lines 11/11": the archive's coverage per
/// criterion, in the criteria's order.
std::string coverageSummary(const search::Goals &goals, const search::Archive &archive);

/// Prints a progress line every 250 ms on a terminal (rewritten in place)
/// or every 5 s to a log, and a last one when the search ends.
class ProgressLine final : public search::EvaluationObserver {
public:
  ProgressLine(std::ostream &err, bool terminal, double budgetSeconds, std::function<size_t()> failures)
      : err_(err), terminal_(terminal), budgetSeconds_(budgetSeconds), failures_(std::move(failures)) {}
  void evaluated(const search::Evaluator &evaluator, const search::Evaluation &evaluation) override;
  void finished(const search::Evaluator &evaluator) override;

private:
  std::string line(const search::Evaluator &evaluator) const;

  std::ostream &err_;
  bool terminal_;
  double budgetSeconds_;
  std::function<size_t()> failures_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

} // namespace mosaic::driver
