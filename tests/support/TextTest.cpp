#include "mosaic/support/Text.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace mosaic;

TEST(EditDistance, CountsInsertDeleteReplace) {
  EXPECT_EQ(editDistance("", ""), 0u);
  EXPECT_EQ(editDistance("abc", "abc"), 0u);
  EXPECT_EQ(editDistance("abc", "ab"), 1u);
  EXPECT_EQ(editDistance("abc", "xbc"), 1u);
  EXPECT_EQ(editDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(editDistance("", "four"), 4u);
}

TEST(ClosestMatches, NearestFirstWithinBound) {
  const std::vector<std::string> names{"cJSON_Parse", "cJSON_Print", "cJSON_Delete", "parse_value", "cJSON_Parse"};
  EXPECT_EQ(closestMatches("cJSON_Prase", names), (std::vector<std::string>{"cJSON_Parse", "cJSON_Print"}));
  EXPECT_TRUE(closestMatches("zzzzzz", names).empty());
  EXPECT_EQ(closestMatches("cJSON_Parse", names, 1), (std::vector<std::string>{"cJSON_Parse"}));
}

TEST(JoinOr, ReadsAsEnglish) {
  EXPECT_EQ(joinOr({}), "");
  EXPECT_EQ(joinOr({"a"}), "a");
  EXPECT_EQ(joinOr({"a", "b"}), "a or b");
  EXPECT_EQ(joinOr({"a", "b", "c"}), "a, b or c");
}

TEST(ReadFile, ReadsEveryByteOrNothing) {
  const std::string path = (std::filesystem::temp_directory_path() / "mosaic-readfile-test.bin").string();
  const std::string bytes("a\0b\r\n\xff", 6);
  std::ofstream(path, std::ios::binary) << bytes;
  EXPECT_EQ(readFile(path), bytes);
  std::remove(path.c_str());
  EXPECT_EQ(readFile(path), "");
}
