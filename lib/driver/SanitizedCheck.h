// A reproduction of a sanitizer report, checked as its developer would run
// it: the written suite built with -DMOSAIC_SANITIZE=ON. The search's
// harness saw the report; this says whether the written test shows it.
#pragma once

#include "SuiteRunner.h"
#include "mosaic/crash/Trace.h"
#include "mosaic/exec/Stack.h"

#include <string>
#include <vector>

namespace mosaic::driver {

struct SanitizedCheck {
  std::string error;            ///< why it could not be checked ("" when it was)
  bool deathTestPasses = false; ///< the death test (EXPECT_DEATH on the report's kind) passes
  bool twinMatches = false;     ///< the regression twin dies with `kind` at `frames`, in order
  std::string twinKind;         ///< what the twin's report said; "" when it printed none
  std::vector<exec::Frame> twinFrames; ///< the twin's failing stack, innermost first
};

/// Builds and runs `failingBinary` (IDENT_failing_test, holding one death
/// test and its DISABLED_..._Regression twin) in the sanitized build: the
/// death test must pass, and the twin must print a report of `kind`
/// (any kind when its class is Unknown) whose stack holds `frames` in order
/// (crash::traceDistance 0).
SanitizedCheck checkSanitized(SuiteRunner &runner, const std::string &failingBinary, const crash::FailureKind &kind,
                              const std::vector<exec::Frame> &frames);

} // namespace mosaic::driver
