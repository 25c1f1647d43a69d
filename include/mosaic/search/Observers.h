// Evaluation observers every subcommand shares: coverage over time, the
// count of each outcome, and the dynamic constant pool. (Failure recording
// is in lib/stages, progress lines in the driver.)
#pragma once

#include "mosaic/exec/Outcome.h"
#include "mosaic/search/Search.h"
#include "mosaic/testcase/ConstantPool.h"

#include <array>
#include <cstdint>
#include <vector>

namespace mosaic::search {

/// Goals covered over time: a sample a second of the search, one at its
/// end, and when each goal was first covered.
class CoverageTimeline final : public EvaluationObserver {
public:
  struct Sample {
    double seconds = 0;
    std::uint64_t executions = 0;
    size_t covered = 0;
    /// So far: the statements of the tests run, and the seconds the fork
    /// server took to run them (what explains a rate that falls: longer
    /// tests, or slower ones, rather than the search's own work).
    std::uint64_t statements = 0;
    double testSeconds = 0;
  };
  explicit CoverageTimeline(size_t goals) : firstCovered_(goals, -1.0) {}
  void evaluated(const Evaluator &evaluator, const Evaluation &evaluation) override;
  void finished(const Evaluator &evaluator) override;

  const std::vector<Sample> &samples() const { return samples_; }
  /// Per goal: seconds into the search when it was first covered; -1: never.
  const std::vector<double> &firstCovered() const { return firstCovered_; }

private:
  std::vector<Sample> samples_;
  std::vector<double> firstCovered_;
  size_t coveredSeen_ = 0;
  double nextSample_ = 0;
  std::uint64_t statements_ = 0, testMicros_ = 0;
};

/// How many runs ended in each outcome (search and later stages alike),
/// how many of them needed a newly forked child, and how many crashes a
/// persistent child went on past (what a run costs: issue 24).
class OutcomeCounter final : public EvaluationObserver {
public:
  void evaluated(const Evaluator &, const Evaluation &evaluation) override {
    ++counts_[static_cast<size_t>(evaluation.run.outcome())];
    micros_[static_cast<size_t>(evaluation.run.outcome())] += evaluation.run.result.durationUs;
    forks_ += evaluation.run.result.fresh ? 1u : 0u;
    recovered_ += evaluation.run.result.recovered ? 1u : 0u;
  }
  const std::array<std::uint64_t, exec::kOutcomeCount> &counts() const { return counts_; }
  /// Wall-clock microseconds the runs of each outcome took in the fork
  /// server (a fork included where one was needed).
  const std::array<std::uint64_t, exec::kOutcomeCount> &micros() const { return micros_; }
  std::uint64_t forks() const { return forks_; }
  std::uint64_t recovered() const { return recovered_; }

private:
  std::array<std::uint64_t, exec::kOutcomeCount> counts_{}, micros_{};
  std::uint64_t forks_ = 0, recovered_ = 0;
};

/// Feeds what the unit compared its inputs with into the dynamic pool
/// (ALGORITHMS.md §1.6, EvoSuite's dynamic constant seeding). Operands
/// equal to a value the test itself supplied are left out (the input side).
class DynamicPoolFeeder final : public EvaluationObserver {
public:
  explicit DynamicPoolFeeder(testcase::ConstantPool &pool) : pool_(pool) {}
  void evaluated(const Evaluator &, const Evaluation &evaluation) override;

private:
  testcase::ConstantPool &pool_;
};

/// The harvest itself, for one trace.
void harvest(const exec::Trace &trace, testcase::ConstantPool &pool, const testcase::TestCase *test = nullptr);

} // namespace mosaic::search
