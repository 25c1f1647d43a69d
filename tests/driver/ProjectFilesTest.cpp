// Which of a compile database's files are the project's library code.
#include "ProjectFiles.h"
#include "FunctionWeights.h"

#include <gtest/gtest.h>

#include <algorithm>

using mosaic::driver::commonFolder;
using mosaic::driver::notLibraryCode;

TEST(Project, TestsFuzzersExamplesAndToolsAreNotLibraryCodeByTheirPaths) {
  const std::string root = "/p";
  for (const char *library : {"/p/cJSON.c", "/p/lib/xmlparse.c", "/p/src/latest.c", "/p/src/contest.cpp",
                              "/p/src/attestation.c", "/p/double-conversion/bignum.cc"})
    EXPECT_EQ(notLibraryCode(library, root), "") << library;
  EXPECT_EQ(notLibraryCode("/p/tests/parse_number.c", root), "tests/parse_number.c is under tests/ (tests)");
  EXPECT_NE(notLibraryCode("/p/fuzzing/cjson_read_fuzzer.c", root), "");
  EXPECT_NE(notLibraryCode("/p/examples/demo.c", root), "");
  EXPECT_NE(notLibraryCode("/p/xmlwf/xmlwf.c", root), "");
  EXPECT_EQ(notLibraryCode("/p/test.c", root), "test.c is named as a test");
  EXPECT_NE(notLibraryCode("/p/src/json_test_util.c", root), "");
  EXPECT_NE(notLibraryCode("/p/src/zstd-fuzz.c", root), "");
  EXPECT_EQ(commonFolder({"/p/a/x.c", "/p/b/y.c", "/p/a/z/w.c"}), "/p");
}

#include "Shards.h"

using mosaic::driver::assignShards;
using mosaic::driver::shardOf;

TEST(Shards, FromTheFlagSlurmOrKubernetesAndNamedWhenWrong) {
  auto flag = shardOf("1/3", {{"SLURM_ARRAY_TASK_ID", "0"}, {"SLURM_ARRAY_TASK_COUNT", "2"}});
  ASSERT_TRUE(flag && *flag);
  EXPECT_EQ((*flag)->index, 1u); // the flag wins
  EXPECT_EQ((*flag)->count, 3u);
  auto slurm = shardOf("", {{"SLURM_ARRAY_TASK_ID", "5"}, {"SLURM_ARRAY_TASK_MIN", "4"}, {"SLURM_ARRAY_TASK_COUNT", "2"}});
  ASSERT_TRUE(slurm && *slurm);
  EXPECT_EQ((*slurm)->index, 1u); // --array=4-5
  auto k8s = shardOf("", {{"JOB_COMPLETION_INDEX", "2"}, {"MOSAIC_SHARDS", "4"}});
  ASSERT_TRUE(k8s && *k8s);
  EXPECT_EQ((*k8s)->index, 2u);
  auto none = shardOf("", {});
  ASSERT_TRUE(none);
  EXPECT_FALSE(*none);
  for (const char *bad : {"3/3", "1", "a/2", "0/0", "-1/2"}) EXPECT_FALSE(shardOf(bad, {})) << bad;
  EXPECT_FALSE(shardOf("", {{"JOB_COMPLETION_INDEX", "2"}})); // how many?
}

TEST(Shards, LargestFirstToTheLeastLoadedKeepsShardsWithinOneUnitOfEachOther) {
  const std::vector<double> budgets{27, 27, 40, 3, 3, 3, 15, 15};
  const std::vector<std::string> names{"a", "b", "c", "d", "e", "f", "g", "h"};
  const auto shard = assignShards(budgets, names, 3);
  std::vector<double> load(3, 0);
  for (size_t k = 0; k < budgets.size(); ++k) load[shard[k]] += budgets[k];
  const auto [lo, hi] = std::minmax_element(load.begin(), load.end());
  EXPECT_LE(*hi - *lo, 40.0);
  EXPECT_EQ(shard, assignShards(budgets, names, 3)); // the same on every machine
  EXPECT_EQ(shard[2], 0u); // the largest goes first, to shard 0
  const auto one = assignShards(budgets, names, 1);
  EXPECT_TRUE(std::all_of(one.begin(), one.end(), [](size_t s) { return s == 0; }));
}

#include "ProjectReports.h"
#include <nlohmann/json.hpp>
#include "common/TestSupport.h"

#include <fstream>

TEST(ProjectReports, JUnitCarriesEveryVerifiedTestWithItsFailureOrSkip) {
  namespace fs = std::filesystem;
  const std::string out = mosaic::test::makeTempDir("mosaic-junit");
  const fs::path build = fs::path(out) / "units" / "lib_a_c" / "build";
  fs::create_directories(build);
  const std::string file = out + "/units/lib_a_c/a_test.cpp";
  std::ofstream(build / "run-0.json") << R"({"testsuites": [{"name": "aTest", "testsuite": [
      {"name": "old", "time": "0.5s", "file": ")" << file << R"(", "line": 3}]}]})";
  std::ofstream(build / "run-1.json") << R"({"testsuites": [{"name": "aTest", "testsuite": [
      {"name": "f_Returns0", "time": "0.012s", "file": ")" << file << R"(", "line": 10},
      {"name": "g<&>", "time": "0.001s", "file": ")" << file << R"(", "line": 20,
       "failures": [{"failure": "a_test.cpp:21\nExpected equality"}]}]}]})";
  std::ofstream(build / "failing.json") << R"({"testsuites": [{"name": "aTest_DefectDeathTest", "testsuite": [
      {"name": "DISABLED_h_Crashes", "status": "NOTRUN", "result": "SUPPRESSED", "time": "0s"}]}]})";
  EXPECT_EQ(mosaic::driver::writeJUnit(out, {{"lib_a_c", "lib/a.c"}, {"lib_b_c", "lib/b.c"}}), 3u);
  const std::string xml = mosaic::test::readFile(out + "/junit.xml");
  EXPECT_NE(xml.find(R"(<testsuites name="mosaic project" tests="3" failures="1" skipped="1">)"), std::string::npos) << xml;
  EXPECT_NE(xml.find(R"x(<testsuite name="lib/a.c (passing suite)" tests="2" failures="1")x"), std::string::npos) << xml;
  EXPECT_NE(xml.find(R"(name="f_Returns0" time="0.012" file="units/lib_a_c/a_test.cpp" line="10"/>)"), std::string::npos)
      << xml;
  EXPECT_NE(xml.find(R"(name="g&lt;&amp;&gt;")"), std::string::npos) << xml; // escaped
  EXPECT_NE(xml.find("<failure message=\"a_test.cpp:21\">a_test.cpp:21\nExpected equality\n</failure>"), std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<skipped/>"), std::string::npos) << xml;
  EXPECT_EQ(xml.find("\"old\""), std::string::npos) << xml; // only the last run
  EXPECT_EQ(xml.find("lib/b.c"), std::string::npos) << xml; // not verified: no reports
}

namespace {

// findings.sarif of a unit with a defect (three frames, one outside the
// project), a robustness failure without a stack, a misuse and a defect no
// re-run reproduced (neither is a finding), in a fresh OUT; returns OUT.
std::string sampleSarif(const std::string &root) {
  namespace fs = std::filesystem;
  const std::string out = mosaic::test::makeTempDir("mosaic-sarif");
  fs::create_directories(root + "/lib");
  std::ofstream(root + "/lib/util.h") << "\n";
  fs::create_directories(out + "/results");
  std::ofstream(out + "/results/lib_a_c.json") << R"x({"failures": [
    {"class": "defect", "outcome": "crash", "site": "crash 11 at f:12", "why": "f() fails",
     "stack": ["f a.c:12", "g util.h:3", "main /elsewhere/main.c:9"]},
    {"class": "robustness", "outcome": "abort", "site": "abort 6 in (after the last statement)", "why": "h() aborts",
     "stack": []},
    {"class": "misuse", "outcome": "crash", "site": "crash 11 at f:1", "why": "not a finding", "stack": ["f a.c:1"]},
    {"class": "defect", "outcome": "abort", "site": "abort 6 at f:2", "why": "not reproduced", "stack": ["f a.c:2"],
     "reproducible": false}]})x";
  EXPECT_EQ(mosaic::driver::writeSarif(out, root, {{"lib_a_c", "lib/a.c"}}), 2u);
  return out;
}

} // namespace

TEST(ProjectReports, SarifPutsEachDefectAndRobustnessFailureAtItsInnermostProjectFrame) {
  const std::string root = mosaic::test::makeTempDir("mosaic-sarif-project");
  const std::string out = sampleSarif(root);
  const auto sarif = nlohmann::json::parse(mosaic::test::readFile(out + "/findings.sarif"));
  EXPECT_EQ(sarif["version"], "2.1.0");
  const auto &run = sarif["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "mosaic");
  EXPECT_EQ(run["tool"]["driver"]["rules"].size(), 2u);
  EXPECT_EQ(run["originalUriBaseIds"]["PROJECT_ROOT"]["uri"], "file://" + root + "/");
  ASSERT_EQ(run["results"].size(), 2u);
  const auto &defect = run["results"][0];
  EXPECT_EQ(defect["ruleId"], "mosaic/defect");
  EXPECT_EQ(defect["level"], "error");
  EXPECT_EQ(defect["message"]["text"], "f() fails (crash 11 at f:12)");
  const auto &where = defect["locations"][0]["physicalLocation"];
  EXPECT_EQ(where["artifactLocation"]["uri"], "lib/a.c"); // the unit's own file, by its name
  EXPECT_EQ(where["region"]["startLine"], 12);
  const auto &frames = defect["stacks"][0]["frames"];
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[1]["location"]["physicalLocation"]["artifactLocation"]["uri"], "lib/util.h"); // found beside it
  EXPECT_EQ(frames[1]["location"]["message"]["text"], "g");
  const auto &robustness = run["results"][1];
  EXPECT_EQ(robustness["level"], "warning");
  EXPECT_EQ(robustness["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "lib/a.c");
  EXPECT_FALSE(robustness.contains("stacks"));
}

// The file code-scanning tools read is valid SARIF 2.1.0: checked against
// the published JSON schema (schemastore's sarif-2.1.0-rtm.5.json, which
// scripts/setup.sh installs from npm) with python3-jsonschema.
TEST(ProjectReports, SarifIsValidAgainstTheSarif210Schema) {
  const std::string schema = "/usr/local/share/mosaic/sarif-2.1.0-rtm.5.json";
  if (!std::filesystem::exists(schema)) GTEST_SKIP() << "no " << schema << ": run scripts/setup.sh (it needs npm)";
  const std::string root = mosaic::test::makeTempDir("mosaic-sarif-project");
  const std::string out = sampleSarif(root);
  const std::string check = "import json, sys, jsonschema\n"
                            "schema = json.load(open(sys.argv[1]))\n"
                            "validator = jsonschema.validators.validator_for(schema)(schema)\n"
                            "errors = list(validator.iter_errors(json.load(open(sys.argv[2]))))\n"
                            "for e in errors[:10]: print(list(e.path), e.message[:300])\n"
                            "sys.exit(1 if errors else 0)\n";
  auto probe = mosaic::test::runProcess({"python3", "-c", "import jsonschema"});
  if (probe.exitCode != 0) GTEST_SKIP() << "python3 has no jsonschema (Debian: python3-jsonschema)";
  auto r = mosaic::test::runProcess({"python3", "-c", check, schema, out + "/findings.sarif"});
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
}

// The folder a written suite names the project's files relative to.
TEST(Project, TheRootIsTheGitWorkTreeElseTheFolderOfTheFilesAndTheirIncludeFolders) {
  namespace fs = std::filesystem;
  const std::string top = fs::canonical(mosaic::test::makeTempDir("mosaic-root")).string();
  fs::create_directories(top + "/calc/src");
  fs::create_directories(top + "/calc/include");
  fs::create_directories(top + "/calc-build");
  const std::vector<std::string> files{top + "/calc/src/a.c", top + "/calc/src/b.c"};
  // The include folder widens it; the build folder and system folders do not.
  EXPECT_EQ(mosaic::driver::projectRoot(files, {"-I" + top + "/calc/include", "-I" + top + "/calc-build",
                                               "-isystem/usr/include/libxml2", "-DX=1"},
                                        top + "/calc-build"),
            top + "/calc");
  EXPECT_EQ(mosaic::driver::projectRoot(files, {}, top + "/calc-build"), top + "/calc/src");
  // A git work tree holding the files is the project.
  fs::create_directories(top + "/.git");
  EXPECT_EQ(mosaic::driver::projectRoot(files, {}, top + "/calc-build"), top);
}

// generate's --function-weights: scores by name, the riskiest called twice
// as often as an unscored function.
TEST(FunctionWeights, ScoresBecomeTargetWeightsBetweenOneAndTwo) {
  const std::string dir = mosaic::test::makeTempDir("mosaic-weights");
  std::ofstream(dir + "/ok.json") << R"({"parse": 4.0, "count": 1.0, "elsewhere": 2.0})";
  auto scores = mosaic::driver::readFunctionWeights(dir + "/ok.json");
  ASSERT_TRUE(scores) << scores.error().message;
  mosaic::model::Program p;
  for (const char *name : {"parse", "count", "other"}) {
    mosaic::model::Callable c;
    c.id = static_cast<mosaic::model::CallableId>(p.callables.size());
    c.name = name;
    p.callables.push_back(c);
  }
  EXPECT_EQ(mosaic::driver::targetWeights(p, *scores), (std::vector<double>{2.0, 1.25, 1.0}));
  EXPECT_TRUE(mosaic::driver::targetWeights(p, {{"nobody", 3.0}}).empty()); // none named: uniform
  std::ofstream(dir + "/bad.json") << R"({"parse": -1})";
  auto bad = mosaic::driver::readFunctionWeights(dir + "/bad.json");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("not a number >= 0"), std::string::npos);
  EXPECT_FALSE(mosaic::driver::readFunctionWeights(dir + "/missing.json"));
}
