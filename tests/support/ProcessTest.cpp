// Running programs contained: output, errors, the process group, the PID
// namespace and the pids cgroup of runProcess; what dead hosts leave.
#include "mosaic/support/Cgroup.h"
#include "mosaic/support/Process.h"
#include "mosaic/support/Spawn.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

using namespace mosaic;

namespace {

// True when `pid` no longer runs (gone, or a zombie nobody reaped yet).
bool ended(pid_t pid) {
  for (int i = 0; i < 100; ++i) { // 100 x 10 ms: the kernel's reaping of an orphan
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) return true;
    const size_t close = line.rfind(')');
    if (close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z') return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// A pid that is certainly not running: a child that has exited and been reaped.
pid_t deadPid() {
  const pid_t pid = fork();
  if (pid == 0) _exit(0);
  waitpid(pid, nullptr, 0);
  return pid;
}

} // namespace

TEST(Process, CollectsStdoutAndStderrAndTheExitCode) {
  auto r = runProcess({"sh", "-c", "echo out; echo err >&2; exit 3"});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->exitCode, 3);
  EXPECT_NE(r->output.find("out"), std::string::npos);
  EXPECT_NE(r->output.find("err"), std::string::npos);
}

TEST(Process, AProgramThatDoesNotExistIsAnErrorNotAnExitCode) {
  auto r = runProcess({"mosaic-no-such-program"});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("cannot run 'mosaic-no-such-program'"), std::string::npos) << r.error().message;
  auto notExecutable = runProcess({"/etc/hostname"});
  EXPECT_FALSE(notExecutable);
}

TEST(Process, RunsInTheDirectoryAndWithTheEnvironmentGiven) {
  ProcessOptions o;
  o.directory = "/";
  o.env = {{"MOSAIC_PROCESS_TEST", "value"}};
  auto r = runProcess({"sh", "-c", "pwd; echo $MOSAIC_PROCESS_TEST"}, o);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->output, "/\nvalue\n");
}

TEST(Process, InAPidNamespaceTheProgramIsTheFirstProcessAndSeesNoParent) {
  ProcessOptions o;
  o.ownGroup = o.pidNamespace = true;
  auto r = runProcess({"sh", "-c", "echo $$ $PPID"}, o);
  ASSERT_TRUE(r);
  if (r->output != "1 0\n") GTEST_SKIP() << "no PID namespace on this machine: " << r->output;
  EXPECT_EQ(r->exitCode, 0);
}

TEST(Process, WhatLeftTheProcessGroupEndsThroughThePidsCgroup) {
  // setsid() takes a sleeper out of the group the run is killed by; the
  // cgroup still holds it.
  ProcessOptions o;
  o.ownGroup = true;
  o.maxProcesses = 16;
  if (!PidsCgroup::make(16)) GTEST_SKIP() << "no pids cgroup on this machine";
  auto r = runProcess({"sh", "-c", "setsid sleep 300 >/dev/null 2>&1 & echo $!"}, o);
  ASSERT_TRUE(r);
  const pid_t sleeper = static_cast<pid_t>(std::stol(r->output));
  ASSERT_GT(sleeper, 0);
  const bool gone = ended(sleeper);
  if (!gone) kill(sleeper, SIGKILL);
  EXPECT_TRUE(gone);
}

TEST(Process, ThePidsCgroupBoundsHowManyProcessesARunHas) {
  if (!PidsCgroup::make(8)) GTEST_SKIP() << "no pids cgroup on this machine";
  ProcessOptions o;
  o.ownGroup = true;
  o.maxProcesses = 8;
  // 30 sleepers at once: the shell cannot fork them all.
  auto r = runProcess({"sh", "-c", "i=0; while [ $i -lt 30 ]; do sleep 1 & i=$((i+1)); done; wait"}, o);
  ASSERT_TRUE(r);
  EXPECT_NE(r->output.find("fork"), std::string::npos) << r->output;
}

TEST(Cgroup, AHostThatDiedHasItsScratchFoldersAndCgroupsRemovedByTheNext) {
  namespace fs = std::filesystem;
  const pid_t dead = deadPid();
  const std::string ns = hostId().substr(hostId().find('-'));
  const std::string stale = fallbackScratch(temporaryRoot(), std::to_string(dead) + ns + "-0");
  const std::string ours = fallbackScratch(temporaryRoot(), hostId() + "-999");
  // A dead pid in another PID namespace names a live process there.
  const std::string foreign = fallbackScratch(temporaryRoot(), std::to_string(dead) + "-p1-0");
  const std::string older = fallbackScratch(temporaryRoot(), std::to_string(dead) + "-0");
  fs::create_directories(stale + "/deep/er");
  std::ofstream(stale + "/deep/file") << "left behind";
  fs::create_symlink("/etc", stale + "/link"); // removed, never followed
  fs::create_directories(ours);
  fs::create_directories(foreign);
  fs::create_directories(older);
  sweepWhatDeadHostsLeft();
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(foreign));
  EXPECT_TRUE(fs::exists(older)); // no namespace in its name: nobody can tell whose
  fs::remove_all(foreign);
  fs::remove_all(older);
  EXPECT_TRUE(fs::exists("/etc/hostname"));
  EXPECT_TRUE(fs::exists(ours)); // a running host's folder stays
  fs::remove_all(ours);
}

TEST(Cgroup, APidsCgroupIsGoneWithItsProcessesWhenDestroyed) {
  auto g = PidsCgroup::make(4);
  if (!g) GTEST_SKIP() << "no pids cgroup on this machine";
  const std::string path = g->path();
  EXPECT_TRUE(std::filesystem::exists(path + "/cgroup.procs"));
  SpawnSpec spec;
  spec.path = "sleep";
  spec.argv = {"sleep", "300"};
  spec.env = currentEnvironment();
  spec.cgroupProcs = g->procs();
  auto s = spawnProcess(spec);
  ASSERT_TRUE(s) << s.error().message;
  std::ifstream procs(path + "/cgroup.procs");
  long member = 0;
  procs >> member;
  EXPECT_EQ(member, s->pid);
  g.reset();
  waitpid(s->pid, nullptr, 0); // killed by the reset
  EXPECT_FALSE(std::filesystem::exists(path));
}
