// The flag table against what users read: `mosaic <command> --help` and
// docs/CLI.md. Each names every flag of the table with its help and
// default, and neither names a flag the table does not have.
#include "common/TestSupport.h"
#include "mosaic/driver/Flags.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>

using namespace mosaic::driver;
using namespace mosaic::test;

namespace {

const Command kCommands[] = {kAnalyze, kRun, kGenerate, kMutate, kReproduce, kPredict, kProject};

// docs/CLI.md's text between `<!-- flags:NAME -->` and `<!-- /flags -->`.
std::string docsBlock(const std::string &docs, Command command) {
  const std::string open = std::string("<!-- flags:") + commandName(command) + " -->\n";
  const size_t start = docs.find(open);
  if (start == std::string::npos) return "(no " + open + ")";
  const size_t end = docs.find("<!-- /flags -->", start);
  return docs.substr(start + open.size(), end == std::string::npos ? std::string::npos : end - start - open.size());
}

} // namespace

TEST(FlagTable, DocsCarryTheTableOfEveryCommand) {
  const std::string docs = readFile(std::string(MOSAIC_SOURCE_DIR) + "/docs/CLI.md");
  for (Command c : kCommands) {
    const std::string expected = flagsMarkdown(c);
    if (docsBlock(docs, c) != expected) {
      // Written out for pasting into docs/CLI.md.
      const std::string path = std::string(MOSAIC_BINARY_DIR) + "/flags-" + commandName(c) + ".md";
      std::ofstream(path) << expected;
      ADD_FAILURE() << "docs/CLI.md's flags of `" << commandName(c) << "` differ from the table; the table's are in "
                    << path;
    }
  }
}

TEST(FlagTable, DocsNameNoFlagTheTableLacks) {
  const std::string docs = readFile(std::string(MOSAIC_SOURCE_DIR) + "/docs/CLI.md");
  std::set<std::string> known = {"--help", "--version"};
  for (const Flag &f : flagTable()) known.insert(f.longName());
  static const std::regex flag(R"((^|[\s\[`(])(--[a-z][a-z0-9-]*))");
  for (std::sregex_iterator it(docs.begin(), docs.end(), flag), end; it != end; ++it)
    EXPECT_TRUE(known.count((*it)[2].str())) << (*it)[2].str() << " is in docs/CLI.md but not in the flag table";
}

TEST(FlagTable, HelpShowsEveryFlagWithItsHelpAndDefault) {
  for (Command c : kCommands) {
    auto r = runProcess({MOSAIC_EXE, commandName(c), "--help"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    for (const Flag *f : flagsOf(c)) {
      EXPECT_NE(r.out.find(f->longName()), std::string::npos) << commandName(c) << " " << f->longName();
      EXPECT_NE(r.out.find(f->help), std::string::npos) << commandName(c) << " " << f->longName();
      const std::string def = f->defaultFor(c);
      if (!def.empty())
        EXPECT_NE(r.out.find(f->help + " (default " + def + ")"), std::string::npos) << commandName(c) << " " << f->longName();
    }
  }
}

TEST(FlagTable, ValuesGoWhereTheTableSaysAndBadOnesAreNamed) {
  CommandLine options;
  auto set = [&](Command c, const std::string &name, const std::string &value) {
    for (const Flag *f : flagsOf(c))
      if (f->longName() == name) return f->set(options, c, value);
    return std::optional<std::string>("no flag " + name);
  };
  EXPECT_FALSE(set(kGenerate, "--budget", "2m"));
  EXPECT_DOUBLE_EQ(options.generate.budgetSeconds, 120);
  EXPECT_DOUBLE_EQ(options.run.budgetSeconds, 30); // run's own, untouched
  EXPECT_FALSE(set(kGenerate, "--criteria", "line,branch"));
  EXPECT_EQ(options.generate.criteria, (std::vector<std::string>{"line", "branch"}));
  EXPECT_FALSE(set(kGenerate, "--population", "12"));
  EXPECT_EQ(options.generate.search.population, 12u);
  EXPECT_FALSE(set(kGenerate, "--no-verify", ""));
  EXPECT_FALSE(options.generate.verify);
  EXPECT_FALSE(set(kAnalyze, "--json", "-"));
  EXPECT_EQ(options.analyze.jsonOut, "-");
  EXPECT_FALSE(set(kRun, "--function", "parse"));
  EXPECT_EQ(options.run.unit.function, "parse");
  EXPECT_EQ(*set(kGenerate, "--crossover-rate", "1.5"), "--crossover-rate 1.5 is out of range: 0 to 1");
  EXPECT_EQ(*set(kRun, "--seed", "x1"), "--seed 'x1' is not a whole number");
  EXPECT_EQ(*set(kRun, "--timeout", "0"), "--timeout 0 is out of range: 1 to 4294967295");
  // Issue 18's flag values: each a range error (or a documented meaning:
  // --max-executions 0 is no limit).
  EXPECT_EQ(*set(kRun, "--memory", "1"), "--memory 1 is out of range: 16 to 4294967295");
  EXPECT_EQ(*set(kRun, "--memory", "0"), "--memory 0 is out of range: 16 to 4294967295");
  EXPECT_EQ(*set(kGenerate, "--verify-runs", "-1"), "--verify-runs -1 is out of range: 1 to 1000");
  EXPECT_EQ(*set(kGenerate, "--tests-per-file", "0"), "--tests-per-file 0 is out of range: 1 to 18446744073709551615");
  EXPECT_FALSE(set(kRun, "--max-executions", "0"));
  // Defaults come from the options: generate's budget and timeout differ from run's.
  for (const Flag *f : flagsOf(kGenerate))
    if (f->longName() == "--timeout") {
      EXPECT_EQ(f->defaultFor(kGenerate), "100");
      EXPECT_EQ(f->defaultFor(kRun), "1000");
    }
}

TEST(FlagTable, EveryCommandRejectsWhatTheTableDoesNotGiveIt) {
  auto r = runProcess({MOSAIC_EXE, "analyze", "-p", ".", "x.c", "--population", "3"});
  EXPECT_EQ(r.exitCode, 2);
  r = runProcess({MOSAIC_EXE, "run", "-p", ".", "x.c", "--function", "f", "--class", "C"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("excludes"), std::string::npos) << r.err;
}
