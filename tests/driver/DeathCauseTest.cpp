// Whom a dead test binary is blamed on: the bisection over the tests that
// ran before the one it died in, and the words for how it died.
#include "DeathCause.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

using mosaic::ProcessResult;
using mosaic::driver::DeathCause;
using mosaic::driver::findDeathCause;
using mosaic::driver::howItDied;

namespace {

std::vector<std::string> names(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back("S.t" + std::to_string(i));
  return out;
}

// A process dies when it runs the victim after every test in `needed`.
struct Model {
  std::set<std::string> needed;
  bool victimDiesAlone = false;
  int runs = 0;
  bool operator()(const std::vector<std::string> &tests) {
    ++runs;
    EXPECT_EQ(tests.back(), "S.victim"); // the victim runs last, after the others
    if (victimDiesAlone) return true;
    if (needed.empty()) return false;
    return std::all_of(needed.begin(), needed.end(),
                       [&](const std::string &n) { return std::find(tests.begin(), tests.end(), n) != tests.end(); });
  }
};

} // namespace

TEST(DeathCause, OneTestThatLeavesStateBehindIsFoundInLogarithmicRuns) {
  const auto before = names(100);
  for (int culprit : {0, 37, 99}) {
    Model m{{before[static_cast<size_t>(culprit)]}};
    const DeathCause c = findDeathCause(before, "S.victim", std::ref(m));
    EXPECT_EQ(c.kind, DeathCause::Kind::Polluter);
    EXPECT_EQ(c.polluter, before[static_cast<size_t>(culprit)]);
    // Alone, all, then at most two a halving.
    EXPECT_LE(m.runs, 2 + 2 * static_cast<int>(std::ceil(std::log2(100.0))));
  }
}

TEST(DeathCause, ATestThatDiesAloneIsToBlameInOneRun) {
  Model m;
  m.victimDiesAlone = true;
  EXPECT_EQ(findDeathCause(names(10), "S.victim", std::ref(m)).kind, DeathCause::Kind::Alone);
  EXPECT_EQ(m.runs, 1);
}

TEST(DeathCause, ADeathThatTakesTwoEarlierTestsBlamesNoSingleOne) {
  const auto before = names(8);
  Model m{{before[1], before[6]}};
  const DeathCause c = findDeathCause(before, "S.victim", std::ref(m));
  EXPECT_EQ(c.kind, DeathCause::Kind::Together);
  EXPECT_TRUE(c.polluter.empty());
}

TEST(DeathCause, ADeathTheSameTestsDoNotRepeatIsNotReproduced) {
  Model m; // nothing kills the victim: a process killed from outside
  EXPECT_EQ(findDeathCause(names(5), "S.victim", std::ref(m)).kind, DeathCause::Kind::NotReproduced);
  EXPECT_EQ(m.runs, 2);
  Model first;
  EXPECT_EQ(findDeathCause({}, "S.victim", std::ref(first)).kind, DeathCause::Kind::NotReproduced);
  EXPECT_EQ(first.runs, 1); // the first test of the run: alone is the same run
}

TEST(DeathCause, HowItDiedNamesTheSignalAndTheLastWordsOfTheProgram) {
  ProcessResult abort{128 + 6, "Running main() from gtest_main.cc\n[ RUN      ] S.t\nfree(): invalid pointer\n", false};
  EXPECT_EQ(howItDied(abort), "killed by signal 6 (SIGABRT): free(): invalid pointer");
  ProcessResult killed{128 + 9, "[ RUN      ] S.t\n", false};
  EXPECT_EQ(howItDied(killed), "killed by signal 9 (SIGKILL)");
  ProcessResult hung{124, "[ RUN      ] S.t\n", false};
  EXPECT_EQ(howItDied(hung), "timed out");
  ProcessResult exited{3, "bye\n[ RUN      ] S.t\n", false};
  EXPECT_EQ(howItDied(exited), "exit code 3: bye");
  EXPECT_EQ(howItDied(ProcessResult{0, "fine", false}), "");
}
