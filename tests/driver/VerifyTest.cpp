// Verification: reading GoogleTest's reports, and the repair loop over a fake runner.
#include "SuiteReport.h"
#include "SuiteRunner.h"
#include "common/TestSupport.h"
#include "common/UnitModel.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <optional>
#include <set>
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

// Named one by one, not `using namespace mosaic`: in a unity build (Component.cmake)
// a using-directive would reach the test files after this one.
using mosaic::Error;
using mosaic::Expected;
using mosaic::ProcessResult;
namespace driver = mosaic::driver;
namespace emit = mosaic::emit;
namespace exec = mosaic::exec;
namespace test = mosaic::test;

class FakeRunner final : public driver::SuiteRunner {
public:
  Expected<driver::SuiteBuild> build(const emit::Suite &suite) override {
    last = suite;
    ++builds;
    // onlyGoogleTest: an error in GoogleTest's templates alone, every build.
    if (onlyGoogleTest)
      return driver::SuiteBuild{false, "/usr/include/gtest/gtest.h:1358:11: error: invalid operands to binary expression\n"};
    // notCxx: a project header fails as C++ while a test file includes it,
    // and the compiler's errors go on into the first test's lines.
    if (!notCxx.empty())
      for (const emit::File &f : suite.files)
        if (f.name.ends_with("_test.cpp") && f.text.find("#include \"" + notCxx + "\"") != std::string::npos) {
          std::string output = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/analysis/" + notCxx +
                               ":3:8: error: redefinition of 're_registers'\n";
          // And one in GoogleTest's templates, which is no header's fault.
          output += "/usr/include/gtest/gtest.h:1358:11: error: invalid operands to binary expression\n";
          for (const auto &[file, lines] : suite.sites)
            if (!lines.empty()) output += "/suite/" + file + ":" + std::to_string(lines.rbegin()->first) + ":5: error: no matching function\n";
          return driver::SuiteBuild{false, output};
        }
    return driver::SuiteBuild{true, ""};
  }
  Expected<driver::SuiteRun> run(const std::string &binary, const std::vector<std::string> &,
                                 const std::string &, const std::string &) override {
    ++runs;
    nlohmann::json tests = nlohmann::json::array();
    for (const auto &[name, site] : last.tests) {
      if (site.failing != (binary.find("_failing_test") != std::string::npos)) continue;
      nlohmann::json t = {{"name", name.substr(name.find('.') + 1)}, {"time", "0.001s"}};
      // The first passing test's first assertion (any of its assertions,
      // with anyAssertionFails) fails while it is written.
      if (!site.failing && site.test == 0)
        for (const auto &[file, lines] : last.sites)
          for (const auto &[line, s] : lines)
            if (!s.failing && s.test == 0 && (s.observation == 0 || (anyAssertionFails && s.observation >= 0)))
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
  bool anyAssertionFails = false;
  std::string notCxx;
  bool onlyGoogleTest = false;
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

namespace {

// Verifies `tests` passing tests of shapes.c, each check_magic(7), one run
// each, through `runner`; its log into `log`.
driver::VerifyResult verifyChecks(FakeRunner &runner, size_t tests, std::ostringstream &log) {
  auto m = test::UnitModel::make(MOSAIC_FIXTURE_DB_DIR, std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/analysis/shapes.c");
  std::vector<emit::SuiteTest> passing(tests), failing;
  for (emit::SuiteTest &st : passing) st.test = m->call("check_magic", {std::int64_t{7}});
  driver::VerifyOptions options;
  options.outDir = test::makeTempDir("mosaic-verify");
  options.runs = 1;
  return driver::verifyWith(runner, m->program, *m->catalog, passing, failing, emit::UnitBuild{}, options, log);
}

} // namespace

TEST(VerifyStage, ACUnitWhoseHeaderIsNotCxxIsWrittenAgainThroughTheWrapperAndNoTestIsBlamed) {
  // The first build fails in shapes.h (and, following it, in test lines):
  // the suite is written again with no project header in the test files
  // (emit::WriteOptions::throughWrapper), builds, and keeps both tests.
  FakeRunner runner;
  runner.notCxx = "shapes.h";
  std::ostringstream log;
  const driver::VerifyResult v = verifyChecks(runner, 2, log);
  EXPECT_TRUE(v.built) << v.error << log.str();
  EXPECT_EQ(v.written, 2);
  EXPECT_EQ(v.compiled, 2);
  EXPECT_EQ(v.removed, 0);
  EXPECT_EQ(runner.builds, 2);
  EXPECT_NE(log.str().find("do not compile as C++ (shapes.h:3:8: error: redefinition of 're_registers')"), std::string::npos)
      << log.str();
  for (const emit::File &f : runner.last.files)
    if (f.name == "shapes_test.cpp") {
      EXPECT_EQ(f.text.find("shapes.h"), std::string::npos) << f.text;
      EXPECT_NE(f.text.find("mosaic_check_magic_"), std::string::npos) << f.text;
    }
}

TEST(VerifyStage, AnErrorOnlyInGoogleTestsTemplatesIsNoHeadersFault) {
  // No project header failed: the tests keep including the unit's headers,
  // and the compiler's first errors are the verdict.
  FakeRunner runner;
  runner.onlyGoogleTest = true;
  std::ostringstream log;
  const driver::VerifyResult v = verifyChecks(runner, 1, log);
  EXPECT_FALSE(v.built);
  EXPECT_EQ(log.str().find("do not compile as C++"), std::string::npos) << log.str();
  EXPECT_NE(v.error.find("gtest.h:1358"), std::string::npos) << v.error;
  for (const emit::File &f : runner.last.files)
    if (f.name == "shapes_test.cpp") EXPECT_NE(f.text.find("shapes.h"), std::string::npos) << f.text;
}

TEST(VerifyStage, AnAssertionObservedTwiceIsDroppedOnceForBoth) {
  // One value observed twice (a variable passed as two arguments is
  // observed once per argument): one assertion is written for both. When
  // it fails, dropping it through the observation its line came from must
  // not let the other copy write it again in the next round.
  auto m = test::UnitModel::make(MOSAIC_FIXTURE_DB_DIR, std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/analysis/shapes.c");
  std::vector<emit::SuiteTest> passing(1), failing;
  passing[0].test = m->call("check_magic", {std::int64_t{7}});
  exec::Observation result;
  result.statement = 1;
  result.kind = MOSAIC_OBS_INT;
  result.integer = 0;
  passing[0].observations = {result, result};
  FakeRunner runner;
  runner.anyAssertionFails = true;
  driver::VerifyOptions options;
  options.outDir = test::makeTempDir("mosaic-verify-twice");
  options.runs = 2;
  std::ostringstream log;
  const driver::VerifyResult v =
      driver::verifyWith(runner, m->program, *m->catalog, passing, failing, emit::UnitBuild{}, options, log);
  EXPECT_TRUE(v.built) << v.error << log.str();
  EXPECT_EQ(v.flakyAssertions, 1);
  EXPECT_EQ(runner.builds, 2);
  EXPECT_EQ(v.passed, 1);
}

// A fake runner whose binary dies in the last passing test whenever the
// first one ran before it in the same process (the first corrupts the
// heap, say); each test passes alone. It writes GoogleTest's output as the
// real binary does: "[ RUN ]" lines, and no report when it dies.
namespace {

class PollutingRunner final : public driver::SuiteRunner {
public:
  Expected<driver::SuiteBuild> build(const emit::Suite &suite) override {
    last = suite;
    polluter = pollutes ? testCalling("check_magic(0u)") : std::nullopt;
    victim = testCalling(victimCall);
    return driver::SuiteBuild{true, ""};
  }
  // The passing test whose body has `call` (the nearest site above its line).
  std::optional<size_t> testCalling(const std::string &call) const {
    for (const emit::File &f : last.files) {
      const auto sites = last.sites.find(f.name);
      if (sites == last.sites.end()) continue;
      std::istringstream lines(f.text);
      int n = 0;
      for (std::string l; std::getline(lines, l);) {
        ++n;
        if (l.find(call) == std::string::npos) continue;
        auto s = sites->second.upper_bound(n);
        if (s == sites->second.begin()) continue;
        --s;
        if (!s->second.failing) return s->second.test;
      }
    }
    return std::nullopt;
  }
  Expected<driver::SuiteRun> run(const std::string &binary, const std::vector<std::string> &args,
                                 const std::string &, const std::string &) override {
    ++runs;
    const bool failingSuite = binary.find("_failing_test") != std::string::npos;
    // The selected tests, in the suite's order (by index, as written).
    std::set<std::string> listed;
    bool negative = false;
    for (const std::string &a : args)
      if (a.rfind("--gtest_filter=", 0) == 0) {
        std::string list = a.substr(15);
        if (!list.empty() && list[0] == '-') negative = true, list.erase(0, 1);
        for (size_t at = 0; at <= list.size();) {
          const size_t end = std::min(list.find(':', at), list.size());
          listed.insert(list.substr(at, end - at));
          at = end + 1;
        }
      }
    const bool filtered = !args.empty();
    std::map<size_t, std::string> order;
    for (const auto &[name, site] : last.tests) {
      if (site.failing != failingSuite) continue;
      if (!filtered || (negative ? !listed.count(name) : listed.count(name) > 0)) order[site.test] = name;
    }
    std::string output = "Running main() from gtest_main.cc\n";
    nlohmann::json tests = nlohmann::json::array();
    bool polluted = false;
    int ran = 0;
    for (const auto &[index, name] : order) {
      output += "[ RUN      ] " + name + "\n";
      if (!failingSuite && killedFromOutside > 0 && index == victim) {
        --killedFromOutside;
        return driver::SuiteRun{{128 + 9, output}, ""};
      }
      if (!failingSuite && index == victim && (polluted || (anyBefore && ran > 0))) {
        output += "malloc(): corrupted top size\n";
        return driver::SuiteRun{{128 + 6, output}, ""};
      }
      if (!failingSuite && index == polluter) polluted = true;
      ++ran;
      output += "[       OK ] " + name + "\n";
      tests.push_back({{"name", name.substr(name.find('.') + 1)}, {"time", "0.001s"}});
    }
    const std::string suiteName = last.tests.empty() ? "" : last.tests.begin()->first.substr(0, last.tests.begin()->first.find('.'));
    nlohmann::json report = {{"testsuites", {{{"name", suiteName}, {"testsuite", tests}}}}};
    return driver::SuiteRun{{0, output}, report.dump()};
  }
  driver::LlvmCoverage coverage(const std::string &, const std::vector<std::string> &) override { return {}; }
  Expected<driver::SuiteRun> runSanitized(const std::string &, const std::vector<std::string> &,
                                          const std::string &) override {
    return Error::internal("no sanitized build here");
  }
  emit::Suite last;
  std::optional<size_t> polluter, victim;
  bool pollutes = true;      ///< check_magic(0u) kills the victim after it
  bool anyBefore = false;    ///< any test before the victim kills it (it reads stack garbage)
  std::string victimCall = "check_magic(3u)";
  int killedFromOutside = 0; ///< runs of the victim killed by SIGKILL, the first ones
  int runs = 0;
};

// `count` passing tests check_magic(0..count-1) verified over `runner`, two runs each, no coverage.
driver::VerifyResult verifyFour(PollutingRunner &runner, const std::string &dirPrefix, std::ostringstream &log,
                                size_t count = 4) {
  auto m = test::UnitModel::make(MOSAIC_FIXTURE_DB_DIR, std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/analysis/shapes.c");
  std::vector<emit::SuiteTest> passing(count), failing;
  for (size_t k = 0; k < passing.size(); ++k) passing[k].test = m->call("check_magic", {static_cast<std::int64_t>(k)});
  driver::VerifyOptions options;
  options.outDir = test::makeTempDir(dirPrefix);
  options.runs = 2;
  options.coverage = false;
  return driver::verifyWith(runner, m->program, *m->catalog, passing, failing, emit::UnitBuild{}, options, log);
}

} // namespace

TEST(VerifyStage, ATestThatKillsALaterOneIsRemovedAndItsVictimKept) {
  PollutingRunner runner;
  std::ostringstream log;
  const driver::VerifyResult v = verifyFour(runner, "mosaic-verify-polluter", log);
  EXPECT_TRUE(v.built) << v.error << log.str();
  EXPECT_EQ(v.removed, 1) << log.str();
  EXPECT_EQ(v.passed, 3);
  EXPECT_EQ(v.deathsNotReproduced, 0);
  // The first test went, with the victim named and how the binary died.
  EXPECT_NE(log.str().find("run after it"), std::string::npos) << log.str();
  EXPECT_NE(log.str().find("killed by signal 6 (SIGABRT): malloc(): corrupted top size"), std::string::npos) << log.str();
  // check_magic(0) went, and the victim check_magic(3) stayed.
  runner.build(runner.last);
  EXPECT_FALSE(runner.polluter.has_value());
  EXPECT_TRUE(runner.victim.has_value());
}

TEST(VerifyStage, AVictimThatAnyTestBeforeItKillsIsRemovedItselfAfterTwoBlamed) {
  // The last of six dies after whichever test ran before it (it reads
  // stack garbage: a union's bytes its initialiser left), and passes alone:
  // two tests are blamed in turn, then the victim itself goes, not the
  // other three too.
  PollutingRunner runner;
  runner.pollutes = false;
  runner.anyBefore = true;
  runner.victimCall = "check_magic(5u)";
  std::ostringstream log;
  const driver::VerifyResult v = verifyFour(runner, "mosaic-verify-fragile", log, 6);
  EXPECT_TRUE(v.built) << v.error << log.str();
  EXPECT_EQ(v.removed, 3) << log.str();
  EXPECT_EQ(v.passed, 3);
  EXPECT_NE(log.str().find("it depends on what ran before it"), std::string::npos) << log.str();
  runner.build(runner.last);
  EXPECT_FALSE(runner.victim.has_value()) << log.str();
}

TEST(VerifyStage, ABinaryKilledOnceFromOutsideCostsNoTest) {
  PollutingRunner runner;
  runner.pollutes = false;
  runner.killedFromOutside = 1;
  std::ostringstream log;
  const driver::VerifyResult v = verifyFour(runner, "mosaic-verify-killed", log);
  EXPECT_TRUE(v.built) << v.error << log.str();
  EXPECT_EQ(v.removed, 0) << log.str();
  EXPECT_EQ(v.passed, 4);
  EXPECT_EQ(v.deathsNotReproduced, 1);
  EXPECT_NE(log.str().find("killed by signal 9 (SIGKILL)), and not when the same tests ran again"), std::string::npos)
      << log.str();
}
