// Helpers for mosaic's tests: run a program and capture what it prints.
#pragma once

#include <string>
#include <vector>

// MOSAIC_TESTS_UNDER_ASAN: these tests are built with AddressSanitizer (make
// test-sanitized), where what they check is mosaic's own memory. A check
// that runs only other programs on mosaic's output (clang on a written
// suite, CMake, CTest) is left to `make test`, which runs it on the same
// output.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MOSAIC_TESTS_UNDER_ASAN 1
#endif
#endif

namespace mosaic::test {

struct ProcessResult {
  int exitCode = -1; ///< the exit status, or 128 + signal when killed
  std::string out;
  std::string err;
};

/// Runs `argv` (argv[0] a path, or a name looked up in PATH) to completion with stdin from /dev/null and
/// returns its exit code and output.
ProcessResult runProcess(const std::vector<std::string> &argv);

/// The whole content of a file ("" when it cannot be read).
std::string readFile(const std::string &path);

/// A fresh, empty directory under the system's temporary folder ($TMPDIR),
/// removed when the test program ends if every test passed.
std::string makeTempDir(const std::string &prefix);

} // namespace mosaic::test
