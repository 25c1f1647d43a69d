// Helpers for mosaic's tests.
#include "common/TestSupport.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char **environ;

namespace mosaic::test {

namespace {
std::string drain(const std::string &path) {
  std::string s = readFile(path);
  ::unlink(path.c_str());
  return s;
}
} // namespace

ProcessResult runProcess(const std::vector<std::string> &argv) {
  // Output goes to files rather than pipes: no deadlock on large output.
  const std::string dir = makeTempDir("mosaic-proc");
  const std::string outPath = dir + "/out", errPath = dir + "/err";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, 2, errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<char *> args;
  for (const auto &a : argv) args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  ProcessResult r;
  if (posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ) == 0) { // PATH searched: cmake, git
    int status = 0;
    ::waitpid(pid, &status, 0);
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  posix_spawn_file_actions_destroy(&actions);
  r.out = drain(outPath);
  r.err = drain(errPath);
  ::rmdir(dir.c_str());
  return r;
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

namespace {

// The folders makeTempDir made, removed when the test program ends: a run
// of the suite made about a hundred, some of 70 MB (a generated suite and
// its build), and left them all (CI ran out of disk). Kept when a test
// failed, or with MOSAIC_KEEP_TEST_DIRS set, to look at; removed only by
// the process that made them (not by a forked child that exits).
class TempDirs {
public:
  void add(std::string dir) { dirs_.push_back(std::move(dir)); }
  ~TempDirs() {
    if (::getpid() != owner_ || std::getenv("MOSAIC_KEEP_TEST_DIRS")) return;
    if (!::testing::UnitTest::GetInstance()->Passed()) return;
    std::error_code ec;
    for (const auto &d : dirs_) std::filesystem::remove_all(d, ec);
  }

private:
  pid_t owner_ = ::getpid();
  std::vector<std::string> dirs_;
};

} // namespace

std::string makeTempDir(const std::string &prefix) {
  // Constructed after GoogleTest's UnitTest (the first test already runs),
  // so destroyed before it.
  static TempDirs made;
  const char *tmp = std::getenv("TMPDIR");
  std::string tmpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/" + prefix + "-XXXXXX";
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed for " + tmpl);
  made.add(tmpl);
  return tmpl;
}

} // namespace mosaic::test
