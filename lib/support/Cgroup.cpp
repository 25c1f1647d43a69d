// Pids cgroups and the clean-up after dead hosts (Cgroup.h).
#include "mosaic/support/Cgroup.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

namespace mosaic {

namespace fs = std::filesystem;

namespace {

std::atomic<unsigned> counter{0};

// The inode of our PID namespace (0 where /proc does not say).
unsigned long pidNamespace() {
  struct stat st {};
  return stat("/proc/self/ns/pid", &st) == 0 ? static_cast<unsigned long>(st.st_ino) : 0;
}

// The pid of the mosaic that made `name` (mosaic-<pid>-p<ns>-<n>,
// mosaic-scratch-<pid>-p<ns>-<n>: hostId()) after `prefix`; 0 when the
// name is not one of ours, or was made in another PID namespace (another
// container sharing the cgroup tree or /tmp): there the pid names another
// process, whose death says nothing, and whose sandbox must be left alone.
long ownerOf(const std::string &name, const std::string &prefix) {
  if (name.rfind(prefix, 0) != 0) return 0;
  char *end = nullptr;
  const long pid = std::strtol(name.c_str() + prefix.size(), &end, 10);
  if (pid <= 0 || end == name.c_str() + prefix.size()) return 0;
  const std::string ns = "-p" + std::to_string(pidNamespace());
  const std::string rest(end);
  if (rest.rfind(ns, 0) != 0 || (rest.size() > ns.size() && rest[ns.size()] != '-')) return 0;
  return pid;
}

bool isDead(long pid) { return kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH; }

void killProcessesIn(const fs::path &cgroup) {
  // Until empty: a process forking while it is killed adds one more. 100
  // rounds 10 ms apart, ours.
  for (int round = 0; round < 100; ++round) {
    std::ifstream procs(cgroup / "cgroup.procs");
    bool any = false;
    for (long p; procs >> p;) {
      any = true;
      kill(static_cast<pid_t>(p), SIGKILL);
    }
    if (!any) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

} // namespace

std::string hostId() { return std::to_string(getpid()) + "-p" + std::to_string(pidNamespace()); }

std::optional<PidsCgroup> PidsCgroup::make(unsigned maxPids) {
  const std::string id = hostId() + "-h" + std::to_string(counter++);
  for (const char *root : kCgroupRoots) {
    const std::string dir = std::string(root) + "/mosaic-" + id;
    if (mkdir(dir.c_str(), 0755) != 0) continue;
    std::ofstream(dir + "/pids.max") << maxPids;
    const int procs = open((dir + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
    std::ifstream max(dir + "/pids.max");
    unsigned set = 0;
    if (procs >= 0 && (max >> set) && set == maxPids) return PidsCgroup(dir, procs);
    if (procs >= 0) close(procs);
    rmdir(dir.c_str()); // no pids controller here: the next root
  }
  return std::nullopt;
}

PidsCgroup::PidsCgroup(PidsCgroup &&other) noexcept : path_(std::move(other.path_)), procs_(other.procs_) {
  other.procs_ = -1;
  other.path_.clear();
}

PidsCgroup::~PidsCgroup() {
  if (path_.empty()) return;
  killAll();
  if (procs_ >= 0) close(procs_);
  for (int i = 0; i < 50 && rmdir(path_.c_str()) != 0 && errno == EBUSY; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

void PidsCgroup::killAll() const {
  if (!path_.empty()) killProcessesIn(path_);
}

void removeCgroup(const std::string &id) {
  for (const char *root : kCgroupRoots) {
    const std::string dir = std::string(root) + "/mosaic-" + id;
    std::error_code ec;
    if (!fs::exists(dir, ec)) continue;
    killProcessesIn(dir);
    for (int i = 0; i < 50 && rmdir(dir.c_str()) != 0 && errno == EBUSY; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

std::string fallbackScratch(const std::string &tmpdir, const std::string &id) {
  return tmpdir + "/mosaic-scratch-" + id;
}

std::string temporaryRoot() {
  const char *t = std::getenv("TMPDIR");
  return t && *t ? t : "/tmp";
}

void sweepWhatDeadHostsLeft() {
  std::error_code ec;
  for (const char *root : kCgroupRoots)
    for (const auto &e : fs::directory_iterator(root, ec)) {
      const std::string name = e.path().filename().string();
      const long owner = ownerOf(name, "mosaic-");
      if (owner == 0 || !isDead(owner)) continue;
      removeCgroup(name.substr(7));
    }
  for (const auto &e : fs::directory_iterator(temporaryRoot(), ec)) {
    const std::string name = e.path().filename().string();
    const long owner = ownerOf(name, "mosaic-scratch-");
    if (owner == 0 || !isDead(owner)) continue;
    std::error_code removeError;
    fs::remove_all(e.path(), removeError); // symbolic links inside are removed, never followed
  }
}

} // namespace mosaic
