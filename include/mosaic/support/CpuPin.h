// One CPU for a search and its fork servers (AFL's bind_to_free_cpu), and
// a second one beside it where one is free.
//
// A test is a round trip host -> fork server -> child -> fork server ->
// host, each step a wake-up of the next process. When the three run on
// different CPUs every wake-up crosses CPUs (an inter-processor interrupt,
// a VM exit on a virtual machine); on one CPU it is a context switch. Run
// one at a time, the steps never overlap, so one CPU loses nothing: a
// trivial unit ran 6,417 tests/s unpinned and 19,799 pinned on the 2-CPU
// machine of bench/results/speed-2026-11-28. A batch of tests is one
// round trip, and mosaic works on the batch before while the server runs
// it (Executor::startBatch): then the server on a CPU of its own, the
// spare, gains what the overlap gives (ForkServer: ServerOptions::cpu).
#pragma once

#include <sched.h>

#include <memory>
#include <string>

namespace mosaic {

/// The calling thread bound to one CPU for the object's lifetime; what the
/// thread spawns with SpawnSpec::inheritAffinity (the fork servers) runs
/// there too, everything else on the CPUs the process started with.
class CpuPin {
public:
  /// Binds the calling thread to a CPU it may use that no other process is
  /// bound to alone (read from /proc: a process whose Cpus_allowed_list is
  /// one CPU), preferring the one it runs on. nullptr, with the reason in
  /// `why`, when every such CPU is taken or the machine refuses.
  static std::unique_ptr<CpuPin> onFreeCpu(std::string *why = nullptr);
  ~CpuPin(); ///< the thread's affinity as it was
  CpuPin(const CpuPin &) = delete;
  CpuPin &operator=(const CpuPin &) = delete;

  int cpu() const { return cpu_; }
  /// Another CPU the thread may use that no process was bound to alone when
  /// it was pinned, for the fork server beside it; -1 when there is none.
  int spare() const { return spare_; }

private:
  CpuPin(int cpu, int spare, const cpu_set_t &before) : cpu_(cpu), spare_(spare), before_(before) {}
  int cpu_;
  int spare_;
  cpu_set_t before_;
};

/// The CPUs this process was allowed when it started (read once, as it
/// loads); nullptr when they could not be read.
const cpu_set_t *startAffinity();

} // namespace mosaic
