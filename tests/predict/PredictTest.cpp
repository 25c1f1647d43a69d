// Defect prediction: Schwa over real git histories made here with the git
// command (commits with set authors, times and messages), and BADS's
// budgets.
#include "mosaic/predict/Bads.h"
#include "mosaic/predict/History.h"
#include "mosaic/predict/Schwa.h"
#include "mosaic/support/Process.h"
#include "common/TestSupport.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>

using namespace mosaic;
using namespace mosaic::predict;
namespace fs = std::filesystem;

namespace {

// Commit times in the tests count from here (2020-09-13).
constexpr long kEpoch = 1600000000;

// A repository in a fresh folder; commit() sets author, e-mail and time.
class Repo {
public:
  Repo() : dir_(test::makeTempDir("mosaic-predict")) { git({"init", "-q", "-b", "main"}); }
  const std::string &dir() const { return dir_; }
  void write(const std::string &path, const std::string &text) {
    fs::create_directories(fs::path(dir_ + "/" + path).parent_path());
    std::ofstream(dir_ + "/" + path) << text;
  }
  void git(const std::vector<std::string> &args, long time = 0, const std::string &email = "a@x") {
    std::vector<std::string> argv{"git", "-C", dir_};
    argv.insert(argv.end(), args.begin(), args.end());
    ProcessOptions o;
    const std::string date = "@" + std::to_string(kEpoch + time) + " +0000";
    o.env = {{"GIT_AUTHOR_NAME", email}, {"GIT_AUTHOR_EMAIL", email}, {"GIT_COMMITTER_NAME", email},
             {"GIT_COMMITTER_EMAIL", email}, {"GIT_AUTHOR_DATE", date}, {"GIT_COMMITTER_DATE", date},
             {"GIT_CONFIG_NOSYSTEM", "1"}, {"HOME", dir_}};
    auto r = runProcess(argv, o);
    ASSERT_TRUE(r && r->exitCode == 0) << (r ? r->output : r.error().message);
  }
  void commit(const std::string &message, long time, const std::string &email = "a@x") {
    git({"add", "-A"}, time, email);
    git({"commit", "-q", "--allow-empty", "-m", message}, time, email);
  }

private:
  std::string dir_;
};

// The history of `r` with `spans` tracked, scored by Schwa's defaults.
Prediction scoresOf(const Repo &r, const std::map<std::string, std::vector<FunctionSpan>> &spans) {
  auto h = readHistory(r.dir(), spans);
  EXPECT_TRUE(h) << h.error().message;
  return h ? schwa(*h, spans) : Prediction{};
}

const Score &fileScore(const Prediction &p, const std::string &file) {
  static const Score none;
  auto it = p.files.find(file);
  EXPECT_NE(it, p.files.end()) << file;
  return it == p.files.end() ? none : it->second;
}

} // namespace

TEST(Schwa, TheTimeWeightFollowsThePublishedCurve) {
  // ALGORITHMS.md §3.1, TR = 0.4.
  EXPECT_NEAR(timeWeight(0, 0.4), 3.4e-4, 1e-5);
  EXPECT_NEAR(timeWeight(0.5, 0.4), 0.12, 0.005);
  EXPECT_NEAR(timeWeight(2.0 / 3.0, 0.4), 0.5, 1e-9);
  EXPECT_NEAR(timeWeight(1, 0.4), 0.98, 0.005);
}

TEST(Schwa, RecentFixesAndMoreAuthorsRankAFileHigher) {
  Repo r;
  r.write("src/a.c", "int a;\n");
  r.write("src/b.c", "int b;\n");
  r.write("README", "not code\n");
  r.commit("initial import", 1000, "alice@x");
  r.write("src/a.c", "int a = 1;\n");
  r.commit("Fix a crash in a", 2000, "bob@x");
  r.write("src/b.c", "int b = 2;\n");
  r.commit("add a feature to b", 3000, "alice@x");
  auto h = readHistory(r.dir(), {});
  ASSERT_TRUE(h) << h.error().message;
  EXPECT_EQ(h->files, (std::vector<std::string>{"src/a.c", "src/b.c"})); // the README is not code
  EXPECT_EQ(h->commits.size(), 3u);
  EXPECT_EQ(h->oldest, kEpoch + 1000);
  EXPECT_EQ(h->newest, kEpoch + 3000);
  EXPECT_FALSE(h->shallow);
  const Prediction p = schwa(*h, {});
  const Score &a = fileScore(p, "src/a.c"), &b = fileScore(p, "src/b.c");
  EXPECT_EQ(a.commits, 2);
  EXPECT_EQ(a.fixCommits, 1);
  EXPECT_EQ(a.authorCount, 2);
  EXPECT_EQ(b.commits, 2);
  EXPECT_EQ(b.fixCommits, 0);
  EXPECT_EQ(b.authorCount, 1);
  // a: revisions at t = 0 and 0.5, the fix at 0.5, bob's first at 0.5.
  const double w0 = timeWeight(0, 0.4), w5 = timeWeight(0.5, 0.4), w1 = timeWeight(1, 0.4);
  EXPECT_NEAR(a.revisions, w0 + w5, 1e-12);
  EXPECT_NEAR(a.fixes, w5, 1e-12);
  EXPECT_NEAR(a.authors, w0 + w5, 1e-12);
  EXPECT_NEAR(a.score, 0.25 * (w0 + w5) + 0.5 * w5 + 0.25 * (w0 + w5), 1e-12);
  EXPECT_NEAR(a.probability, 1 - std::exp(-a.score), 1e-12);
  // b: alice's first commit to it is the oldest one.
  EXPECT_NEAR(b.authors, w0, 1e-12);
  EXPECT_NEAR(b.revisions, w0 + w1, 1e-12);
  // The newest change outweighs the fix here; the fix is named as a reason.
  ASSERT_EQ(a.recentFixes.size(), 1u);
  EXPECT_EQ(a.recentFixes[0].summary, "Fix a crash in a");
  EXPECT_GT(b.probability, a.probability);
}

TEST(Schwa, TheFixPatternHasNoWordBoundariesAndIsConfigurable) {
  Repo r;
  r.write("x.c", "1\n");
  r.commit("start", 100);
  r.write("x.c", "2\n");
  r.commit("add debug output", 200); // "debug" matches "bug", as in Schwa
  auto h = readHistory(r.dir(), {});
  ASSERT_TRUE(h);
  EXPECT_EQ(fileScore(schwa(*h, {}), "x.c").fixCommits, 1);
  SchwaOptions strict;
  strict.fixPattern = R"(\bfix(es|ed)?\b)";
  EXPECT_EQ(fileScore(schwa(*h, {}, strict), "x.c").fixCommits, 0);
}

TEST(History, ARenameCarriesHistoryAndARecreatedFileStartsAfresh) {
  Repo r;
  r.write("old.c", "int f(void) { return 1; }\n");
  r.write("gone.c", "int g;\n");
  r.commit("fix f", 100);
  r.git({"mv", "old.c", "new.c"}, 200);
  r.commit("rename", 200);
  r.git({"rm", "-q", "gone.c"}, 300);
  r.commit("remove gone", 300);
  r.write("gone.c", "double g;\n");
  r.commit("a new gone", 400);
  const Prediction p = scoresOf(r, {});
  EXPECT_EQ(fileScore(p, "new.c").commits, 2);    // created as old.c, then renamed
  EXPECT_EQ(fileScore(p, "new.c").fixCommits, 1); // old.c's fix counts
  EXPECT_EQ(fileScore(p, "gone.c").commits, 1);   // the deleted one's history is not its
  EXPECT_EQ(p.files.count("old.c"), 0u);
}

TEST(History, ChangesAreMappedToTodaysFunctionsThroughLaterEdits) {
  Repo r;
  r.write("f.c", "int a(void) {\n  return 1;\n}\nint b(void) {\n  /* old */\n  return 2;\n}\n");
  r.commit("both", 100);
  // A line removed inside b.
  r.write("f.c", "int a(void) {\n  return 1;\n}\nint b(void) {\n  return 2;\n}\n");
  r.commit("fix b", 200);
  // Three lines added above both: touches neither, shifts both.
  r.write("f.c", "/* one\n   two\n   three */\nint a(void) {\n  return 1;\n}\nint b(void) {\n  return 2;\n}\n");
  r.commit("comment", 300);
  r.write("f.c", "/* one\n   two\n   three */\nint a(void) {\n  return 10;\n}\nint b(void) {\n  return 2;\n}\n");
  r.commit("change a", 400);
  const std::map<std::string, std::vector<FunctionSpan>> spans{{"f.c", {{"a", 4, 6}, {"b", 7, 9}}}};
  const Prediction p = scoresOf(r, spans);
  ASSERT_EQ(p.functions.at("f.c").size(), 2u);
  const Score &a = p.functions.at("f.c")[0], &b = p.functions.at("f.c")[1];
  EXPECT_EQ(a.commits, 2); // "both" and "change a"
  EXPECT_EQ(a.fixCommits, 0);
  EXPECT_EQ(b.commits, 2); // "both" and "fix b"
  EXPECT_EQ(b.fixCommits, 1);
  EXPECT_EQ(fileScore(p, "f.c").commits, 4);
  // The same spans given by absolute path.
  const std::map<std::string, std::vector<FunctionSpan>> absolute{{r.dir() + "/f.c", spans.at("f.c")}};
  auto h2 = readHistory(r.dir(), absolute);
  ASSERT_TRUE(h2);
  EXPECT_EQ(schwa(*h2, absolute).functions.at("f.c")[1].fixCommits, 1);
}

TEST(History, AMergeIsDiffedAgainstEachParent) {
  Repo r;
  r.write("m.c", "int m;\n");
  r.write("o.c", "int o;\n");
  r.commit("start", 100);
  r.git({"checkout", "-q", "-b", "topic"}, 150);
  r.write("m.c", "long m;\n");
  r.commit("topic changes m", 200);
  r.git({"checkout", "-q", "main"}, 250);
  r.write("o.c", "long o;\n");
  r.commit("main changes o", 300);
  r.git({"merge", "-q", "--no-ff", "-m", "merge topic", "topic"}, 400);
  const Prediction p = scoresOf(r, {});
  // Each: start, its own change, and the merge against the parent without it.
  EXPECT_EQ(fileScore(p, "m.c").commits, 3);
  EXPECT_EQ(fileScore(p, "o.c").commits, 3);
}

TEST(History, TheNewestCommitsOnlyWhenAskedAndTheWholeHistorysStart) {
  Repo r;
  for (int k = 1; k <= 5; ++k) {
    r.write("x.c", std::to_string(k) + "\n");
    r.commit("change " + std::to_string(k), 100 * k);
  }
  HistoryOptions o;
  o.maxCommits = 2;
  auto h = readHistory(r.dir(), {}, o);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->commits.size(), 2u);
  EXPECT_EQ(h->oldest, kEpoch + 100); // Schwa's begin: the oldest commit of all
  o.maxCommits = 0;
  o.revision = "HEAD~2"; // history cut before the last two
  auto cut = readHistory(r.dir(), {}, o);
  ASSERT_TRUE(cut);
  EXPECT_EQ(cut->commits.size(), 3u);
  EXPECT_EQ(cut->newest, kEpoch + 300);
}

TEST(History, NoRepositoryOrNoRevisionIsAnInputError) {
  const std::string plain = test::makeTempDir("mosaic-predict-plain");
  auto none = readHistory(plain, {});
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().kind, ErrorKind::Input);
  EXPECT_NE(none.error().message.find("no git repository"), std::string::npos);
  Repo r;
  r.write("x.c", "1\n");
  r.commit("one", 100);
  HistoryOptions o;
  o.revision = "no-such-branch";
  auto missing = readHistory(r.dir(), {}, o);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("no-such-branch"), std::string::npos);
}

TEST(Bads, TheTopTierGetsTheWeightedShareAndTheBottomTierItsMinimum) {
  // Four units, 60 s: tiers of two, 54 s and 6 s (1.8 : 0.2 a unit), tier 1
  // at least 15 s a unit, tier 2 split equally (its minimum is its average).
  const std::vector<double> p{0.1, 0.9, 0.5, 0.2};
  const auto t = allocateBads(p, 60);
  ASSERT_EQ(t.size(), 4u);
  EXPECT_NEAR(std::accumulate(t.begin(), t.end(), 0.0), 60, 1e-9);
  const double w0 = 0.02393705 + 0.9731946, w1 = 0.02393705 + 0.9731946 * std::exp(-10.47408);
  EXPECT_NEAR(t[1], 15 + 24 * w0 / (w0 + w1), 1e-9); // the most defective
  EXPECT_NEAR(t[2], 15 + 24 * w1 / (w0 + w1), 1e-9);
  EXPECT_NEAR(t[3], 3, 1e-9);
  EXPECT_NEAR(t[0], 3, 1e-9);
}

TEST(Bads, ThePapersBudgetsPerTierAtFifteenSecondsAUnit) {
  std::vector<double> p(10);
  for (size_t k = 0; k < p.size(); ++k) p[k] = 1.0 / static_cast<double>(k + 1);
  const auto t = allocateBads(p, 15 * 10.0);
  double tier1 = 0;
  for (size_t k = 0; k < 5; ++k) {
    tier1 += t[k];
    EXPECT_GE(t[k], 15 - 1e-9); // t_min 15 s
  }
  EXPECT_NEAR(tier1 / 5, 27, 1e-9);
  for (size_t k = 5; k < 10; ++k) EXPECT_NEAR(t[k], 3, 1e-9);
  for (size_t k = 1; k < 5; ++k) EXPECT_GT(t[k - 1], t[k]); // by rank
}

TEST(Bads, PredictionTimeComesOutOfTheTotalAndEvenSplitsEvenly) {
  const auto t = allocateBads({0.3, 0.3, 0.3}, 30, 6);
  EXPECT_NEAR(std::accumulate(t.begin(), t.end(), 0.0), 24, 1e-9);
  EXPECT_EQ(allocateEven(4, 60), (std::vector<double>{15, 15, 15, 15}));
  EXPECT_TRUE(allocateBads({}, 60).empty());
  EXPECT_EQ(allocateBads({0.5}, 60), (std::vector<double>{60}));
}

TEST(History, ALineChangedTwiceCountsForItsFunctionBothTimesAndADeletedFunctionForNone) {
  Repo r;
  r.write("g.c", "int keep(void) {\n  return 1;\n}\nint drop(void) {\n  return 2;\n}\nint last(void) {\n  return 3;\n}\n");
  r.commit("start", 100);
  r.write("g.c", "int keep(void) {\n  return 10;\n}\nint drop(void) {\n  return 20;\n}\nint last(void) {\n  return 3;\n}\n");
  r.commit("fix keep and drop", 200);
  r.write("g.c", "int keep(void) {\n  return 100;\n}\nint last(void) {\n  return 3;\n}\n");
  r.commit("fix keep again, remove drop", 300);
  const std::map<std::string, std::vector<FunctionSpan>> spans{{"g.c", {{"keep", 1, 3}, {"last", 4, 6}}}};
  const Prediction p = scoresOf(r, spans);
  ASSERT_EQ(p.functions.count("g.c"), 1u);
  EXPECT_EQ(p.functions.at("g.c")[0].commits, 3);    // its line 2, rewritten in each
  EXPECT_EQ(p.functions.at("g.c")[0].fixCommits, 2);
  EXPECT_EQ(p.functions.at("g.c")[1].commits, 1);    // only created: drop's changes are not last's
}

TEST(History, MergesCanBeSkippedAndNeverNameTheReasons) {
  Repo r;
  r.write("m.c", "int m;\n");
  r.write("o.c", "int o;\n");
  r.commit("start", 100);
  r.git({"checkout", "-q", "-b", "topic"}, 150);
  r.write("m.c", "long m;\n");
  r.commit("topic changes m", 200);
  r.git({"checkout", "-q", "main"}, 250);
  r.write("o.c", "long o;\n");
  r.commit("main changes o", 300);
  r.git({"merge", "-q", "--no-ff", "-m", "Merge the bugfix branch", "topic"}, 400);
  auto each = readHistory(r.dir(), {});
  ASSERT_TRUE(each);
  const Prediction p = schwa(*each, {});
  EXPECT_EQ(fileScore(p, "o.c").fixCommits, 1); // the merge's message, against the topic side
  EXPECT_TRUE(fileScore(p, "o.c").recentFixes.empty());
  HistoryOptions o;
  o.skipMerges = true;
  auto skipped = readHistory(r.dir(), {}, o);
  ASSERT_TRUE(skipped);
  EXPECT_EQ(fileScore(schwa(*skipped, {}), "o.c").commits, 2);
  EXPECT_EQ(fileScore(schwa(*skipped, {}), "o.c").fixCommits, 0);
}
