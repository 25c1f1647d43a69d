// Every trace format of issue 21 read from real output (tests/fixtures/traces):
// the failure's kind, the format, and the failing stack's frames in order.
#include "mosaic/crash/ProjectFrames.h"
#include "mosaic/crash/Trace.h"

#include "common/TestSupport.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace mosaic::crash;
using mosaic::test::readFile;
namespace fs = std::filesystem;

namespace {

StackTrace read(const std::string &name) {
  auto t = parseTrace(readFile(std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/traces/" + name));
  EXPECT_TRUE(static_cast<bool>(t)) << name << ": " << (t ? "" : t.error().message);
  return t ? *t : StackTrace{};
}

// "function file:line" of each frame ("function" alone without a file).
std::vector<std::string> named(const StackTrace &t, size_t n) {
  std::vector<std::string> out;
  for (size_t i = 0; i < t.frames.size() && i < n; ++i) {
    const auto &f = t.frames[i].frame;
    out.push_back(f.function + (f.file.empty() ? "" : " " + f.file + ":" + std::to_string(f.line)));
  }
  return out;
}

} // namespace

TEST(Trace, AddressSanitizerReportsItsClassAndTheStackWhereItFailed) {
  const StackTrace t = read("asan.txt");
  EXPECT_EQ(t.format, TraceFormat::Sanitizer);
  EXPECT_EQ(t.kind.cls, FailureClass::Sanitizer);
  EXPECT_EQ(t.kind.str(), "AddressSanitizer: heap-buffer-overflow");
  // The first stack only: not the allocation's that follows.
  ASSERT_EQ(t.frames.size(), 6u);
  EXPECT_EQ(named(t, 3), (std::vector<std::string>{"scan_digits /home/dev/parsekit/src/lib.c:7",
                                                   "parse_header /home/dev/parsekit/src/lib.c:13",
                                                   "main /home/dev/parsekit/src/main.c:2"}));
  EXPECT_EQ(t.frames[0].frame.column, 13u);
  EXPECT_EQ(t.frames[5].frame.function, "_start");
  EXPECT_EQ(t.frames[5].module, "/home/dev/parsekit/src/asan");
  EXPECT_EQ(t.frames[5].frame.file, "");
}

TEST(Trace, UndefinedBehaviorSanitizerWithAndWithoutAStack) {
  const StackTrace s = read("ubsan-stack.txt");
  EXPECT_EQ(s.kind.str(), "UndefinedBehaviorSanitizer: signed integer overflow");
  EXPECT_EQ(named(s, 2), (std::vector<std::string>{"scale /home/dev/parsekit/src/ub.c:2", "area /home/dev/parsekit/src/ub.c:3"}));
  // Without print_stacktrace the report's own location is the one frame.
  const StackTrace t = read("ubsan.txt");
  EXPECT_EQ(t.kind.name, "signed integer overflow");
  ASSERT_EQ(t.frames.size(), 1u);
  EXPECT_EQ(t.frames[0].frame.file, "ub.c");
  EXPECT_EQ(t.frames[0].frame.line, 2u);
  EXPECT_EQ(t.frames[0].frame.column, 37u);
}

TEST(Trace, MemoryAndThreadSanitizerReports) {
  const StackTrace m = read("msan.txt");
  EXPECT_EQ(m.kind.str(), "MemorySanitizer: use-of-uninitialized-value");
  EXPECT_EQ(named(m, 2), (std::vector<std::string>{"pick /home/dev/parsekit/src/msan.c:2", "main /home/dev/parsekit/src/msan.c:3"}));
  const StackTrace t = read("tsan.txt");
  EXPECT_EQ(t.kind.str(), "ThreadSanitizer: data race");
  // ThreadSanitizer's frames carry no address; the first access's stack.
  EXPECT_EQ(named(t, 3), (std::vector<std::string>{"bump /home/dev/parsekit/src/tsan.c:3", "worker /home/dev/parsekit/src/tsan.c:4"}));
  EXPECT_EQ(t.frames[0].module, "tsan");
}

TEST(Trace, LibFuzzerLogsWithASanitizerErrorOrADeadlySignal) {
  const StackTrace a = read("libfuzzer-asan.txt");
  EXPECT_EQ(a.format, TraceFormat::LibFuzzer);
  EXPECT_EQ(a.kind.str(), "AddressSanitizer: heap-buffer-overflow");
  EXPECT_EQ(named(a, 3), (std::vector<std::string>{"scan_digits /home/dev/parsekit/src/lib.c:7",
                                                   "parse_header /home/dev/parsekit/src/lib.c:13",
                                                   "LLVMFuzzerTestOneInput /home/dev/parsekit/src/fuzz.c:9"}));
  // libFuzzer's progress lines ("#2 INITED cov: 5") are no frames.
  const StackTrace s = read("libfuzzer-deadly-signal.txt");
  EXPECT_EQ(s.kind.cls, FailureClass::Signal);
  EXPECT_EQ(s.kind.name, "SIGSEGV");
  EXPECT_EQ(named(s, 2), (std::vector<std::string>{"name_length /home/dev/parsekit/src/fuzz2.c:4",
                                                   "LLVMFuzzerTestOneInput /home/dev/parsekit/src/fuzz2.c:7"}));
  EXPECT_EQ(s.frames[2].frame.function, "fuzzer::Fuzzer::ExecuteCallback(unsigned char const*, unsigned long)");
  EXPECT_EQ(s.frames[2].module, "/home/dev/parsekit/src/fuzzer2");
}

TEST(Trace, GdbBacktraces) {
  const StackTrace t = read("gdb.txt");
  EXPECT_EQ(t.format, TraceFormat::Gdb);
  EXPECT_EQ(t.kind.str(), "SIGSEGV");
  EXPECT_EQ(named(t, 5), (std::vector<std::string>{"name_length seg.c:3", "describe seg.c:4", "main seg.c:5"}));
}

TEST(Trace, AnUncaughtExceptionIsItsTypeWhateverPrintsTheStack) {
  const StackTrace g = read("terminate-gdb.txt");
  EXPECT_EQ(g.format, TraceFormat::Gdb);
  EXPECT_EQ(g.kind.cls, FailureClass::Exception);
  EXPECT_EQ(g.kind.str(), "uncaught std::out_of_range");
  ASSERT_EQ(g.frames.size(), 14u);
  EXPECT_EQ(g.frames[4].frame.function, "");   // "?? () from libstdc++.so.6"
  EXPECT_EQ(g.frames[4].module, "/lib/x86_64-linux-gnu/libstdc++.so.6");
  EXPECT_EQ(g.frames[6].frame.function, "std::terminate()");
  EXPECT_EQ(g.frames[10].frame.function, "std::vector<int, std::allocator<int> >::at");
  EXPECT_EQ(named(g, 14).back(), "main term.cpp:5");
  EXPECT_EQ(named(g, 12)[11], "pick term.cpp:3");
  const StackTrace b = read("terminate-backtrace.txt");
  EXPECT_EQ(b.format, TraceFormat::BacktraceSymbols);
  EXPECT_EQ(b.kind.str(), "uncaught std::out_of_range");
  EXPECT_EQ(b.frames[5].frame.function, "pick(std::vector<int, std::allocator<int> > const&, unsigned long)");
  EXPECT_EQ(b.frames[5].module, "./term");
}

TEST(Trace, BacktraceSymbolsAndLldb) {
  const StackTrace b = read("backtrace-symbols.txt");
  EXPECT_EQ(b.format, TraceFormat::BacktraceSymbols);
  EXPECT_EQ(b.kind.str(), "SIGSEGV"); // the handler's "Error: signal 11:"
  ASSERT_EQ(b.frames.size(), 8u);
  EXPECT_EQ(b.frames[0].frame.function, ""); // the handler, static: "./parsekit-demo(+0x124f)"
  EXPECT_EQ(b.frames[2].frame.function, "name_length");
  EXPECT_EQ(b.frames[2].module, "./parsekit-demo");
  EXPECT_EQ(b.frames[3].frame.function, "describe");
  const StackTrace l = read("lldb.txt");
  EXPECT_EQ(l.format, TraceFormat::Lldb);
  EXPECT_EQ(l.kind.str(), "SIGSEGV");
  // bt's stack, not the single frame lldb printed when it stopped.
  ASSERT_EQ(l.frames.size(), 6u);
  EXPECT_EQ(named(l, 3), (std::vector<std::string>{"name_length seg.c:3", "describe seg.c:4", "main seg.c:5"}));
  EXPECT_EQ(l.frames[0].module, "seg");
  EXPECT_EQ(l.frames[5].frame.function, "_start");
}

TEST(Trace, TextWithoutFramesIsAnErrorThatSaysWhatWasExpected) {
  for (const std::string text : {"", "Segmentation fault (core dumped)\n", "hello\nworld\n"}) {
    auto t = parseTrace(text);
    ASSERT_FALSE(static_cast<bool>(t)) << text;
    EXPECT_EQ(t.error().message, "no stack frame in the trace");
    EXPECT_NE(t.error().detail.find("gdb or lldb backtrace"), std::string::npos);
  }
}

TEST(ProjectFrames, FramesAreMatchedToTheProjectsFilesByTheirLongestPathSuffix) {
  // The trace ran in /home/dev/parsekit/src; the project is checked out
  // elsewhere, with two files named lib.c.
  const fs::path root = fs::path(MOSAIC_BINARY_DIR) / "project-frames";
  fs::remove_all(root);
  fs::create_directories(root / "src");
  fs::create_directories(root / "vendor");
  for (const char *f : {"src/lib.c", "src/main.c", "src/lib.h", "vendor/lib.c"}) std::ofstream(root / f) << "\n";
  const std::vector<std::string> units{(root / "src/lib.c").string(), (root / "src/main.c").string(),
                                       (root / "vendor/lib.c").string()};
  StackTrace t = read("asan.txt");
  // A frame in a header of the project, as another machine names it.
  t.frames.insert(t.frames.begin(), TraceFrame{{"inline_helper", "/home/dev/parsekit/src/lib.h", 3, 1}, ""});
  const PlacedTrace p = placeFrames(t, units, root.string());
  ASSERT_EQ(p.frames.size(), 7u);
  EXPECT_EQ(p.frames[0].place, Place::Project);
  EXPECT_EQ(p.frames[0].file, (root / "src/lib.h").string());
  EXPECT_EQ(p.frames[1].place, Place::Unit);
  EXPECT_EQ(p.frames[1].file, (root / "src/lib.c").string()); // src/lib.c, not vendor/lib.c
  EXPECT_EQ(p.frames[3].file, (root / "src/main.c").string());
  for (size_t i = 4; i < 7; ++i) EXPECT_EQ(p.frames[i].place, Place::External) << i; // libc, _start
  EXPECT_EQ(p.deepestUnitFrame(), 1u);
  EXPECT_EQ(p.projectFrames().size(), 4u);
  // "lib.c" alone names two units: neither.
  StackTrace bare;
  bare.frames.push_back(TraceFrame{{"scan_digits", "lib.c", 7, 0}, ""});
  EXPECT_EQ(placeFrames(bare, units, root.string()).frames[0].place, Place::External);
  // System headers are never the project's, whatever their names.
  StackTrace stl;
  stl.frames.push_back(TraceFrame{{"at", "/usr/include/c++/12/bits/lib.c", 1, 0}, ""});
  EXPECT_EQ(placeFrames(stl, units, root.string()).frames[0].place, Place::External);
  fs::remove_all(root);
}
