// Running a test on the fork server (Executors.h).
#include "Executors.h"

#include "mosaic/testcase/TestCase.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace mosaic::driver {

std::uint32_t SearchTimeout::limitMs() const {
  if (normal_ < kWarmup) return ceilingMs_;
  // The bucket of the kQuantile-th normal test; its upper bound, at most the slowest.
  const auto wanted = static_cast<std::uint64_t>(std::ceil(kQuantile * normal_));
  std::uint64_t seen = 0, slowUs = slowestUs_;
  for (size_t k = 0; k < buckets_.size(); ++k)
    if ((seen += buckets_[k]) >= wanted) {
      slowUs = std::min<std::uint64_t>(slowestUs_, (std::uint64_t{1} << k) - 1);
      break;
    }
  const std::uint64_t ms = (slowUs * kFactor + 999) / 1000;
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(ceilingMs_, std::max<std::uint64_t>(kFloorMs, ms)));
}

void SearchTimeout::observe(const exec::RunResult &r) {
  if (r.outcome != exec::Outcome::Ok || r.cpuUs == 0) return;
  ++normal_;
  slowestUs_ = std::max(slowestUs_, r.cpuUs);
  ++buckets_[std::bit_width(r.cpuUs)];
}

std::optional<search::Execution> ServerExecutor::run(const testcase::TestCase &test) {
  exec::Limits limits = limits_;
  if (timeout_) limits.timeoutMs = timeout_->limitMs();
  auto r = server_.run(testcase::encode(test), limits);
  if (!r) {
    lastError_ = r.error().message;
    return std::nullopt;
  }
  if (timeout_) timeout_->observe(*r);
  return collect(test, *r, server_.trace());
}

search::Execution ServerExecutor::collect(const testcase::TestCase &test, const exec::RunResult &r,
                                          const exec::Trace &trace) {
  search::Execution e = search::toExecution(r, trace, options_);
  search::noteStoppedCallable(e, test);
  if (options_.outputs) search::collectOutputs(e, test, options_.observations ? e.observations : trace.observations());
  return e;
}

exec::Limits ServerExecutor::batchLimits() const {
  exec::Limits limits = limits_;
  if (timeout_) limits.timeoutMs = timeout_->limitMs();
  return limits;
}

exec::BatchBounds ServerExecutor::batchBounds(const search::BatchBounds &bounds) {
  exec::BatchBounds within;
  within.stop = bounds.stop;
  if (bounds.deadline != std::chrono::steady_clock::time_point::max()) {
    const auto ms = std::chrono::ceil<std::chrono::milliseconds>(bounds.deadline - std::chrono::steady_clock::now()).count();
    within.deadlineMs = static_cast<std::uint32_t>(std::clamp<long long>(ms, 1, UINT32_MAX));
  }
  return within;
}

std::vector<std::optional<search::Execution>> ServerExecutor::runBatch(std::span<const testcase::TestCase *const> tests,
                                                                      const search::BatchBounds &bounds) {
  startBatch(tests, bounds);
  waitBatch();
  return takeBatch();
}

void ServerExecutor::startBatch(std::span<const testcase::TestCase *const> tests, const search::BatchBounds &bounds) {
  std::vector<std::vector<std::uint8_t>> inputs;
  inputs.reserve(tests.size());
  for (const testcase::TestCase *t : tests) inputs.push_back(testcase::encode(*t));
  started_.assign(tests.begin(), tests.end());
  server_.startBatch(inputs, batchLimits(), batchBounds(bounds));
}

size_t ServerExecutor::waitBatch() {
  results_ = server_.finishBatch();
  waited_ = std::exchange(started_, {});
  if (!results_) {
    lastError_ = results_.error().message;
    return waited_.size(); // each a test that could not run
  }
  if (timeout_)
    for (const exec::RunResult &r : *results_) timeout_->observe(r);
  return results_->size();
}

std::vector<std::optional<search::Execution>> ServerExecutor::takeBatch() {
  if (!results_) return std::vector<std::optional<search::Execution>>(waited_.size());
  std::vector<std::optional<search::Execution>> out(results_->size());
  for (size_t i = 0; i < results_->size(); ++i) out[i] = collect(*waited_[i], (*results_)[i], server_.trace(i));
  results_ = std::vector<exec::RunResult>{};
  return out;
}

std::optional<search::Execution> SchemataRunner::run(const testcase::TestCase &test, std::optional<std::uint32_t> mutant,
                                                     std::vector<std::uint32_t> *reached) {
  server_.setMutant(mutant);
  auto r = server_.run(testcase::encode(test), limits_);
  server_.setMutant(std::nullopt);
  if (!r) return std::nullopt;
  search::Execution e = search::toExecution(*r, server_.trace(), {.observations = true});
  search::noteStoppedCallable(e, test);
  if (reached) {
    reached->clear();
    const auto area = server_.trace().mutantArea();
    for (std::uint32_t m = 0; m < area.size(); ++m)
      if (area[m] != 0.0) reached->push_back(m);
  }
  return e;
}

} // namespace mosaic::driver
