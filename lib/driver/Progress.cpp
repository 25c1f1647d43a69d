// Progress lines and coverage summaries (Progress.h).
#include "Progress.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

namespace mosaic::driver {

std::string coverageSummary(const search::Goals &goals, const search::Archive &archive) {
  std::string out;
  for (const search::CriterionCoverage &c : search::coverageByCriterion(goals, archive))
    out += fmt::format("{}{} {}/{}", out.empty() ? "" : ", ", c.criterion->plural(), c.covered, c.total);
  return out;
}

std::string ProgressLine::line(const search::Evaluator &e) const {
  const double elapsed = e.budget().elapsed();
  return fmt::format("[{:5.1f}s/{:.0f}s] goals {}/{} ({}) | {} execs ({:.0f}/s) | failures {}", elapsed, budgetSeconds_,
                     e.archive().coveredCount(), e.goals().size(), coverageSummary(e.goals(), e.archive()),
                     e.executions(), elapsed > 0 ? e.executions() / elapsed : 0.0, failures_());
}

void ProgressLine::evaluated(const search::Evaluator &e, const search::Evaluation &ev) {
  if (!ev.searching) return;
  // Four lines a second on a terminal; one every 5 s in a log (ours).
  const auto interval = std::chrono::milliseconds(terminal_ ? 250 : 5000);
  if (std::chrono::steady_clock::now() - last_ <= interval) return;
  if (terminal_) fmt::print(err_, "\r{}\x1b[K", line(e));
  else fmt::print(err_, "{}\n", line(e));
  last_ = std::chrono::steady_clock::now();
}

void ProgressLine::finished(const search::Evaluator &e) {
  if (terminal_) fmt::print(err_, "\r{}\x1b[K\n", line(e));
  else fmt::print(err_, "{}\n", line(e));
}

} // namespace mosaic::driver
