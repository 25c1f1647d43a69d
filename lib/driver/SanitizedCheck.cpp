// The sanitized build's check of a written reproduction (SanitizedCheck.h).
#include "SanitizedCheck.h"

#include "mosaic/crash/Fitness.h"

namespace mosaic::driver {

namespace {

// Runs of the twin whose report has no frames before its stack is taken
// as empty: ASan prints "<empty stack>" for a stack overflow whose guard
// page is hit inside its own unwinder, from run to run (ours; as
// bench/benchlib/crashes.py).
constexpr int kUnwindRuns = 3;
// Ours: a test mosaic ran within 100 ms of CPU, in an unoptimised
// sanitized build on a busy machine.
constexpr const char *kSeconds = "120";

} // namespace

SanitizedCheck checkSanitized(SuiteRunner &runner, const std::string &failingBinary, const crash::FailureKind &kind,
                              const std::vector<exec::Frame> &frames) {
  SanitizedCheck c;
  auto death = runner.runSanitized(failingBinary, {"--gtest_filter=-*_Regression"}, kSeconds);
  if (!death) {
    c.error = "the sanitized build failed: " + death.error().message.substr(0, 4000); // ours: its first errors
    return c;
  }
  c.deathTestPasses = death->process.exitCode == 0;
  for (int run = 0; run < kUnwindRuns; ++run) {
    auto twin = runner.runSanitized(failingBinary, {"--gtest_also_run_disabled_tests", "--gtest_filter=*_Regression"},
                                    kSeconds);
    if (!twin) {
      c.error = twin.error().message.substr(0, 4000);
      return c;
    }
    if (twin->process.exitCode == 0) return c; // the twin returned: nothing to match
    auto report = crash::parseTrace(twin->process.output);
    if (!report) continue;
    c.twinKind = report->kind.str();
    c.twinFrames.clear();
    for (const crash::TraceFrame &f : report->frames) c.twinFrames.push_back(f.frame);
    const bool sameKind = kind.cls == crash::FailureClass::Unknown ||
                          (report->kind.cls == kind.cls && report->kind.name == kind.name);
    c.twinMatches = sameKind && crash::traceDistance(frames, c.twinFrames) == 0;
    if (c.twinMatches || !report->frames.empty()) break;
  }
  return c;
}

} // namespace mosaic::driver
