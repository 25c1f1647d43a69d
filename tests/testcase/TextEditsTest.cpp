// The dictionary of the constant pool and the structure-aware text edits.
#include "mosaic/testcase/ConstantPool.h"
#include "mosaic/testcase/TextEdits.h"

#include <gtest/gtest.h>

#include <set>

using namespace mosaic;
using namespace mosaic::testcase;

namespace {

ConstantPool poolOf(std::vector<std::string> strings, std::vector<std::int64_t> chars) {
  model::Program p;
  model::Callable c;
  c.constants.strings = std::move(strings);
  c.constants.chars = std::move(chars);
  p.callables.push_back(std::move(c));
  ConstantPool pool;
  pool.addStatic(p);
  return pool;
}

} // namespace

TEST(Dictionary, HoldsTheUnitsStringsAndCharactersAndWhatRunsCompared) {
  ConstantPool pool = poolOf({"CDATA["}, {'<', '>'});
  pool.addToken("xml ");
  Rng rng(1);
  std::set<std::string> seen;
  for (int i = 0; i < 400; ++i) seen.insert(*pool.token(rng, 0.5));
  EXPECT_EQ(seen, (std::set<std::string>{"CDATA[", "<", ">", "xml "}));
  // Only the static part, and only the dynamic one.
  seen.clear();
  for (int i = 0; i < 100; ++i) seen.insert(*pool.token(rng, 0.0));
  EXPECT_EQ(seen.count("xml "), 0u);
  seen.clear();
  for (int i = 0; i < 100; ++i) seen.insert(*pool.token(rng, 1.0));
  EXPECT_EQ(seen, (std::set<std::string>{"xml "}));
  EXPECT_FALSE(ConstantPool{}.token(rng, 0.5).has_value());
}

TEST(TextEdits, InsertAndOverwriteWholeTokens) {
  const ConstantPool pool = poolOf({"<!--"}, {});
  Rng rng(7);
  for (int i = 0; i < 50; ++i) {
    const std::string in = "abcdef";
    const std::string inserted = editText(in, TextEdit::InsertToken, pool, rng, 0.5, 1024);
    ASSERT_EQ(inserted.size(), in.size() + 4);
    const size_t at = inserted.find("<!--");
    ASSERT_NE(at, std::string::npos);
    EXPECT_EQ(inserted.substr(0, at) + inserted.substr(at + 4), in);
    const std::string over = editText(in, TextEdit::OverwriteToken, pool, rng, 0.5, 1024);
    EXPECT_NE(over.find("<!"), std::string::npos) << over; // at the end, only part of it fits in place
    EXPECT_GE(over.size(), in.size());
  }
}

TEST(TextEdits, CopyPartRepeatsWhatIsThereAndEveryEditKeepsTheLimit) {
  const ConstantPool pool = poolOf({"[1,2,3]"}, {','});
  Rng rng(3);
  std::string s = "[0]";
  for (int i = 0; i < 200; ++i) {
    s = editText(s, TextEdit::CopyPart, pool, rng, 0.5, 64);
    ASSERT_LE(s.size(), 64u);
  }
  EXPECT_EQ(s.size(), 64u); // it only grows, up to the limit
  EXPECT_EQ(s.find_first_not_of("[0]"), std::string::npos) << s;
  for (int i = 0; i < 500; ++i) ASSERT_LE(editText(s, pool, rng, 0.5, 64).size(), 64u);
  // Erase shortens; cross over takes a tail of another string.
  EXPECT_LT(editText(s, TextEdit::Erase, pool, rng, 0.5, 64).size(), s.size());
  bool tail = false;
  for (int i = 0; i < 50 && !tail; ++i) tail = editText("", TextEdit::CrossOver, pool, rng, 0.5, 64) == "]";
  EXPECT_TRUE(tail);
}

TEST(TextEdits, SentencesAreMadeOfTokens) {
  const ConstantPool pool = poolOf({"<a>", "</a>"}, {});
  Rng rng(5);
  for (int i = 0; i < 50; ++i) {
    const std::string s = tokenSentence(pool, rng, 0.5, 256);
    EXPECT_TRUE(s.rfind("<a>", 0) == 0 || s.rfind("</a>", 0) == 0) << s;
    EXPECT_GE(s.size(), 6u); // at least two tokens
  }
  EXPECT_EQ(tokenSentence(ConstantPool{}, rng, 0.5, 256), "");
}

// The number edit sets one decimal number of the text to an interesting
// value (an expression's "1/2/3" becomes "1/0/3", the divisor a parser's
// integer division cannot take), or steps it by one; text without a number
// gets one inserted.
TEST(TextEdits, NumbersOfTheTextBecomeInterestingValues) {
  const ConstantPool pool = poolOf({}, {});
  Rng rng(11);
  std::set<std::string> seen;
  for (int i = 0; i < 2000; ++i) {
    const std::string out = editText("1/2/3", TextEdit::Number, pool, rng, 0.5, 64);
    // Only one number changes: the other two and both slashes stay.
    const int kept = (out.rfind("1/", 0) == 0) + (out.find("/2/") != std::string::npos) +
                     (out.size() >= 2 && out.compare(out.size() - 2, 2, "/3") == 0);
    ASSERT_GE(kept, 2) << out;
    seen.insert(out);
  }
  for (const char *want : {"1/0/3", "1/-1/3", "1/2/-2147483648", "1/2/4", "0/2/3", "1/2/2"})
    EXPECT_EQ(seen.count(want), 1u) << want;
  // A minus sign before the digits is part of the number.
  bool negated = false;
  for (int i = 0; i < 500 && !negated; ++i) negated = editText("x<<-1", TextEdit::Number, pool, rng, 0.5, 64) == "x<<0";
  EXPECT_TRUE(negated);
  const std::string inserted = editText("ab", TextEdit::Number, pool, rng, 0.5, 64);
  EXPECT_NE(inserted.find_first_of("0123456789"), std::string::npos) << inserted;
  for (int i = 0; i < 200; ++i) ASSERT_LE(editText("9999999999999", TextEdit::Number, pool, rng, 0.5, 12).size(), 12u);
}
