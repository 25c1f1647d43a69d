// The host side of the fork server: starts a harness, sends it encoded
// tests, and reads back outcomes and traces. Takes bytes; never sees
// test-case types.
#pragma once

#include "mosaic/abi/Symbolic.h"
#include "mosaic/exec/Outcome.h"
#include "mosaic/exec/Trace.h"
#include "mosaic/support/Expected.h"

#include <sys/types.h>

#include <csignal>

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
  /// RLIMIT_FSIZE of the child. 1 MiB (ours): a unit test's files are
  /// small, and a test that writes more is mostly a made-up width or depth
  /// (libconfig's internal writer given depth INT_MAX pads with spaces until
  /// the limit stops it); at 16 MiB such tests took more than half the time
  /// of random search on libconfig.c (5,533 against 12,803 tests/s at 1 MiB,
  /// speed-2026-11-30b). A test stopped here is a robustness failure.
  std::uint32_t fileSizeMb = 1;
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
  /// The most tests one request may carry (runBatch): the trace memory
  /// holds a slot of its own for each (abi/Protocol.h). 16 is ours: at
  /// ~60 us a test, the round trip's cost (four context switches and four
  /// system calls, ~30% of http_parser.c's random search) is then paid
  /// once per millisecond; more slots gave no more (bench/speed). A
  /// symbolic harness has one.
  std::uint32_t batch = 16;
  /// Where the server and its tests run, and where the thread that drives
  /// it does (a pinned search: CpuPin.h). With both set, the server is bound
  /// to `cpu` and the calling thread moves: to `callerCpu` when it starts a
  /// batch of tests (it reads the batch before while the server runs this
  /// one), to `cpu` when it runs one test (a round trip on one CPU is a
  /// context switch, not a cross-CPU wake-up; the stages after a search run
  /// thousands of single tests). -1: the server runs where the caller does.
  int cpu = -1;
  int callerCpu = -1;
};

/// ASAN_OPTIONS and UBSAN_OPTIONS for a harness: reports end the child with
/// MOSAIC_EXIT_SANITIZER; `memoryMb` bounds the allocator of a sanitized one.
/// Stack traces are left as module+offset (symbolize=0): symbolizing costs
/// a symbolizer run per report, and a sanitized search on cJSON ran 5
/// tests/s with it; the failing suite, built with -DMOSAIC_SANITIZE=ON,
/// prints the symbolized report when it runs.
std::vector<std::pair<std::string, std::string>> sanitizerEnvironment(std::uint32_t memoryMb);

/// When a batch (ForkServer::runBatch) starts no more tests.
struct BatchBounds {
  /// Wall-clock time from its start, in milliseconds; 0: none.
  std::uint32_t deadlineMs = 0;
  /// After a test that took this much wall-clock time (0: none). Ours:
  /// 100 ms, so that a batch of tests that each sleep to their wall-clock
  /// limit (seconds) costs one of them, as running them one at a time
  /// would before the search sees it is done, and a batch of 16 that each
  /// stay just under it costs 1.6 s at most.
  std::uint32_t slowMs = 100;
  /// Set (by a signal handler) when the caller wants no more tests.
  const volatile std::sig_atomic_t *stop = nullptr;
};

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
  /// Runs the tests one after the other in one round trip (at most
  /// batchCapacity() of them): a result per test started, as run() would
  /// give it (a test that ends its child is followed by a new child);
  /// trace(i) is then the i-th test's. No test but the first starts once
  /// `bounds` say so: the results are then fewer than the inputs. When the
  /// server dies or hangs, it is started again and the tests are run one
  /// by one with run().
  Expected<std::vector<RunResult>> runBatch(std::span<const std::vector<std::uint8_t>> inputs, const Limits &limits,
                                            const BatchBounds &bounds = {});
  /// runBatch() in two halves: startBatch() hands the tests to the server
  /// and returns; finishBatch() waits for them and gives what runBatch()
  /// would have. The batch runs in trace slots of its own (the memory has
  /// two banks of batchCapacity() slots), so the traces of the batch
  /// finished before it (trace(i)) stay as they were until finishBatch():
  /// the caller reads one batch while the server runs the next. Nothing
  /// else may run in between (run() says so with an error).
  void startBatch(std::span<const std::vector<std::uint8_t>> inputs, const Limits &limits, const BatchBounds &bounds = {});
  Expected<std::vector<RunResult>> finishBatch();
  bool batchStarted() const { return pending_.has_value(); }
  /// The caller is done with the traces of the last batch finished:
  /// their slots are cleared now (while the next batch runs), so that
  /// the batch that reuses them starts at once. trace(i) then reads empty.
  void releaseBatch();
  std::size_t batchCapacity() const { return bank_; }

  /// The mutant the next runs switch on, in a harness built with mutant
  /// schemata (abi/Trace.h: active_mutant); nullopt: the original code.
  void setMutant(std::optional<std::uint32_t> mutant) { mutant_ = mutant; }

  /// The trace of the last run (valid until the next one).
  const Trace &trace() const { return traces_[first_ + last_]; }
  /// The trace of the i-th test of the last batch finished (valid until
  /// the next run, or the next batch finished).
  const Trace &trace(std::size_t i) const { return traces_[first_ + i]; }
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
  /// The header of trace slot i.
  mosaic_trace_header *slot(std::size_t i) const {
    return reinterpret_cast<mosaic_trace_header *>(reinterpret_cast<char *>(header_) + i * stride_);
  }
  /// run() in slot `at`.
  Expected<RunResult> runAt(std::span<const std::uint8_t> input, const Limits &limits, std::size_t at);
  Expected<RunResult> runOnce(std::span<const std::uint8_t> input, const Limits &limits, std::size_t at);
  /// Writes inputs[i] into slot at + i and the request for them all.
  Expected<bool> sendSlots(std::span<const std::span<const std::uint8_t>> inputs, const Limits &limits,
                           const BatchBounds &bounds, std::size_t at);
  /// Reads the replies of the request sendSlots() sent for `n` tests.
  Expected<std::vector<RunResult>> readSlots(std::size_t n, std::size_t at, const Limits &limits,
                                             const BatchBounds &bounds);
  /// Moves the calling thread to callerCpu (a batch) or beside the server
  /// (a single test), where ServerOptions say so.
  void placeCaller(bool batch);
  /// The first slot of the bank the last finished batch or run is not in.
  std::size_t spare() const { return slots_ > bank_ && first_ == 0 ? bank_ : 0; }
  /// Reads `bytes` of replies, for at most `timeoutMs`; when `stop` is set
  /// meanwhile, cuts the request (MOSAIC_CMD_CUT) once and goes on reading.
  bool readReplies(void *into, std::size_t bytes, int timeoutMs, const volatile std::sig_atomic_t *stop);

  ServerOptions options_;
  std::uint32_t blocks_, sides_, mutants_;
  std::optional<std::uint32_t> mutant_;
  int shm_ = -1, ctl_ = -1, status_ = -1, symShm_ = -1;
  mosaic_sym_header *symHeader_ = nullptr;
  std::size_t symSize_ = 0;
  pid_t pid_ = -1;
  mosaic_trace_header *header_ = nullptr; ///< slot 0
  std::size_t size_ = 0, stride_ = 0, slots_ = 1;
  std::size_t bank_ = 1;  ///< slots of a batch: the memory has two such banks (one for a symbolic harness)
  std::size_t first_ = 0; ///< the first slot of the last batch or run finished
  std::size_t last_ = 0;  ///< its last test, from first_
  std::vector<Trace> traces_; ///< a view per slot
  /// The batch startBatch() started: its inputs (run one by one if the
  /// server dies), its first slot, and whether its request went out.
  struct Pending {
    std::vector<std::vector<std::uint8_t>> inputs;
    Limits limits;
    BatchBounds bounds;
    std::size_t at = 0;
    bool sent = false;
  };
  std::optional<Pending> pending_;
  std::vector<bool> cleared_; ///< per slot: cleared by releaseBatch() since its last test
  int callerOn_ = -1; ///< the CPU placeCaller() last moved the caller to
  std::uint32_t features_ = 0;
  std::string id_; ///< the running server's name (trace server_id): its cgroup is mosaic-<id>
  std::uint64_t restarts_ = 0;
  std::string fallbackScratch_; ///< the runtime's scratch folder when it has no mount namespace
};

} // namespace mosaic::exec
