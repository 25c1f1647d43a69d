// One CPU for a search and its fork servers (CpuPin.h).
#include "mosaic/support/CpuPin.h"

#include <dirent.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace mosaic {

namespace {

struct StartAffinity {
  cpu_set_t set;
  bool known;
  StartAffinity() { known = sched_getaffinity(0, sizeof set, &set) == 0; }
};

// Read as the program loads, before any thread pins itself.
const StartAffinity kStart;

// Whether process `pid` is a mosaic fork server or one of its tests (its
// environment names the server's control pipe, abi/Protocol.h): bound to
// the spare CPU beside its search, which another search may still take
// as its own (the two then share it).
bool forkServer(const std::string &pid) {
  std::ifstream in("/proc/" + pid + "/environ", std::ios::binary);
  std::string entry;
  while (std::getline(in, entry, '\0'))
    if (entry.rfind("MOSAIC_CTL_FD=", 0) == 0) return true; // MOSAIC_ENV_CTL_FD (support does not see the ABI)
  return false;
}

// The CPU process `pid` is bound to alone; -1 when it may run on more, is
// a kernel thread (no VmSize: the per-CPU ones are bound to their CPU, and
// take no CPU from a search), a fork server (above), or its status cannot
// be read.
int boundCpu(const std::string &pid) {
  std::ifstream in("/proc/" + pid + "/status");
  std::string line;
  bool user = false;
  int cpu = -1;
  while (std::getline(in, line)) {
    if (line.rfind("VmSize:", 0) == 0) user = true;
    if (line.rfind("Cpus_allowed_list:", 0) != 0) continue;
    const char *p = line.c_str() + std::strlen("Cpus_allowed_list:");
    while (*p == ' ' || *p == '\t') ++p;
    char *end = nullptr;
    const long n = std::strtol(p, &end, 10);
    if (end != p && *end == '\0' && n >= 0 && n < CPU_SETSIZE) cpu = static_cast<int>(n); // a list or a range: not alone
  }
  return user && cpu >= 0 && !forkServer(pid) ? cpu : -1;
}

} // namespace

const cpu_set_t *startAffinity() { return kStart.known ? &kStart.set : nullptr; }

std::unique_ptr<CpuPin> CpuPin::onFreeCpu(std::string *why) {
  auto fail = [&](const char *reason) -> std::unique_ptr<CpuPin> {
    if (why) *why = reason;
    return nullptr;
  };
  cpu_set_t before, free;
  if (sched_getaffinity(0, sizeof before, &before) != 0) return fail("the thread's CPUs cannot be read");
  free = before;
  if (CPU_COUNT(&free) > 1) {
    const std::string self = std::to_string(getpid());
    if (DIR *proc = opendir("/proc")) {
      while (const dirent *e = readdir(proc)) {
        if (!std::isdigit(static_cast<unsigned char>(e->d_name[0])) || self == e->d_name) continue;
        const int cpu = boundCpu(e->d_name);
        if (cpu >= 0) CPU_CLR(cpu, &free);
      }
      closedir(proc);
    }
  }
  if (CPU_COUNT(&free) == 0) return fail("every CPU this process may use has a process bound to it");
  int cpu = sched_getcpu();
  if (cpu < 0 || !CPU_ISSET(cpu, &free))
    for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &free); ++cpu) {
    }
  int spare = -1;
  for (int other = 0; other < CPU_SETSIZE && spare < 0; ++other)
    if (other != cpu && CPU_ISSET(other, &free)) spare = other;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  if (sched_setaffinity(0, sizeof one, &one) != 0) return fail("the machine refused to bind the thread to a CPU");
  return std::unique_ptr<CpuPin>(new CpuPin(cpu, spare, before));
}

CpuPin::~CpuPin() { sched_setaffinity(0, sizeof before_, &before_); }

} // namespace mosaic
