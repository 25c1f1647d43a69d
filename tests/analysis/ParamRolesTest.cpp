#include "ParamRoles.h"

#include <gtest/gtest.h>

using mosaic::analysis::looksLikeLength;

TEST(LooksLikeLength, NamesOfLengths) {
  for (const char *n : {"n", "len", "length", "size", "count", "buf_len", "bufsize", "nbytes", "num_items", "n_items",
                        "bufferLength", "nmemb", "capacity", "textLen"})
    EXPECT_TRUE(looksLikeLength(n)) << n;
}

TEST(LooksLikeLength, NamesThatAreNotLengths) {
  for (const char *n : {"", "index", "flags", "value", "nested", "name", "offset", "x", "lens2"})
    EXPECT_FALSE(looksLikeLength(n)) << n;
}
