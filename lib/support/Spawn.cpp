// Starting contained processes (Spawn.h).
#include "mosaic/support/Spawn.h"

#include "mosaic/support/CpuPin.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

extern char **environ;

namespace mosaic {

std::vector<std::string> currentEnvironment() {
  std::vector<std::string> out;
  for (char **e = environ; *e; ++e) out.emplace_back(*e);
  return out;
}

std::string findProgram(const std::string &name) {
  if (name.find('/') != std::string::npos) return name;
  const char *path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = end > start ? dirs.substr(start, end - start) : ".";
    const std::string candidate = dir + "/" + name;
    struct stat st{};
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(candidate.c_str(), X_OK) == 0)
      return candidate;
    start = end + 1;
  }
  return {};
}

namespace {

// What the child does between clone and execve: only async-signal-safe
// calls on memory prepared by the parent. On failure it reports errno on
// `report` and ends.
[[noreturn]] void becomeChild(const SpawnSpec &spec, const char *path, char *const argv[], char *const envp[],
                              int report) {
  auto fail = [&] {
    const int e = errno;
    (void)!write(report, &e, sizeof e);
    _exit(127);
  };
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr); // the program starts with no signal blocked
  if (spec.cpu >= 0 && spec.cpu < CPU_SETSIZE) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(spec.cpu, &one);
    sched_setaffinity(0, sizeof one, &one);
  } else if (!spec.inheritAffinity && startAffinity()) { // a pinned caller's CPU is the search's alone
    sched_setaffinity(0, sizeof(cpu_set_t), startAffinity());
  }
  if (spec.newGroup && setpgid(0, 0) != 0) fail();
  if (spec.cgroupProcs >= 0) (void)!write(spec.cgroupProcs, "0", 1); // "0": the writer itself
  for (const auto &[from, to] : spec.dups) {
    if (from >= 0) {
      if (dup2(from, to) < 0) fail();
      continue;
    }
    const int null = open("/dev/null", O_RDWR);
    if (null < 0) fail();
    if (null != to) {
      if (dup2(null, to) < 0) fail();
      close(null);
    }
  }
  if (!spec.directory.empty() && chdir(spec.directory.c_str()) != 0) fail();
  execve(path, argv, envp);
  fail();
  _exit(127); // not reached: fail() ends the process
}

} // namespace

Expected<Spawned> spawnProcess(const SpawnSpec &spec) {
  if (spec.argv.empty()) return Error::internal("spawnProcess: empty argv");
  const std::string path = findProgram(spec.path);
  if (path.empty()) return Error::input("cannot run '" + spec.path + "': not found in PATH");
  std::vector<std::string> argStrings = spec.argv, envStrings = spec.env;
  std::vector<char *> argv, envp;
  for (auto &a : argStrings) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto &e : envStrings) envp.push_back(e.data());
  envp.push_back(nullptr);

  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) return Error::internal(std::string("pipe: ") + std::strerror(errno));
  // A copy of this process (no CLONE_VM: the child's writes never reach
  // us), the first of a new PID namespace when asked and allowed.
  Spawned s;
  long pid = -1;
  if (spec.pidNamespace) {
    pid = syscall(SYS_clone, CLONE_NEWPID | SIGCHLD, nullptr, nullptr, nullptr, 0);
    s.pidNamespace = pid >= 0;
  }
  if (pid < 0) pid = syscall(SYS_clone, SIGCHLD, nullptr, nullptr, nullptr, 0);
  if (pid == 0) becomeChild(spec, path.c_str(), argv.data(), envp.data(), report[1]);
  const int cloneErrno = errno;
  close(report[1]);
  if (pid < 0) {
    close(report[0]);
    return Error::internal(std::string("clone: ") + std::strerror(cloneErrno));
  }
  int childErrno = 0;
  ssize_t n;
  while ((n = read(report[0], &childErrno, sizeof childErrno)) < 0 && errno == EINTR) {
  }
  close(report[0]);
  if (n == static_cast<ssize_t>(sizeof childErrno)) { // exec failed: nothing runs
    while (waitpid(static_cast<pid_t>(pid), nullptr, 0) < 0 && errno == EINTR) {
    }
    return Error::input("cannot run '" + spec.path + "': " + std::strerror(childErrno));
  }
  s.pid = static_cast<pid_t>(pid);
  return s;
}

} // namespace mosaic
