// CpuPin: the calling thread on one free CPU while the pin lives; the fork
// servers it spawns there too or on the spare CPU, every other command on
// the CPUs the process started with.
#include "mosaic/support/CpuPin.h"
#include "mosaic/support/Process.h"
#include "mosaic/support/Spawn.h"

#include <gtest/gtest.h>

#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

using namespace mosaic;

namespace {

// The Cpus_allowed_list a command started as `spec` reports for itself.
std::string cpusOf(SpawnSpec spec) {
  int out[2];
  if (pipe(out) != 0) return "pipe failed";
  spec.path = "/bin/grep";
  spec.argv = {"grep", "-h", "Cpus_allowed_list", "/proc/self/status"};
  spec.env = currentEnvironment();
  spec.dups = {{-1, 0}, {out[1], 1}};
  auto spawned = spawnProcess(spec);
  close(out[1]);
  std::string text;
  char buf[256];
  for (ssize_t n; (n = read(out[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(n));
  close(out[0]);
  if (!spawned) return spawned.error().message;
  int status = 0;
  waitpid(spawned->pid, &status, 0);
  return text;
}

std::string listOf(const cpu_set_t &set) {
  std::string out;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) out += (out.empty() ? "" : ",") + std::to_string(c);
  return out;
}

} // namespace

TEST(CpuPin, TheThreadAndTheServersItSpawnsShareOneCpuOtherCommandsDoNot) {
  cpu_set_t before;
  ASSERT_EQ(sched_getaffinity(0, sizeof before, &before), 0);
  if (CPU_COUNT(&before) < 2) GTEST_SKIP() << "one CPU: nothing to pin";
  const std::string unpinned = cpusOf({});
  {
    std::string why;
    auto pin = CpuPin::onFreeCpu(&why);
    if (!pin) GTEST_SKIP() << why; // other processes hold every CPU (a loaded CI machine)
    cpu_set_t now;
    ASSERT_EQ(sched_getaffinity(0, sizeof now, &now), 0);
    EXPECT_EQ(CPU_COUNT(&now), 1);
    EXPECT_TRUE(CPU_ISSET(pin->cpu(), &now));
    EXPECT_TRUE(CPU_ISSET(pin->cpu(), &before));
    SpawnSpec server;
    server.inheritAffinity = true;
    EXPECT_EQ(cpusOf(server), "Cpus_allowed_list:\t" + std::to_string(pin->cpu()) + "\n");
    EXPECT_EQ(cpusOf({}), unpinned); // a compiler: every CPU the process started with
    // The spare, where there is one: another CPU the thread could use, on
    // which a fork server runs alone.
    if (pin->spare() >= 0) {
      EXPECT_NE(pin->spare(), pin->cpu());
      EXPECT_TRUE(CPU_ISSET(pin->spare(), &before));
      SpawnSpec beside;
      beside.inheritAffinity = true;
      beside.cpu = pin->spare();
      EXPECT_EQ(cpusOf(beside), "Cpus_allowed_list:\t" + std::to_string(pin->spare()) + "\n");
    }
    ASSERT_NE(startAffinity(), nullptr);
    EXPECT_EQ(listOf(*startAffinity()), listOf(before));
  }
  cpu_set_t after;
  ASSERT_EQ(sched_getaffinity(0, sizeof after, &after), 0);
  EXPECT_TRUE(CPU_EQUAL(&after, &before));
}
