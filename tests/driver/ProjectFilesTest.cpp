// Which of a compile database's files are the project's library code.
#include "ProjectFiles.h"

#include <gtest/gtest.h>

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
