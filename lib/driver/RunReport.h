// What `mosaic run` found, printed and written as JSON.
#pragma once

#include "Session.h"
#include "mosaic/driver/Run.h"
#include "mosaic/exec/Outcome.h"
#include "mosaic/search/Archive.h"
#include "mosaic/search/Goals.h"
#include "mosaic/stages/Stage.h"
#include "mosaic/testcase/TestCase.h"

#include <array>
#include <iosfwd>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace mosaic::driver {

struct RunResults {
  const RunOptions &options;
  const model::Program &program;
  const search::Goals &goals;
  const search::Archive &archive; ///< what the runs covered
  std::uint64_t executions = 0;
  double elapsed = 0;
  const std::array<std::uint64_t, exec::kOutcomeCount> &outcomes;
  const std::map<std::string, stages::Failure> &failures; ///< by stages::failureKey()
  const std::vector<std::pair<testcase::TestCase, int>> &harnessErrors; ///< with the invalid statement
  const std::vector<std::pair<std::string, std::string>> &notCallable;
};

void printResults(const RunResults &r, std::ostream &out);
void writeResults(const RunResults &r, const Session &session, const std::string &path);

} // namespace mosaic::driver
