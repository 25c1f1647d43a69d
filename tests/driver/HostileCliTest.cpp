// mosaic itself under hostile conditions (issue 18): signals, budgets that
// must hold, bad output paths. Nothing found is lost, nothing hangs, and a
// bad path is a usage error before the search.
#include "common/TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <fstream>
#include <tuple>
#include <filesystem>

using namespace mosaic::test;
namespace fs = std::filesystem;

namespace {

const std::string kSearch = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/search/";
const std::string kHostile = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/hostile/";

std::vector<std::string> generateParser(const std::string &dir, const std::string &budget) {
  return {MOSAIC_EXE, "generate", "-p", MOSAIC_FIXTURE_SEARCH_DB_DIR, kSearch + "parser_impl.c", "-o", dir + "/suite",
          "--budget", budget, "--seed", "1", "--no-verify", "--no-progress", "--work-dir", dir + "/work"};
}

// `generate` on hostile.c's function `function`, verified, into dir/suite.
ProcessResult generateHostile(const std::string &dir, const std::string &function, const std::string &executions) {
  return runProcess({MOSAIC_EXE, "generate", "-p", MOSAIC_FIXTURE_HOSTILE_DB_DIR, kHostile + "hostile.c", "--function",
                     function, "-o", dir + "/suite", "--max-executions", executions, "--seed", "1", "--no-progress",
                     "--work-dir", dir + "/work"});
}

// How many processes run a program under `dir` (the suite's tests, the
// harness) a second after mosaic ended: what was killed is gone by then,
// reaped by whoever adopted it.
std::string runningUnder(const std::string &dir) {
  return runProcess({"/bin/sh", "-c", "sleep 1; pgrep -c -f '^" + dir + "/' || true"}).out;
}

} // namespace

TEST(HostileCli, SigtermWritesTheSuiteFoundSoFar) {
  const std::string dir = makeTempDir("mosaic-term");
  // Built once first, so that the signal meets the search.
  auto warm = generateParser(dir, "1s");
  ASSERT_LE(runProcess(warm).exitCode, 1);
  // SIGTERM once the search runs (its first progress line, 5 s in), however
  // long the set-up took on a loaded machine.
  std::string command;
  for (const std::string &a : generateParser(dir, "120s")) command += "'" + a + "' ";
  auto r = runProcess({"/bin/sh", "-c",
                       command + "2>" + dir + "/err & p=$!; until grep -q 'goals ' " + dir +
                           "/err; do sleep 0.2; done; kill -TERM $p; wait $p; s=$?; cat " + dir + "/err >&2; exit $s"});
  EXPECT_TRUE(r.exitCode == 0 || r.exitCode == 1) << r.exitCode << r.err;
  EXPECT_NE(r.err.find("interrupted: writing the suite found so far"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("written"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(dir + "/suite/parser_impl_test.cpp"));
}

TEST(HostileCli, ASecondSignalEndsMosaicAtOnce) {
  // Every test of nap() sleeps (up to 10 s of wall-clock time at --timeout
  // 1000), so mosaic is still waiting for one when the second signal comes:
  // the first asked it to stop, the second takes SIGTERM's default action.
  const std::string dir = makeTempDir("mosaic-term2");
  std::vector<std::string> argv{MOSAIC_EXE, "generate", "-p", MOSAIC_FIXTURE_HOSTILE_DB_DIR, kHostile + "hostile.c",
                                "--function", "nap", "--timeout", "1000", "-o", dir + "/suite", "--seed", "1",
                                "--no-verify", "--no-progress", "--work-dir", dir + "/work"};
  // The harness built first (by a short run: its budget holds everything).
  runProcess({MOSAIC_EXE, "run", "-p", MOSAIC_FIXTURE_HOSTILE_DB_DIR, kHostile + "hostile.c", "--function", "nap",
              "--timeout", "100", "--budget", "1s", "--no-progress", "--work-dir", dir + "/work"});
  argv.insert(argv.end(), {"--budget", "120s"});
  std::string command;
  for (const std::string &a : argv) command += "'" + a + "' ";
  // The search ends at once (nap has one goal); its last progress line says
  // so, and mosaic is observing sleeping tests when the signals come.
  auto r = runProcess({"/bin/sh", "-c",
                       command + "2>" + dir + "/err & p=$!; until grep -q 'goals ' " + dir +
                           "/err; do sleep 0.2; done; kill -TERM $p; sleep 0.5; kill -TERM $p; wait $p"});
  EXPECT_EQ(r.exitCode, 128 + 15) << r.err;
}

TEST(HostileCli, ACrashOfMosaicItselfSaysSoAndPrintsItsStack) {
  // A SIGSEGV sent from outside stands for a crash of mosaic's own process
  // (the code under test crashes in other processes). Every test of nap()
  // sleeps, so mosaic is waiting in its own code when the signal comes.
  const std::string dir = makeTempDir("mosaic-segv");
  std::string command;
  for (const std::string &a : {std::string(MOSAIC_EXE), std::string("run"), std::string("-p"),
                               std::string(MOSAIC_FIXTURE_HOSTILE_DB_DIR), kHostile + "hostile.c",
                               std::string("--function"), std::string("nap"), std::string("--timeout"),
                               std::string("1000"), std::string("--budget"), std::string("120s"),
                               std::string("--no-progress"), std::string("--work-dir"), dir + "/work"})
    command += "'" + a + "' ";
  auto r = runProcess({"/bin/sh", "-c", command + "2>" + dir + "/err & p=$!; sleep 2; kill -SEGV $p; wait $p"});
  const std::string err = readFile(dir + "/err");
  if (err.find("AddressSanitizer") != std::string::npos) {
    // A sanitized mosaic: AddressSanitizer's own report, which has a stack.
    EXPECT_NE(err.find("#0 "), std::string::npos) << err;
    return;
  }
  EXPECT_EQ(r.exitCode, 3) << err; // internal error, at once: not after the budget
  EXPECT_NE(err.find("mosaic itself crashed with SIGSEGV"), std::string::npos) << err;
  // Symbolised: frames name mosaic's functions, down to main.
  EXPECT_NE(err.find(" main "), std::string::npos) << err;
}

TEST(HostileCli, RunsBudgetIncludesConfirmingAndMinimisingFailures) {
  // Every test of block() hangs: each costs the wall-clock bound (10 s at
  // --timeout 1000) to find, to confirm, and at each step of minimising
  // it. The 3 s budget holds them all but the one test under way when it
  // ends (before, 60 s and more).
  const std::string dir = makeTempDir("mosaic-nap");
  std::vector<std::string> argv{MOSAIC_EXE, "run", "-p", MOSAIC_FIXTURE_HOSTILE_DB_DIR, kHostile + "hostile.c",
                                "--function", "block", "--timeout", "1000", "--seed", "1", "--no-progress",
                                "--work-dir", dir + "/work", "--json", dir + "/run.json"};
  // The harness built first, by a run of a function that returns at once.
  auto warm = argv;
  warm[6] = "fine";
  warm.insert(warm.end(), {"--max-executions", "1"});
  ASSERT_LE(runProcess(warm).exitCode, 1);
  argv.insert(argv.end(), {"--budget", "3s"});
  const auto start = std::chrono::steady_clock::now();
  auto r = runProcess(argv);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LE(r.exitCode, 1) << r.err;
  // One test's wall-clock bound (10 s), and start-up with a built harness:
  // under 25 s even on a loaded machine.
  EXPECT_LT(seconds, 25.0) << r.out;
  const auto j = nlohmann::json::parse(readFile(dir + "/run.json"));
  EXPECT_LT(j["elapsed_seconds"].get<double>(), 16.0);
}

TEST(HostileCli, OutputPathsMosaicCannotWriteAreUsageErrorsBeforeTheSearch) {
  const std::string dir = makeTempDir("mosaic-paths");
  const std::string file = dir + "/a-file";
  std::ofstream(file) << "x";
  auto generateTo = [&](const std::string &out, const std::string &json) {
    std::vector<std::string> argv{MOSAIC_EXE, "generate", "-p", MOSAIC_FIXTURE_SEARCH_DB_DIR, kSearch + "vault.c",
                                  "-o", out, "--no-verify", "--no-progress", "--work-dir", dir + "/work"};
    if (!json.empty()) argv.insert(argv.end(), {"--json", json});
    return runProcess(argv);
  };
  for (const auto &[out, json, says] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {file, "", "is not a folder"},
           {"/dev/null", "", "is not a folder"},
           {"/proc/mosaic-out", "", "cannot make the output folder"},
           {dir + "/ok", "/proc/mosaic/stats.json", "cannot write --json"},
           {dir + "/ok", dir, "is a folder"}}) {
    auto r = generateTo(out, json);
    EXPECT_EQ(r.exitCode, 2) << out << " " << json << "\n" << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("search "), std::string::npos) << "the search ran: " << r.out;
  }
  auto run = runProcess({MOSAIC_EXE, "run", "-p", MOSAIC_FIXTURE_SEARCH_DB_DIR, kSearch + "vault.c", "--json",
                         "/proc/mosaic/run.json", "--no-progress", "--work-dir", dir + "/work"});
  EXPECT_EQ(run.exitCode, 2) << run.err;
}

TEST(HostileCli, AProjectsOwnFilesAreNeverOverwritten) {
  const std::string dir = makeTempDir("mosaic-project");
  const std::string own = "cmake_minimum_required(VERSION 3.16)\nproject(theirs C)\n";
  std::ofstream(dir + "/CMakeLists.txt") << own;
  auto generateTo = [&](const std::string &out) {
    return runProcess({MOSAIC_EXE, "generate", "-p", MOSAIC_FIXTURE_SEARCH_DB_DIR, kSearch + "vault.c", "-o", out,
                       "--no-verify", "--no-progress", "--work-dir", dir + "/work"});
  };
  auto r = generateTo(dir);
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find("holds CMakeLists.txt, which mosaic did not write"), std::string::npos) << r.err;
  EXPECT_EQ(readFile(dir + "/CMakeLists.txt"), own);
  // A folder of mosaic's own suite is written again.
  ASSERT_LE(generateTo(dir + "/suite").exitCode, 1);
  EXPECT_LE(generateTo(dir + "/suite").exitCode, 1);
}

TEST(HostileCli, AnExceptionInAnyStepEndsWithCodeThreeAndAMessage) {
  const std::string dir = makeTempDir("mosaic-fault");
  for (const char *step : {"session", "search", "reduce", "minimise", "extend", "observe", "minimise-failures",
                           "sanitize-check", "classify-failures", "write", "report"}) {
    auto r = runProcess({"/usr/bin/env", std::string("MOSAIC_FAULT=") + step, MOSAIC_EXE, "generate", "-p",
                         MOSAIC_FIXTURE_SEARCH_DB_DIR, kSearch + "vault.c", "-o", dir + "/suite", "--no-verify",
                         "--no-progress", "--work-dir", dir + "/work"});
    EXPECT_EQ(r.exitCode, 3) << step << "\n" << r.err;
    EXPECT_NE(r.err.find(std::string("internal error: a fault injected at '") + step + "'"), std::string::npos) << r.err;
  }
  for (const char *step : {"session", "search", "minimise-failures", "report"}) {
    auto r = runProcess({"/usr/bin/env", std::string("MOSAIC_FAULT=") + step, MOSAIC_EXE, "run", "-p",
                         MOSAIC_FIXTURE_SEARCH_DB_DIR, kSearch + "vault.c", "--max-executions", "10", "--no-progress",
                         "--work-dir", dir + "/work"});
    EXPECT_EQ(r.exitCode, 3) << step << "\n" << r.err;
  }
}

TEST(HostileCli, AGlobalConstructorThatAbortsIsNamedAsTheCause) {
  const std::string dir = makeTempDir("mosaic-init");
  auto r = runProcess({MOSAIC_EXE, "run", "-p", MOSAIC_FIXTURE_HOSTILE_DB_DIR, kHostile + "hostile_init.cpp",
                       "--max-executions", "10", "--no-progress", "--work-dir", dir + "/work"});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("killed by SIGABRT before serving, in the unit's static initialisation"), std::string::npos)
      << r.err;
}

TEST(HostileCli, AHeaderIsNotAUnit) {
  auto r = runProcess({MOSAIC_EXE, "generate", "-p", MOSAIC_FIXTURE_SEARCH_DB_DIR, kSearch + "meter.h", "-o",
                       makeTempDir("mosaic-header") + "/suite"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("is a header, not a unit: give the source file that includes it"), std::string::npos) << r.err;
}

TEST(HostileCli, AWrittenTestThatWritesFilesWritesThemInAFolderOfItsOwn) {
  // write_file() creates mosaic-hostile.txt where it runs: in the suite, a
  // temporary folder of the test's own, never the build folder.
  const std::string dir = makeTempDir("mosaic-suite-files");
  auto r = generateHostile(dir, "write_file", "50");
  ASSERT_LE(r.exitCode, 1) << r.err;
  const std::string suite = readFile(dir + "/suite/hostile_test.cpp");
  EXPECT_NE(suite.find("write_file()"), std::string::npos) << suite;
  EXPECT_NE(suite.find("class MosaicTestFolder"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir + "/suite/build/mosaic-hostile.txt"));
  auto t = runProcess({"/usr/bin/ctest", "--test-dir", dir + "/suite/build"});
  EXPECT_EQ(t.exitCode, 0) << t.out;
  EXPECT_FALSE(fs::exists(dir + "/suite/build/mosaic-hostile.txt"));
}

TEST(HostileCli, VerificationKillsWhatATestLeavesRunningAndStopsOnASignal) {
  // fork_loop(n) leaves n children sleeping forever: in the written suite's
  // runs they end with the test binary's process group, not after minutes.
  const std::string dir = makeTempDir("mosaic-forks");
  const auto start = std::chrono::steady_clock::now();
  auto r = generateHostile(dir, "fork_loop", "30");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LE(r.exitCode, 1) << r.err;
  EXPECT_NE(r.out.find("verified     written"), std::string::npos) << r.out;
  EXPECT_LT(seconds, 90.0) << r.out; // before: about 100 s a run of the suite, 5 runs
  EXPECT_EQ(runningUnder(dir), "0\n") << "test processes left running";
}

TEST(HostileCli, VerificationKillsWhatATestStartedOutsideItsProcessGroup) {
  // escape_group(n) leaves children that setsid() away from the test
  // binary's process group (and from the re-observing server's, which has
  // no PID namespace): the pids cgroups still end them. Before: 280 of
  // the suite's and 8 of the server's left running.
  const std::string dir = makeTempDir("mosaic-setsid");
  auto r = generateHostile(dir, "escape_group", "30");
  EXPECT_LE(r.exitCode, 1) << r.err;
  EXPECT_NE(r.out.find("verified     written"), std::string::npos) << r.out;
  EXPECT_EQ(runningUnder(dir), "0\n") << "test processes left running";
}

TEST(HostileCli, AValueThatIsAPidIsNeverAsserted) {
  // own_pid() returns getpid(): the same in every run of the search (the
  // fork server's PID namespace), different in the server that re-observes
  // tests without one, so no assertion pins it.
  const std::string dir = makeTempDir("mosaic-pid");
  auto r = generateHostile(dir, "own_pid", "20");
  ASSERT_LE(r.exitCode, 1) << r.err;
  const std::string suite = readFile(dir + "/suite/hostile_test.cpp");
  EXPECT_NE(suite.find("own_pid()"), std::string::npos) << suite;
  EXPECT_EQ(suite.find("EXPECT_EQ(result"), std::string::npos) << suite;
}
