// Batches: several tests in one round trip to the fork server (ForkServer::
// runBatch), each in a trace slot of its own. Each test of a batch ends as
// it would alone, whatever the tests before it did, its output and
// observations in its own slot; a batch stops at its deadline, after a
// slow test, and when the caller's stop flag is set.
#include "common/TestSupport.h"
#include "common/UnitHarness.h"

#include <gtest/gtest.h>

#include "mosaic/abi/Protocol.h"

#include <csignal>
#include <optional>
#include <string>
#include <vector>

using namespace mosaic;
using namespace mosaic::test;

namespace {

const std::string kDir = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/hostile/";

class Batch : public ::testing::TestWithParam<bool> {
protected:
  static UnitHarness &u() {
    static auto h = UnitHarness::make(MOSAIC_FIXTURE_HOSTILE_DB_DIR, kDir + "hostile.c");
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

INSTANTIATE_TEST_SUITE_P(Modes, Batch, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool> &p) { return p.param ? "Persistent" : "Isolated"; });
