// Running programs.
#include "mosaic/support/Process.h"

#include "mosaic/support/Cgroup.h"
#include "mosaic/support/Spawn.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <map>
#include <optional>

namespace mosaic {

std::uint64_t fnv1a(std::string_view data, std::uint64_t h) {
  for (unsigned char c : data) {
    h ^= c;
    h *= 0x100000001b3ull; // FNV-1a 64-bit prime
  }
  return h;
}

std::string commandLine(const std::vector<std::string> &argv) {
  std::string out;
  for (const auto &a : argv) {
    if (!out.empty()) out += ' ';
    const bool plain = !a.empty() && a.find_first_of(" \t\"'\\$`") == std::string::npos;
    if (plain) {
      out += a;
    } else {
      out += '\'';
      for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
      out += '\'';
    }
  }
  return out;
}

namespace {

// Reads `fd` to its end into `out`.
void readAll(int fd, std::string &out) {
  char buf[65536];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) out.append(buf, static_cast<size_t>(n));
    else if (n < 0 && errno == EINTR) continue;
    else break;
  }
}

// Reads the output of the group led by `pid` while it runs; once `pid` has
// exited (or `stop` is set), kills the group and reads what is left for at
// most a second (a process that left the group may hold the pipe). Returns
// `pid`'s wait status.
int watchGroup(pid_t pid, int fd, const volatile std::sig_atomic_t *stop, ProcessResult &result) {
  constexpr int kPollMs = 50;       // ours: how soon a stop request is seen
  constexpr int kDrainMs = 1000;    // ours: what is left to read after the end
  int status = 0;
  bool exited = false;
  fcntl(fd, F_SETFL, O_NONBLOCK);
  char buf[65536];
  auto drain = [&] {
    for (;;) {
      const ssize_t n = read(fd, buf, sizeof buf);
      if (n > 0) result.output.append(buf, static_cast<size_t>(n));
      else if (n < 0 && errno == EINTR) continue;
      else return n == 0; // true: the pipe is closed
    }
  };
  bool closed = false;
  // Readable once `pid` has exited (Linux 5.3 and later; -1 before): the
  // wait ends with it. Without it, a program that closed its output and
  // then exited was seen up to kPollMs late: a written test run alone in
  // the sandbox took 29-35 ms, 19-21 ms with it (about 1 s of a
  // verification that runs a hundred tests one by one).
  const int exits = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  while (!exited) {
    pollfd p[2] = {{closed ? -1 : fd, POLLIN, 0}, {exits, POLLIN, 0}}; // poll skips a negative fd
    poll(p, 2, kPollMs);
    if (!closed) closed = drain();
    if (stop && *stop) {
      result.interrupted = true;
      break;
    }
    exited = waitpid(pid, &status, WNOHANG) == pid;
  }
  if (exits >= 0) close(exits);
  kill(-pid, SIGKILL);
  if (!exited)
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  for (int waited = 0; !closed && waited < kDrainMs; waited += kPollMs) {
    pollfd p{fd, POLLIN, 0};
    poll(&p, 1, kPollMs);
    closed = drain();
  }
  return status;
}

} // namespace

namespace {

// ProcessOptions::privateTmpUnder: made on construction, removed (with
// whatever the program left in it) on destruction, after the program and
// its group or cgroup have been killed.
struct PrivateTmp {
  std::string path;
  explicit PrivateTmp(const std::string &under) {
    if (under.empty()) return;
    std::error_code ec;
    std::filesystem::create_directories(under, ec);
    std::string name = (std::filesystem::path(under) / "tmp-XXXXXX").string();
    if (mkdtemp(name.data())) path = name;
  }
  ~PrivateTmp() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
  PrivateTmp(const PrivateTmp &) = delete;
  PrivateTmp &operator=(const PrivateTmp &) = delete;
};

} // namespace

Expected<ProcessResult> runProcess(const std::vector<std::string> &argv, const ProcessOptions &options) {
  if (argv.empty()) return Error::internal("runProcess: empty command");
  int pipefd[2];
  if (pipe2(pipefd, O_CLOEXEC) != 0) return Error::internal(std::string("pipe: ") + std::strerror(errno));

  // The environment: ours, with the overrides.
  std::map<std::string, std::string> env;
  for (const std::string &e : currentEnvironment()) {
    const size_t eq = e.find('=');
    if (eq != std::string::npos) env[e.substr(0, eq)] = e.substr(eq + 1);
  }
  for (const auto &[k, v] : options.env) env[k] = v;
  PrivateTmp tmp(options.privateTmpUnder);
  if (!tmp.path.empty()) env["TMPDIR"] = tmp.path;
  SpawnSpec spec;
  spec.path = argv[0];
  spec.argv = argv;
  for (const auto &[k, v] : env) spec.env.push_back(k + "=" + v);
  spec.dups = {{-1, 0}, {pipefd[1], 1}, {pipefd[1], 2}};
  spec.directory = options.directory;
  spec.newGroup = options.ownGroup;
  spec.pidNamespace = options.pidNamespace;
  std::optional<PidsCgroup> cgroup =
      options.maxProcesses > 0 ? PidsCgroup::make(options.maxProcesses) : std::nullopt;
  if (cgroup) spec.cgroupProcs = cgroup->procs();
  auto spawned = spawnProcess(spec);
  close(pipefd[1]);
  if (!spawned) {
    close(pipefd[0]);
    return spawned.takeError();
  }
  const pid_t pid = spawned->pid;
  ProcessResult result;
  int status = 0;
  if (options.ownGroup) {
    status = watchGroup(pid, pipefd[0], options.stop, result);
  } else {
    readAll(pipefd[0], result.output);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  close(pipefd[0]);
  if (cgroup) cgroup->killAll(); // what left the group (setsid) ends too
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

// The signal is blocked for this thread during the write and a pending one
// consumed, the process's handlers left alone.
bool writeAll(int fd, const void *buf, size_t len) {
  sigset_t pipe, old;
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe, &old);
  const char *p = static_cast<const char *>(buf);
  bool ok = true;
  while (len > 0) {
    const ssize_t n = write(fd, p, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ok = false;
      break;
    }
    p += n;
    len -= static_cast<size_t>(n);
  }
  if (!ok && errno == EPIPE) {
    const timespec zero{0, 0};
    sigtimedwait(&pipe, nullptr, &zero);
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return ok;
}

} // namespace mosaic
