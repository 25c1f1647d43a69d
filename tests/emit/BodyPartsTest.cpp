// Small rules of the test-body writer (lib/emit/BodyParts.h).
#include "BodyParts.h"

#include <gtest/gtest.h>

using mosaic::emit::macroArgument;

TEST(BodyParts, AMacroArgumentWithATopLevelCommaIsParenthesised) {
  // The preprocessor splits EXPECT_NE(a<b, c>(x), nullptr) at the comma of
  // the template arguments.
  EXPECT_EQ(macroArgument("static_cast<const DynArray<Node *, 10> &>(a).Mem()"),
            "(static_cast<const DynArray<Node *, 10> &>(a).Mem())");
  // Commas inside parentheses, brackets or braces are safe as they are.
  EXPECT_EQ(macroArgument("f(a, b)"), "f(a, b)");
  EXPECT_EQ(macroArgument("v[g(1, 2)]"), "v[g(1, 2)]");
  EXPECT_EQ(macroArgument("T{1, 2}.x"), "T{1, 2}.x");
  EXPECT_EQ(macroArgument("x"), "x");
}
