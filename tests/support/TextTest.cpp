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

TEST(IdentifierWords, SplitsAnUpperCaseWordsDigitsFromTheLowerCaseWordAfterThem) {
  using V = std::vector<std::string>;
  EXPECT_EQ(mosaic::identifierWords("cmsMD5add"), (V{"cms", "md5", "add"}));
  EXPECT_EQ(mosaic::identifierWords("cmsMD5alloc"), (V{"cms", "md5", "alloc"}));
  EXPECT_EQ(mosaic::identifierWords("cmsIT8Alloc"), (V{"cms", "it8", "alloc"}));
  // Digits inside a lower-case word, or one letter after them, stay in it.
  EXPECT_EQ(mosaic::identifierWords("utf8proc_map"), (V{"utf8proc", "map"}));
  EXPECT_EQ(mosaic::identifierWords("Vec3f"), (V{"vec3f"}));
  EXPECT_EQ(mosaic::identifierWords("DRAW3d"), (V{"draw3d"}));
}

TEST(IdentifierWords, TheVisitorSeesTheWordsIdentifierWordsMakesAsSpelt) {
  for (const char *name : {"XML_ParserFree", "deflateInit2_", "mp_init_i32", "__a::b~c-d.e", "", "_", "ABC", "aB9Cd",
                           "cmsMD5add", "X9ab"}) {
    std::vector<std::string> seen;
    EXPECT_FALSE(mosaic::anyIdentifierWord(name, [&](std::string_view w) {
      seen.push_back(mosaic::lowercase(std::string(w)));
      return false;
    }));
    EXPECT_EQ(seen, mosaic::identifierWords(name)) << name;
  }
  // It stops at the first word the visitor accepts.
  int asked = 0;
  EXPECT_TRUE(mosaic::anyIdentifierWord("one_two_three", [&](std::string_view w) {
    ++asked;
    return w == "two";
  }));
  EXPECT_EQ(asked, 2);
}

TEST(ContainsFolded, FindsALowerCaseNeedleInAnyCase) {
  EXPECT_TRUE(mosaic::containsFolded("XML_ParserFree", "free"));
  EXPECT_TRUE(mosaic::containsFolded("gzclose_r", "close"));
  EXPECT_TRUE(mosaic::containsFolded("x", ""));
  EXPECT_FALSE(mosaic::containsFolded("fre", "free"));
  EXPECT_FALSE(mosaic::containsFolded("FrEx", "free"));
  EXPECT_TRUE(mosaic::containsFolded("ffree", "free")); // a false start, then the match
}

TEST(FoldedIdentifier, DropsUnderscoresAndCase) {
  EXPECT_EQ(mosaic::foldedIdentifier("GifFileHandle"), "giffilehandle");
  EXPECT_EQ(mosaic::foldedIdentifier("max_Output_Size"), "maxoutputsize");
  EXPECT_EQ(mosaic::foldedIdentifier("_"), "");
}

TEST(SourceFileName, AnyExtensionButAHeadersIsSourceCode) {
  // What a unit includes as part of itself: lz4hc.c's lz4.c, lzo's .ch files.
  for (const char *source : {"lz4.c", "a/b.cc", "x.cpp", "lzo1x_c.ch", "dir.v2/lzo_swd.ch"})
    EXPECT_TRUE(mosaic::sourceFileName(source)) << source;
  // Headers, the fragments headers include, and names with no extension.
  for (const char *header : {"cJSON.h", "a.hpp", "t.tcc", "v.inl", "Opcodes.inc", "x.def", "vector", "dir.v2/file"})
    EXPECT_FALSE(mosaic::sourceFileName(header)) << header;
}
