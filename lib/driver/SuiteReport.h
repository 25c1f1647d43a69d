// Reading what building and running a written suite said (internal to the
// driver's verification): compiler errors mapped to the tests they are in,
// GoogleTest's JSON reports mapped to tests and assertions.
#pragma once

#include "mosaic/emit/Suite.h"
#include "mosaic/support/Process.h"

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace mosaic::driver {

/// What a round of building and running found wrong, by site.
struct Findings {
  std::set<std::pair<bool, size_t>> removeTests;                ///< (failing suite, index)
  std::set<std::tuple<size_t, int>> dropAssertions;             ///< (passing index, observation)
  std::set<size_t> disable;                                     ///< failing-suite tests to disable
  std::map<std::pair<bool, size_t>, std::string> compileErrors; ///< first compiler error per removed test
  std::map<size_t, std::string> runErrors;                      ///< why a passing-suite test was removed at run time
  /// A run of the passing suite that died: the test it died in (the
  /// caller decides whom to blame: DeathCause.h), the tests that started
  /// before it in that process, in order, and how it ended (howItDied).
  std::string died;
  std::vector<std::string> diedAfter;
  std::string diedHow;
};

/// The GoogleTest name of test `index` of the passing or failing suite ("?").
std::string testName(const emit::Suite &suite, bool failing, size_t index);

/// Maps the compiler's "file:line:col: error:" lines to the tests they are
/// in (removeTests, compileErrors); false when no error maps to a test.
bool compileFindings(const emit::Suite &suite, const std::string &output, Findings &f);
/// The first error the compiler reported in a header of the project (a
/// file under one of `projectFolders` that the suite did not write), its
/// line of output; "" when every error is in the tests or in a system
/// header (GoogleTest's templates report a test's ill-typed assertion there).
std::string firstErrorInProjectHeaders(const emit::Suite &suite, const std::string &output,
                                       const std::vector<std::string> &projectFolders);

/// Maps a run of a test binary to findings: from its GoogleTest JSON
/// `report` the failing tests (an assertion that failed is dropped; a test
/// failing elsewhere is removed; a failing-suite test that passed is
/// disabled) and, with `slowSeconds` > 0, passing tests slower than that;
/// without a report (the binary died), the test that was running, from its
/// output (a failing-suite test is disabled; for the passing suite, `died`
/// and the rest are set and nothing is removed). False when the binary did not run at all (no report, no test
/// started): there is nothing to conclude from it.
bool runFindings(const emit::Suite &suite, const std::string &report, const ProcessResult &run, bool failingSuite,
                 Findings &f, double slowSeconds = 0);

/// The tests of a GoogleTest JSON report (`--gtest_output=json`) that
/// passed but took longer than `seconds`, as `Suite.Test` with the seconds
/// each took; empty for a report that does not parse.
std::vector<std::pair<std::string, double>> slowTests(const std::string &report, double seconds);

} // namespace mosaic::driver
