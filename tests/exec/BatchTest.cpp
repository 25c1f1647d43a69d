// Batches: several tests in one round trip to the fork server (ForkServer::
// runBatch), each in a trace slot of its own. Each test of a batch ends as
// it would alone, whatever the tests before it did, its output and
// observations in its own slot; a batch stops at its deadline, after a
// slow test, and when the caller's stop flag is set.
#include "common/TestSupport.h"
#include "common/UnitHarness.h"

#include <gtest/gtest.h>

#include "mosaic/abi/Protocol.h"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <fstream>
#include <thread>
#include <optional>
#include <string>
#include <vector>

using namespace mosaic;
using namespace mosaic::test;

namespace {

const std::string kHostileDir = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/hostile/";

class Batch : public ::testing::TestWithParam<bool> {
protected:
  static UnitHarness &u() {
    static auto h = UnitHarness::make(MOSAIC_FIXTURE_HOSTILE_DB_DIR, kHostileDir + "hostile.c");
    return *h;
  }
  exec::Limits limits() const {
    exec::Limits l;
    l.timeoutMs = 200; // spin() ends at it
    l.memoryMb = 256;
    l.persistent = GetParam();
    return l;
  }
  // The integer observed for statement `stmt`'s result in slot `i`.
  static std::optional<std::int64_t> result(size_t i, std::uint32_t stmt) {
    for (const auto &o : u().server->trace(i).observations())
      if (o.statement == stmt && o.target == MOSAIC_OBS_RESULT && o.field == -1) return o.integer;
    return std::nullopt;
  }
};

struct Step {
  const char *function;
  std::vector<Arg> args;
  exec::Outcome outcome;
  std::optional<std::int64_t> result; // of the call's statement, when it returns
};

} // namespace

TEST_P(Batch, EachTestEndsAsItWouldAloneWithItsOwnOutputAndObservations) {
  const bool persistent = GetParam();
  // Faults, an abort, a hang, an exit, stray processes, files, globals and
  // process state changed, between tests that print and return values.
  const std::vector<Step> steps = {
      {"say", {std::int64_t{1}}, exec::Outcome::Ok, 1},
      {"segfault", {std::int64_t{0}}, exec::Outcome::Crash, std::nullopt},
      {"say", {std::int64_t{2}}, exec::Outcome::Ok, 2},
      {"bump", {}, exec::Outcome::Ok, 6},
      {"bump", {}, exec::Outcome::Ok, 6},
      {"do_abort", {}, exec::Outcome::Abort, std::nullopt},
      {"write_file", {}, exec::Outcome::Ok, 1},
      {"file_left", {}, exec::Outcome::Ok, 0},
      {"spin", {}, exec::Outcome::Timeout, std::nullopt},
      {"say", {std::int64_t{3}}, exec::Outcome::Ok, 3},
      {"fork_loop", {std::int64_t{3}}, exec::Outcome::Ok, 3},
      {"say", {std::int64_t{4}}, exec::Outcome::Ok, 4},
      {"change_state", {}, exec::Outcome::Ok, 50},
      {"state_is_fresh", {}, exec::Outcome::Ok, 1},
      {"do_exit", {std::int64_t{3}}, exec::Outcome::Exit, std::nullopt},
      {"say", {std::int64_t{5}}, exec::Outcome::Ok, 5},
  };
  ASSERT_LE(steps.size(), u().server->batchCapacity());
  std::vector<std::vector<std::uint8_t>> inputs;
  for (const Step &s : steps) inputs.push_back(testcase::encode(u().call(s.function, s.args)));
  for (int round = 0; round < 2; ++round) { // the second after a persistent child ran the first
    auto rs = u().server->runBatch(inputs, limits(), {.slowMs = 0}); // spin() takes its 200 ms
    ASSERT_TRUE(rs) << rs.error().message;
    ASSERT_EQ(rs->size(), steps.size());
    for (size_t i = 0; i < steps.size(); ++i) {
      const Step &s = steps[i];
      const exec::RunResult &r = (*rs)[i];
      const std::uint32_t call = static_cast<std::uint32_t>(s.args.size());
      EXPECT_EQ(r.outcome, s.outcome) << i << " " << s.function << ": " << exec::describe(r);
      if (s.result) EXPECT_EQ(result(i, call), s.result) << i << " " << s.function;
      const std::string output(u().server->trace(i).output());
      if (std::string(s.function) == "say")
        EXPECT_EQ(output, "said " + std::to_string(*s.result) + "\n") << i;
      else
        EXPECT_EQ(output.find("said"), std::string::npos) << i << " " << s.function << ": " << output;
    }
    // A null pointer does not end a persistent child: the next test runs in it.
    EXPECT_EQ((*rs)[1].recovered, persistent);
    EXPECT_EQ((*rs)[2].fresh, !persistent);
    // After an exit, a new child.
    EXPECT_TRUE((*rs)[15].fresh);
  }
  // And alone, as before.
  EXPECT_EQ(u().run(u().call("say", {std::int64_t{7}}), limits()).outcome, exec::Outcome::Ok);
  EXPECT_EQ(u().server->trace().output(), "said 7\n");
}

TEST_P(Batch, ABatchStopsAtItsDeadlineAfterASlowTestAndWhenTheCallerStops) {
  std::vector<std::vector<std::uint8_t>> naps(4, testcase::encode(u().call("nap", {std::int64_t{60}})));
  exec::Limits l = limits();
  l.timeoutMs = 1000;
  // Tests start at about 0, 60, 120 and 180 ms: none starts past 100 ms.
  auto byDeadline = u().server->runBatch(naps, l, {.deadlineMs = 100, .slowMs = 0});
  ASSERT_TRUE(byDeadline) << byDeadline.error().message;
  EXPECT_GE(byDeadline->size(), 1u);
  EXPECT_LT(byDeadline->size(), 4u);
  for (const exec::RunResult &r : *byDeadline) EXPECT_EQ(r.outcome, exec::Outcome::Ok) << exec::describe(r);
  // None after a test of 50 ms or more.
  auto bySlow = u().server->runBatch(naps, l, {.slowMs = 50});
  ASSERT_TRUE(bySlow) << bySlow.error().message;
  EXPECT_EQ(bySlow->size(), 1u);
  // None after the caller set its flag (here before it began: the first
  // test still runs).
  volatile std::sig_atomic_t stop = 1;
  auto byFlag = u().server->runBatch(naps, l, {.slowMs = 0, .stop = &stop});
  ASSERT_TRUE(byFlag) << byFlag.error().message;
  EXPECT_EQ(byFlag->size(), 1u);
  // The server serves the next batch in full.
  auto all = u().server->runBatch(naps, l, {.slowMs = 0});
  ASSERT_TRUE(all) << all.error().message;
  EXPECT_EQ(all->size(), 4u);
}

TEST_P(Batch, ABatchsTracesStayAsTheyWereWhileTheNextOneRuns) {
  std::vector<std::vector<std::uint8_t>> first, second;
  for (std::int64_t n : {1, 2}) first.push_back(testcase::encode(u().call("say", {n})));
  for (std::int64_t n : {3, 4}) second.push_back(testcase::encode(u().call("say", {n})));
  auto a = u().server->runBatch(first, limits());
  ASSERT_TRUE(a) << a.error().message;
  ASSERT_EQ(a->size(), 2u);
  EXPECT_EQ(u().server->trace(1).output(), "said 2\n");
  // The next batch runs in the other bank of slots: by the time it has
  // surely ended, the first's traces are still there to read.
  u().server->startBatch(second, limits());
  EXPECT_TRUE(u().server->batchStarted());
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(u().server->trace(0).output(), "said 1\n");
  EXPECT_EQ(u().server->trace(1).output(), "said 2\n");
  EXPECT_EQ(result(1, 1), 2);
  // No single test while a batch is out.
  EXPECT_FALSE(u().server->run(testcase::encode(u().call("say", {std::int64_t{9}})), limits()));
  auto b = u().server->finishBatch();
  ASSERT_TRUE(b) << b.error().message;
  ASSERT_EQ(b->size(), 2u);
  EXPECT_EQ(u().server->trace(0).output(), "said 3\n");
  EXPECT_EQ(u().server->trace(1).output(), "said 4\n");
  EXPECT_EQ(result(1, 1), 4);
  // Then alone, and a batch again, each where its traces say.
  EXPECT_EQ(u().run(u().call("say", {std::int64_t{5}}), limits()).outcome, exec::Outcome::Ok);
  EXPECT_EQ(u().server->trace().output(), "said 5\n");
  auto c = u().server->runBatch(first, limits());
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(u().server->trace(0).output(), "said 1\n");
  EXPECT_EQ(u().server->trace().output(), "said 2\n");
}

TEST_P(Batch, ABatchReleasedIsClearedAndTheBatchThatReusesItsSlotsEndsAsAnyOther) {
  std::vector<std::vector<std::uint8_t>> first, second;
  for (std::int64_t n : {1, 2}) first.push_back(testcase::encode(u().call("say", {n})));
  for (std::int64_t n : {3, 4}) second.push_back(testcase::encode(u().call("say", {n})));
  ASSERT_TRUE(u().server->runBatch(first, limits()));
  const auto blocks = [](size_t i) {
    const auto b = u().server->trace(i).blocks();
    return std::vector<std::uint8_t>(b.begin(), b.end());
  };
  // A block's byte: 0 when it did not run (abi/Trace.h).
  const auto ranCount = [](const std::vector<std::uint8_t> &b) { return b.size() - std::count(b.begin(), b.end(), 0); };
  const std::vector<std::uint8_t> ran = blocks(1);
  ASSERT_NE(ranCount(ran), 0u);
  u().server->releaseBatch();
  EXPECT_EQ(u().server->trace(1).output(), "");
  const std::vector<std::uint8_t> cleared = blocks(1);
  EXPECT_EQ(ranCount(cleared), 0u);
  EXPECT_TRUE(u().server->trace(1).observations().empty());
  // The next batch is in the other bank; the one after reuses the cleared
  // slots and covers what the first did.
  ASSERT_TRUE(u().server->runBatch(second, limits()));
  EXPECT_EQ(u().server->trace(1).output(), "said 4\n");
  ASSERT_TRUE(u().server->runBatch(first, limits()));
  EXPECT_EQ(u().server->trace(1).output(), "said 2\n");
  EXPECT_EQ(result(1, 1), 2);
  EXPECT_EQ(blocks(1), ran);
}

INSTANTIATE_TEST_SUITE_P(Modes, Batch, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool> &p) { return p.param ? "Persistent" : "Isolated"; });

namespace {

// The single CPU in /proc/PID/status's Cpus_allowed_list, -1 when more.
int boundTo(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("Cpus_allowed_list:", 0) == 0) {
      const std::string list = line.substr(line.find_first_not_of(" \t", 18));
      return list.find_first_of(",-") == std::string::npos ? std::stoi(list) : -1;
    }
  return -1;
}

int threadCpu() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) != 1) return -1;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) return c;
  return -1;
}

} // namespace

TEST(BatchCpus, TheServerRunsOnItsOwnCpuAndTheCallerJoinsItForSingleTests) {
  cpu_set_t before;
  ASSERT_EQ(sched_getaffinity(0, sizeof before, &before), 0);
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE && cpus.size() < 2; ++c)
    if (CPU_ISSET(c, &before)) cpus.push_back(c);
  if (cpus.size() < 2) GTEST_SKIP() << "one CPU: the server has none of its own";
  static auto h = UnitHarness::make(MOSAIC_FIXTURE_HOSTILE_DB_DIR, kHostileDir + "hostile.c");
  // As a pinned search: the caller on one CPU, its server on the other.
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpus[0], &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
  struct Restore {
    cpu_set_t set;
    ~Restore() { sched_setaffinity(0, sizeof set, &set); }
  } restore{before};
  exec::ServerOptions so;
  so.harness = h->built.binary;
  so.cpu = cpus[1];
  so.callerCpu = cpus[0];
  auto server = exec::ForkServer::start(so, h->description.blocks, h->description.sides);
  ASSERT_TRUE(server) << server.error().message;
  EXPECT_EQ(boundTo((*server)->pid()), cpus[1]);
  exec::Limits l;
  l.persistent = true;
  std::vector<std::vector<std::uint8_t>> two;
  for (std::int64_t n : {1, 2}) two.push_back(testcase::encode(h->call("say", {n})));
  ASSERT_TRUE((*server)->runBatch(two, l));
  EXPECT_EQ(threadCpu(), cpus[0]); // a batch: beside the server
  ASSERT_TRUE((*server)->run(testcase::encode(h->call("say", {std::int64_t{3}})), l));
  EXPECT_EQ(threadCpu(), cpus[1]); // a single test: with it
  EXPECT_EQ((*server)->trace().output(), "said 3\n");
  ASSERT_TRUE((*server)->runBatch(two, l));
  EXPECT_EQ(threadCpu(), cpus[0]);
  EXPECT_EQ((*server)->trace(1).output(), "said 2\n");
}
