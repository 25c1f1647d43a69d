// The harness's compile command and generated source.
#include "analysis/FixtureModel.h"
#include "common/TestSupport.h"
#include "common/UnitHarness.h"
#include "common/UnitModel.h"
#include "mosaic/harness/Build.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <regex>

using namespace mosaic;
using namespace mosaic::test;

TEST(HarnessCompile, KeepsTheUnitsFlagsDropsItsOutputs) {
  model::Program p = fixtureModel("shapes.c");
  const auto argv = harness::harnessCompileCommand(p, testToolchain(), "/w/harness.c", "/w/harness.o", false);
  EXPECT_EQ(argv.front(), MOSAIC_CLANG);
  auto has = [&](const std::string &a) { return std::find(argv.begin(), argv.end(), a) != argv.end(); };
  EXPECT_TRUE(has("-std=gnu11"));
  EXPECT_TRUE(has("-O2"));
  EXPECT_TRUE(has("-g"));
  EXPECT_TRUE(has("-fpass-plugin=" + std::string(MOSAIC_PASS_PLUGIN)));
  EXPECT_FALSE(has("shapes.c")) << "the wrapper includes the unit instead";
  EXPECT_FALSE(has("shapes.o"));
  EXPECT_FALSE(has("-fsyntax-only"));
  EXPECT_FALSE(has("-Werror"));
  EXPECT_EQ(argv[argv.size() - 3], "/w/harness.c");
  EXPECT_EQ(argv.back(), "/w/harness.o");
  const auto sanitized = harness::harnessCompileCommand(p, testToolchain(), "h.c", "h.o", true);
  EXPECT_NE(std::find(sanitized.begin(), sanitized.end(), "-fsanitize=address,undefined"), sanitized.end());
}

TEST(HarnessSource, IncludesTheUnitAndNamesEveryCallable) {
  const model::Program &p = fixtureModel("shapes.c");
  const testcase::Catalog catalog(p);
  const auto h = harness::generateHarness(p, catalog);
  EXPECT_EQ(h.extension, ".c");
  EXPECT_NE(h.source.find("#define main __mosaic_unit_main\n#include \"" + p.unit + "\""), std::string::npos);
  EXPECT_EQ(h.callables.size(), p.callables.size());
  EXPECT_TRUE(h.notCallable.empty());
  for (const auto &c : p.callables) EXPECT_NE(h.source.find("/* " + c.signature + " */"), std::string::npos) << c.signature;
}

TEST(HarnessSource, DeclaresOnlyTheTypeAliasesItUses) {
  // An invariant of the writer (Writer::generate filters the aliases): one
  // declared and never used can still fail the whole harness (muParser's
  // protected ParserBase::change_dec_sep<char>, seen on muParserBase.cpp).
  for (const char *unit : {"inventory.cpp", "shapes.c"}) {
    const model::Program &p = fixtureModel(unit);
    const testcase::Catalog catalog(p);
    const std::string source = harness::generateHarness(p, catalog).source;
    const std::regex declared(R"((?:using (__mosaic_t\d+) =|\) (__mosaic_t\d+);))");
    size_t aliases = 0;
    for (auto it = std::sregex_iterator(source.begin(), source.end(), declared); it != std::sregex_iterator(); ++it) {
      const std::string name = (*it)[1].matched ? (*it)[1].str() : (*it)[2].str();
      const std::regex use(name + R"(\b)");
      EXPECT_GE(std::distance(std::sregex_iterator(source.begin(), source.end(), use), std::sregex_iterator()), 2)
          << unit << ": " << name << " is declared and never used";
      ++aliases;
    }
    EXPECT_GT(aliases, 5u) << unit;
  }
}

TEST(HarnessSource, CxxUnitsCatchExceptionsPerStatement) {
  const model::Program &p = fixtureModel("inventory.cpp");
  const testcase::Catalog catalog(p);
  const auto h = harness::generateHarness(p, catalog);
  EXPECT_EQ(h.extension, ".cpp");
  EXPECT_NE(h.source.find("catch (const std::exception &e)"), std::string::npos);
  const auto noExceptions = harness::generateHarness(p, catalog, {.exceptions = false});
  EXPECT_EQ(noExceptions.source.find("catch ("), std::string::npos);
  // What cannot be called is said, with why.
  ASSERT_EQ(h.notCallable.size(), 2u);
  EXPECT_NE(h.notCallable[0].second.find("vector arguments are not generated yet"), std::string::npos);
}

TEST(HarnessBuild, IsCachedUntilAnInputChanges) {
  const model::Program &p = fixtureModel("shapes.c");
  const testcase::Catalog catalog(p);
  const std::string work = makeTempDir("mosaic-build");
  auto first = harness::buildHarness(p, catalog, testToolchain(), {work, false, 2, {}});
  ASSERT_TRUE(first) << first.error().message << first.error().detail;
  EXPECT_FALSE(first->cached);
  auto second = harness::buildHarness(p, catalog, testToolchain(), {work, false, 2, {}});
  ASSERT_TRUE(second);
  EXPECT_TRUE(second->cached);
  EXPECT_EQ(second->binary, first->binary);
  // Touch an input of the compile (the unit's header): rebuilt.
  std::filesystem::last_write_time(p.mainHeader, std::filesystem::file_time_type::clock::now());
  auto third = harness::buildHarness(p, catalog, testToolchain(), {work, false, 2, {}});
  ASSERT_TRUE(third);
  EXPECT_FALSE(third->cached);
}

TEST(ProjectArchive, TellsAProgramFromAPartOfTheLibrary) {
  // A translation unit that defines main (re2's util/test.cc) has its main
  // renamed in the project archive; one that only defines functions not.
  const std::string dir = makeTempDir("mosaic-main");
  auto compile = [&](const std::string &name, const std::string &text, const std::string &flags = "") {
    const std::string src = dir + "/" + name + ".c", obj = dir + "/" + name + ".o";
    std::ofstream(src) << text;
    EXPECT_EQ(std::system(("clang-19 -w -c " + flags + " " + src + " -o " + obj).c_str()), 0);
    return obj;
  };
  EXPECT_TRUE(harness::definesMain(compile("driver", "int helper(void) { return 1; }\nint main(void) { return 0; }\n")));
  EXPECT_FALSE(harness::definesMain(compile("part", "int domain(void) { return 1; }\nint main_count;\n")));
  // Read from the ELF symbol table: a variable named main is no program's
  // entry (nm: "D main"), a declared main is not defined.
  EXPECT_FALSE(harness::definesMain(compile("variable", "int main = 3;\n")));
  EXPECT_FALSE(harness::definesMain(compile("caller", "int main(void);\nint run(void) { return main(); }\n")));
  // LLVM bitcode (-flto) is no ELF object: nm reads it through its plugin.
  EXPECT_TRUE(harness::definesMain(compile("thin", "int main(void) { return 0; }\n", "-flto")));
  EXPECT_FALSE(harness::definesMain(compile("thinpart", "int domain(void) { return 1; }\n", "-flto")));
}

TEST(HarnessSource, ObservesWhatACallWritesThroughButNotWhatItReleases) {
  // claims_fill(dest, destLen) writes through both; claims_free(doc)
  // writes doc->text and then frees doc: its bytes afterwards are the
  // allocator's, different from run to run (cmark_node_free's node->next),
  // no assertion's to pin.
  const auto model = test::UnitModel::make(MOSAIC_FIXTURE_SEARCH_DB_DIR,
                                           std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/search/claims.c");
  const std::string source = harness::generateHarness(model->program, *model->catalog).source;
  const auto callOf = [&](const std::string &signature) {
    const size_t at = source.find("/* " + signature + " */");
    EXPECT_NE(at, std::string::npos) << signature;
    return source.substr(at, source.find("\n}\n", at) - at);
  };
  for (const model::Callable &c : model->program.callables)
    if (c.name == "claims_free") EXPECT_TRUE(c.params[0].written);
  EXPECT_NE(callOf("claims_fill(unsigned char *, size_t *)").find("MOSAIC_OBS_ARG0 + 0"), std::string::npos);
  EXPECT_EQ(callOf("claims_free(claims_doc *)").find("MOSAIC_OBS_ARG0"), std::string::npos)
      << callOf("claims_free(claims_doc *)");
}

TEST(HarnessCompile, ACxxStandardBeforeCxx11BecomesCxx11) {
  // taglib 1.13 builds with -std=gnu++98; the harness's own code (std::move,
  // lambdas, auto) needs C++11, and C++98 code compiles as C++11.
  EXPECT_EQ(harness::harnessStandard("-std=gnu++98"), "-std=gnu++11");
  EXPECT_EQ(harness::harnessStandard("-std=c++03"), "-std=c++11");
  EXPECT_EQ(harness::harnessStandard("-std=c++14"), "-std=c++14");
  EXPECT_EQ(harness::harnessStandard("-std=gnu11"), "-std=gnu11");
  EXPECT_EQ(harness::harnessStandard("-O2"), "-O2");
  // The suite's wrapper is built with the unit's flags, and is mosaic's
  // code too.
  model::Program p = fixtureModel("inventory.cpp");
  for (std::string &a : p.compileCommand)
    if (a.rfind("-std=", 0) == 0) a = "-std=gnu++98";
  const auto flags = harness::unitFlags(p);
  EXPECT_NE(std::find(flags.begin(), flags.end(), "-std=gnu++11"), flags.end());
  EXPECT_EQ(std::find(flags.begin(), flags.end(), "-std=gnu++98"), flags.end());
}

TEST(ProjectLibraries, AreReadFromACMakeCacheAndAMakefile) {
  // taglib's build has ZLIB_LIBRARY_RELEASE in its cache (its tzlib.cpp
  // calls inflate); an autotools Makefile says LIBS = -lz -lm.
  const std::string dir = makeTempDir("mosaic-libraries");
  const std::string lib = dir + "/libthing.so";
  std::ofstream(lib) << "not really a library";
  std::ofstream(dir + "/CMakeCache.txt") << "THING_LIBRARY_RELEASE:FILEPATH=" << lib << "\n"
                                         << "THING_LIBRARIES:STRING=" << lib << ";-lthing\n"
                                         << "THING_LIBRARY_DEBUG:FILEPATH=THING_LIBRARY_DEBUG-NOTFOUND\n"
                                         << "THING_INCLUDE_DIR:PATH=" << dir << "\n";
  std::ofstream(dir + "/Makefile") << "CC = cc\nLIBS = -lz -lm\n";
  EXPECT_EQ(harness::projectLibraries(dir), (std::vector<std::string>{lib, "-lthing", "-lz", "-lm"}));
  EXPECT_TRUE(harness::projectLibraries(dir + "/none").empty());
}
