// Verification: reading GoogleTest's reports, and the repair loop over a fake runner.
#include "SuiteReport.h"
#include "SuiteRunner.h"
#include "common/TestSupport.h"
#include "common/UnitModel.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

using mosaic::driver::slowTests;

TEST(SlowTests, NamesThePassingTestsOverTheLimitWithTheirSeconds) {
  const std::string report = R"({"testsuites": [
    {"name": "pugixmlTest", "testsuite": [
      {"name": "xml_text_set_ReturnsTrue", "time": "71.393s"},
      {"name": "xml_node_append", "time": "0.002s"},
      {"name": "xpath_slow_failure", "time": "12s", "failures": [{"failure": "x.cpp:3"}]}]},
    {"name": "other", "testsuite": [{"name": "no_time"}, {"name": "exactly", "time": "10s"}]}]})";
  const auto slow = slowTests(report, 10);
  ASSERT_EQ(slow.size(), 1u);
  EXPECT_EQ(slow[0].first, "pugixmlTest.xml_text_set_ReturnsTrue");
  EXPECT_DOUBLE_EQ(slow[0].second, 71.393);
}

TEST(SlowTests, AReportThatDoesNotParseNamesNone) {
  EXPECT_TRUE(slowTests("{\"testsuites\": [", 10).empty());
  EXPECT_TRUE(slowTests("", 10).empty());
}

// The verify stage's repair loop over a fake runner: no compiler, no test
// binary. The runner says an assertion failed in the first round; the loop
// drops that assertion, writes the suite again, and settles.
namespace {

using namespace mosaic;

class FakeRunner final : public driver::SuiteRunner {
public:
  Expected<driver::SuiteBuild> build(const emit::Suite &suite) override {
    last = suite;
    ++builds;
    return driver::SuiteBuild{true, ""};
  }
  Expected<driver::SuiteRun> run(const std::string &binary, const std::vector<std::string> &,
                                 const std::string &, const std::string &) override {
    ++runs;
    nlohmann::json tests = nlohmann::json::array();
    for (const auto &[name, site] : last.tests) {
      if (site.failing != (binary.find("_failing_test") != std::string::npos)) continue;
      nlohmann::json t = {{"name", name.substr(name.find('.') + 1)}, {"time", "0.001s"}};
      // The first passing test's first assertion fails while it is written.
      if (!site.failing && site.test == 0)
        for (const auto &[file, lines] : last.sites)
          for (const auto &[line, s] : lines)
            if (!s.failing && s.test == 0 && s.observation == 0)
              t["failures"] = {{{"failure", file + ":" + std::to_string(line) + "\nExpected equality"}}};
      tests.push_back(t);
    }
    const std::string suiteName = last.tests.empty() ? "" : last.tests.begin()->first.substr(0, last.tests.begin()->first.find('.'));
    nlohmann::json report = {{"testsuites", {{{"name", suiteName}, {"testsuite", tests}}}}};
    return driver::SuiteRun{{0, ""}, report.dump()};
  }
  driver::LlvmCoverage coverage(const std::string &, const std::vector<std::string> &tests) override {
    driver::LlvmCoverage c;
    c.measured = true;
    c.functions = tests.size();
    return c;
  }
  Expected<driver::SuiteRun> runSanitized(const std::string &, const std::vector<std::string> &,
                                          const std::string &) override {
    return Error::internal("no sanitized build here");
  }
  emit::Suite last;
  int builds = 0, runs = 0;
};

} // namespace

TEST(VerifyStage, DropsAFailingAssertionAndSettles) {
  auto m = test::UnitModel::make(MOSAIC_FIXTURE_DB_DIR, std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/analysis/shapes.c");
  std::vector<emit::SuiteTest> passing(2), failing;
  for (emit::SuiteTest &st : passing) {
    st.test = m->call("check_magic", {std::int64_t{7}});
    exec::Observation result;
    result.statement = 1;
    result.kind = MOSAIC_OBS_INT;
    result.integer = 0;
    st.observations = {result};
  }
  FakeRunner runner;
  driver::VerifyOptions options;
  options.outDir = test::makeTempDir("mosaic-verify");
  options.runs = 2;
  std::ostringstream log;
  const driver::VerifyResult v =
      driver::verifyWith(runner, m->program, *m->catalog, passing, failing, emit::UnitBuild{}, options, log);
  EXPECT_TRUE(v.built) << v.error << log.str();
  EXPECT_EQ(v.written, 2);
  EXPECT_EQ(v.passed, 2);
  EXPECT_EQ(v.repaired, 1);
  EXPECT_EQ(v.flakyAssertions, 1);
  EXPECT_EQ(v.removed, 0);
  ASSERT_EQ(passing[0].dropped.size(), 1u);
  EXPECT_TRUE(passing[0].dropped[0]);
  EXPECT_FALSE(passing[1].dropped[0]);
  EXPECT_EQ(runner.builds, 2);
  EXPECT_TRUE(v.coverage.measured);
  EXPECT_EQ(v.coverage.functions, 2u); // the passing suite's tests were handed to coverage
}
