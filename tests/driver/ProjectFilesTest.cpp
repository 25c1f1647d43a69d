// Which of a compile database's files are the project's library code.
#include "ProjectFiles.h"

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
