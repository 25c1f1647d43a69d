// Helpers for mosaic's tests: run a program and capture what it prints.
#pragma once

#include <string>
#include <vector>

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
