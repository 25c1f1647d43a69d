// The CI outputs of `mosaic project`: JUnit XML of every unit's
// verification runs, for the test report views of CI systems.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace mosaic::driver {

/// OUT/junit.xml from each unit's (id, path in the project) GoogleTest
/// reports of its verification (OUT/units/<id>/build: the last run of the
/// passing suite, and the failing suite's run): a <testsuite> per unit and
/// suite, a <testcase> per test with its time, file and line; a test that
/// failed has a <failure> with GoogleTest's message, a disabled one is
/// <skipped>. The failing suite's death tests pass when the defect they
/// pin is still there. Units without reports (not verified) are left out.
/// Returns how many test cases were written.
std::size_t writeJUnit(const std::string &outDir, const std::vector<std::pair<std::string, std::string>> &units);

/// OUT/findings.sarif, SARIF 2.1.0 of the failures each unit's search
/// found and wrote as failing tests (OUT/results/<id>.json: likely defects
/// as errors, robustness failures as warnings; misuse of the API is not a
/// finding), each at its innermost frame in the project, with its stack,
/// so that code-scanning tools show it at its source line. Paths are
/// relative to `projectRoot` (the base PROJECT_ROOT). Returns the results
/// written.
std::size_t writeSarif(const std::string &outDir, const std::string &projectRoot,
                       const std::vector<std::pair<std::string, std::string>> &units);

/// `text` with XML's five special characters escaped, and control
/// characters XML 1.0 cannot hold replaced by '?'.
std::string xmlEscape(const std::string &text);

} // namespace mosaic::driver
