// `mosaic reproduce` end to end on the crash fixture (tests/fixtures/crash):
// real traces of its program, from gdb and AddressSanitizer, reproduced by
// a test of the unit that fails the same way with the same frames, written
// as a death test that builds and dies; the errors of traces that cannot be
// read or placed; the closest attempt when the crash is not found.
#include "common/TestSupport.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace mosaic::test;
namespace fs = std::filesystem;

namespace {

const std::string kFixture = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/crash";

ProcessResult reproduce(const std::string &trace, const fs::path &out, std::vector<std::string> more = {}) {
  std::vector<std::string> argv{MOSAIC_EXE, "reproduce", "-p", MOSAIC_FIXTURE_CRASH_DB_DIR, "--trace", trace,
                                "-o", (out / "suite").string(), "--work-dir", (out / "work").string(),
                                "--seed", "1", "--budget", "60s", "--no-progress"};
  argv.insert(argv.end(), more.begin(), more.end());
  return runProcess(argv);
}

} // namespace

TEST(ReproduceCli, AGdbBacktraceAndAnAsanReportOfTheSameCrashAreReproduced) {
  // config_describe(c, 70) with c->name NULL: strlen crashes at config.c:14
  // in config_level, called from config_describe at config.c:22. The
  // traces ran in /home/dev/configlib: placed by their path suffixes.
  for (const char *trace : {"crash-gdb.txt", "crash-asan.txt"}) {
    const fs::path out = makeTempDir("mosaic-reproduce");
    auto r = reproduce(kFixture + "/" + trace, out);
    ASSERT_EQ(r.exitCode, 0) << trace << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("target       config_level config.c:14 <- config_describe config.c:22"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("verified     the death test builds and dies"), std::string::npos) << r.out;
    const std::string test = readFile(out / "suite" / "config_failing_test.cpp");
    // A fixture (the unit has state), as every test of the suite.
    EXPECT_NE(test.find("TEST_F(configTest_CrashDeathTest, config_describe_Crashes)"), std::string::npos) << test;
    EXPECT_NE(test.find("reproduces SIGSEGV of " + std::string(trace)), std::string::npos) << test;
    EXPECT_NE(test.find("#1 config_describe config.c:22"), std::string::npos) << test;
    // Minimal: the record with no name, and the call.
    EXPECT_NE(test.find(".name = nullptr"), std::string::npos) << test;
    EXPECT_NE(test.find("EXPECT_DEATH(run(), \"\")"), std::string::npos) << test;
  }
}

TEST(ReproduceCli, TracesThatCannotBeReadOrPlacedAreClearErrors) {
  const fs::path out = makeTempDir("mosaic-reproduce");
  auto missing = reproduce((out / "nowhere.txt").string(), out);
  EXPECT_EQ(missing.exitCode, 2);
  EXPECT_NE(missing.err.find("no such trace file"), std::string::npos) << missing.err;
  std::ofstream(out / "prose.txt") << "it crashed on Tuesday\n";
  auto prose = reproduce((out / "prose.txt").string(), out);
  EXPECT_EQ(prose.exitCode, 2);
  EXPECT_NE(prose.err.find("no stack frame in the trace"), std::string::npos) << prose.err;
  EXPECT_NE(prose.err.find("gdb or lldb backtrace"), std::string::npos) << prose.err;
  // Frames of another project only.
  auto other = reproduce(std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/traces/tsan.txt", out);
  EXPECT_EQ(other.exitCode, 2);
  EXPECT_NE(other.err.find("no frame of the trace is in a source file of the compile database"), std::string::npos)
      << other.err;
  EXPECT_NE(other.err.find("bump /home/dev/parsekit/src/tsan.c:3"), std::string::npos) << other.err;
}

TEST(ReproduceCli, ACrashThatCannotHappenIsNotReproducedAndTheClosestAttemptIsShown) {
  // config_clamp never divides: a SIGFPE there is not to be found.
  const fs::path out = makeTempDir("mosaic-reproduce");
  std::ofstream(out / "fpe.txt") << "Program received signal SIGFPE, Arithmetic exception.\n"
                                 << "#0  0x0000555555555150 in config_clamp (level=12) at config.c:7\n"
                                 << "#1  0x00005555555551d0 in config_level (c=0x7ffc, boost=9) at config.c:17\n";
  auto r = reproduce((out / "fpe.txt").string(), out, {"--max-executions", "300"});
  EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("not reproduced"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("closest      fitness"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("line 7 reached"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(out / "suite" / "config_failing_test.cpp"));
}

TEST(ReproduceCli, ACrashOnlyASanitizerSeesIsADeathTestOfTheSanitizedBuild) {
  // A name longer than 7 overflows config_short_name's copy: the search
  // runs in the ASan + UBSan harness; the death test expects the report's
  // class where the suite is built with -DMOSAIC_SANITIZE=ON, and is
  // skipped elsewhere.
  const fs::path out = makeTempDir("mosaic-reproduce");
  auto r = reproduce(kFixture + "/crash-overflow-asan.txt", out);
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("AddressSanitizer: heap-buffer-overflow"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("target       config_short_name config.c:37"), std::string::npos) << r.out;
  const std::string test = readFile(out / "suite" / "config_failing_test.cpp");
  EXPECT_NE(test.find("#ifdef MOSAIC_SANITIZE\n  EXPECT_DEATH(run(), \"heap-buffer-overflow\");\n#else\n  GTEST_SKIP()"),
            std::string::npos)
      << test;
  // mosaic built the suite with -DMOSAIC_SANITIZE=ON itself: the death
  // test passed there, and its regression variant (disabled until the fix,
  // the same calls run directly) crashed with the trace's report and frame.
  EXPECT_NE(r.out.find("verified     built with -DMOSAIC_SANITIZE=ON, the death test dies with AddressSanitizer: "
                       "heap-buffer-overflow and its regression twin at the trace's frames"),
            std::string::npos)
      << r.out;
  EXPECT_NE(test.find("DISABLED_config_short_name_SanitizerReport_Regression"), std::string::npos) << test;
  // The claim, checked here on mosaic's sanitized build.
  const fs::path binary = out / "suite" / "build-sanitize" / "config_failing_test";
  auto ran = runProcess({binary.string()});
  EXPECT_EQ(ran.exitCode, 0) << ran.out << ran.err;
  EXPECT_NE(ran.out.find("[  PASSED  ] 1 test"), std::string::npos) << ran.out;
  // It crashes inside its test: the test's temporary folder stays behind,
  // in a TMPDIR of this test's own rather than /tmp.
  const fs::path tmp = out / "tmp";
  fs::create_directories(tmp);
  auto regression = runProcess({"env", "TMPDIR=" + tmp.string(), binary.string(), "--gtest_also_run_disabled_tests",
                                "--gtest_filter=*_Regression"});
  EXPECT_NE(regression.exitCode, 0) << regression.out << regression.err;
  EXPECT_NE((regression.out + regression.err).find("heap-buffer-overflow"), std::string::npos) << regression.err;
  EXPECT_NE((regression.out + regression.err).find("config_short_name"), std::string::npos) << regression.err;
}

TEST(ReproduceCli, AnUncaughtExceptionIsReproducedAtItsThrowAndWrittenAsExpectThrow) {
  // Shelf::at(1) on a shelf of one: checkIndex throws std::out_of_range at
  // shelf.cpp:6, and std::terminate aborts. gdb's bt from /tmp/shelflib. The
  // harness records the stack at the throw, so the run's frames are the
  // thrower's, as the trace's are.
  const fs::path out = makeTempDir("mosaic-reproduce");
  auto r = reproduce(kFixture + "/crash-terminate-gdb.txt", out);
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("uncaught std::out_of_range"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("target       checkIndex shelf.cpp:6 <- Shelf::at"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("reproduced   by a test of"), std::string::npos) << r.out;
  const std::string test = readFile(out / "suite" / "shelf_failing_test.cpp");
  EXPECT_NE(test.find("EXPECT_THROW(run(), std::out_of_range);"), std::string::npos) << test;
  EXPECT_NE(test.find("DISABLED_Shelf_at_Throws_Regression"), std::string::npos) << test;
  // The twin of an uncaught exception must not throw it: no catch-all.
  EXPECT_EQ(test.find("catch (...)"), std::string::npos) << test;
}

TEST(ReproduceCli, ABacktraceSymbolsTraceIsPlacedByItsFunctionsDefinitions) {
  // glibc's backtrace_symbols_fd from a SIGSEGV handler of the fixture's
  // program built with -rdynamic: function names, no files, no lines. Each
  // frame goes to the unit that defines its function; any line of it matches.
  const fs::path out = makeTempDir("mosaic-reproduce");
  auto r = reproduce(kFixture + "/crash-backtrace-symbols.txt", out);
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("placed by their function's definition: config_level -> config.c, config_describe -> config.c"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("target       config_level config.c <- config_describe config.c"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("reproduced   by a test of"), std::string::npos) << r.out;
}

// A crash behind an exact value (tests/fixtures/crash-gated: a write into a
// table never allocated, for the one tag whose hash is reserved; then the
// same one call down, behind an equation in the caller). The
// search alone does not reach the trace's line; with --concolic the side
// aims at the branch on its way, Z3 flips it, and the crash is reproduced
// by the tag it solved for.
TEST(ReproduceCli, ACrashBehindAnExactValueIsReachedWithConcolicExecution) {
  const std::string gated = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/crash-gated/";
  auto run = [&](const std::string &trace, const fs::path &out, std::vector<std::string> more) {
    std::vector<std::string> argv{MOSAIC_EXE, "reproduce", "-p", MOSAIC_FIXTURE_CRASH_GATED_DB_DIR, "--trace", gated + trace,
                                  "-o", (out / "suite").string(), "--work-dir", (out / "work").string(),
                                  "--seed", "1", "--budget", "120s", "--max-executions", "4000", "--no-progress"};
    argv.insert(argv.end(), more.begin(), more.end());
    return runProcess(argv);
  };
  const fs::path off = makeTempDir("mosaic-reproduce-gated");
  auto alone = run("crash-gdb.txt", off, {});
  EXPECT_EQ(alone.exitCode, 1) << alone.out << alone.err;
  EXPECT_NE(alone.out.find("line 21 not reached"), std::string::npos) << alone.out;
  EXPECT_EQ(alone.out.find("concolic"), std::string::npos) << alone.out;

  const fs::path on = makeTempDir("mosaic-reproduce-gated");
  auto r = run("crash-gdb.txt", on, {"--concolic"});
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("sides on the way to the crash's line taken first"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verified     the death test builds and dies"), std::string::npos) << r.out;
  const std::string test = readFile(on / "suite" / "tally_failing_test.cpp");
  EXPECT_NE(test.find("1058372541"), std::string::npos) << test;
  EXPECT_NE(test.find("#0 tally_add tally.c:21"), std::string::npos) << test;

  // The gate in the caller (tally_merge), the crash a call down
  // (bump_reserved), where its line runs whenever it is called: the side
  // aims at the sides on the way to the caller frame's line too.
  const fs::path down = makeTempDir("mosaic-reproduce-gated");
  auto m = run("crash-caller-gdb.txt", down, {"--concolic"});
  ASSERT_EQ(m.exitCode, 0) << m.out << m.err;
  EXPECT_NE(m.out.find("target       bump_reserved tally.c:28 <- tally_merge tally.c:33"), std::string::npos) << m.out;
  const std::string merged = readFile(down / "suite" / "tally_failing_test.cpp");
  EXPECT_NE(merged.find("343686956"), std::string::npos) << merged;
}

// A crash in a private static of the unit's class, called only through a
// public method it inherits from a base another unit defines
// (tests/fixtures/crash-inherited: IntCalculator's divide, run by
// Calculator::evaluate; muParser's ParserInt::Div under ParserBase::Eval).
// The unit's own targets are only IntCalculator's constructors and clear();
// the search calls the inherited setExpression and evaluate on its
// objects, starts from the expression the project's program passes
// ("8/4", a sample of the code that calls the unit), and sets its divisor
// to 0 (the number edit).
TEST(ReproduceCli, ACrashUnderAnInheritedMethodIsReproducedThroughIt) {
  const std::string fixture = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/crash-inherited/";
  const fs::path out = makeTempDir("mosaic-reproduce-inherited");
  auto r = runProcess({MOSAIC_EXE, "reproduce", "-p", MOSAIC_FIXTURE_CRASH_INHERITED_DB_DIR, "--trace",
                       fixture + "crash-gdb.txt", "-o", (out / "suite").string(), "--work-dir", (out / "work").string(),
                       "--seed", "1", "--budget", "120s", "--max-executions", "60000", "--no-progress"});
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("target       IntCalculator::divide int_calculator.cpp:11"), std::string::npos) << r.out;
  // Every test ends with a call of the trace's innermost frame a test can
  // call: the base's evaluate, which calls divide through a pointer.
  EXPECT_NE(r.out.find("entry        every test ends with a call of Calculator::evaluate() const\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("reproduced   by a test of"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verified     the death test builds and dies"), std::string::npos) << r.out;
  const std::string test = readFile(out / "suite" / "int_calculator_failing_test.cpp");
  EXPECT_NE(test.find(".setExpression("), std::string::npos) << test;
  EXPECT_NE(test.find(".evaluate()"), std::string::npos) << test;
  EXPECT_NE(test.find("#0 IntCalculator::divide(int, int) int_calculator.cpp:11"), std::string::npos) << test;
  EXPECT_NE(test.find("#1 Calculator::evaluate() const calculator.cpp:17"), std::string::npos) << test;
  // Its regression twin accepts a fix that throws instead of dividing.
  const size_t twin = test.find("_Regression) {");
  ASSERT_NE(twin, std::string::npos) << test;
  EXPECT_NE(test.find("  try {\n", twin), std::string::npos) << test;
  EXPECT_NE(test.find("  } catch (...) {\n", twin), std::string::npos) << test;

  // With the unit's coverage goals as guides the search gets there too, and
  // stops at the crash.
  const fs::path guided = makeTempDir("mosaic-reproduce-inherited");
  auto g = runProcess({MOSAIC_EXE, "reproduce", "-p", MOSAIC_FIXTURE_CRASH_INHERITED_DB_DIR, "--trace",
                       fixture + "crash-gdb.txt", "-o", (guided / "suite").string(), "--work-dir",
                       (guided / "work").string(), "--seed", "1", "--budget", "120s", "--max-executions", "60000",
                       "--crash-guides", "coverage", "--no-progress"});
  ASSERT_EQ(g.exitCode, 0) << g.out << g.err;
  EXPECT_NE(g.out.find("reproduced   by a test of"), std::string::npos) << g.out;
  auto bad = runProcess({MOSAIC_EXE, "reproduce", "-p", MOSAIC_FIXTURE_CRASH_INHERITED_DB_DIR, "--trace",
                         fixture + "crash-gdb.txt", "-o", (guided / "bad").string(), "--crash-guides", "branches"});
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_NE(bad.err.find("unknown crash guides 'branches' (coverage or none)"), std::string::npos) << bad.err;
}

// A crash in the library's inside (tests/fixtures/crash-inside:
// decode_escape, declared only in escape_internal.h, aborts on an escape
// its lexer should not have let through). When the trace entered it from
// the lexer (lint.c's codec_count_escapes), a test that calls
// decode_escape itself fails at the trace's line but is no reproduction:
// the search goes on to the lexer's unit and reproduces the crash through
// the public function. When the trace's own program called decode_escape
// (selftest.c), calling it is what the trace did.
TEST(ReproduceCli, ACrashEnteredThroughTheInterfaceIsNotReproducedByCallingTheInsideDirectly) {
  const std::string inside = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/crash-inside/";
  auto run = [&](const std::string &trace, const fs::path &out) {
    return runProcess({MOSAIC_EXE, "reproduce", "-p", MOSAIC_FIXTURE_CRASH_INSIDE_DB_DIR, "--trace", inside + trace, "-o",
                       (out / "suite").string(), "--work-dir", (out / "work").string(), "--seed", "1", "--budget",
                       "60s", "--max-executions", "3000", "--no-progress"});
  };
  const fs::path lint = makeTempDir("mosaic-reproduce-inside");
  auto r = run("crash-lint-gdb.txt", lint);
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("it fails in a call of decode_escape, internal to the library; the trace entered from "
                       "codec_count_escapes codec.c:12"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("target       decode_escape escape.c:12 <- codec_count_escapes codec.c:12"), std::string::npos)
      << r.out;
  const std::string test = readFile(lint / "suite" / "codec_failing_test.cpp");
  EXPECT_NE(test.find("codec_count_escapes("), std::string::npos) << test;
  EXPECT_EQ(test.find("decode_escape("), std::string::npos) << test;

  const fs::path self = makeTempDir("mosaic-reproduce-inside");
  auto direct = run("crash-selftest-gdb.txt", self);
  ASSERT_EQ(direct.exitCode, 0) << direct.out << direct.err;
  EXPECT_EQ(direct.out.find("caller "), std::string::npos) << direct.out;
  EXPECT_NE(readFile(self / "suite" / "escape_failing_test.cpp").find("decode_escape("), std::string::npos);
}
