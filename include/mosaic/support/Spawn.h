// Starting a process with the containment mosaic puts around code it does
// not trust: a process group of its own, a PID namespace of its own, a pids
// cgroup joined before the first instruction of the program runs.
#pragma once

#include "mosaic/support/Expected.h"

#include <sys/types.h>

#include <string>
#include <utility>
#include <vector>

namespace mosaic {

struct SpawnSpec {
  std::string path;                     ///< the program; a name without '/' is searched in PATH
  std::vector<std::string> argv;        ///< argv[0] included
  std::vector<std::string> env;         ///< the whole environment, "NAME=value"
  std::vector<std::pair<int, int>> dups; ///< dup2(from, to) in order; a `from` of -1 opens /dev/null there
  std::string directory;                ///< working directory ("" = ours)
  bool newGroup = false;                ///< a process group of its own (setpgid(0, 0))
  /// The first process of a new PID namespace: what it starts ends with it,
  /// and kill(-1) or kill(getppid()) reach nothing outside. Where the
  /// machine refuses (no CAP_SYS_ADMIN) it starts without one, and
  /// Spawned::pidNamespace says so.
  bool pidNamespace = false;
  /// An open cgroup.procs (PidsCgroup::procs()): the child moves itself
  /// there before exec, so not even its first fork escapes the limit.
  int cgroupProcs = -1;
  /// Run on the calling thread's CPUs (a fork server beside its pinned
  /// search: CpuPin.h); otherwise on the CPUs this process started with,
  /// so that a compiler started by a pinned thread is not confined to one.
  bool inheritAffinity = false;
  /// Run on this CPU alone (a fork server on the CPU beside its search's:
  /// CpuPin::spare); -1: as inheritAffinity says.
  int cpu = -1;
};

struct Spawned {
  pid_t pid = -1;
  bool pidNamespace = false;
};

/// Starts the process. Fails (Input) when the program cannot be executed;
/// the child's exec error comes back through a pipe, so "no such program"
/// is an error here rather than an exit code 127 later. Between clone and
/// exec the child calls only async-signal-safe functions: safe in a
/// process with threads.
Expected<Spawned> spawnProcess(const SpawnSpec &spec);

/// The environment of this process, "NAME=value" each.
std::vector<std::string> currentEnvironment();

/// `name` searched in PATH as execvp would ("" when not found); a name
/// with a '/' is returned as it is.
std::string findProgram(const std::string &name);

} // namespace mosaic
