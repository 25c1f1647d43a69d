// The crash fitness's parts on hand-made stacks, with exact values.
#include "mosaic/crash/Fitness.h"

#include <gtest/gtest.h>

using namespace mosaic;
using namespace mosaic::crash;

namespace {

exec::Frame at(std::string function, std::string file, unsigned line) { return {function, file, line, 0, false}; }
double nu(double x) { return x / (x + 1); }

} // namespace

TEST(CrashFitness, FramesAreNearerTheMoreTheyShare) {
  // The target frame as placeFrames put it in the project here; the run's
  // as the harness's debug information names it.
  const exec::Frame t = at("scan_digits", "/work/parsekit/src/lib.c", 7);
  EXPECT_EQ(frameDistance(t, at("scan_digits", "/work/parsekit/src/lib.c", 7)), 0.0);
  EXPECT_DOUBLE_EQ(frameDistance(t, at("scan_digits", "src/lib.c", 9)), nu(nu(2)));
  EXPECT_DOUBLE_EQ(frameDistance(t, at("parse_header", "lib.c", 7)), nu(2));
  EXPECT_DOUBLE_EQ(frameDistance(t, at("scan_digits", "src/main.c", 7)), nu(3));
  EXPECT_TRUE(sameFile("lib.c", "/a/b/lib.c"));
  EXPECT_FALSE(sameFile("vendor/lib.c", "/a/src/lib.c"));
  EXPECT_FALSE(sameFile("/home/dev/src/lib.c", "/work/src/lib.c")); // two machines' paths: placeFrames' job
}

TEST(CrashFitness, TheRunsStackMustHoldTheTargetFramesInOrder) {
  const std::vector<exec::Frame> target{at("scan_digits", "lib.c", 7), at("parse_header", "lib.c", 13)};
  EXPECT_EQ(traceDistance(target, {at("scan_digits", "lib.c", 7), at("parse_header", "lib.c", 13),
                                   at("main", "main.c", 2)}),
            0.0);
  // The same frames in the other order: the second target frame finds
  // nothing after the first's match.
  EXPECT_DOUBLE_EQ(traceDistance(target, {at("parse_header", "lib.c", 13), at("scan_digits", "lib.c", 7)}),
                   nu(0 + nu(3)));
  // A crash one line off in the right function, called from the right place.
  EXPECT_DOUBLE_EQ(traceDistance(target, {at("scan_digits", "lib.c", 8), at("parse_header", "lib.c", 13)}),
                   nu(nu(nu(1))));
  EXPECT_DOUBLE_EQ(traceDistance(target, {}), nu(2 * nu(3)));
}

TEST(CrashFitness, KindsMatchByClassAndName) {
  const FailureKind overflow{FailureClass::Sanitizer, "heap-buffer-overflow", "AddressSanitizer"};
  EXPECT_TRUE(sameKind(overflow, {true, {FailureClass::Sanitizer, "heap-buffer-overflow", "AddressSanitizer"}}));
  EXPECT_FALSE(sameKind(overflow, {true, {FailureClass::Sanitizer, "heap-use-after-free", "AddressSanitizer"}}));
  EXPECT_FALSE(sameKind(overflow, {false, {}}));
  const FailureKind deadly{FailureClass::Signal, "", "libFuzzer"};
  EXPECT_TRUE(sameKind(deadly, {true, {FailureClass::Signal, "SIGSEGV", ""}}));
  EXPECT_FALSE(sameKind(deadly, {true, {FailureClass::Exception, "std::bad_alloc", ""}}));
  EXPECT_TRUE(sameKind({}, {true, {FailureClass::Exception, "std::bad_alloc", ""}}));
  EXPECT_FALSE(sameKind({FailureClass::Exception, "std::out_of_range", ""}, {true, {FailureClass::Exception, "std::bad_alloc", ""}}));
}

TEST(CrashFitness, WeightedSumCountsKindAndStackOnlyOnceTheLineIsReached) {
  EXPECT_EQ(weightedSum(0, 0, 0), 0.0);
  EXPECT_DOUBLE_EQ(weightedSum(0.5, 0, 0), 3 * 0.5 + 3);
  EXPECT_DOUBLE_EQ(weightedSum(0, 1, 0.25), 2.25);
  // Reaching the line is worth more than any kind or stack.
  EXPECT_LT(weightedSum(0, 1, 1), weightedSum(0.01, 0, 0));
}

TEST(CrashFitness, STDistanceCountsFramesLeftThenThePenalty) {
  EXPECT_EQ(stDistance(3, 3, 0, true), 0.0);
  EXPECT_EQ(stDistance(3, 3, 0, false), 1.0);
  EXPECT_DOUBLE_EQ(stDistance(3, 2, 0.5, false), 1.5);
  EXPECT_DOUBLE_EQ(stDistance(3, 0, 0.5, false), 3.5);
  // One more frame reached is worth more than any distance to the next.
  EXPECT_LT(stDistance(3, 1, 0.99, false), stDistance(3, 0, 0.01, false));
}

TEST(CrashFitness, FunctionsMatchWithoutTheirParameterLists) {
  EXPECT_TRUE(sameFunction("checkIndex", "checkIndex(int, int)"));
  EXPECT_TRUE(sameFunction("Shelf::at[abi:cxx11](int) const", "Shelf::at"));
  EXPECT_TRUE(sameFunction("(anonymous namespace)::f(int)", "(anonymous namespace)::f"));
  EXPECT_TRUE(sameFunction("Op::operator()(int) &&", "Op::operator()"));
  EXPECT_FALSE(sameFunction("checkIndex", "checkSize(int, int)"));
  EXPECT_FALSE(sameFunction("Shelf::at", "Shelf::add(std::string const&)"));
}

TEST(CrashFitness, AFrameWithoutALineMatchesAnyLineOfItsFunction) {
  const exec::Frame named{"config_level", "/p/config.c", 0, 0, false};
  EXPECT_EQ(frameDistance(named, {"config_level", "config.c", 14, 0, false}), 0.0);
  EXPECT_GT(frameDistance(named, {"config_describe", "config.c", 22, 0, false}), 0.0);
}
