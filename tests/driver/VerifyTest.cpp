// Verification's reading of GoogleTest's reports.
#include "Verify.h"

#include <gtest/gtest.h>

using mosaic::driver::slowTests;

TEST(SlowTests, NamesThePassingTestsOverTheLimitWithTheirSeconds) {
  const std::string report = R"({"testsuites": [
    {"name": "pugixmlTest", "testsuite": [
      {"name": "xml_text_set_ReturnsTrue", "time": "71.393s"},
      {"name": "xml_node_append", "time": "0.002s"},
      {"name": "xpath_slow_failure", "time": "12s", "failures": [{"failure": "x.cpp:3"}]}]},
    {"name": "other", "testsuite": [{"name": "no_time"}, {"name": "exactly", "time": "10s"}]}]})";
  const auto slow = slowTests(report, 10);
  ASSERT_EQ(slow.size(), 1u);
  EXPECT_EQ(slow[0].first, "pugixmlTest.xml_text_set_ReturnsTrue");
  EXPECT_DOUBLE_EQ(slow[0].second, 71.393);
}

TEST(SlowTests, AReportThatDoesNotParseNamesNone) {
  EXPECT_TRUE(slowTests("{\"testsuites\": [", 10).empty());
  EXPECT_TRUE(slowTests("", 10).empty());
}
