// How verification builds and runs a written suite: the real runner
// configures it with CMake, builds it with the toolchain's compilers and
// runs its GoogleTest binaries under a timeout; unit tests of the repair
// loop use a fake (no compiler, no process).
#pragma once

#include "Verify.h"
#include "mosaic/emit/Suite.h"
#include "mosaic/support/Expected.h"
#include "mosaic/support/Process.h"

#include <memory>
#include <string>
#include <vector>

namespace mosaic::driver {

/// A build or a run of a suite in `directory`: in a process group of its
/// own, killed when it ends (what a test started ends with it) or when
/// `stop` is set (Ctrl-C).
ProcessOptions containedRun(std::string directory, const volatile std::sig_atomic_t *stop);
/// A run of a suite's tests, code nobody vetted: contained, and in a PID
/// namespace and a pids cgroup of `maxProcesses`, as the search's fork
/// server, with a TMPDIR of its own under `directory`, removed after the run.
ProcessOptions sandboxedRun(std::string directory, const volatile std::sig_atomic_t *stop, unsigned maxProcesses);

/// A build of the suite: whether it built, and the compiler's output.
struct SuiteBuild {
  bool ok = false;
  std::string output;
};

/// A run of one of the suite's test binaries.
struct SuiteRun {
  ProcessResult process;
  std::string report; ///< the GoogleTest JSON report it wrote; "" when none
};

class SuiteRunner {
public:
  virtual ~SuiteRunner() = default;
  /// Writes the suite's files and builds them (configuring once). An error
  /// when the build could not be set up at all (the configure output).
  virtual Expected<SuiteBuild> build(const emit::Suite &suite) = 0;
  /// Runs test binary `binary` (IDENT_test or IDENT_failing_test) with
  /// `gtestArgs`, ended after `seconds`, its JSON report under `reportName`.
  virtual Expected<SuiteRun> run(const std::string &binary, const std::vector<std::string> &gtestArgs,
                                 const std::string &seconds, const std::string &reportName) = 0;
  /// The unit's coverage by the passing suite's binary, whose tests are
  /// `tests` (each run alone when the whole binary fails in that build).
  virtual LlvmCoverage coverage(const std::string &binary, const std::vector<std::string> &tests) = 0;
  /// Builds test binary `binary` with AddressSanitizer and UBSan
  /// (-DMOSAIC_SANITIZE=ON, in OUT_DIR/build-sanitize; once) and runs it with
  /// `gtestArgs`, its reports symbolised, ended after `seconds`. An error
  /// when it could not be built (the build's output).
  virtual Expected<SuiteRun> runSanitized(const std::string &binary, const std::vector<std::string> &gtestArgs,
                                          const std::string &seconds) = 0;
};

/// The runner over OUT_DIR/build (and OUT_DIR/build-coverage) with the
/// toolchain of `options`.
std::unique_ptr<SuiteRunner> cmakeSuiteRunner(const model::Program &program, const VerifyOptions &options);

/// The repair loop of verifySuite over any runner (Verify.h).
VerifyResult verifyWith(SuiteRunner &runner, const model::Program &program, const testcase::Catalog &catalog,
                        std::vector<emit::SuiteTest> &passing, std::vector<emit::SuiteTest> &failing,
                        const emit::UnitBuild &build, const VerifyOptions &options, std::ostream &log);

} // namespace mosaic::driver
