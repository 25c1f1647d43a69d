// The host side of the fork server: starts a harness, sends it encoded
// tests, and reads back outcomes and traces. Takes bytes; never sees
// test-case types.
#pragma once

#include "mosaic/abi/Symbolic.h"
#include "mosaic/exec/Outcome.h"
#include "mosaic/exec/Trace.h"
#include "mosaic/support/Expected.h"

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace mosaic::exec {

/// Per-test limits of the sandbox.
struct Limits {
  std::uint32_t timeoutMs = 1000;    ///< wall clock; ours (EvoSuite's default test timeout is 4 s)
  std::uint32_t memoryMb = 1024;     ///< RLIMIT_AS of the child
  std::uint32_t fileSizeMb = 16;     ///< RLIMIT_FSIZE of the child
  std::uint32_t maxProcesses = 64;   ///< processes a test may have at once
  /// Let a child run test after test, the unit's globals restored between
  /// them (when the harness offers it): much faster where fork is slow. A
  /// test that crashes, times out or exits still ends its process.
  bool persistent = true;
};

struct ServerOptions {
  std::string harness;   ///< the harness binary
  std::string scratch;   ///< children's working directory ("" = a fresh one under TMPDIR)
  std::string log;       ///< the server's own stderr goes here ("" = /dev/null)
  std::vector<std::pair<std::string, std::string>> env; ///< extra environment (sanitizer options)
  /// The harness is built with AddressSanitizer, which reserves terabytes of
  /// address space: RLIMIT_AS would stop it, so memory is bounded through
  /// ASAN_OPTIONS (malloc_limit_mb) instead; see sanitizerEnvironment().
  bool sanitized = false;
  /// Start the harness with address-space randomisation off (personality
  /// ADDR_NO_RANDOMIZE), so that the same test at the same seed meets the
  /// same addresses in every run of mosaic: uninitialised memory, hashes of
  /// pointers and pointer-derived integers then no longer make two searches
  /// at one seed diverge (cJSON.c: 731 and 734 branch sides covered in two
  /// runs at seed 1 with randomisation, 753 and 753 without). Best effort:
  /// where the kernel or a seccomp filter refuses, the layout stays random.
  /// The server that re-observes tests before they are written keeps it
  /// random on purpose: a value that depends on the layout must show there.
  bool fixedLayout = true;
  /// Start the harness as the first process of a PID namespace of its own
  /// (where the machine allows it; runtime MOSAIC_FEATURE_PID_NAMESPACE): a
  /// test cannot signal the server, whatever it starts dies with the
  /// server, and PIDs are the same in every run. The server that
  /// re-observes tests runs without, so that a value that is a PID shows
  /// as unstable there.
  bool pidNamespace = true;
  /// Give the server a mount namespace: the file systems read-only to the
  /// tests, a private /tmp (runtime MOSAIC_FEATURE_FS_SANDBOX). False only
  /// to test what a machine without namespaces gets.
  bool fileSandbox = true;
  /// A concolic harness (harness::BuildOptions::symbolic): it shares a
  /// symbolic region (abi/Symbolic.h, the default capacities) with the
  /// server, laid out afresh before each test, which then runs in a fresh
  /// child (never persistent: shadow memory must start empty); symbolic()
  /// is the last test's.
  bool symbolic = false;
};

/// ASAN_OPTIONS and UBSAN_OPTIONS for a harness: reports end the child with
/// MOSAIC_EXIT_SANITIZER; `memoryMb` bounds the allocator of a sanitized one.
/// Stack traces are left as module+offset (symbolize=0): symbolizing costs
/// a symbolizer run per report, and a sanitized search on cJSON ran 5
/// tests/s with it; the failing suite, built with -DMOSAIC_SANITIZE=ON,
/// prints the symbolized report when it runs.
std::vector<std::pair<std::string, std::string>> sanitizerEnvironment(std::uint32_t memoryMb);

class ForkServer {
public:
  /// Starts the harness as a fork server over a trace sized for `blocks`,
  /// `sides` and `mutants` (from the unit's description; mutants only for a
  /// harness built with their probes) and waits for its hello.
  static Expected<std::unique_ptr<ForkServer>> start(const ServerOptions &options, std::uint32_t blocks,
                                                     std::uint32_t sides, std::uint32_t mutants = 0);
  ~ForkServer();
  ForkServer(const ForkServer &) = delete;
  ForkServer &operator=(const ForkServer &) = delete;

  /// Runs one encoded test. If the server died, it is restarted and the test
  /// run again (once). When the server dies again by a signal, the test
  /// ended it (kill(getppid()) without a PID namespace): the result is a
  /// crash with that signal and RunResult::killedServer, and a new server
  /// serves the next test. Only a server that cannot start again, or hangs
  /// twice, makes the result an error.
  Expected<RunResult> run(std::span<const std::uint8_t> input, const Limits &limits);

  /// The mutant the next runs switch on, in a harness built with mutant
  /// schemata (abi/Trace.h: active_mutant); nullopt: the original code.
  void setMutant(std::optional<std::uint32_t> mutant) { mutant_ = mutant; }

  /// The trace of the last run (valid until the next one).
  const Trace &trace() const { return trace_; }
  /// The last test's symbolic region (ServerOptions::symbolic); empty
  /// otherwise. Written by the program under test: read it with
  /// solver::readSymbolicTrace, which checks everything.
  std::span<const std::byte> symbolic() const {
    return symHeader_ ? std::span<const std::byte>(reinterpret_cast<const std::byte *>(symHeader_), symSize_)
                      : std::span<const std::byte>();
  }
  std::uint32_t features() const { return features_; }
  std::uint64_t restarts() const { return restarts_; }
  /// The server process (for tests that kill it).
  pid_t pid() const { return pid_; }

private:
  ForkServer(ServerOptions options, std::uint32_t blocks, std::uint32_t sides, std::uint32_t mutants);
  Expected<bool> spawn();
  /// Ends the server; its wait status when it had ended by itself, else -1.
  int stop();
  std::string whyItDiedBeforeServing();
  Expected<RunResult> runOnce(std::span<const std::uint8_t> input, const Limits &limits);

  ServerOptions options_;
  std::uint32_t blocks_, sides_, mutants_;
  std::optional<std::uint32_t> mutant_;
  int shm_ = -1, ctl_ = -1, status_ = -1, symShm_ = -1;
  mosaic_sym_header *symHeader_ = nullptr;
  std::size_t symSize_ = 0;
  pid_t pid_ = -1;
  mosaic_trace_header *header_ = nullptr;
  std::size_t size_ = 0;
  Trace trace_{nullptr};
  std::uint32_t features_ = 0;
  std::string id_; ///< the running server's name (trace server_id): its cgroup is mosaic-<id>
  std::uint64_t restarts_ = 0;
  std::string fallbackScratch_; ///< the runtime's scratch folder when it has no mount namespace
};

} // namespace mosaic::exec
