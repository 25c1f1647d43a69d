#include "ParamRoles.h"

#include <gtest/gtest.h>

using mosaic::analysis::looksLikeEnd;
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

TEST(LooksLikeEnd, NamesOfEnds) {
  for (const char *n : {"end", "lim", "limit", "pe", "entityTextEnd", "buf_end", "fromLim", "end_ptr", "textEnd", "eptr", "endDoc", "end_of_input"})
    EXPECT_TRUE(looksLikeEnd(n)) << n;
}

TEST(LooksLikeEnd, NamesThatAreNotEnds) {
  for (const char *n : {"", "ptr", "s", "start", "begin", "endian", "ending", "legend", "append", "p", "endianness", "endorse"})
    EXPECT_FALSE(looksLikeEnd(n)) << n;
}
