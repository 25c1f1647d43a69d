// The GoogleTest writer: test cases with what their runs observed become a
// readable, standalone test suite (<unit>_test.cpp, <unit>_failing_test.cpp,
// a wrapper translation unit and a CMakeLists.txt).
#pragma once

#include "mosaic/exec/Outcome.h"
#include "mosaic/exec/Stack.h"
#include "mosaic/exec/Trace.h"
#include "mosaic/model/Program.h"
#include "mosaic/testcase/Catalog.h"
#include "mosaic/testcase/TestCase.h"

#include <map>
#include <string>
#include <vector>

namespace mosaic::emit {

/// One test to write.
struct SuiteTest {
  testcase::TestCase test;
  /// Values to assert on: those observed identically on every run.
  std::vector<exec::Observation> observations;
  /// Statements from this index on were appended to inspect the final state
  /// (const getters) or release what the test made: they do not name the
  /// test, and an inspector is written inside its assertion.
  size_t appendedFrom = static_cast<size_t>(-1);
  /// The statement whose C++ exception ended the test (EXPECT_THROW), or -1.
  int threwAt = -1;
  std::string exceptionType;
  /// What it covers (goal labels), for the comment above it.
  std::vector<std::string> covers;
  /// Failing tests: how the program failed and what it printed.
  exec::RunResult result;
  std::string report;
  /// Failing tests: what the test claims ("defect", "robustness" or
  /// "misuse": the GoogleTest suite it goes to) and why, in one line.
  std::string failureClass;
  std::string why;
  /// Failing tests: the stack in the project, innermost first, and the
  /// sanitizer's report of the same test when the plain run gave none.
  std::vector<exec::Frame> stack;
  std::string sanitizerReport;
  /// Failing tests `mosaic reproduce` wrote: the trace they reproduce, as
  /// comment lines (its file, kind and frames in the project).
  std::vector<std::string> origin;
  /// Failing tests `mosaic reproduce` wrote for a sanitizer's report: its
  /// class, which the death test expects in the output of a sanitized build
  /// ("heap-buffer-overflow"; UBSan's message with its numbers as the word
  /// N, "null pointer passed as argument N", where any number matches).
  std::string sanitizerClass;
  /// Observations the verification found unstable or wrong (indices).
  std::vector<bool> dropped;
  /// A failing test that did not fail as expected in the built suite:
  /// written disabled.
  bool disabled = false;
  /// Seconds into the search when every goal it is kept for was first
  /// covered (by it or by a test it replaced); for statistics only.
  double foundAt = 0;
};

/// How the project builds the unit (for the generated CMakeLists.txt).
struct ProjectSource {
  std::string file;                ///< absolute
  std::vector<std::string> flags;  ///< compile flags, paths absolute
};
struct UnitBuild {
  std::vector<std::string> flags;          ///< the unit's compile flags (no -c, -o, file), paths absolute
  std::vector<ProjectSource> project;      ///< other translation units the unit calls into
  std::vector<std::string> linkLibraries;  ///< e.g. m
  /// Where the suite finds the project once moved (emit/Portable.h): the
  /// project's folder and its build folder (the compile database's), and
  /// the folder the suite is written to, all absolute and canonical. An
  /// empty root writes absolute paths.
  std::string root, buildDir, suiteDir;
};

/// A suite's CMakeLists.txt (`cmakeText`), written in `fromDir`, with the
/// default places of the project and its build folder written again for
/// `toDir`, where the suite now is (`mosaic project --merge` copies
/// suites): both absolute. The text as it was when it has none.
std::string relocateSuite(const std::string &cmakeText, const std::string &fromDir, const std::string &toDir);

/// Where each written test and assertion is, to repair what fails.
struct Site {
  size_t test = 0;
  int observation = -1;   ///< -1: the test itself (its body, a declaration)
  bool failing = false;   ///< in the failing suite
};

struct File {
  std::string name;
  std::string text;
};

struct Suite {
  std::vector<File> files;
  /// Per file name, per line: what is written there.
  std::map<std::string, std::map<int, Site>> sites;
  /// "Suite.Name" -> the test.
  std::map<std::string, Site> tests;
  /// Tests not written, with why (a type a test cannot name, ...).
  std::vector<std::pair<Site, std::string>> unwritable;
  /// The regression tests' files (<stem>_test.cpp, then <stem>_test_2.cpp,
  /// ... when split) and the failing suite's (<stem>_failing_test.cpp, ...).
  std::vector<std::string> testFiles, failingFiles;
  std::string stem;                   ///< the unit's stem, e.g. "cJSON"
  /// The stem as an identifier: CMake targets are <ident>_test and
  /// <ident>_failing_test.
  std::string ident;
};

struct WriteOptions {
  std::string suiteName; ///< "" = <stem>Test
  /// Spell types by their canonical names rather than as written (used
  /// when the spelled names do not compile outside the unit).
  bool canonicalSpelling = false;
  /// A C unit whose headers do not compile as C++ (C that C++ rejects:
  /// libonig's `register` parameters, `enum SaveType` beside `typedef int
  /// SaveType`, a `struct re_registers` that glibc's <regex.h>, which
  /// GoogleTest includes, also defines): a test includes none of the
  /// project's headers and reaches every function and global object of the
  /// project through the wrapper, compiled as C. The project's records and
  /// enums are opaque to it (`void *`, `int`): a test that must build one
  /// is not written, and nothing is asserted through a pointer to one.
  /// Implies canonicalSpelling. Ignored for C++ units.
  bool throughWrapper = false;
  /// Tests per file before it is split (ours: a file a reader can scroll,
  /// and a translation unit that compiles in parallel with the others).
  size_t testsPerFile = 100;
  /// What the search covered, per criterion ("branches 73/76, outputs
  /// 30/41"), for the regression suite's header; "" writes none.
  std::string coverage;
};

/// Writes the suite. `passing` tests get regression assertions; `failing`
/// ones go to the failing suite as death tests (or disabled, for hangs and
/// sanitizer reports), each with its outcome and report in a comment.
Suite writeSuite(const model::Program &program, const testcase::Catalog &catalog, const std::vector<SuiteTest> &passing,
                 const std::vector<SuiteTest> &failing, const UnitBuild &build, const WriteOptions &options = {});

} // namespace mosaic::emit
