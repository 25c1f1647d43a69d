// Test cases: the wire encoding and structural edits.
#include "mosaic/testcase/Printer.h"
#include "mosaic/testcase/TestCase.h"

#include <gtest/gtest.h>

using namespace mosaic::testcase;

namespace {

TestCase everyOp() {
  TestCase t;
  t.statements = {
      Statement{.op = Op::Primitive, .type = 3, .bits = 0xfffffffffffffff6ull},
      Statement{.op = Op::CString, .type = 4, .bytes = std::string("a\0b\"", 4)},
      Statement{.op = Op::StdString, .type = 5, .bytes = "text"},
      Statement{.op = Op::Buffer, .type = 6, .bytes = std::string("\xff\x00\x01", 3)},
      Statement{.op = Op::Null, .type = 7},
      Statement{.op = Op::Aggregate, .type = 8, .refs = {0, 0}},
      Statement{.op = Op::AddressOf, .type = 9, .refs = {5}},
      Statement{.op = Op::Array, .type = 10, .refs = {0, 0, 0}},
      Statement{.op = Op::Construct, .callable = 2, .refs = {2}},
      Statement{.op = Op::Call, .callable = 3, .refs = {1, 3, 0}},
      Statement{.op = Op::MethodCall, .callable = 4, .refs = {8, 0}},
      Statement{.op = Op::FieldSet, .type = 8, .refs = {5, 0}, .field = 1},
      Statement{.op = Op::Callback, .type = 11, .refs = {0}},
      Statement{.op = Op::Callback, .type = 11},
      Statement{.op = Op::File, .type = 12, .bytes = std::string("RECORDS\0\n", 9)},
      Statement{.op = Op::EndOf, .type = 6, .refs = {3}},
  };
  return t;
}

} // namespace

TEST(Wire, EveryOpRoundTrips) {
  const TestCase t = everyOp();
  auto back = decode(encode(t));
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, t);
}

TEST(Wire, StartsWithMagicVersionAndCount) {
  const auto bytes = encode(everyOp());
  EXPECT_EQ(bytes[0], 'M');
  EXPECT_EQ(bytes[1], 'T');
  EXPECT_EQ(bytes[2], 1);
  EXPECT_EQ(bytes[4], 16);
}

TEST(Wire, AnEndPointsPastTheBytesOfItsBuffer) {
  TestCase t = everyOp();
  EXPECT_EQ(endOffset(t, 15), 3u); // the 3 bytes of statement 3
  const auto bytes = encode(t);
  // The last statement: op, type, ref, then the offset.
  const size_t at = bytes.size() - 13;
  EXPECT_EQ(bytes[at], static_cast<std::uint8_t>(Op::EndOf));
  EXPECT_EQ(bytes[at + 9], 3);
  // It follows the buffer when the buffer changes.
  t.statements[3].bytes = "longer";
  EXPECT_EQ(encode(t)[bytes.size() - 13 + 3 + 9], 6);
  // An end of a variable that holds no bytes is the pointer itself.
  t.statements[15].refs = {9};
  EXPECT_EQ(endOffset(t, 15), 0u);
}

TEST(Wire, AStubSubclassCarriesTheResultsItReturns) {
  TestCase t;
  t.statements = {
      Statement{.op = Op::Primitive, .type = 3, .bits = 1},
      Statement{.op = Op::Subclass, .type = 12, .refs = {0, 0}}, // two results set
      Statement{.op = Op::Subclass, .type = 12},                 // every result value-initialised
  };
  const auto bytes = encode(t);
  // Header 8, primitive 1 + 4 + 8, then op, type, count and refs.
  EXPECT_EQ(bytes.size(), 8u + 13u + (1u + 4u + 4u + 8u) + (1u + 4u + 4u));
  auto back = decode(bytes);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, t);
  // Removing the value removes the stub that returns it.
  EXPECT_EQ(withoutStatement(t, 0).statements.size(), 1u);
}

TEST(Wire, RejectsGarbageAndTruncation) {
  EXPECT_FALSE(decode({1, 2, 3}));
  auto bytes = encode(everyOp());
  bytes.resize(bytes.size() - 3);
  EXPECT_FALSE(decode(bytes));
  auto wrong = encode(everyOp());
  wrong[8] = 99; // unknown op
  EXPECT_FALSE(decode(wrong));
}

TEST(Edit, RemovingAStatementRemovesWhatDependsOnIt) {
  const TestCase t = everyOp();
  // Statement 5 (the aggregate) feeds 6 (its address) and 11 (a field set).
  const TestCase u = withoutStatement(t, 5);
  EXPECT_EQ(u.statements.size(), t.statements.size() - 3);
  for (const Statement &s : u.statements)
    for (Ref r : s.refs) EXPECT_LT(r, u.statements.size());
  // Statement 0 feeds almost everything.
  const TestCase v = withoutStatement(t, 0);
  EXPECT_EQ(v.statements.size(), 8u); // strings, buffer, null, the constructor of a string, the bare callback, the file, the end
}

TEST(Edit, AnAliasReplacesACopyWhereverItIsUsed) {
  TestCase t;
  t.statements = {
      Statement{.op = Op::Construct, .callable = 1},                 // 0: Door a
      Statement{.op = Op::Primitive, .type = 3, .bits = 4},          // 1: 4
      Statement{.op = Op::Construct, .callable = 2, .refs = {0}},    // 2: Door b(a)
      Statement{.op = Op::MethodCall, .callable = 4, .refs = {2, 1}},// 3: b.enter(4)
      Statement{.op = Op::Callback, .type = 11},                     // 4: no refs at all
      Statement{.op = Op::MethodCall, .callable = 5, .refs = {2}},   // 5: b.open()
  };
  const TestCase u = withAlias(t, 2, 0);
  ASSERT_EQ(u.statements.size(), 5u);
  EXPECT_EQ(u.statements[2].refs, (std::vector<Ref>{0, 1})); // a.enter(4)
  EXPECT_EQ(u.statements[4].refs, (std::vector<Ref>{0}));    // a.open()
  EXPECT_EQ(u.statements[3], t.statements[4]);
}

TEST(Edit, RemovingKeepsAnEmptyCallbackResult) {
  TestCase t;
  t.statements = {Statement{.op = Op::Primitive, .type = 3}, Statement{.op = Op::Callback, .type = 11, .refs = {kNoRef}}};
  const TestCase u = withoutStatement(t, 0);
  ASSERT_EQ(u.statements.size(), 1u);
  EXPECT_EQ(u.statements[0].refs, (std::vector<Ref>{kNoRef}));
}

TEST(Printer, QuotesBytesSafely) {
  EXPECT_EQ(quote("plain"), "\"plain\"");
  EXPECT_EQ(quote(std::string("a\0\"\\\n\x7f", 6)), "\"a\\000\\\"\\\\\\n\\177\"");
}
