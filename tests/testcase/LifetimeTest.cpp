// What a C API releases: no test uses a value after freeing it.
#include "mosaic/analysis/FrontEnd.h"
#include "mosaic/model/Derive.h"
#include "mosaic/testcase/Catalog.h"
#include "mosaic/testcase/ConstantPool.h"
#include "mosaic/testcase/Lifetime.h"
#include "mosaic/testcase/TestFactory.h"

#include <gtest/gtest.h>

using namespace mosaic;
using namespace mosaic::testcase;

namespace {

const std::string kLifetimeFixtures = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/analysis/";

model::Program shapes() {
  auto p = analysis::analyzeUnit({MOSAIC_FIXTURE_DB_DIR, kLifetimeFixtures + "shapes.c"});
  if (!p) throw std::runtime_error(p.error().message);
  (void)model::selectTargets(*p, {});
  return std::move(*p);
}

const model::Callable &named(const model::Program &p, const std::string &name) {
  for (const model::Callable &c : p.callables)
    if (c.name == name) return c;
  throw std::runtime_error("no callable " + name);
}

// Whether a later statement reads a variable a release took.
bool usesAfterRelease(const model::Program &p, const TestCase &t) {
  for (size_t i = 0; i < t.statements.size(); ++i) {
    const Statement &s = t.statements[i];
    if (s.op != Op::Call || s.refs.size() != 1 || !releasesItsArgument(p, p.callable(s.callable))) continue;
    for (size_t j = i + 1; j < t.statements.size(); ++j)
      for (Ref r : t.statements[j].refs)
        if (r == s.refs[0]) return true;
  }
  return false;
}

} // namespace

TEST(Lifetime, AHandleItsOpenerMadeIsReleasedByItsCloser) {
  auto p = analysis::analyzeUnit({MOSAIC_FIXTURE_DB_DIR, kLifetimeFixtures + "stream.c"});
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_TRUE(releasesItsArgument(*p, named(*p, "stream_close")));
  EXPECT_FALSE(releasesItsArgument(*p, named(*p, "stream_block_close"))); // no stream_block_open
  EXPECT_FALSE(releasesItsArgument(*p, named(*p, "stream_read")));
  // With a status out-parameter after it, the handle is still what it releases.
  EXPECT_EQ(releasedParam(*p, named(*p, "stream_close_checked")), 0u);
  EXPECT_EQ(releasedParam(*p, named(*p, "stream_block_close")), std::nullopt);
}

TEST(Lifetime, DestroyersAreKnownByNameAndOnePointerParameter) {
  const model::Program p = shapes();
  EXPECT_TRUE(releasesItsArgument(p, named(p, "registry_free")));
  EXPECT_FALSE(releasesItsArgument(p, named(p, "registry_add")));  // not by name
  EXPECT_TRUE(isDestroyerName("cJSON_Delete"));
  EXPECT_TRUE(isDestroyerName("XML_ParserFree"));
  EXPECT_TRUE(isDestroyerName("g_object_unref"));
  EXPECT_FALSE(isDestroyerName("XML_ParserReset"));
}

TEST(Lifetime, InitialisersAreKnownByAWordThatStartsOrEndsWithInit) {
  EXPECT_TRUE(isInitialiserName("mp_init_size"));
  EXPECT_TRUE(isInitialiserName("deflateInit2_"));
  EXPECT_TRUE(isInitialiserName("luaL_buffinit"));
  EXPECT_FALSE(isInitialiserName("luaL_addvalue"));
  EXPECT_FALSE(isInitialiserName("infinity"));
  // Any case, as identifierWords splits and lower-cases it.
  EXPECT_TRUE(isInitialiserName("XML_INIT"));
  EXPECT_TRUE(isInitialiserName("Reinit"));
  EXPECT_TRUE(isInitialiserName("initialize"));
  EXPECT_FALSE(isInitialiserName("ini"));
  EXPECT_FALSE(isInitialiserName("xmlInInput")); // words xml, in, input
}

TEST(Lifetime, AReleaseBeforeALaterUseIsDropped) {
  const model::Program p = shapes();
  const model::Callable &make = named(p, "registry_new");
  const model::Callable &release = named(p, "registry_free");
  const model::Callable &add = named(p, "registry_add");
  TestCase t;
  t.statements = {
      Statement{.op = Op::Primitive, .type = make.params.at(0).type, .bits = 4},
      Statement{.op = Op::Call, .callable = make.id, .refs = {0}},
      Statement{.op = Op::Call, .callable = release.id, .refs = {1}}, // freed ...
      Statement{.op = Op::Aggregate, .type = add.params.at(1).type, .refs = {0, 0}},
      Statement{.op = Op::Call, .callable = add.id, .refs = {1, 3}},  // ... then used
      Statement{.op = Op::Call, .callable = release.id, .refs = {1}}, // the last word: kept
  };
  EXPECT_EQ(dropEarlyReleases(t, p), 1u);
  ASSERT_EQ(t.statements.size(), 5u);
  EXPECT_EQ(t.statements[1].callable, make.id);
  EXPECT_EQ(t.statements[3].callable, add.id);
  EXPECT_EQ(t.statements[4].callable, release.id);
  EXPECT_EQ(t.statements[4].refs, (std::vector<Ref>{1}));
  EXPECT_EQ(dropEarlyReleases(t, p), 0u);
}

TEST(Lifetime, NoRandomTestUsesWhatItReleased) {
  const model::Program p = shapes();
  Catalog catalog(p);
  ConstantPool pool;
  pool.addStatic(p);
  Rng rng(3);
  TestFactory factory(catalog, pool, rng);
  int releasing = 0;
  for (int i = 0; i < 300; ++i) {
    const TestCase t = factory.randomTest(p.targets);
    EXPECT_FALSE(usesAfterRelease(p, t));
    for (const Statement &s : t.statements) releasing += s.op == Op::Call && s.callable == named(p, "registry_free").id;
  }
  EXPECT_GT(releasing, 0); // releases still happen, as the last use
}
