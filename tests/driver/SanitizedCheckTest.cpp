// The sanitized build's check of a written reproduction: the death test
// must pass and its regression twin must report the trace's kind at the
// trace's frames; an empty stack-overflow report is run again.
#include "SanitizedCheck.h"

#include <gtest/gtest.h>

#include <deque>

namespace {

// Named one by one, not `using namespace mosaic`: in a unity build (Component.cmake)
// a using-directive would reach the test files after this one.
using mosaic::Error;
using mosaic::Expected;
using mosaic::ProcessResult;
namespace crash = mosaic::crash;
namespace driver = mosaic::driver;
namespace emit = mosaic::emit;
namespace exec = mosaic::exec;

// Answers runSanitized with scripted runs, in order; records the arguments.
class ScriptedRunner final : public driver::SuiteRunner {
public:
  Expected<driver::SuiteBuild> build(const emit::Suite &) override { return driver::SuiteBuild{true, ""}; }
  Expected<driver::SuiteRun> run(const std::string &, const std::vector<std::string> &, const std::string &,
                                 const std::string &) override {
    return Error::internal("not used");
  }
  driver::LlvmCoverage coverage(const std::string &, const std::vector<std::string> &) override { return {}; }
  Expected<driver::SuiteRun> runSanitized(const std::string &binary, const std::vector<std::string> &args,
                                          const std::string &) override {
    calls.push_back(binary + " " + args.back());
    if (script.empty()) return Error::internal("ninja: build stopped: subcommand failed.");
    driver::SuiteRun r{script.front(), ""};
    script.pop_front();
    return r;
  }
  std::deque<ProcessResult> script;
  std::vector<std::string> calls;
};

// An ASan report as the regression twin of cJSON_Duplicate's stack
// overflow prints it (the frames shortened to those that matter here).
const char *kOverflow = R"([ RUN      ] cJSONTest_CrashDeathTest.DISABLED_cJSON_Duplicate_SanitizerReport_Regression
AddressSanitizer:DEADLYSIGNAL
=================================================================
==3898==ERROR: AddressSanitizer: stack-overflow on address 0x7ffca9a46fe8 (pc 0x561e520a07b9 bp 0x00000000001e sp 0x7ffca9a46ff0 T0)
    #0 0x561e52095490 in malloc (/tmp/cj09/bsan/cJSON_failing_test+0xf2490)
    #1 0x561e520eda17 in cJSON_New_Item /src/cjson/cJSON.c:243:27
    #2 0x561e520f8e61 in cJSON_Duplicate /src/cjson/cJSON.c:2752:15
    #3 0x561e520f9a0c in cJSON_Duplicate /src/cjson/cJSON.c:2786:20
    #4 0x561e520f9a0c in cJSON_Duplicate /src/cjson/cJSON.c:2786:20

SUMMARY: AddressSanitizer: stack-overflow
==3898==ABORTING
)";

const char *kEmpty = R"(AddressSanitizer:DEADLYSIGNAL
=================================================================
==28707==ERROR: AddressSanitizer: stack-overflow on address 0x7ffd8706dff8 (pc 0x561083ba17e5 bp 0x00000000001e sp 0x7ffd8706e000 T0)
    <empty stack>

SUMMARY: AddressSanitizer: stack-overflow
==28707==ABORTING
)";

crash::FailureKind overflow() {
  crash::FailureKind k;
  k.cls = crash::FailureClass::Sanitizer;
  k.name = "stack-overflow";
  k.tool = "AddressSanitizer";
  return k;
}

std::vector<exec::Frame> traceFrames() {
  return {{"cJSON_New_Item", "/src/cjson/cJSON.c", 243}, {"cJSON_Duplicate", "/src/cjson/cJSON.c", 2752},
          {"cJSON_Duplicate", "/src/cjson/cJSON.c", 2786}};
}

TEST(SanitizedCheck, ADeathTestThatPassesAndATwinDyingAtTheTracesFramesMatch) {
  ScriptedRunner r;
  r.script = {{0, "[  PASSED  ] 1 test."}, {1, kOverflow}};
  const driver::SanitizedCheck c = driver::checkSanitized(r, "cJSON_failing_test", overflow(), traceFrames());
  EXPECT_TRUE(c.error.empty()) << c.error;
  EXPECT_TRUE(c.deathTestPasses);
  EXPECT_TRUE(c.twinMatches);
  EXPECT_EQ(c.twinKind, "AddressSanitizer: stack-overflow");
  ASSERT_EQ(r.calls.size(), 2u);
  EXPECT_EQ(r.calls[0], "cJSON_failing_test --gtest_filter=-*_Regression");
  EXPECT_EQ(r.calls[1], "cJSON_failing_test --gtest_filter=*_Regression");
}

TEST(SanitizedCheck, ATwinDyingElsewhereOrOfAnotherKindDoesNotMatch) {
  std::vector<exec::Frame> deeper = traceFrames();
  deeper[0].line = 250;
  ScriptedRunner elsewhere;
  elsewhere.script = {{0, ""}, {1, kOverflow}};
  EXPECT_FALSE(driver::checkSanitized(elsewhere, "t", overflow(), deeper).twinMatches);

  crash::FailureKind heap = overflow();
  heap.name = "heap-buffer-overflow";
  ScriptedRunner otherKind;
  otherKind.script = {{0, ""}, {1, kOverflow}};
  const driver::SanitizedCheck c = driver::checkSanitized(otherKind, "t", heap, traceFrames());
  EXPECT_FALSE(c.twinMatches);
  EXPECT_EQ(c.twinFrames.size(), 5u);
}

TEST(SanitizedCheck, AnEmptyStackOverflowReportIsRunAgain) {
  ScriptedRunner r;
  r.script = {{0, ""}, {1, kEmpty}, {1, kOverflow}};
  EXPECT_TRUE(driver::checkSanitized(r, "t", overflow(), traceFrames()).twinMatches);
  EXPECT_EQ(r.calls.size(), 3u);

  ScriptedRunner never;
  never.script = {{0, ""}, {1, kEmpty}, {1, kEmpty}, {1, kEmpty}, {1, kOverflow}};
  EXPECT_FALSE(driver::checkSanitized(never, "t", overflow(), traceFrames()).twinMatches);
  EXPECT_EQ(never.calls.size(), 4u) << "the death test and three runs of the twin";
}

TEST(SanitizedCheck, AFailingDeathTestATwinThatReturnsAndABuildThatFailsAreSaid) {
  ScriptedRunner deathFails;
  deathFails.script = {{1, "[  FAILED  ] 1 test"}, {1, kOverflow}};
  EXPECT_FALSE(driver::checkSanitized(deathFails, "t", overflow(), traceFrames()).deathTestPasses);

  ScriptedRunner returns;
  returns.script = {{0, ""}, {0, "[  PASSED  ] 1 test."}};
  const driver::SanitizedCheck c = driver::checkSanitized(returns, "t", overflow(), traceFrames());
  EXPECT_FALSE(c.twinMatches);
  EXPECT_TRUE(c.twinKind.empty());

  ScriptedRunner broken;
  EXPECT_NE(driver::checkSanitized(broken, "t", overflow(), traceFrames()).error.find("subcommand failed"),
            std::string::npos);
}

} // namespace
