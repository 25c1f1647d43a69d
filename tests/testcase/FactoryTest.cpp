// The random test factory against the harness generated for the same
// model: every test it makes is one the harness performs (no harness
// errors), and the same seed makes the same tests.
#include "common/UnitHarness.h"
#include "mosaic/testcase/Printer.h"
#include "mosaic/testcase/TestFactory.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

using namespace mosaic;
using namespace mosaic::test;

namespace {

const std::string kFixtures = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/analysis/";

std::vector<testcase::TestCase> tests(const UnitHarness &u, std::uint64_t seed, int n) {
  Rng rng(seed);
  testcase::ConstantPool pool;
  pool.addStatic(u.program);
  testcase::TestFactory factory(*u.catalog, pool, rng);
  std::vector<testcase::TestCase> out;
  for (int i = 0; i < n; ++i) out.push_back(factory.randomTest(u.program.targets));
  return out;
}

// Appends `s` to `t`; its reference.
testcase::Ref append(testcase::TestCase &t, testcase::Statement s) {
  t.statements.push_back(std::move(s));
  return static_cast<testcase::Ref>(t.statements.size() - 1);
}

class FactoryAgainstHarness : public ::testing::TestWithParam<const char *> {};

// The claims.c fixture's harness, built once for the tests here that use it.
UnitHarness &claims() {
  static const std::unique_ptr<UnitHarness> u =
      UnitHarness::make(MOSAIC_FIXTURE_SEARCH_DB_DIR, std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/search/claims.c");
  return *u;
}

} // namespace

TEST_P(FactoryAgainstHarness, EveryRandomTestIsPerformed) {
  auto u = UnitHarness::make(MOSAIC_FIXTURE_DB_DIR, kFixtures + GetParam());
  exec::Limits limits;
  limits.timeoutMs = 200;
  int ok = 0, stubs = 0;
  for (const testcase::TestCase &t : tests(*u, 7, 300)) {
    for (const testcase::Statement &s : t.statements) stubs += s.op == testcase::Op::Subclass;
    const exec::RunResult r = u->run(t, limits);
    ASSERT_NE(r.outcome, exec::Outcome::HarnessError) << testcase::toCode(u->program, t);
    for (const auto &s : u->server->trace().statements())
      ASSERT_NE(s.status, static_cast<std::uint32_t>(MOSAIC_STMT_INVALID)) << testcase::toCode(u->program, t);
    ok += r.outcome == exec::Outcome::Ok;
  }
  EXPECT_GT(ok, 30); // most random tests of these units run to their end
  // The abstract shop::Shelf is made both ways: its concrete SmallShelf, or
  // a stub subclass the harness derives.
  if (std::string(GetParam()) == "inventory.cpp") EXPECT_GT(stubs, 0);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, FactoryAgainstHarness, ::testing::Values("shapes.c", "inventory.cpp", "hooks.c"),
                         [](const auto &info) {
                           return std::string(info.index == 0 ? "C" : info.index == 1 ? "Cxx" : "OneRecordTwoSpellings");
                         });

TEST(Factory, SameSeedSameTests) {
  auto u = UnitHarness::make(MOSAIC_FIXTURE_DB_DIR, kFixtures + "shapes.c");
  EXPECT_EQ(tests(*u, 42, 20), tests(*u, 42, 20));
  EXPECT_NE(tests(*u, 42, 20), tests(*u, 43, 20));
}

TEST(Factory, AHandleNamedForItsKindComesFromAMakerOfThatKind) {
  // claimsSheetGetCount(claims_handle hSheet), where claimsDictAlloc and
  // claimsMD5alloc make claims_handles too (lcms2's cmsHANDLE for
  // dictionaries, IT8 sheets and MD5 contexts): mostly from
  // claimsSheetAlloc, at times from the others for robustness. The same for
  // claimsMD5add(claims_handle Handle, int), whose function's name says the
  // kind: from claimsMD5alloc.
  auto m = UnitModel::make(MOSAIC_FIXTURE_SEARCH_DB_DIR, std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/search/claims.c");
  const auto id = [&](const std::string &name) { return m->callable(name).id; };
  for (const auto &[taker, maker] : {std::pair{"claimsSheetGetCount", "claimsSheetAlloc"},
                                     std::pair{"claimsMD5add", "claimsMD5alloc"}}) {
    Rng rng(5);
    testcase::ConstantPool pool;
    testcase::TestFactory factory(*m->catalog, pool, rng);
    int made = 0, ofKind = 0;
    for (int i = 0; i < 60; ++i) {
      testcase::TestCase t;
      if (!factory.appendCall(t, id(taker))) continue;
      const testcase::Ref handle = t.statements.back().refs.at(0);
      if (t.statements[handle].op != testcase::Op::Call) continue;
      ++made;
      ofKind += t.statements[handle].callable == id(maker);
    }
    ASSERT_GT(made, 20) << taker;
    EXPECT_GT(ofKind, made * 3 / 4) << taker << ": " << ofKind << " of " << made;
    EXPECT_LT(ofKind, made) << taker << ": never another kind";
  }
}

TEST(Factory, BuffersComeWithTheirLength) {
  auto u = UnitHarness::make(MOSAIC_FIXTURE_DB_DIR, kFixtures + "shapes.c");
  Rng rng(3);
  testcase::ConstantPool pool;
  testcase::TestFactory factory(*u->catalog, pool, rng);
  const model::Callable &checksum = u->callable("checksum");
  for (int i = 0; i < 50; ++i) {
    testcase::TestCase t;
    ASSERT_TRUE(factory.appendCall(t, checksum.id));
    const testcase::Statement &call = t.statements.back();
    const testcase::Statement &buffer = t.statements[call.refs[0]];
    const testcase::Statement &length = t.statements[call.refs[1]];
    ASSERT_EQ(buffer.op, testcase::Op::Buffer);
    EXPECT_EQ(length.bits, buffer.bytes.size());
  }
}

TEST(Factory, ArraysThatShareALengthAreMadeThatLongAndAClassIsCopiedIntoOne) {
  // WeightedSum(n, points, weights) reads n of each: before, weights was
  // one float and points one Vec2 (a class could not be an array element),
  // and ASan saw each run read past them.
  auto u = UnitHarness::make(MOSAIC_FIXTURE_SEARCH_DB_DIR, std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/search/weights.cpp");
  Rng rng(5);
  testcase::ConstantPool pool;
  testcase::TestFactory factory(*u->catalog, pool, rng);
  const model::Callable &sum = u->callable("geo::WeightedSum");
  int calls = 0;
  for (int i = 0; i < 40; ++i) {
    testcase::TestCase t;
    if (!factory.appendCall(t, sum.id)) continue;
    ++calls;
    const testcase::Statement &call = t.statements.back();
    const testcase::Statement &n = t.statements[call.refs[0]];
    const testcase::Statement &points = t.statements[call.refs[1]];
    const testcase::Statement &weights = t.statements[call.refs[2]];
    ASSERT_EQ(points.op, testcase::Op::Array) << testcase::toCode(u->program, t);
    ASSERT_EQ(weights.op, testcase::Op::Array) << testcase::toCode(u->program, t);
    EXPECT_EQ(points.refs.size(), n.bits);
    EXPECT_EQ(weights.refs.size(), n.bits);
    EXPECT_GE(points.refs.size(), 1u) << "a Vec2 has no constructor without arguments: `Vec2 a[1] = {}` would not build";
    ASSERT_EQ(u->run(t).outcome, exec::Outcome::Ok) << testcase::toCode(u->program, t);
    for (const auto &s : u->server->trace().statements())
      ASSERT_NE(s.status, static_cast<std::uint32_t>(MOSAIC_STMT_INVALID)) << testcase::toCode(u->program, t);
  }
  EXPECT_EQ(calls, 40);
  // The hidden friend is called by its plain name, in the harness too.
  const model::Callable &dot = u->callable("Dot");
  EXPECT_EQ(dot.qualifiedName, "Dot");
  testcase::TestCase t;
  ASSERT_TRUE(factory.appendCall(t, dot.id));
  EXPECT_EQ(u->run(t).outcome, exec::Outcome::Ok) << testcase::toCode(u->program, t);
}

TEST(Factory, BytesWrittenWithoutALengthGoToABufferNotOneChar) {
  // copy_name(char *dst, const char *src) strcpy's into dst: a C caller
  // passes an array; one char would be overflowed by any name.
  auto u = UnitHarness::make(MOSAIC_FIXTURE_DB_DIR, kFixtures + "shapes.c");
  Rng rng(3);
  testcase::ConstantPool pool;
  testcase::TestFactory factory(*u->catalog, pool, rng);
  const model::Callable &copy = u->callable("copy_name");
  ASSERT_TRUE(copy.params[0].written);
  int buffers = 0;
  for (int i = 0; i < 20; ++i) {
    testcase::TestCase t;
    ASSERT_TRUE(factory.appendCall(t, copy.id));
    const testcase::Statement &dst = t.statements[t.statements.back().refs[0]];
    if (dst.op == testcase::Op::Null) continue;
    ASSERT_EQ(dst.op, testcase::Op::Buffer);
    EXPECT_EQ(dst.bytes, std::string(testcase::kUnpairedOutputBytes, '\0'));
    ++buffers;
  }
  EXPECT_GT(buffers, 10);
}

TEST(Factory, BytesMadeAsABufferAreNeverReusedAsACString) {
  // A buffer holds exactly its bytes, with no NUL after them: given to
  // claims_first(const char *s), which reads to the NUL, it would be read
  // past its end. A test reuses it for a buffer, never for a C string.
  UnitHarness *u = &claims();
  const model::Callable &first = u->callable("claims_first");
  ASSERT_EQ(first.params.at(0).role, model::ParamRole::CString);
  Rng rng(9);
  testcase::ConstantPool pool;
  testcase::TestFactory factory(*u->catalog, pool, rng);
  int reusedString = 0;
  for (int i = 0; i < 40; ++i) {
    testcase::TestCase t;
    t.statements = {testcase::Statement{.op = testcase::Op::Buffer, .type = first.params[0].type, .bytes = "abc"},
                    testcase::Statement{.op = testcase::Op::CString, .type = first.params[0].type, .bytes = "xyz"}};
    ASSERT_TRUE(factory.appendCall(t, first.id));
    const testcase::Ref arg = t.statements.back().refs.at(0);
    EXPECT_NE(arg, 0u) << testcase::toCode(u->program, t);
    reusedString += arg == 1;
  }
  EXPECT_GT(reusedString, 10); // existing variables are still reused
}

TEST(Factory, PrivateTypesComeFromTheUnitsFactories) {
  // registry is defined in shapes.c: tests get one from registry_new, never field by field.
  auto u = UnitHarness::make(MOSAIC_FIXTURE_DB_DIR, kFixtures + "shapes.c");
  for (const testcase::TestCase &t : tests(*u, 11, 200))
    for (const testcase::Statement &s : t.statements)
      if (s.op == testcase::Op::Aggregate) EXPECT_NE(u->program.type(s.type).spelling, "registry");
}

TEST(Factory, AnInitialiserMayTakeTheObjectAsAnotherParameterThanTheFirst) {
  // claims_buffer_init(doc, &b), as lua's luaL_buffinit(L, &b): a buffer for
  // claims_buffer_peek is `claims_buffer b = {}; claims_buffer_init(doc, &b)`.
  UnitHarness *u = &claims();
  const model::Callable &init = u->callable("claims_buffer_init");
  const model::Callable &peek = u->callable("claims_buffer_peek");
  Rng rng(5);
  testcase::ConstantPool pool;
  testcase::TestFactory factory(*u->catalog, pool, rng);
  int initialised = 0;
  for (int i = 0; i < 40; ++i) {
    testcase::TestCase t;
    if (!factory.appendCall(t, peek.id)) continue;
    for (const testcase::Statement &s : t.statements) {
      if (s.op != testcase::Op::Call || s.callable != init.id) continue;
      const testcase::Statement &address = t.statements[s.refs[1]];
      ASSERT_EQ(address.op, testcase::Op::AddressOf) << testcase::toCode(u->program, t);
      EXPECT_EQ(t.statements[address.refs[0]].op, testcase::Op::Aggregate);
      ++initialised;
    }
    EXPECT_NE(u->run(t, exec::Limits{}).outcome, exec::Outcome::HarnessError) << testcase::toCode(u->program, t);
  }
  // A type its callers may fill is initialised by the API a quarter of the
  // time (TestFactory::makeRecord; before, never: 0 of 40).
  EXPECT_GE(initialised, 4);
}

TEST(Factory, ATableOfFunctionsIsFilledByTheProjectsSetterOfDefaultsFromAHeaderTheUnitDoesNotInclude) {
  // tokens.c's tokens_alloc takes an arena_funcs (yajl_lex_alloc's
  // yajl_alloc_funcs); only arena_default.h, which tokens.c does not
  // include, declares arena_set_default_funcs. The front end includes it
  // first (CompletingHeaders.h), the factory fills most tables with it
  // (stubs' take gives NULL: no lexer), and the lexer it makes works.
  auto u = UnitHarness::make(MOSAIC_FIXTURE_SEARCH_DB_DIR, std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/search/tokens.c");
  ASSERT_EQ(u->program.completingHeaders.size(), 1u);
  EXPECT_TRUE(u->program.completingHeaders[0].ends_with("/arena_default.h")) << u->program.completingHeaders[0];
  const model::Callable &defaults = u->callable("arena_set_default_funcs");
  const model::Callable &alloc = u->callable("tokens_alloc");
  const model::Callable &next = u->callable("tokens_next");
  const auto table = model::defaultsFilled(u->program, defaults);
  ASSERT_TRUE(table);
  EXPECT_EQ(u->catalog->initialisers(*table), std::vector<model::CallableId>{defaults.id});
  Rng rng(4);
  testcase::ConstantPool pool;
  testcase::TestFactory factory(*u->catalog, pool, rng);
  int tables = 0, filled = 0, lexed = 0;
  for (int i = 0; i < 40; ++i) {
    testcase::TestCase t;
    if (!factory.appendCall(t, alloc.id)) continue;
    ++tables;
    const bool byDefaults = std::any_of(t.statements.begin(), t.statements.end(), [&](const testcase::Statement &s) {
      return s.op == testcase::Op::Call && s.callable == defaults.id;
    });
    filled += byDefaults;
    if (!byDefaults) continue;
    // tokens_next(lexer, "7", 1): a number (1), which no lexer gives -1 for.
    testcase::Ref lexer = 0;
    for (size_t k = 0; k < t.statements.size(); ++k)
      if (t.statements[k].op == testcase::Op::Call && t.statements[k].callable == alloc.id)
        lexer = static_cast<testcase::Ref>(k);
    const testcase::Ref text =
        append(t, {.op = testcase::Op::CString, .type = u->program.type(next.params[1].type).value, .bytes = "7"});
    const testcase::Ref length =
        append(t, {.op = testcase::Op::Primitive, .type = u->program.type(next.params[2].type).value, .bits = 1});
    const testcase::Ref n = append(t, {.op = testcase::Op::Call, .callable = next.id, .refs = {lexer, text, length}});
    ASSERT_EQ(u->run(t).outcome, exec::Outcome::Ok) << testcase::toCode(u->program, t);
    lexed += u->result(n) == 1;
  }
  EXPECT_EQ(tables, 40);
  EXPECT_GE(filled, 20); // three quarters of the time (TestFactory::makeRecord); 0 before
  EXPECT_EQ(lexed, filled) << "the table the project's defaults filled allocates a lexer";
}

TEST(Factory, AnApiMacroThatFixesArgumentsOfAnInitialiserIsCalledAsTheLibraryMeansIt) {
  // vessel_init(v) is vessel_init_((v), VESSEL_VERSION, (int)sizeof(vessel))
  // (zlib's inflateInit over inflateInit_): a callable of one parameter
  // that runs vessel_init_ with the version and size it checks, never a
  // target; vessel_twice(v, n) passes 2 * (n) on and is none.
  auto u = UnitHarness::make(MOSAIC_FIXTURE_SEARCH_DB_DIR, std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/search/vessel.c");
  const model::Callable &init = u->callable("vessel_init"), &init2 = u->callable("vessel_init2");
  const model::Callable &pour = u->callable("vessel_pour");
  EXPECT_EQ(init.macroOf, "vessel_init_");
  EXPECT_EQ(init.params.size(), 1u);
  ASSERT_EQ(init2.params.size(), 2u);
  EXPECT_EQ(init2.params[1].name, "capacity");
  EXPECT_EQ(init.linkageNames, u->callable("vessel_init_").linkageNames);
  EXPECT_THROW(u->callable("vessel_twice"), std::runtime_error);
  for (model::CallableId t : u->program.targets) EXPECT_TRUE(u->program.callable(t).macroOf.empty());
  const auto vessel = *u->program.type(u->program.type(pour.params[0].type).value).pointee;
  const auto &inits = u->catalog->initialisers(*u->program.type(u->program.type(vessel).value).recordId);
  EXPECT_NE(std::find(inits.begin(), inits.end(), init.id), inits.end());
  // vessel v = {}; vessel_init(&v); vessel_pour(&v, 5): 5.
  testcase::TestCase t;
  const testcase::Ref v = append(t, {.op = testcase::Op::Aggregate, .type = u->program.type(vessel).value});
  const testcase::Ref address = append(t, {.op = testcase::Op::AddressOf, .type = pour.params[0].type, .refs = {v}});
  append(t, {.op = testcase::Op::Call, .callable = init.id, .refs = {address}});
  const testcase::Ref five = append(t, {.op = testcase::Op::Primitive, .type = u->program.type(pour.params[1].type).value, .bits = 5});
  const testcase::Ref poured = append(t, {.op = testcase::Op::Call, .callable = pour.id, .refs = {address, five}});
  ASSERT_EQ(u->run(t).outcome, exec::Outcome::Ok) << testcase::toCode(u->program, t);
  EXPECT_EQ(u->result(2), 0) << "vessel_init_ accepted the macro's version and size";
  EXPECT_EQ(u->result(poured), 5);
}

TEST(Factory, AnAbstractClassIsMadeAsTheProjectsConcreteSubclassFromAHeaderTheUnitDoesNotInclude) {
  // lexer.cpp's Lexer takes a const Grammar *, whose concrete LetterGrammar
  // only lexer_grammar.h defines (muParser's ParserTokenReader and
  // ParserBase, with Parser in muParser.h): the front end includes it
  // first, and a test gets a LetterGrammar, set up, as often as a stub.
  const auto m = UnitModel::make(MOSAIC_FIXTURE_SEARCH_DB_DIR, std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/search/lexer.cpp");
  ASSERT_EQ(m->program.completingHeaders.size(), 1u);
  EXPECT_TRUE(m->program.completingHeaders[0].ends_with("/lexer_grammar.h")) << m->program.completingHeaders[0];
  const model::Callable &make = m->callable("lex::LetterGrammar::LetterGrammar");
  Rng rng(6);
  testcase::ConstantPool pool;
  testcase::TestFactory factory(*m->catalog, pool, rng);
  int concrete = 0, stubs = 0;
  for (int i = 0; i < 100; ++i) {
    testcase::TestCase t;
    if (!factory.appendCall(t, m->callable("lex::Lexer::next").id)) continue;
    for (const testcase::Statement &s : t.statements) {
      concrete += s.op == testcase::Op::Construct && s.callable == make.id;
      stubs += s.op == testcase::Op::Subclass;
    }
  }
  // Half of the grammars made (TestFactory::makeRecord); before, none.
  EXPECT_GT(concrete, 0);
  EXPECT_GT(concrete * 3, stubs) << concrete << " LetterGrammars, " << stubs << " stubs";
}

TEST(Factory, AGlobalObjectOfTheApiIsAValueOfThePointersItsFunctionsTake) {
  // digest.h declares `extern const struct digest_algo digest_sum8;`
  // (nettle's nettle_sha256), defined in digest_algos.c; digest_run takes
  // a const struct digest_algo *. &digest_sum8 is a value a test passes,
  // and the harness and the tests write it as that.
  auto u = UnitHarness::make(MOSAIC_FIXTURE_SEARCH_DB_DIR, std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/search/digest.c");
  const model::Callable &sum = u->callable("digest_sum8"), &run = u->callable("digest_run");
  EXPECT_TRUE(sum.globalObject);
  EXPECT_TRUE(sum.params.empty());
  EXPECT_EQ(sum.result, run.params[0].type);
  EXPECT_TRUE(u->callable("digest_xor8").globalObject);
  for (model::CallableId t : u->program.targets) EXPECT_FALSE(u->program.callable(t).globalObject);
  Rng rng(2);
  testcase::ConstantPool pool;
  testcase::TestFactory factory(*u->catalog, pool, rng);
  int globals = 0;
  for (int i = 0; i < 40; ++i) {
    testcase::TestCase t;
    if (!factory.appendCall(t, run.id)) continue;
    for (const testcase::Statement &s : t.statements)
      globals += s.op == testcase::Op::Call && u->program.callable(s.callable).globalObject;
  }
  EXPECT_GE(globals, 10); // a table no test may fill by hand comes from the API
  // digest_run(&digest_sum8, "ab", 2, out): 1 byte, ('a' + 'b') & 0xff.
  testcase::TestCase t;
  const testcase::Ref algo = append(t, {.op = testcase::Op::Call, .callable = sum.id});
  const testcase::Ref data = append(t, {.op = testcase::Op::Buffer, .type = u->program.type(run.params[1].type).value, .bytes = "ab"});
  const testcase::Ref n = append(t, {.op = testcase::Op::Primitive, .type = u->program.type(run.params[2].type).value, .bits = 2});
  const testcase::Ref out =
      append(t, {.op = testcase::Op::Buffer, .type = u->program.type(run.params[3].type).value, .bytes = std::string(8, '\0')});
  const testcase::Ref result = append(t, {.op = testcase::Op::Call, .callable = run.id, .refs = {algo, data, n, out}});
  ASSERT_EQ(u->run(t).outcome, exec::Outcome::Ok) << testcase::toCode(u->program, t);
  EXPECT_EQ(u->result(result), 1);
}

// Function-level defect prediction's weights: a callable weighted 9 is
// chosen about nine times as often as one weighted 1; no weights, uniform.
TEST(Factory, TargetsAreChosenInProportionToTheirWeights) {
  auto u = UnitHarness::make(MOSAIC_FIXTURE_DB_DIR, kFixtures + "shapes.c");
  ASSERT_GE(u->program.targets.size(), 2u);
  const std::vector<model::CallableId> two{u->program.targets[0], u->program.targets[1]};
  testcase::ConstantPool pool;
  Rng rng(5);
  testcase::FactoryOptions options;
  options.targetWeights.assign(u->program.callables.size(), 1.0);
  options.targetWeights[two[0]] = 9.0;
  testcase::TestFactory weighted(*u->catalog, pool, rng, options);
  int first = 0;
  for (int k = 0; k < 2000; ++k) first += weighted.pickTarget(two) == two[0];
  EXPECT_GT(first, 1700); // 90% expected
  EXPECT_LT(first, 1900);
  testcase::TestFactory uniform(*u->catalog, pool, rng);
  first = 0;
  for (int k = 0; k < 2000; ++k) first += uniform.pickTarget(two) == two[0];
  EXPECT_GT(first, 850);
  EXPECT_LT(first, 1150);
}

TEST(ConstantPool, AFullDynamicListForgetsItsOldestValuesFirst) {
  using testcase::ConstantPool;
  ConstantPool pool;
  const auto n = static_cast<std::int64_t>(ConstantPool::kMaxDynamic);
  for (std::int64_t v = 0; v < n + 10; ++v) pool.addInteger(v, true);
  pool.addInteger(n + 3, true); // seen: not added twice
  EXPECT_EQ(pool.dynamicSize(), ConstantPool::kMaxDynamic);
  // Every draw is one of the newest kMaxDynamic values: 0..9 are gone.
  Rng rng(3);
  std::set<std::int64_t> drawn;
  for (int k = 0; k < 50000; ++k) drawn.insert(*pool.integer(rng, 1.0));
  EXPECT_GE(*drawn.begin(), 10);
  EXPECT_LE(*drawn.rbegin(), n + 9);
  // A forgotten value can come back.
  pool.addInteger(0, true);
  EXPECT_EQ(pool.dynamicSize(), ConstantPool::kMaxDynamic);
  bool back = false;
  for (int k = 0; k < 50000 && !back; ++k) back = *pool.integer(rng, 1.0) == 0;
  EXPECT_TRUE(back);
}

TEST(Factory, EndsAtAHardDepthWhereOnlyConstructorsThatNeedEachOtherAreLeft) {
  // relay.cpp's Knot and Loop are made from each other (or a Knot from
  // Knot::make(), which the factory asks only above its depth): random
  // tests of Loop::size end (the factory overflowed its stack on libebml's
  // EbmlCrc32.cpp), and some still make a Loop.
  const auto m = UnitModel::make(MOSAIC_FIXTURE_SEARCH_DB_DIR,
                                 std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/search/relay.cpp");
  model::CallableId loopSize = 0;
  for (const model::Callable &c : m->program.callables)
    if (c.qualifiedName == "sig::Loop::size") loopSize = c.id;
  ASSERT_NE(loopSize, 0u);
  Rng rng(3);
  testcase::ConstantPool pool;
  testcase::TestFactory factory(*m->catalog, pool, rng);
  int made = 0;
  for (int i = 0; i < 200; ++i) {
    const testcase::TestCase t = factory.randomTest({loopSize});
    for (const testcase::Statement &s : t.statements) made += s.op == testcase::Op::MethodCall && s.callable == loopSize;
  }
  EXPECT_GT(made, 0);
}


TEST(Factory, AParameterDeclaredAsAnArrayGetsThatManyElements) {
  // claims_mix(unsigned int state[4], const unsigned char block[8]) (libmd's
  // SHA256Transform(uint32_t state[8], const uint8_t data[64])): the
  // address of one integer was overflowed by the first call.
  UnitHarness *u = &claims();
  Rng rng(3);
  testcase::ConstantPool pool;
  testcase::TestFactory factory(*u->catalog, pool, rng);
  const model::Callable &mix = u->callable("claims_mix");
  exec::Limits limits;
  limits.timeoutMs = 200;
  int blocks = 0;
  for (int i = 0; i < 20; ++i) {
    testcase::TestCase t;
    ASSERT_TRUE(factory.appendCall(t, mix.id));
    const testcase::Statement &call = t.statements.back();
    const testcase::Statement &state = t.statements[call.refs[0]];
    const testcase::Statement &block = t.statements[call.refs[1]];
    ASSERT_EQ(state.op, testcase::Op::Array) << testcase::toCode(u->program, t);
    EXPECT_EQ(state.refs.size(), 4u);
    if (block.op != testcase::Op::Null) {
      ASSERT_EQ(block.op, testcase::Op::Buffer) << testcase::toCode(u->program, t);
      EXPECT_GE(block.bytes.size(), 8u);
      ++blocks;
      EXPECT_EQ(u->run(t, limits).outcome, exec::Outcome::Ok) << testcase::toCode(u->program, t);
    }
  }
  EXPECT_GT(blocks, 10);
}

TEST(Factory, AStringOnlyTheAPIMakesComesFromTheAPI) {
  // claims_str_len(claims_str s) (hiredis's sdslen(sds)): never the test's
  // own bytes, which have no header before them.
  UnitHarness *u = &claims();
  Rng rng(5);
  testcase::ConstantPool pool;
  testcase::TestFactory factory(*u->catalog, pool, rng);
  const model::Callable &len = u->callable("claims_str_len");
  int made = 0;
  for (int i = 0; i < 30; ++i) {
    testcase::TestCase t;
    ASSERT_TRUE(factory.appendCall(t, len.id));
    const testcase::Statement &s = t.statements[t.statements.back().refs[0]];
    if (s.op == testcase::Op::Null) continue;
    ASSERT_EQ(s.op, testcase::Op::Call) << testcase::toCode(u->program, t);
    ++made;
  }
  EXPECT_GT(made, 15);
}

TEST(Factory, AFileDescriptorIsATemporaryFilesOrMinusOneNeverOneTheRunnerHas) {
  // claims_read_fd(int fd) (giflib's DGifOpenFileHandle(int FileHandle,
  // ...)): a descriptor of a temporary file holding the test's bytes
  // (Op::File), whose first byte the function reads, or -1; never a
  // number that may be the runner's stdio.
  UnitHarness *u = &claims();
  Rng rng(9);
  testcase::ConstantPool pool;
  testcase::TestFactory factory(*u->catalog, pool, rng);
  const model::Callable &read = u->callable("claims_read_fd");
  exec::Limits limits;
  limits.timeoutMs = 200;
  int files = 0, minusOne = 0;
  for (int i = 0; i < 30; ++i) {
    testcase::TestCase t;
    ASSERT_TRUE(factory.appendCall(t, read.id));
    const testcase::Statement &fd = t.statements[t.statements.back().refs[0]];
    ASSERT_EQ(u->run(t, limits).outcome, exec::Outcome::Ok) << testcase::toCode(u->program, t);
    const auto result = u->result(static_cast<std::uint32_t>(t.statements.size() - 1));
    ASSERT_TRUE(result.has_value());
    if (fd.op == testcase::Op::File) {
      ++files;
      EXPECT_EQ(*result, fd.bytes.empty() ? -1 : static_cast<unsigned char>(fd.bytes[0])) << testcase::toCode(u->program, t);
    } else {
      ASSERT_EQ(fd.op, testcase::Op::Primitive);
      EXPECT_EQ(static_cast<std::int32_t>(fd.bits), -1);
      EXPECT_EQ(*result, -1);
      ++minusOne;
    }
  }
  EXPECT_GT(files, minusOne);
  EXPECT_GT(minusOne, 0);
}

TEST(Factory, AStreamOfTheCLibraryIsATemporaryFileHoldingTheTestsBytesOrNull) {
  // claims_write(doc, FILE *out) writes the document's text to `out`: a
  // stream over a temporary file (Op::File), or NULL; never a FILE the
  // test zeroed by hand.
  UnitHarness *u = &claims();
  Rng rng(5);
  testcase::ConstantPool pool;
  testcase::TestFactory factory(*u->catalog, pool, rng);
  const model::Callable &write = u->callable("claims_write");
  exec::Limits limits;
  limits.timeoutMs = 200;
  int files = 0;
  for (int i = 0; i < 20; ++i) {
    testcase::TestCase t;
    ASSERT_TRUE(factory.appendCall(t, write.id));
    const testcase::Statement &out = t.statements[t.statements.back().refs[1]];
    ASSERT_TRUE(out.op == testcase::Op::File || out.op == testcase::Op::Null) << testcase::toCode(u->program, t);
    files += out.op == testcase::Op::File;
    EXPECT_EQ(u->catalog->typeError(t), "");
    EXPECT_NE(u->run(t, limits).outcome, exec::Outcome::HarnessError) << testcase::toCode(u->program, t);
  }
  EXPECT_GT(files, 10);
  // Op::File makes a FILE * or a descriptor, nothing else.
  testcase::TestCase wrong;
  wrong.statements.push_back({.op = testcase::Op::File, .type = write.params[0].type, .bytes = "x"});
  EXPECT_NE(u->catalog->typeError(wrong).find("neither a FILE * nor a descriptor"), std::string::npos);
}

TEST(Catalog, ATemporaryFileStandsForAStreamADescriptorOrAPlainVoidPointerOnly) {
  // records.c: a FILE * stream stands for records_header's FILE * and for
  // records_sink's plain `void *file`, not for records_next's
  // RECORDS_READER * (a typedef of void: a handle of the API's own, which
  // records_open makes, as bzip2's BZFILE); a descriptor only for a
  // descriptor parameter.
  auto m = test::UnitModel::make(MOSAIC_FIXTURE_SEARCH_DB_DIR, std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/search/records.c");
  const model::Param &in = m->callable("records_header").params.at(0),
                     &sinkFile = m->callable("records_sink").params.at(0),
                     &reader = m->callable("records_next").params.at(0), &fd = m->callable("records_peek").params.at(0),
                     &value = m->callable("records_write").params.at(1);
  const testcase::Statement stream{.op = testcase::Op::File, .type = in.type, .bytes = "RECORDS"},
      descriptor{.op = testcase::Op::File, .type = fd.type, .bytes = "R"};
  const testcase::Catalog &c = *m->catalog;
  EXPECT_TRUE(c.fileStream(in.type));
  EXPECT_TRUE(c.standsFor(stream, &in, in.type));
  EXPECT_TRUE(c.standsFor(stream, &sinkFile, sinkFile.type));
  EXPECT_FALSE(c.standsFor(stream, &reader, reader.type));
  EXPECT_TRUE(c.fileDescriptor(fd));
  EXPECT_TRUE(c.standsFor(descriptor, &fd, fd.type));
  EXPECT_FALSE(c.standsFor(descriptor, &value, value.type));
  EXPECT_TRUE(c.plainVoidPointer(sinkFile.type));
  EXPECT_TRUE(c.voidHandle(reader.type));
  EXPECT_FALSE(c.voidHandle(sinkFile.type));
}

TEST(Factory, AHandleOnlyTheAPIMakesIsNullWhereTheCalleeSetsIt) {
  // claims_node_parse(text, claims_node *out) (libplist's plist_from_xml(xml,
  // n, plist_t *plist)): `claims_node out = NULL; ...(&out)`, as a C caller
  // writes it, and a claims_node argument always from the API.
  UnitHarness *u = &claims();
  Rng rng(11);
  testcase::ConstantPool pool;
  testcase::TestFactory factory(*u->catalog, pool, rng);
  const model::Callable &parse = u->callable("claims_node_parse");
  const model::Callable &kind = u->callable("claims_node_kind");
  for (int i = 0; i < 10; ++i) {
    testcase::TestCase t;
    ASSERT_TRUE(factory.appendCall(t, parse.id));
    const testcase::Statement &out = t.statements[t.statements.back().refs[1]];
    if (out.op == testcase::Op::Null) continue;
    ASSERT_EQ(out.op, testcase::Op::AddressOf) << testcase::toCode(u->program, t);
    EXPECT_EQ(t.statements[out.refs[0]].op, testcase::Op::Null) << testcase::toCode(u->program, t);
    testcase::TestCase k;
    ASSERT_TRUE(factory.appendCall(k, kind.id));
    const testcase::Statement &node = k.statements[k.statements.back().refs[0]];
    EXPECT_TRUE(node.op == testcase::Op::Null || node.op == testcase::Op::Call) << testcase::toCode(u->program, k);
  }
}

TEST(Factory, AVariadicCountIsTheNumberOfExtras) {
  // claims_sum(int count, ...): claims_sum(701) read 701 ints that were not
  // there; it passed in the harness and crashed in the suite's own build.
  UnitHarness *u = &claims();
  const model::Callable &sum = u->callable("claims_sum");
  ASSERT_EQ(testcase::varargCountParam(u->program, sum), 0u);
  Rng rng(13);
  testcase::ConstantPool pool;
  testcase::TestFactory factory(*u->catalog, pool, rng);
  for (int i = 0; i < 20; ++i) {
    testcase::TestCase t;
    ASSERT_TRUE(factory.appendCall(t, sum.id));
    const testcase::Statement &call = t.statements.back();
    const testcase::Statement &count = t.statements[call.refs[0]];
    ASSERT_EQ(count.op, testcase::Op::Primitive);
    EXPECT_EQ(count.bits, call.refs.size() - 1) << testcase::toCode(u->program, t);
  }
  // A mutation's count is put right.
  testcase::TestCase t;
  t.statements = {testcase::Statement{.op = testcase::Op::Primitive, .type = u->program.type(sum.params[0].type).value,
                                      .bits = 701},
                  testcase::Statement{.op = testcase::Op::Call, .callable = sum.id, .refs = {0}}};
  EXPECT_TRUE(testcase::fitCounts(*u->catalog, t));
  EXPECT_EQ(t.statements[0].bits, 0u);
  EXPECT_FALSE(testcase::fitCounts(*u->catalog, t));
}

TEST(Factory, APlainVoidPointerIsOftenOneTheUnitHandsOut) {
  // cursor.c: cursor_value(void *cursor) reads its argument as the unit's
  // own slot, which cursor_at() hands out as a `void *` (jansson's
  // hashtable_iter_key(void *iter) and hashtable_iter()). The address of a
  // test's variable was read past its end: half of the arguments come from
  // cursor_at, the others are NULL or an address as before.
  auto m = test::UnitModel::make(MOSAIC_FIXTURE_SEARCH_DB_DIR, std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/search/cursor.c");
  const model::Callable &value = m->callable("cursor_value"), &at = m->callable("cursor_at");
  Rng rng(17);
  testcase::ConstantPool pool;
  testcase::TestFactory factory(*m->catalog, pool, rng);
  int fromUnit = 0, other = 0;
  for (int i = 0; i < 100; ++i) {
    testcase::TestCase t;
    ASSERT_TRUE(factory.appendCall(t, value.id));
    const testcase::Statement &arg = t.statements[t.statements.back().refs[0]];
    if (arg.op == testcase::Op::Call && arg.callable == at.id) ++fromUnit;
    else ++other;
  }
  EXPECT_GT(fromUnit, 30);
  EXPECT_GT(other, 30);
}
