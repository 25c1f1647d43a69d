// The search's Executor over the unit's fork server.
#pragma once

#include "mosaic/exec/ForkServer.h"
#include "mosaic/search/Execution.h"
#include "mosaic/stages/Stage.h"

#include <string>

namespace mosaic::driver {

/// Runs tests on a fork server under fixed limits.
class ServerExecutor final : public search::Executor {
public:
  ServerExecutor(exec::ForkServer &server, exec::Limits limits, search::ExecutorOptions options = {})
      : server_(server), limits_(limits), options_(options) {}
  std::optional<search::Execution> run(const testcase::TestCase &test) override;
  const exec::Trace *trace() const override { return &server_.trace(); }
  /// Why the last test that could not run did not ("" when all ran).
  const std::string &lastError() const { return lastError_; }

private:
  exec::ForkServer &server_;
  exec::Limits limits_;
  search::ExecutorOptions options_;
  std::string lastError_;
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
