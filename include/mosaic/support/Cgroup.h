// Pids cgroups of mosaic's sandboxes, and the housekeeping of what a
// sandbox leaves behind when mosaic itself is killed.
//
// Every cgroup mosaic makes is named mosaic-<host id>-<n> (the fork
// server's runtime makes its own under the same scheme, runtime/sandbox.c),
// and every scratch folder of a server without a mount namespace
// mosaic-scratch-<host id>-<n>, where the host id is its pid and its PID
// namespace (hostId()): whatever a dead mosaic left is found by its pid and
// removed by the next one in the same namespace, and never what a live one
// in another namespace (a container sharing the cgroup tree) is using.
#pragma once

#include <optional>
#include <string>

namespace mosaic {

/// Where pids cgroups are made, cgroup v1 first, then v2 (the same list as
/// runtime/sandbox.c).
inline constexpr const char *kCgroupRoots[] = {"/sys/fs/cgroup/pids", "/sys/fs/cgroup"};

/// <our pid>-p<the inode of our PID namespace>: the start of the names of
/// what this host makes.
std::string hostId();

/// A pids cgroup made by the host: a process started into it
/// (SpawnSpec::cgroupProcs) and everything it forks count against
/// `maxPids`, and killAll() reaches them even after setsid().
class PidsCgroup {
public:
  /// mosaic-<hostId()>-h<a counter>, or nothing where cgroups cannot be made
  /// (not root, no pids controller).
  static std::optional<PidsCgroup> make(unsigned maxPids);
  PidsCgroup(PidsCgroup &&other) noexcept;
  PidsCgroup &operator=(PidsCgroup &&) = delete;
  PidsCgroup(const PidsCgroup &) = delete;
  ~PidsCgroup(); ///< killAll(), then the cgroup is removed

  /// cgroup.procs, open for writing (for SpawnSpec::cgroupProcs).
  int procs() const { return procs_; }
  const std::string &path() const { return path_; }
  /// SIGKILL to every process in it, until it is empty (or a second has
  /// passed: ours, a killed process leaves the cgroup within milliseconds).
  void killAll() const;

private:
  PidsCgroup(std::string path, int procs) : path_(std::move(path)), procs_(procs) {}
  std::string path_;
  int procs_ = -1;
};

/// Kills every process in the cgroup mosaic-`id` (what a test left
/// running, also after setsid()), then removes the cgroup once it is empty
/// (its processes may take a moment to go: 50 tries 10 ms apart, ours).
void removeCgroup(const std::string &id);

/// The scratch folder a server without a mount namespace works in,
/// under `tmpdir`: mosaic-scratch-`id`.
std::string fallbackScratch(const std::string &tmpdir, const std::string &id);

/// The host's temporary folder: $TMPDIR, or /tmp.
std::string temporaryRoot();

/// Kills what is left in the cgroups of a mosaic that is no longer running
/// (killed with SIGKILL) and removes them, and removes its scratch folders
/// under temporaryRoot(). Once per process is enough.
void sweepWhatDeadHostsLeft();

} // namespace mosaic
