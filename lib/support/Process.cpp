// Running programs.
#include "mosaic/support/Process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>

extern char **environ;

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

Expected<ProcessResult> runProcess(const std::vector<std::string> &argv, const ProcessOptions &options) {
  if (argv.empty()) return Error::internal("runProcess: empty command");
  int pipefd[2];
  if (pipe2(pipefd, O_CLOEXEC) != 0) return Error::internal(std::string("pipe: ") + std::strerror(errno));

  // The environment: ours, with the overrides.
  std::map<std::string, std::string> env;
  for (char **e = environ; *e; ++e) {
    const char *eq = std::strchr(*e, '=');
    if (eq) env[std::string(*e, static_cast<size_t>(eq - *e))] = eq + 1;
  }
  for (const auto &[k, v] : options.env) env[k] = v;
  std::vector<std::string> envStrings;
  for (const auto &[k, v] : env) envStrings.push_back(k + "=" + v);
  std::vector<char *> envp, args;
  for (auto &s : envStrings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argCopy = argv;
  for (auto &a : argCopy) args.push_back(a.data());
  args.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipefd[1], 1);
  posix_spawn_file_actions_adddup2(&actions, pipefd[1], 2);
  if (!options.directory.empty()) posix_spawn_file_actions_addchdir_np(&actions, options.directory.c_str());
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(pipefd[1]);
  if (rc != 0) {
    close(pipefd[0]);
    return Error::input("cannot run '" + argv[0] + "': " + std::strerror(rc));
  }
  ProcessResult result;
  char buf[65536];
  for (;;) {
    const ssize_t n = read(pipefd[0], buf, sizeof buf);
    if (n > 0) result.output.append(buf, static_cast<size_t>(n));
    else if (n < 0 && errno == EINTR) continue;
    else break;
  }
  close(pipefd[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

} // namespace mosaic
