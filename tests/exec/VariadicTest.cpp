// Variadic functions (tally.c): the catalog's extra-argument types, the
// harness's calls through libffi with extras of each type, the type rules
// for extras, and random tests that pass them.
#include "common/UnitHarness.h"

#include <gtest/gtest.h>

#include "mosaic/abi/Format.h"
#include "mosaic/abi/Protocol.h"
#include "mosaic/abi/TestWire.h"
#include "mosaic/testcase/Printer.h"
#include "mosaic/testcase/TestFactory.h"

using namespace mosaic;
using namespace mosaic::test;
using testcase::Op;
using testcase::Statement;
using testcase::TestCase;

namespace {

const std::string kTallyUnit = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/search/tally.c";

UnitHarness &tally() {
  static auto h = UnitHarness::make(MOSAIC_FIXTURE_SEARCH_DB_DIR, kTallyUnit);
  return *h;
}

const model::Callable &callable(const UnitHarness &u, const std::string &name) { return u.callable(name); }

// The value types of the program: int (tally_ints' count), long (its
// result), double (tally_doubles' result), const char * (a prefix).
struct Types {
  model::TypeId integer, wide, real, text;
};
Types types(const UnitHarness &u) {
  const auto &p = u.program;
  return {p.type(callable(u, "tally_ints").params[0].type).value, p.type(callable(u, "tally_ints").result).value,
          p.type(callable(u, "tally_doubles").result).value, p.type(callable(u, "tally_prefixed").params[0].type).value};
}

// A call of `name` with `fixed` then `extras`, each a value statement.
TestCase call(const UnitHarness &u, const std::string &name, const std::vector<Statement> &values, size_t nrefs) {
  TestCase t;
  Statement c{.op = Op::Call, .callable = callable(u, name).id};
  for (const Statement &v : values) {
    t.statements.push_back(v);
    if (c.refs.size() < nrefs) c.refs.push_back(static_cast<testcase::Ref>(t.statements.size() - 1));
  }
  t.statements.push_back(c);
  return t;
}

Statement integer(model::TypeId type, std::int64_t v) {
  return {.op = Op::Primitive, .type = type, .bits = static_cast<std::uint64_t>(v)};
}
Statement real(model::TypeId type, double v) { return {.op = Op::Primitive, .type = type, .bits = testcase::bitsOf(v)}; }
Statement text(model::TypeId type, const std::string &s) { return {.op = Op::CString, .type = type, .bytes = s}; }

// The result the harness observed of the statement at `index`.
std::optional<exec::Observation> resultOf(const UnitHarness &u, std::uint32_t index) {
  for (const auto &o : u.server->trace().observations())
    if (o.statement == index && o.target == MOSAIC_OBS_RESULT && o.field == -1) return o;
  return std::nullopt;
}

} // namespace

TEST(Variadic, FreeVariadicFunctionsAreCallable) {
  UnitHarness &u = tally();
  for (const char *name : {"tally_ints", "tally_doubles", "tally_prefixed", "tally_format", "tally_note"}) {
    const model::Callable &c = callable(u, name);
    EXPECT_TRUE(c.variadic) << name;
    EXPECT_TRUE(u.catalog->callable(c.id)) << name << ": " << u.catalog->whyNotCallable(c.id);
  }
}

TEST(Variadic, TheHarnessOfACUnitWithVariadicCallsKeepsPersistentChildren) {
  // The harness's own constructor (the stack scrubbing word of a call
  // through libffi) is not a dynamic initialiser of the unit: yajl_parser.c
  // ran every test in a fresh process for it (2,681 tests/s; 13,385 now).
  UnitHarness &u = tally();
  EXPECT_TRUE(u.server->features() & MOSAIC_FEATURE_PERSISTENT);
  exec::Limits persistent;
  persistent.persistent = true;
  const Types t = types(u);
  const TestCase test = call(u, "tally_ints", {integer(t.integer, 2), integer(t.integer, 3), integer(t.integer, 4)}, 1);
  ASSERT_EQ(u.run(test, persistent).outcome, exec::Outcome::Ok);
  const exec::RunResult again = u.run(test, persistent);
  ASSERT_EQ(again.outcome, exec::Outcome::Ok);
  EXPECT_FALSE(again.fresh);
}

TEST(Variadic, ExtraArgumentsAreOfTypesThePromotionsLeaveAlone) {
  UnitHarness &u = tally();
  const Types ty = types(u);
  const auto &extras = u.catalog->varargTypes();
  for (model::TypeId want : {ty.integer, ty.wide, ty.real, ty.text})
    EXPECT_NE(std::find(extras.begin(), extras.end(), want), extras.end()) << u.program.type(want).spelling;
  for (model::TypeId v : extras) {
    const model::Type &t = u.program.type(v);
    EXPECT_TRUE(t.kind == model::TypeKind::Pointer || (t.kind == model::TypeKind::Integer && t.bits >= 32) ||
                (t.kind == model::TypeKind::Floating && t.bits == 64))
        << t.spelling;
  }
}

TEST(Variadic, TheHarnessPassesEachExtraAsItsOwnType) {
  UnitHarness &u = tally();
  const Types ty = types(u);
  // tally_ints(2, 40, 2) == 4242: two ints summed.
  TestCase ints = call(u, "tally_ints", {integer(ty.integer, 2), integer(ty.integer, 40), integer(ty.integer, 2)}, 3);
  ASSERT_EQ(u.run(ints).outcome, exec::Outcome::Ok);
  EXPECT_EQ(u.result(3), 4242);
  // tally_doubles(2, 1.5, 2.25) == 3.75.
  TestCase doubles = call(u, "tally_doubles", {integer(ty.integer, 2), real(ty.real, 1.5), real(ty.real, 2.25)}, 3);
  ASSERT_EQ(u.run(doubles).outcome, exec::Outcome::Ok);
  const auto d = resultOf(u, 3);
  ASSERT_TRUE(d);
  EXPECT_DOUBLE_EQ(d->floating, 3.75);
  // tally_prefixed("ab", 3, "abc", "xab", "ab") == 2: C strings as pointers.
  TestCase prefixed = call(u, "tally_prefixed",
                           {text(ty.text, "ab"), integer(ty.integer, 3), text(ty.text, "abc"), text(ty.text, "xab"),
                            text(ty.text, "ab")},
                           5);
  ASSERT_EQ(u.run(prefixed).outcome, exec::Outcome::Ok);
  EXPECT_EQ(u.result(5), 2);
  // No extras at all is a call too.
  TestCase none = call(u, "tally_ints", {integer(ty.integer, 0)}, 1);
  ASSERT_EQ(u.run(none).outcome, exec::Outcome::Ok);
  EXPECT_EQ(u.result(1), 0);
}

TEST(Variadic, ExtrasBeyondTheLimitOrOfAPromotedTypeAreTypeErrors) {
  UnitHarness &u = tally();
  const Types ty = types(u);
  std::vector<Statement> values{integer(ty.integer, 4)};
  for (unsigned k = 0; k < MOSAIC_MAX_VARARGS; ++k) values.push_back(integer(ty.integer, k));
  EXPECT_EQ(u.catalog->typeError(call(u, "tally_ints", values, values.size())), "");
  values.push_back(integer(ty.integer, 9));
  EXPECT_NE(u.catalog->typeError(call(u, "tally_ints", values, values.size())), "");
  // The fixed parameters still must fit: too few is an error.
  EXPECT_NE(u.catalog->typeError(call(u, "tally_prefixed", {text(ty.text, "a")}, 1)), "");
}

TEST(Variadic, RandomTestsPassExtrasAndTheHarnessPerformsThem) {
  UnitHarness &u = tally();
  Rng rng(3);
  testcase::ConstantPool pool;
  pool.addStatic(u.program);
  testcase::TestFactory factory(*u.catalog, pool, rng);
  exec::Limits limits;
  limits.timeoutMs = 200;
  int withExtras = 0;
  for (int i = 0; i < 100; ++i) {
    const TestCase t = factory.randomTest(u.program.targets);
    ASSERT_EQ(u.catalog->typeError(t), "") << testcase::toCode(u.program, t);
    for (const Statement &s : t.statements)
      if (s.op == Op::Call) withExtras += s.refs.size() > u.program.callable(s.callable).params.size();
    const exec::RunResult r = u.run(t, limits);
    ASSERT_NE(r.outcome, exec::Outcome::HarnessError) << testcase::toCode(u.program, t);
    for (const auto &s : u.server->trace().statements())
      ASSERT_NE(s.status, static_cast<std::uint32_t>(MOSAIC_STMT_INVALID)) << testcase::toCode(u.program, t);
  }
  EXPECT_GT(withExtras, 20);
}

// The kinds a printf format consumes ("" and -1 spelled as strings).
std::string kinds(const char *fmt) {
  char out[9];
  const int n = mosaic_format_kinds(fmt, out, 8);
  return n < 0 ? "refused" : std::string(out, static_cast<size_t>(n));
}

TEST(Variadic, AFormatSaysWhatItConsumes) {
  EXPECT_EQ(kinds("plain %% text"), "");
  EXPECT_EQ(kinds("%d-%s"), "is");
  EXPECT_EQ(kinds("%-5.2f|%c|%hhx"), "dii");
  EXPECT_EQ(kinds("%*.*d"), "iii");
  EXPECT_EQ(kinds("%ld %lld %zu %jd"), "llll");
  EXPECT_EQ(kinds("%p %e"), "pd");
  for (const char *refused : {"%n", "%1$d", "%Lf", "%ls", "%lc", "%y", "%d%d%d%d%d%d%d%d%d"})
    EXPECT_EQ(kinds(refused), "refused") << refused;
  EXPECT_TRUE(mosaic_format_fits("%d %s", "is", 2));
  EXPECT_TRUE(mosaic_format_fits("%d", "is", 2)); // more than it consumes, as C allows
  EXPECT_TRUE(mosaic_format_fits("%p", "s", 1));
  EXPECT_FALSE(mosaic_format_fits("%s", "i", 1));
  EXPECT_FALSE(mosaic_format_fits("%d %d", "i", 1));
  EXPECT_TRUE(mosaic_format_fits(nullptr, "", 0));
}

TEST(Variadic, FormatFunctionsAreKnownByAttributeOrByANameTheBodyHandsToPrintf) {
  UnitHarness &u = tally();
  EXPECT_EQ(callable(u, "tally_format").formatParam, 2u);
  EXPECT_EQ(callable(u, "tally_note").formatParam, 1u);
  EXPECT_EQ(callable(u, "tally_log").formatParam, 0u); // through its own helper
  EXPECT_FALSE(callable(u, "tally_ints").formatParam);
  // A `fmt` of a language of its own: no printf format fits its extras.
  EXPECT_FALSE(callable(u, "tally_pack").formatParam);
}

TEST(Variadic, ExtrasThatDoNotFitTheFormatAreNotPerformed) {
  UnitHarness &u = tally();
  const Types ty = types(u);
  const model::TypeId size = u.program.type(callable(u, "tally_format").params[1].type).value;
  const model::TypeId out = u.program.type(callable(u, "tally_format").params[0].type).value;
  auto format = [&](const std::string &fmt, std::vector<Statement> extras) {
    std::vector<Statement> values{Statement{.op = Op::Buffer, .type = out, .bytes = std::string(40, '\0')},
                                  integer(size, 40), text(ty.text, fmt)};
    values.insert(values.end(), extras.begin(), extras.end());
    return call(u, "tally_format", values, values.size());
  };
  // "%d-%s" with 7 and "x": "7-x", three characters.
  TestCase fits = format("%d-%s", {integer(ty.integer, 7), text(ty.text, "x")});
  ASSERT_EQ(u.run(fits).outcome, exec::Outcome::Ok);
  EXPECT_EQ(u.result(5), 3);
  // An int where a string is read, and a %n: the caller's undefined
  // behaviour, so the harness does not perform them (no crash to report).
  for (TestCase bad : {format("%s", {integer(ty.integer, 7)}), format("%n", {text(ty.text, "x")}),
                       format("%d %d", {integer(ty.integer, 1)})}) {
    u.run(bad);
    const auto statements = u.server->trace().statements();
    ASSERT_EQ(statements.size(), bad.statements.size()) << testcase::toCode(u.program, bad);
    EXPECT_EQ(statements.back().status, static_cast<std::uint32_t>(MOSAIC_STMT_INVALID))
        << testcase::toCode(u.program, bad);
  }
}
