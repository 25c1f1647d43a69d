// The HTML report of `mosaic project` (lib/driver/HtmlReport.h), from a
// project.json written here.
#include "HtmlReport.h"
#include "common/TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using mosaic::test::readFile;

namespace {

// Two units: lib/a.c (riskier, with a failure, uncovered goals, a callable
// no test can call) and lib/b.c; the sources of both under `root`.
std::string writeProject(const std::string &root) {
  const std::string out = mosaic::test::makeTempDir("mosaic-html");
  fs::create_directories(root + "/lib");
  std::ofstream(root + "/lib/a.c") << "int f(int x) {\n  if (x > 3)\n    return 1;\n  return x < 0 ? -1 : 0;\n}\n"
                                   << "static int g(void) { return 2; }\n";
  std::ofstream(root + "/lib/b.c") << "int h(void) { return 0; }\n";
  const nlohmann::json a = {
      {"id", "lib_a_c"}, {"file", "lib/a.c"}, {"status", "done"}, {"score", 0.75}, {"budget_seconds", 12.5},
      {"stats",
       {{"algorithm", "dynamosa"},
        {"seed", 1},
        {"executions", 900},
        {"executions_per_second", 450.0},
        {"goals",
         {{"function", {{"total", 2}, {"covered", 1}, {"uncovered", {"g()"}}}},
          {"branch", {{"total", 4}, {"covered", 3}, {"uncovered", {"a.c:2:7 true (f)"}}}},
          {"line", {{"total", 4}, {"covered", 2}, {"uncovered", {"a.c:3", "a.c:6"}}, {"covered_goals", {"a.c:2", "a.c:4"}}}}}},
        {"llvm_cov", {{"branches", 4}, {"branches_covered", 3}, {"lines", 6}, {"lines_covered", 4}}},
        {"coverage_over_time", {{{"seconds", 0.01}, {"covered", 2}}, {{"seconds", 1.5}, {"covered", 6}}}},
        {"callables", {{"not_callable", {{{"callable", "int g(void)"}, {"reason", "static & <unreachable>"}}}}}},
        {"failures",
         {{{"class", "defect"}, {"outcome", "crash"}, {"site", "crash 11 at f:4"}, {"why", "f() fails <here>"},
           {"stack", {"f a.c:4", "main main.c:9"}}},
          // No re-run reproduced it (an earlier test's heap damage): no claim.
          {{"class", "defect"}, {"outcome", "abort"}, {"site", "abort 6 at f:2"}, {"why", "f() aborts"},
           {"reproducible", false}}}}}}};
  const nlohmann::json b = {{"id", "lib_b_c"}, {"file", "lib/b.c"}, {"status", "done"}, {"score", 0.1},
                            {"budget_seconds", 2.0}, {"stats", {{"goals", {{"line", {{"total", 1}, {"covered", 1}}}}}}}};
  std::ofstream(out + "/project.json") << nlohmann::json{{"format", 1}, {"root", root}, {"units", {b, a}}}.dump(2);
  return out;
}

} // namespace

TEST(HtmlReport, TheProjectPageRanksUnitsByRiskWithTheirBudgetsCoverageAndFailures) {
  const std::string root = fs::canonical(mosaic::test::makeTempDir("mosaic-html-project")).string();
  const std::string out = writeProject(root);
  EXPECT_EQ(mosaic::driver::writeHtmlReport(out), 3u); // index and two units
  const std::string index = readFile(out + "/report/index.html");
  EXPECT_EQ(index.rfind("<!DOCTYPE html>", 0), 0u);
  const size_t a = index.find("<a href=\"lib_a_c.html\">lib/a.c</a>"), b = index.find("<a href=\"lib_b_c.html\">");
  ASSERT_NE(a, std::string::npos) << index;
  ASSERT_NE(b, std::string::npos) << index;
  EXPECT_LT(a, b) << "the riskier unit first";
  EXPECT_NE(index.find("12.5 s"), std::string::npos);                    // its budget
  EXPECT_NE(index.find("75.0% (3/4)"), std::string::npos) << index;     // llvm-cov branches
  EXPECT_NE(index.find("likely defects: 1"), std::string::npos) << index; // the unreproduced one is no claim
  EXPECT_EQ(index.find("<script"), std::string::npos); // static: opens without a server
}

TEST(HtmlReport, AUnitPageShowsWhyEachGoalIsUncoveredAndMarksItsSource) {
  const std::string root = fs::canonical(mosaic::test::makeTempDir("mosaic-html-project")).string();
  const std::string out = writeProject(root);
  mosaic::driver::writeHtmlReport(out);
  const std::string page = readFile(out + "/report/lib_a_c.html");
  // Why: a callable no test can call; a function that ran but whose
  // condition stayed unmet.
  EXPECT_NE(page.find("its callable cannot be called: static &amp; &lt;unreachable&gt;"), std::string::npos) << page;
  EXPECT_NE(page.find("its function ran; no test met this condition"), std::string::npos) << page;
  // The failure with its class and stack, escaped.
  EXPECT_NE(page.find("f() fails &lt;here&gt;"), std::string::npos);
  EXPECT_NE(page.find("#1 <code>main main.c:9</code>"), std::string::npos);
  EXPECT_NE(page.find("defect (not reproduced: no claim, not written)"), std::string::npos) << page;
  // The source: line 2's true side not taken, line 3 never reached, line 4 covered.
  EXPECT_NE(page.find("<span class=\"part\" title=\"not taken: true (f)\" id=\"L2\"><i>2</i>  if (x &gt; 3)</span>"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("<span class=\"miss\" id=\"L3\">"), std::string::npos);
  EXPECT_NE(page.find("<span class=\"hit\" id=\"L4\">"), std::string::npos);
  EXPECT_NE(page.find("<polyline"), std::string::npos); // coverage over time
}

TEST(HtmlReport, NoStateNoReport) { EXPECT_EQ(mosaic::driver::writeHtmlReport("/nonexistent/mosaic-out"), 0u); }
