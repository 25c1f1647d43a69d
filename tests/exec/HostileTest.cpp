// A unit that crashes, hangs, leaks, forks, writes files, exits and throws:
// each outcome is reported exactly, mosaic keeps running and loses nothing,
// in persistent children and in a fresh process per test alike.
#include "common/TestSupport.h"
#include "common/UnitHarness.h"

#include <gtest/gtest.h>

#include "mosaic/abi/Protocol.h"
#include "mosaic/driver/Toolchain.h"
#include "mosaic/exec/Stack.h"
#include "mosaic/support/Cgroup.h"

#include <csignal>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

using namespace mosaic;
using namespace mosaic::test;

namespace {

const std::string kDir = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/hostile/";

class Hostile : public ::testing::TestWithParam<bool> {
protected:
  static UnitHarness &c() {
    static auto h = UnitHarness::make(MOSAIC_FIXTURE_HOSTILE_DB_DIR, kDir + "hostile.c");
    return *h;
  }
  static UnitHarness &cxx() {
    static auto h = UnitHarness::make(MOSAIC_FIXTURE_HOSTILE_DB_DIR, kDir + "hostile_cxx.cpp");
    return *h;
  }
  exec::Limits limits(std::uint32_t timeoutMs = 1000) const {
    exec::Limits l;
    l.timeoutMs = timeoutMs;
    l.memoryMb = 256;
    l.persistent = GetParam();
    return l;
  }
  // After anything hostile, the unit still answers.
  void stillFine(UnitHarness &u, const char *fine = "fine") {
    const exec::RunResult r = u.run(u.call(fine, {std::int64_t{41}}), limits());
    ASSERT_EQ(r.outcome, exec::Outcome::Ok) << exec::describe(r);
    EXPECT_TRUE(u.result(1).has_value());
  }
};

} // namespace

TEST_P(Hostile, Segfault) {
  const exec::RunResult r = c().run(c().call("segfault", {std::int64_t{0}}), limits());
  EXPECT_EQ(r.outcome, exec::Outcome::Crash);
  EXPECT_EQ(r.signal, SIGSEGV);
  EXPECT_EQ(r.statement, 1);
  stillFine(c());
}

TEST_P(Hostile, AFaultAtANullPointerEndsTheTestButNotAPersistentChild) {
  // A persistent child goes on past a null pointer or a division by zero in
  // the unit's own code: the crash is reported as ever, and the next test
  // needs no new process (a fresh one for every test when isolated).
  UnitHarness &u = c();
  const bool persistent = GetParam();
  for (const auto &[function, args, signal] :
       {std::tuple{"segfault", std::vector<Arg>{std::int64_t{0}}, SIGSEGV},
        std::tuple{"divide", std::vector<Arg>{std::int64_t{1}, std::int64_t{0}}, SIGFPE}}) {
    const exec::RunResult r = u.run(u.call(function, args), limits());
    EXPECT_EQ(r.outcome, exec::Outcome::Crash) << function;
    EXPECT_EQ(r.signal, signal) << function;
    EXPECT_EQ(r.statement, static_cast<int>(args.size())) << function;
    EXPECT_EQ(r.recovered, persistent) << function;
    EXPECT_FALSE(r.stack.empty()) << function;
    const exec::RunResult next = u.run(u.call("fine", {std::int64_t{41}}), limits());
    ASSERT_EQ(next.outcome, exec::Outcome::Ok) << exec::describe(next);
    EXPECT_EQ(next.fresh, !persistent) << function;
    EXPECT_EQ(u.result(1), 42);
  }
  // A fault anywhere else may follow memory the test corrupted: the child
  // ends with it, and the next test starts in a new one.
  const exec::RunResult wild = u.run(u.call("segfault", {std::int64_t{0x10000000}}), limits());
  EXPECT_EQ(wild.outcome, exec::Outcome::Crash);
  EXPECT_EQ(wild.signal, SIGSEGV);
  EXPECT_FALSE(wild.recovered);
  const exec::RunResult next = u.run(u.call("fine", {std::int64_t{41}}), limits());
  ASSERT_EQ(next.outcome, exec::Outcome::Ok) << exec::describe(next);
  EXPECT_TRUE(next.fresh);
}

TEST_P(Hostile, JunkATestWritesIntoTheHarnesssPipeIsNoOutcomeOfTheUnits) {
  // Descriptor 4 is a persistent child's pipe to the server (its done
  // records): junk written there is no record of the child's (it lacks the
  // child's token), so the test is a harness error, not a crash of the
  // unit with a made-up signal, and the next test runs in a new child.
  UnitHarness &u = c();
  const bool persistent = GetParam();
  const exec::RunResult r = u.run(u.call("scribble", {std::int64_t{4}}), limits());
  EXPECT_EQ(r.outcome, persistent ? exec::Outcome::HarnessError : exec::Outcome::Ok) << exec::describe(r);
  const exec::RunResult next = u.run(u.call("fine", {std::int64_t{41}}), limits());
  ASSERT_EQ(next.outcome, exec::Outcome::Ok) << exec::describe(next);
  EXPECT_EQ(u.result(1), 42);
  if (persistent) EXPECT_TRUE(next.fresh);
}

TEST_P(Hostile, AFaultInAProcessOrThreadTheTestStartedIsNotGoneOnPast) {
  UnitHarness &u = c();
  // The test's own child dies of its fault; the test goes on and ends well.
  const exec::RunResult forked = u.run(u.call("child_faults", {}), limits());
  ASSERT_EQ(forked.outcome, exec::Outcome::Ok) << exec::describe(forked);
  EXPECT_EQ(u.result(0), SIGSEGV);
  stillFine(u);
  // A thread's fault ends the whole process.
  const exec::RunResult threaded = u.run(u.call("thread_faults", {}), limits());
  EXPECT_EQ(threaded.outcome, exec::Outcome::Crash);
  EXPECT_EQ(threaded.signal, SIGSEGV);
  EXPECT_FALSE(threaded.recovered);
  stillFine(u);
}

TEST_P(Hostile, Abort) {
  const exec::RunResult r = c().run(c().call("do_abort", {}), limits());
  EXPECT_EQ(r.outcome, exec::Outcome::Abort);
  EXPECT_EQ(r.signal, SIGABRT);
  EXPECT_EQ(r.statement, 0);
  stillFine(c());
}

TEST_P(Hostile, ExitWithACode) {
  const exec::RunResult r = c().run(c().call("do_exit", {std::int64_t{3}}), limits());
  EXPECT_EQ(r.outcome, exec::Outcome::Exit);
  EXPECT_EQ(r.exitCode, 3);
  EXPECT_EQ(r.statement, 1);
  const exec::RunResult zero = c().run(c().call("do_exit", {std::int64_t{0}}), limits());
  EXPECT_EQ(zero.outcome, exec::Outcome::Exit); // exit(0) mid-test is not a finished test
  EXPECT_EQ(zero.exitCode, 0);
  stillFine(c());
}

TEST_P(Hostile, InfiniteLoopTimesOut) {
  const exec::RunResult r = c().run(c().call("spin", {}), limits(200));
  EXPECT_EQ(r.outcome, exec::Outcome::Timeout);
  EXPECT_EQ(r.statement, 0);
  EXPECT_GE(r.durationUs, 200'000u);
  EXPECT_GE(r.cpuUs, 200'000u); // the CPU time it used, read before it was reaped
  stillFine(c());
}

// The limit is CPU time, so that a busy machine does not turn a test into a
// timeout: a test that sleeps past it in wall-clock time is not one...
TEST_P(Hostile, SleepingPastTheLimitIsNotATimeout) {
  const exec::RunResult r = c().run(c().call("nap", {std::int64_t{300}}), limits(100));
  EXPECT_EQ(r.outcome, exec::Outcome::Ok) << exec::describe(r);
  EXPECT_GE(r.durationUs, 300'000u);
  stillFine(c());
}

// ... and one that blocks for good ends at the wall-clock bound.
TEST_P(Hostile, BlockingForeverEndsAtTheWallClockBound) {
  const exec::RunResult r = c().run(c().call("block", {}), limits(100));
  EXPECT_EQ(r.outcome, exec::Outcome::Timeout);
  EXPECT_EQ(r.statement, 0);
  EXPECT_GE(r.durationUs, MOSAIC_WALL_LIMIT_MS(100) * 1000u);
  stillFine(c());
}

// One that can never wake (its only thread waits on a mutex it holds, as
// malloc's lock after a heap corruption) is a timeout as soon as the server
// sees it, not at the wall-clock bound; a blocked one that a signal could
// still wake is not stuck.
TEST_P(Hostile, ADeadlockedTestIsATimeoutWithoutWaitingForTheWallClockBound) {
  const exec::RunResult r = c().run(c().call("lock_twice", {}), limits(1000));
  EXPECT_EQ(r.outcome, exec::Outcome::Timeout) << exec::describe(r);
  EXPECT_TRUE(r.stuck);
  EXPECT_EQ(r.statement, 0);
  const exec::RunResult blocked = c().run(c().call("block", {}), limits(100));
  EXPECT_EQ(blocked.outcome, exec::Outcome::Timeout);
  EXPECT_FALSE(blocked.stuck);
  stillFine(c());
}

TEST_P(Hostile, UnboundedRecursionOverflowsTheStack) {
  const exec::RunResult r = c().run(c().call("recurse", {std::int64_t{0}}), limits());
  EXPECT_EQ(r.outcome, exec::Outcome::Crash);
  EXPECT_EQ(r.signal, SIGSEGV);
  stillFine(c());
}

TEST_P(Hostile, MallocBombStopsAtTheMemoryLimit) {
  const exec::RunResult r = c().run(c().call("malloc_bomb", {}), limits(5000));
  EXPECT_EQ(r.outcome, exec::Outcome::Ok);
  const auto megabytes = c().result(0);
  ASSERT_TRUE(megabytes.has_value());
  EXPECT_GT(*megabytes, 10);
  EXPECT_LT(*megabytes, 256); // RLIMIT_AS of 256 MiB bounds it
  stillFine(c());
}

TEST_P(Hostile, ForkLoopIsContainedAndCleanedUp) {
  const exec::RunResult r = c().run(c().call("fork_loop", {std::int64_t{300}}), limits(5000));
  EXPECT_EQ(r.outcome, exec::Outcome::Ok) << exec::describe(r);
  const auto made = c().result(1);
  ASSERT_TRUE(made.has_value());
  if (c().server->features() & MOSAIC_FEATURE_CGROUP_PIDS) EXPECT_LE(*made, 64); // the pids limit held
  // The children it left waiting are gone: the next test runs normally.
  stillFine(c());
}

TEST_P(Hostile, FilesStayInTheScratchDirectoryOfTheTest) {
  const exec::RunResult w = c().run(c().call("write_file", {}), limits());
  ASSERT_EQ(w.outcome, exec::Outcome::Ok);
  EXPECT_EQ(c().result(0), 1);
  const exec::RunResult after = c().run(c().call("file_left", {}), limits());
  ASSERT_EQ(after.outcome, exec::Outcome::Ok);
  EXPECT_EQ(c().result(0), 0); // cleaned between tests
}

TEST_P(Hostile, AFileGrowingPastTheSizeLimitStopsTheTestThere) {
  const exec::RunResult r = c().run(c().call("fill_file", {std::int64_t{1000}}), limits(5000));
  EXPECT_EQ(r.outcome, exec::Outcome::Crash) << exec::describe(r);
  EXPECT_EQ(r.signal, SIGXFSZ);
  // Under the limit a file is written whole.
  const exec::RunResult small = c().run(c().call("fill_file", {std::int64_t{exec::Limits{}.fileSizeMb}}), limits());
  ASSERT_EQ(small.outcome, exec::Outcome::Ok) << exec::describe(small);
  EXPECT_EQ(c().result(1), exec::Limits{}.fileSizeMb);
  stillFine(c());
}

TEST_P(Hostile, ClosingStdoutDoesNotHurt) {
  EXPECT_EQ(c().run(c().call("close_stdout", {}), limits()).outcome, exec::Outcome::Ok);
  stillFine(c());
}

TEST_P(Hostile, ATestThatClosesTheHarnesssDescriptorsEndsNormallyWithItsTrace) {
  // A persistent child can then neither read the next test from its slot
  // nor say that this one ended: the server takes the trace from the
  // child's work trace once the child is gone.
  const exec::RunResult r = c().run(c().call("close_descriptors", {std::int64_t{7}}), limits());
  ASSERT_EQ(r.outcome, exec::Outcome::Ok) << exec::describe(r);
  EXPECT_EQ(c().result(1), 7);
  stillFine(c());
}

TEST_P(Hostile, RaisedSignalsAreCrashesWithThatSignal) {
  for (int sig : {SIGTERM, SIGUSR1, SIGBUS, SIGFPE}) {
    const exec::RunResult r = c().run(c().call("raise_signal", {std::int64_t{sig}}), limits());
    EXPECT_EQ(r.outcome, exec::Outcome::Crash) << sig;
    EXPECT_EQ(r.signal, sig);
  }
  stillFine(c());
}

TEST_P(Hostile, MegabytesOfOutputAreCappedNotFatal) {
  const exec::RunResult r = c().run(c().call("print_megabytes", {std::int64_t{8}}), limits(5000));
  EXPECT_EQ(r.outcome, exec::Outcome::Ok);
  EXPECT_EQ(c().server->trace().output().size(), MOSAIC_OUTPUT_BYTES);
  EXPECT_GT(c().server->trace().header().output_dropped, 7u << 20);
  stillFine(c());
}

TEST_P(Hostile, GlobalsStartFromTheirInitialValueInEveryTest) {
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(c().run(c().call("bump", {}), limits()).outcome, exec::Outcome::Ok);
    EXPECT_EQ(c().result(0), 6);
  }
}

TEST(HostileInit, ACxxGlobalWhoseConstructorAllocatesNothingIsPutBackInAPersistentChild) {
  auto u = UnitHarness::make(MOSAIC_FIXTURE_HOSTILE_DB_DIR, kDir + "init_plain.cpp");
  EXPECT_TRUE(u->server->features() & MOSAIC_FEATURE_PERSISTENT);
  exec::Limits persistent;
  persistent.persistent = true;
  for (int i = 0; i < 3; ++i) {
    const exec::RunResult r = u->run(u->call("count_up", {}), persistent);
    ASSERT_EQ(r.outcome, exec::Outcome::Ok) << exec::describe(r);
    EXPECT_EQ(u->result(0), 6);
    EXPECT_EQ(r.fresh, i == 0);
  }
}

TEST(HostileInit, ACxxGlobalThatOwnsHeapMemoryGetsAFreshProcessForEveryTest) {
  auto u = UnitHarness::make(MOSAIC_FIXTURE_HOSTILE_DB_DIR, kDir + "init_heap.cpp");
  EXPECT_FALSE(u->server->features() & MOSAIC_FEATURE_PERSISTENT);
  exec::Limits persistent;
  persistent.persistent = true;
  for (int i = 0; i < 3; ++i) {
    const exec::RunResult r = u->run(u->call("append_owned", {std::int64_t{3}}), persistent);
    ASSERT_EQ(r.outcome, exec::Outcome::Ok) << exec::describe(r);
    EXPECT_EQ(u->result(1), 203);
    EXPECT_TRUE(r.fresh);
  }
}

TEST_P(Hostile, CxxExceptionsAreRecordedWithTypeAndMessage) {
  UnitHarness &u = cxx();
  const exec::RunResult r = u.run(u.call("throw_runtime_error", {std::int64_t{7}}), limits());
  EXPECT_EQ(r.outcome, exec::Outcome::Ok); // the test stops at the statement that threw
  ASSERT_EQ(u.server->trace().statements().size(), 2u);
  EXPECT_EQ(u.server->trace().statements()[1].status, static_cast<std::uint32_t>(MOSAIC_STMT_THREW));
  const auto obs = u.server->trace().observations();
  ASSERT_FALSE(obs.empty());
  EXPECT_EQ(obs.back().kind, MOSAIC_OBS_EXCEPTION);
  EXPECT_EQ(obs.back().bytes, std::string("std::runtime_error\0boom 7", 25));

  u.run(u.call("throw_int", {std::int64_t{1}}), limits());
  EXPECT_EQ(u.server->trace().observations().back().bytes, std::string("int\0", 4));
  u.run(u.call("throw_custom", {std::int64_t{1}}), limits());
  EXPECT_EQ(u.server->trace().observations().back().bytes, std::string("Custom\0", 7));
  stillFine(u, "fine_cxx");
}

TEST_P(Hostile, BadAllocIsOutOfMemory) {
  UnitHarness &u = cxx();
  const exec::RunResult r = u.run(u.call("allocate", {std::int64_t{1} << 40}), limits());
  EXPECT_EQ(r.outcome, exec::Outcome::OutOfMemory);
  EXPECT_EQ(r.statement, 1);
  stillFine(u, "fine_cxx");
}

TEST_P(Hostile, ServerRestartsWhenKilled) {
  // Kill the fork server itself: the next run starts a new one.
  UnitHarness &u = c();
  const auto before = u.server->restarts();
  ASSERT_EQ(u.run(u.call("fine", {std::int64_t{1}}), limits()).outcome, exec::Outcome::Ok);
  kill(u.server->pid(), SIGKILL);
  const exec::RunResult r = u.run(u.call("fine", {std::int64_t{1}}), limits());
  EXPECT_EQ(r.outcome, exec::Outcome::Ok);
  EXPECT_EQ(u.server->restarts(), before + 1);
}

TEST_P(Hostile, EveryServerStartMeetsTheSameAddresses) {
  // The same test at the same seed must behave the same in every run of
  // mosaic: servers start with address-space randomisation off.
  UnitHarness &u = c();
  std::set<std::int64_t> heaps, stacks;
  for (int start = 0; start < 3; ++start) {
    kill(u.server->pid(), SIGKILL); // the next run starts a new server
    ASSERT_EQ(u.run(u.call("heap_address", {}), limits()).outcome, exec::Outcome::Ok);
    heaps.insert(u.result(0).value_or(0));
    ASSERT_EQ(u.run(u.call("stack_address", {}), limits()).outcome, exec::Outcome::Ok);
    stacks.insert(u.result(0).value_or(0));
  }
  EXPECT_EQ(heaps.size(), 1u);
  EXPECT_EQ(stacks.size(), 1u);
  EXPECT_NE(*heaps.begin(), 0);
}

TEST_P(Hostile, WritesOutsideTheScratchDirectoryFailOrLandInAThrowAwayTmp) {
  UnitHarness &u = c();
  if (!(u.server->features() & MOSAIC_FEATURE_FS_SANDBOX)) GTEST_SKIP() << "no mount namespace on this machine";
  // Under the host's /tmp (the test sees a private, empty one), and in the
  // build tree (read-only to the test).
  const std::string inTmp = makeTempDir("mosaic-escape") + "/escaped.txt";
  const std::string inTree = std::string(MOSAIC_BINARY_DIR) + "/escaped-" + std::to_string(getpid()) + ".txt";
  for (const std::string &path : {inTmp, inTree}) {
    ASSERT_EQ(u.run(u.call("write_to", {path}), limits()).outcome, exec::Outcome::Ok);
    EXPECT_EQ(u.result(1), 0) << path;
    EXPECT_FALSE(std::filesystem::exists(path)) << path;
  }
  stillFine(u);
}

TEST_P(Hostile, TheNextTestStartsFromAFreshProcessState) {
  // chdir("/"), setenv, umask(0) and 50 open files in one test; none of it
  // in the next, also when one persistent child runs both.
  UnitHarness &u = c();
  ASSERT_EQ(u.run(u.call("change_state", {}), limits()).outcome, exec::Outcome::Ok);
  EXPECT_EQ(u.result(0), 50);
  ASSERT_EQ(u.run(u.call("state_is_fresh", {}), limits()).outcome, exec::Outcome::Ok);
  EXPECT_EQ(u.result(0), 1);
}

TEST_P(Hostile, ATestThatRewritesTheEnvironmentLeavesTheNextOneTheOriginal) {
  // A string written into, a variable unset, one set: the next test (by the
  // same persistent child, or a fresh one) sees the environment as it was.
  UnitHarness &u = c();
  ASSERT_EQ(u.run(u.call("environment_signature", {}), limits()).outcome, exec::Outcome::Ok);
  const auto before = u.result(0);
  ASSERT_TRUE(before.has_value());
  ASSERT_GE(*before, 4); // at least two variables, neither scrambled
  ASSERT_EQ(u.run(u.call("scramble_environment", {}), limits()).outcome, exec::Outcome::Ok);
  ASSERT_EQ(u.run(u.call("environment_signature", {}), limits()).outcome, exec::Outcome::Ok);
  EXPECT_EQ(u.result(0), before);
}

TEST_P(Hostile, ATestCannotKillTheServer) {
  UnitHarness &u = c();
  if (!(u.server->features() & MOSAIC_FEATURE_PID_NAMESPACE)) GTEST_SKIP() << "no PID namespace on this machine";
  const auto before = u.server->restarts();
  const exec::RunResult r = u.run(u.call("kill_parent", {}), limits());
  EXPECT_EQ(r.outcome, exec::Outcome::Ok) << exec::describe(r);
  EXPECT_EQ(u.result(0), 1);
  EXPECT_EQ(u.server->restarts(), before); // the server ignored both signals
  stillFine(u);
}

TEST_P(Hostile, EveryServerStartGivesTheTestsTheSamePids) {
  UnitHarness &u = c();
  if (!(u.server->features() & MOSAIC_FEATURE_PID_NAMESPACE)) GTEST_SKIP() << "no PID namespace on this machine";
  std::set<std::int64_t> pids;
  for (int start = 0; start < 3; ++start) {
    kill(u.server->pid(), SIGKILL); // the next run starts a new server
    ASSERT_EQ(u.run(u.call("own_pid", {}), limits()).outcome, exec::Outcome::Ok);
    pids.insert(u.result(0).value_or(0));
  }
  EXPECT_EQ(pids.size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(Modes, Hostile, ::testing::Values(true, false),
                         [](const auto &info) { return info.param ? std::string("Persistent") : std::string("Isolated"); });

// On a machine without namespaces (no CAP_SYS_ADMIN): the server is
// within a test's reach, so what a test does to it is that test's result,
// and what a killed server leaves is cleaned up.
namespace {
UnitHarness &withoutNamespaces() {
  static auto h = UnitHarness::make(MOSAIC_FIXTURE_HOSTILE_DB_DIR, kDir + "hostile.c", false, /*namespaces=*/false);
  return *h;
}

// The scratch folders this process's servers have under the temporary root.
std::vector<std::string> ourScratchFolders() {
  std::vector<std::string> out;
  const std::string prefix = "mosaic-scratch-" + std::to_string(getpid()) + "-";
  std::error_code ec;
  for (const auto &e : std::filesystem::directory_iterator(temporaryRoot(), ec))
    if (e.path().filename().string().rfind(prefix, 0) == 0) out.push_back(e.path().string());
  return out;
}
} // namespace

TEST(HostileWithoutNamespaces, ATestThatKillsTheServerIsACrashOfThatTestAndTheNextTestRuns) {
  UnitHarness &u = withoutNamespaces();
  ASSERT_FALSE(u.server->features() & MOSAIC_FEATURE_PID_NAMESPACE);
  for (const bool persistent : {true, false}) {
    exec::Limits limits;
    limits.persistent = persistent;
    const exec::RunResult r = u.run(u.call("kill_parent", {}), limits);
    EXPECT_EQ(r.outcome, exec::Outcome::Crash) << exec::describe(r);
    EXPECT_TRUE(r.killedServer);
    EXPECT_TRUE(r.signal == SIGTERM || r.signal == SIGKILL) << r.signal;
    EXPECT_EQ(r.statement, 0);
    EXPECT_NE(exec::describe(r).find("ended the fork server"), std::string::npos) << exec::describe(r);
    const exec::RunResult next = u.run(u.call("fine", {std::int64_t{41}}), limits);
    EXPECT_EQ(next.outcome, exec::Outcome::Ok) << exec::describe(next);
  }
}

TEST(HostileWithoutNamespaces, AKilledServerLeavesNoScratchFolder) {
  UnitHarness &u = withoutNamespaces();
  ASSERT_FALSE(u.server->features() & MOSAIC_FEATURE_FS_SANDBOX);
  ASSERT_EQ(u.run(u.call("fine", {std::int64_t{1}})).outcome, exec::Outcome::Ok);
  const auto before = ourScratchFolders();
  ASSERT_EQ(before.size(), 1u);
  kill(u.server->pid(), SIGKILL);
  ASSERT_EQ(u.run(u.call("fine", {std::int64_t{1}})).outcome, exec::Outcome::Ok); // a new server
  const auto after = ourScratchFolders();
  ASSERT_EQ(after.size(), 1u);
  EXPECT_NE(after[0], before[0]);
  EXPECT_FALSE(std::filesystem::exists(before[0]));
}

// The frames of a stack that name the fixture's own functions, "fn:line".
std::vector<std::string> fixtureFrames(const UnitHarness &u, const std::vector<std::uint64_t> &stack) {
  exec::Symbolizer symbolizer(driver::toolchain().llvmSymbolizer, u.built.binary);
  auto frames = symbolizer.symbolize(stack);
  EXPECT_TRUE(static_cast<bool>(frames)) << (frames ? "" : frames.error().message);
  std::vector<std::string> out;
  if (frames)
    for (const exec::Frame &f : *frames)
      if (f.file.find("fixtures/hostile/") != std::string::npos) out.push_back(f.function + ":" + std::to_string(f.line));
  return out;
}

TEST_P(Hostile, ACrashRecordsItsStackInnermostFirst) {
  const exec::RunResult r = c().run(c().call("segfault", {std::int64_t{0}}), limits());
  ASSERT_EQ(r.outcome, exec::Outcome::Crash);
  ASSERT_FALSE(r.stack.empty());
  const auto frames = fixtureFrames(c(), r.stack);
  ASSERT_FALSE(frames.empty());
  EXPECT_EQ(frames[0], "segfault:18"); // `return *p;`
  // An abort's stack goes through libc (abort, raise): its first frame in
  // the unit is the caller.
  const exec::RunResult a = c().run(c().call("do_abort", {}), limits());
  ASSERT_EQ(a.outcome, exec::Outcome::Abort);
  const auto aborted = fixtureFrames(c(), a.stack);
  ASSERT_FALSE(aborted.empty());
  EXPECT_EQ(aborted[0], "do_abort:21");
  // A test that ends well leaves no stack.
  const exec::RunResult ok = c().run(c().call("fine", {std::int64_t{1}}), limits());
  EXPECT_TRUE(ok.stack.empty());
}

TEST_P(Hostile, TheProgramsOwnAbortsAndNullCallsEndTheTestButNotAPersistentChild) {
  // assert() and abort() called by the unit, a null pointer handed to a
  // libc function that faults before touching its stack (strlen), a call
  // through a null function pointer, a load of the word before a null
  // pointer: each is reported as ever, with the
  // unit's frame first, and the child goes on.
  UnitHarness &u = c();
  const bool persistent = GetParam();
  for (const auto &[function, args, outcome, signal, frame] :
       {std::tuple{"check_positive", std::vector<Arg>{std::int64_t{-1}}, exec::Outcome::Abort, SIGABRT,
                   "check_positive:257"},
        std::tuple{"do_abort", std::vector<Arg>{}, exec::Outcome::Abort, SIGABRT, "do_abort:21"},
        std::tuple{"null_length", std::vector<Arg>{}, exec::Outcome::Crash, SIGSEGV, "null_length:264"},
        std::tuple{"call_null", std::vector<Arg>{}, exec::Outcome::Crash, SIGSEGV, ""},
        std::tuple{"header_of_null", std::vector<Arg>{}, exec::Outcome::Crash, SIGSEGV, "header_of_null:325"}}) {
    const exec::RunResult r = u.run(u.call(function, args), limits());
    EXPECT_EQ(r.outcome, outcome) << function;
    EXPECT_EQ(r.signal, signal) << function;
    EXPECT_EQ(r.recovered, persistent) << function;
    if (*frame) {
      const auto frames = fixtureFrames(u, r.stack);
      ASSERT_FALSE(frames.empty()) << function;
      EXPECT_EQ(frames[0], frame);
    }
    if (std::string_view(function) == "check_positive") // glibc's message, in either mode
      EXPECT_NE(u.server->trace().output().find("hostile.c:257: int check_positive(int): Assertion `x >= 0' failed.\n"),
                std::string_view::npos)
          << u.server->trace().output();
    const exec::RunResult next = u.run(u.call("fine", {std::int64_t{41}}), limits());
    ASSERT_EQ(next.outcome, exec::Outcome::Ok) << exec::describe(next);
    EXPECT_EQ(next.fresh, !persistent) << function;
  }
  // A pointer past user space is garbage, not null: the child ends.
  const exec::RunResult wild = u.run(u.call("past_user_space", {}), limits());
  EXPECT_EQ(wild.outcome, exec::Outcome::Crash);
  EXPECT_FALSE(wild.recovered);
  EXPECT_TRUE(u.run(u.call("fine", {std::int64_t{41}}), limits()).fresh);
  // libc's own abort (its heap check, inside free) ends the child; so does
  // an abort the program handles itself, whose handler runs.
  const exec::RunResult heap = u.run(u.call("double_free", {}), limits());
  EXPECT_EQ(heap.outcome, exec::Outcome::Abort);
  EXPECT_FALSE(heap.recovered);
  EXPECT_TRUE(u.run(u.call("fine", {std::int64_t{41}}), limits()).fresh);
  const exec::RunResult handled = u.run(u.call("abort_handled", {}), limits());
  EXPECT_EQ(handled.outcome, exec::Outcome::Exit) << exec::describe(handled);
  EXPECT_EQ(handled.exitCode, 7);
  stillFine(u);
}

TEST_P(Hostile, AStackOverflowRecordsItsStackToo) {
  // The handler runs on a stack of its own.
  const exec::RunResult r = c().run(c().call("recurse", {std::int64_t{0}}), limits());
  ASSERT_EQ(r.outcome, exec::Outcome::Crash);
  EXPECT_FALSE(r.recovered); // a fault on the stack's guard page ends the child
  const auto frames = fixtureFrames(c(), r.stack);
  ASSERT_EQ(frames.size(), static_cast<size_t>(MOSAIC_STACK_CAPACITY));
  EXPECT_EQ(frames[0].rfind("recurse:", 0), 0u);
}

TEST(HostileSanitized, HeapOverflowIsASanitizerReport) {
  auto u = UnitHarness::make(MOSAIC_FIXTURE_HOSTILE_DB_DIR, kDir + "hostile.c", /*sanitize=*/true);
  const exec::RunResult r = u->run(u->call("heap_overflow", {std::int64_t{8}}));
  EXPECT_EQ(r.outcome, exec::Outcome::Sanitizer);
  EXPECT_NE(u->server->trace().output().find("heap-buffer-overflow"), std::string_view::npos);
  // Its stack, read off the report (unsymbolised: module+offset).
  const auto stack = exec::reportStack(u->server->trace().output(), u->built.binary);
  const auto frames = fixtureFrames(*u, stack);
  ASSERT_FALSE(frames.empty()) << u->server->trace().output();
  EXPECT_EQ(frames[0].rfind("heap_overflow:", 0), 0u);
  const exec::RunResult ok = u->run(u->call("heap_overflow", {std::int64_t{3}}));
  EXPECT_EQ(ok.outcome, exec::Outcome::Ok);
}

TEST(HostileSanitized, ChildrenAreMadeWithoutForkHandlersAndRunTheSameTests) {
  // ASan's fork handlers cost a sanitized child ~15 ms here
  // (bench/results/speed-2026-12-02b): its server, on its one thread, makes
  // children with _Fork. The tests run the same either way, each report
  // ending its child and the next test running in a new one.
  const auto outcomes = [](UnitHarness &u) {
    std::vector<exec::Outcome> got;
    for (const auto &[function, arg] : std::vector<std::pair<const char *, std::int64_t>>{
             {"heap_overflow", 8}, {"fine", 41}, {"heap_overflow", 3}, {"heap_overflow", 9}, {"fine", 1}})
      got.push_back(u.run(u.call(function, {arg})).outcome);
    return got;
  };
  const std::vector<exec::Outcome> expected{exec::Outcome::Sanitizer, exec::Outcome::Ok, exec::Outcome::Ok,
                                            exec::Outcome::Sanitizer, exec::Outcome::Ok};
  auto without = UnitHarness::make(MOSAIC_FIXTURE_HOSTILE_DB_DIR, kDir + "hostile.c", /*sanitize=*/true);
  EXPECT_TRUE(without->server->features() & MOSAIC_FEATURE_FORK_NO_HANDLERS);
  EXPECT_EQ(outcomes(*without), expected);
  setenv(MOSAIC_ENV_FORK_HANDLERS, "1", 1); // the way before, for bench/results/speed-2026-12-02b's A/B
  auto with = UnitHarness::make(MOSAIC_FIXTURE_HOSTILE_DB_DIR, kDir + "hostile.c", /*sanitize=*/true);
  unsetenv(MOSAIC_ENV_FORK_HANDLERS);
  EXPECT_FALSE(with->server->features() & MOSAIC_FEATURE_FORK_NO_HANDLERS);
  EXPECT_EQ(outcomes(*with), expected);
  // A plain harness has no sanitizer's handlers to skip: fork() as ever.
  auto plain = UnitHarness::make(MOSAIC_FIXTURE_HOSTILE_DB_DIR, kDir + "hostile.c");
  EXPECT_FALSE(plain->server->features() & MOSAIC_FEATURE_FORK_NO_HANDLERS);
}

TEST(HostileSanitized, WritingPastATestsVariableIsASanitizerReport) {
  // write_past(&v, n): each variable of a test is followed by poisoned
  // bytes, as the written test's locals are by ASan's redzones; without
  // them the write landed in the harness's own memory and the test passed.
  auto u = UnitHarness::make(MOSAIC_FIXTURE_HOSTILE_DB_DIR, kDir + "hostile.c", /*sanitize=*/true);
  const model::Callable &write = u->callable("write_past");
  const auto writePast = [&](std::int64_t n) {
    testcase::TestCase t;
    const model::TypeId intType = u->program.type(*u->program.type(write.params[0].type).pointee).value;
    t.statements = {testcase::Statement{.op = testcase::Op::Primitive, .type = intType, .bits = 1},
                    testcase::Statement{.op = testcase::Op::AddressOf, .type = write.params[0].type, .refs = {0}},
                    testcase::Statement{.op = testcase::Op::Primitive, .type = write.params[1].type,
                                        .bits = static_cast<std::uint64_t>(n)},
                    testcase::Statement{.op = testcase::Op::Call, .callable = write.id, .refs = {1, 2}}};
    return u->run(t);
  };
  for (int round = 0; round < 2; ++round) { // a redzone of the test before is a variable now
    const exec::RunResult r = writePast(2);
    EXPECT_EQ(r.outcome, exec::Outcome::Sanitizer) << exec::describe(r);
    const auto frames = fixtureFrames(*u, exec::reportStack(u->server->trace().output(), u->built.binary));
    ASSERT_FALSE(frames.empty()) << u->server->trace().output();
    EXPECT_EQ(frames[0].rfind("write_past:", 0), 0u) << u->server->trace().output();
    EXPECT_EQ(writePast(0).outcome, exec::Outcome::Ok);
  }
}

TEST_P(Hostile, WritingOverTheSharedTraceDoesNotReachMosaic) {
  // The host reads the trace by its own layout, and lays it out again
  // before the next test: garbage offsets and capacities in the shared
  // header once made mosaic read far outside the mapping and die.
  for (int k = 0; k < 3; ++k) {
    const exec::RunResult r = c().run(c().call("scribble_trace", {}), limits());
    EXPECT_NE(r.outcome, exec::Outcome::HarnessError) << exec::describe(r);
    // Every area read in full, as an Execution copies them.
    const exec::Trace &t = c().server->trace();
    double sum = 0;
    for (double d : t.sides()) sum += d;
    for (double d : t.mutants()) sum += d;
    for (std::uint8_t b : t.blocks()) sum += b;
    for (std::uint8_t b : t.direct()) sum += b;
    EXPECT_GE(sum, 0.0);
    EXPECT_LE(t.output().size(), std::size_t{MOSAIC_OUTPUT_BYTES});
    (void)t.observations();
    stillFine(c());
  }
}
