// Small rules of the test-body writer (lib/emit/BodyParts.h).
#include "BodyParts.h"
#include "SuiteParts.h"

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

TEST(SuiteText, ASiteIsKeptByTheLineNumberACompilerGivesEvenAfterTextOfSeveralLines) {
  // The header's "regression tests ...\n// The search covered ..." is two
  // lines: a failing assertion below it, named by GoogleTest's line
  // number, is found at its own site (once it was the next line's, and a
  // test was removed where its one unstable assertion should have gone).
  mosaic::emit::Text text;
  text.line("// first\n// second");
  text.line("  EXPECT_EQ(x, 1);", mosaic::emit::Site{.test = 4, .observation = 7});
  text.line("  f();", mosaic::emit::Site{.test = 4, .observation = -1});
  EXPECT_EQ(text.str(), "// first\n// second\n  EXPECT_EQ(x, 1);\n  f();\n");
  ASSERT_TRUE(text.sites().count(3));
  EXPECT_EQ(text.sites().at(3).observation, 7);
  EXPECT_EQ(text.sites().at(4).observation, -1);
}
