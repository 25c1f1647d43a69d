// Running a program to completion and collecting what it prints.
#pragma once

#include "mosaic/support/Expected.h"

#include <csignal>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mosaic {

struct ProcessResult {
  int exitCode = -1; ///< exit status, or 128 + signal when killed
  std::string output; ///< stdout and stderr, interleaved
  bool interrupted = false; ///< ProcessOptions::stop ended it
};

struct ProcessOptions {
  std::string directory;                                 ///< working directory ("" = current)
  std::vector<std::pair<std::string, std::string>> env;  ///< added to (or replacing in) the environment
  /// Run it in a process group of its own, and kill the group once it has
  /// exited (or `stop` is set): what it started and left behind (a test
  /// that forks sleeping children) ends with it, and cannot keep the output
  /// pipe open (which made the call wait for them).
  bool ownGroup = false;
  /// Set from a signal handler: kill the group and return at once
  /// (ProcessResult::interrupted). Only with ownGroup.
  const volatile std::sig_atomic_t *stop = nullptr;
  /// Code nobody vetted (a written suite's tests): the program starts as
  /// the first process of a PID namespace of its own, so nothing it
  /// signals (kill(-1), its parent) is outside, and everything it started
  /// ends when it does. Where the machine refuses, it runs without one.
  bool pidNamespace = false;
  /// Above 0: the program and all it forks are in a pids cgroup of their
  /// own with this many processes at most, and are killed through it at the
  /// end, also those that left the process group. Where cgroups cannot be
  /// made, the process group alone.
  unsigned maxProcesses = 0;
  /// Code nobody vetted writes temporary files and may die before removing
  /// them (a written test crashes or hangs inside its own temporary
  /// folder): when set, the program gets a fresh folder under this one as
  /// TMPDIR, removed once it and everything it started has ended.
  std::string privateTmpUnder;
};

/// Runs argv (argv[0] searched in PATH) with stdin from /dev/null. Fails only
/// when it cannot be started; a non-zero exit is a result.
Expected<ProcessResult> runProcess(const std::vector<std::string> &argv, const ProcessOptions &options = {});

/// Writes all of `buf` to `fd`; false when it cannot. A reader that has
/// died (a killed fork server, a symbolizer gone) is an error here, never
/// the SIGPIPE that would kill mosaic.
bool writeAll(int fd, const void *buf, size_t len);

/// A shell-like rendering of argv, for messages and logs.
std::string commandLine(const std::vector<std::string> &argv);

/// 64-bit FNV-1a: a stable hash for cache keys (same value on every run).
std::uint64_t fnv1a(std::string_view data, std::uint64_t seed = 0xcbf29ce484222325ull);

} // namespace mosaic
