// What `mosaic run` found, printed and written as JSON.
#pragma once

#include "Session.h"
#include "mosaic/driver/Run.h"
#include "mosaic/exec/Outcome.h"
#include "mosaic/testcase/TestCase.h"

#include <array>
#include <iosfwd>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace mosaic::driver {

struct Crash {
  testcase::TestCase test;
  exec::RunResult result;
  std::string where; // the callable at the faulting statement
  std::string output;
  std::uint64_t count = 0;
  bool reproducible = true; // in a fresh process of its own
};

struct RunResults {
  const RunOptions &options;
  const model::Program &program;
  const model::UnitDescription &description;
  const Coverage &coverage;
  std::uint64_t executions = 0;
  double elapsed = 0;
  const std::array<std::uint64_t, exec::kOutcomeCount> &outcomes;
  const std::map<std::string, Crash> &crashes; ///< by crashKey()
  const std::vector<std::pair<testcase::TestCase, int>> &harnessErrors; ///< with the invalid statement
  const std::vector<std::pair<std::string, std::string>> &notCallable;
};

void printResults(const RunResults &r, std::ostream &out);
void writeResults(const RunResults &r, const Session &session, const std::string &path);

} // namespace mosaic::driver
