// The search's Executor over the unit's fork server.
#pragma once

#include "mosaic/exec/ForkServer.h"
#include "mosaic/search/Execution.h"
#include "mosaic/stages/Stage.h"

#include <array>
#include <optional>
#include <string>

namespace mosaic::driver {

/// The CPU-time limit of a search's tests, calibrated from the tests that
/// ended normally, as AFL calibrates its timeout: a test that spins in a
/// loop costs the whole --timeout (1 s by default) where normal tests take
/// microseconds, and a search meets many (a corrupted list walked forever).
/// The limit is the ceiling (--timeout) until kWarmup tests ended normally,
/// then ten times the CPU time of the slowest of them, at least kFloorMs and
/// at most the ceiling. Only the search's runs use it: what the search saw
/// as a hang is confirmed, minimised and written under the ceiling.
class SearchTimeout {
public:
  /// AFL waits for its calibration runs, and takes 5x their mean, rounded
  /// up to a multiple of EXEC_TM_ROUND (20 ms, so at least 20 ms); ours is
  /// more cautious in what it measures (100 normal tests, 10x the slow end
  /// of them, kept up to date as tests grow). The floor is ours, 5 ms: AFL
  /// rounds because it times wall-clock time with a 20 ms timer, where the
  /// server reads the child's own CPU clock. The slowest normal test of a
  /// 5 s search was 0.33-3.1 ms on the seven bench/speed units (xmlparse.c
  /// 0.39-0.44 ms, http_parser.c 0.41, yajl_parser.c 0.33), so 5 ms is still
  /// 11x their slowest, and the misused internal functions that spin
  /// (xmlparse.c's entityValueProcessor, ~100 hangs in 10 s of random
  /// search) cost 5 ms each instead of 20: 16% of that search's time at
  /// 20 ms. (At 50 ms, cJSON.c's DynaMOSA spent 18 of its 60 s in hangs:
  /// bench/results/speed-2026-11-28b.)
  ///
  /// The slow end is the 99.9th percentile of the normal tests' CPU time
  /// (as the upper bound of its power-of-two bucket, at most the slowest),
  /// not the slowest: one normal test far above the rest (pugixml.cpp's
  /// DynaMOSA, mean 0.06 ms, met one of ~7 ms) set the limit of every later
  /// hang, 49 of which took 3.6 of a 20 s search. A test slower than ten
  /// times the 99.9th percentile ends as a timeout in the search, and a
  /// hang the search saw is confirmed under the full timeout before it is
  /// reported.
  static constexpr std::uint32_t kWarmup = 100, kFactor = 10, kFloorMs = 5;
  static constexpr double kQuantile = 0.999;

  explicit SearchTimeout(std::uint32_t ceilingMs) : ceilingMs_(ceilingMs) {}
  std::uint32_t limitMs() const;
  void observe(const exec::RunResult &r);

private:
  std::uint32_t ceilingMs_;
  std::uint32_t normal_ = 0;    // tests that ended normally with a known CPU time
  std::uint32_t slowestUs_ = 0; // the most CPU time one of them used
  std::array<std::uint32_t, 33> buckets_{}; // [k]: normal tests with CPU time in [2^(k-1), 2^k) us (k = bit width)
};

/// Runs tests on a fork server under fixed limits, or (`calibrated`) with
/// the CPU-time limit of a SearchTimeout whose ceiling is `limits`'.
class ServerExecutor final : public search::Executor {
public:
  ServerExecutor(exec::ForkServer &server, exec::Limits limits, search::ExecutorOptions options = {},
                 bool calibrated = false)
      : server_(server), limits_(limits), options_(options) {
    if (calibrated) timeout_.emplace(limits.timeoutMs);
  }
  std::optional<search::Execution> run(const testcase::TestCase &test) override;
  const exec::Trace *trace() const override { return &server_.trace(); }
  size_t batchCapacity() const override { return server_.batchCapacity(); }
  std::vector<std::optional<search::Execution>> runBatch(std::span<const testcase::TestCase *const> tests,
                                                         const search::BatchBounds &bounds) override;
  const exec::Trace *batchTrace(size_t i) const override { return &server_.trace(i); }
  /// The fork server runs the batch (ForkServer::startBatch) while mosaic
  /// reads the one before from the other bank of slots.
  void startBatch(std::span<const testcase::TestCase *const> tests, const search::BatchBounds &bounds) override;
  size_t waitBatch() override;
  std::vector<std::optional<search::Execution>> takeBatch() override;
  void releaseBatch() override { server_.releaseBatch(); }
  /// Why the last test that could not run did not ("" when all ran).
  const std::string &lastError() const { return lastError_; }
  /// The CPU-time limit the next test gets, in milliseconds.
  std::uint32_t timeoutMs() const { return timeout_ ? timeout_->limitMs() : limits_.timeoutMs; }

private:
  /// The Execution of `test` from its result and the trace it left.
  search::Execution collect(const testcase::TestCase &test, const exec::RunResult &r, const exec::Trace &trace);

  exec::ForkServer &server_;
  exec::Limits limits_;
  search::ExecutorOptions options_;
  /// The limits and bounds of a batch, as the fork server takes them.
  exec::Limits batchLimits() const;
  static exec::BatchBounds batchBounds(const search::BatchBounds &bounds);

  std::optional<SearchTimeout> timeout_;
  std::string lastError_;
  std::vector<const testcase::TestCase *> started_, waited_; ///< the started and the waited batch's tests
  Expected<std::vector<exec::RunResult>> results_ = std::vector<exec::RunResult>{}; ///< the waited batch's
};

/// Runs tests on the fork server of a harness built with mutant schemata,
/// one mutant switched on per run (stages::MutantRunner).
class SchemataRunner final : public stages::MutantRunner {
public:
  SchemataRunner(exec::ForkServer &server, exec::Limits limits) : server_(server), limits_(limits) {}
  std::optional<search::Execution> run(const testcase::TestCase &test, std::optional<std::uint32_t> mutant,
                                       std::vector<std::uint32_t> *reached) override;

private:
  exec::ForkServer &server_;
  exec::Limits limits_;
};

} // namespace mosaic::driver
