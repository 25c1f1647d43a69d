// The fork-server client.
#include "mosaic/exec/ForkServer.h"

#include "mosaic/support/Process.h"

#include "mosaic/abi/Protocol.h"
#include "mosaic/support/Cgroup.h"
#include "mosaic/support/Spawn.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/personality.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <cassert>
#include <atomic>
#include <limits>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <thread>

namespace mosaic::exec {

namespace {

constexpr int kHelloTimeoutMs = 10000; // a harness starts in well under a second; ours
constexpr int kReplyGraceMs = 10000;   // beyond the test's own timeout: the server itself hangs

// Descriptors the harness finds its ends at (abi/Protocol.h names them by
// environment; these numbers are ours).
constexpr int kShmFd = 3, kCtlFd = 4, kStatusFd = 5, kSymFd = 6;

constexpr int kTickMs = 50; // readFull's slices when it has a tick: a stop seen within a twentieth of a second; ours

// Reads `len` bytes from `fd` within `timeoutMs`. With `tick`, waits in
// slices of kTickMs and calls it before each; false from it ends the read.
bool readFull(int fd, void *buf, size_t len, int timeoutMs, const std::function<bool()> &tick = {}) {
  char *p = static_cast<char *>(buf);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
  while (len > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    if (tick && !tick()) return false;
    pollfd pfd{fd, POLLIN, 0};
    const int r = poll(&pfd, 1, static_cast<int>(tick ? std::min<long long>(left.count(), kTickMs) : left.count()));
    if (r < 0 && errno == EINTR) continue;
    if (r == 0 && tick) continue; // a slice ended: the deadline is looked at above
    if (r <= 0) return false;
    const ssize_t n = read(fd, p, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    len -= static_cast<size_t>(n);
  }
  return true;
}

// A copy of fd at 100 or above: never one of the numbers the child gets.
int high(int fd) {
  const int h = fcntl(fd, F_DUPFD_CLOEXEC, 100);
  close(fd);
  return h;
}

// `size` bytes of memory shared with the harness: a memfd (in `fd`, at 100
// or above, set as soon as it exists so that its owner closes it) mapped here.
Expected<void *> sharedMemory(const char *name, std::size_t size, int &fd) {
  fd = memfd_create(name, MFD_CLOEXEC);
  if (fd < 0) return Error::internal(std::string("memfd_create: ") + std::strerror(errno));
  fd = high(fd);
  if (ftruncate(fd, static_cast<off_t>(size)) != 0) return Error::internal(std::string("ftruncate: ") + std::strerror(errno));
  void *mem = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (mem == MAP_FAILED) return Error::internal(std::string("mmap: ") + std::strerror(errno));
  return mem;
}

std::string logTail(const std::string &path) {
  if (path.empty()) return {};
  std::ifstream in(path);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  constexpr size_t kShown = 4000; // ours: the end of the server's log, enough for a sanitizer's start-up error
  return all.size() > kShown ? all.substr(all.size() - kShown) : all;
}

} // namespace

std::vector<std::pair<std::string, std::string>> sanitizerEnvironment(std::uint32_t memoryMb) {
  const std::string sym = ":symbolize=0";
  std::string asan = "exitcode=" + std::to_string(MOSAIC_EXIT_SANITIZER) +
                     ":detect_leaks=0:allocator_may_return_null=1:handle_abort=0" + sym;
  if (memoryMb) asan += ":malloc_limit_mb=" + std::to_string(memoryMb);
  return {{"ASAN_OPTIONS", asan},
          {"UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1:exitcode=" + std::to_string(MOSAIC_EXIT_SANITIZER) + sym}};
}

ForkServer::ForkServer(ServerOptions options, std::uint32_t blocks, std::uint32_t sides, std::uint32_t mutants)
    : options_(std::move(options)), blocks_(blocks), sides_(sides), mutants_(mutants) {}

Expected<std::unique_ptr<ForkServer>> ForkServer::start(const ServerOptions &options, std::uint32_t blocks,
                                                        std::uint32_t sides, std::uint32_t mutants) {
  static std::once_flag swept;
  std::call_once(swept, sweepWhatDeadHostsLeft);
  std::unique_ptr<ForkServer> s(new ForkServer(options, blocks, sides, mutants));
  s->stride_ = MOSAIC_SLOT_STRIDE(mosaic_trace_size(blocks, sides, mutants));
  s->bank_ = options.symbolic ? 1 : std::clamp<std::size_t>(options.batch, 1, MOSAIC_MAX_SLOTS / 2);
  s->slots_ = options.symbolic ? 1 : 2 * s->bank_;
  s->size_ = s->stride_ * s->slots_;
  auto mem = sharedMemory("mosaic-trace", s->size_, s->shm_);
  if (!mem) return mem.takeError();
  s->header_ = static_cast<mosaic_trace_header *>(*mem);
  for (std::size_t i = 0; i < s->slots_; ++i) {
    mosaic_trace_layout(s->slot(i), blocks, sides, mutants);
    s->traces_.emplace_back(s->slot(i));
  }
  s->cleared_.assign(s->slots_, false);
  if (options.symbolic) {
    const std::size_t size =
        mosaic_sym_size(MOSAIC_SYM_NODE_CAPACITY, MOSAIC_SYM_CONSTRAINT_CAPACITY, MOSAIC_SYM_INPUT_CAPACITY);
    auto sym = sharedMemory("mosaic-symbolic", size, s->symShm_);
    if (!sym) return sym.takeError();
    s->symSize_ = size;
    s->symHeader_ = static_cast<mosaic_sym_header *>(*sym);
    mosaic_sym_layout(s->symHeader_, MOSAIC_SYM_NODE_CAPACITY, MOSAIC_SYM_CONSTRAINT_CAPACITY, MOSAIC_SYM_INPUT_CAPACITY);
  }
  if (auto ok = s->spawn(); !ok) return ok.takeError();
  return s;
}

Expected<bool> ForkServer::spawn() {
  int ctl[2], status[2];
  if (pipe2(ctl, O_CLOEXEC) != 0 || pipe2(status, O_CLOEXEC) != 0)
    return Error::internal(std::string("pipe: ") + std::strerror(errno));
  // At 100 and above, as the other descriptors the child gets: no dup2
  // below overwrites one still to be copied.
  ctl[0] = high(ctl[0]);
  status[1] = high(status[1]);

  SpawnSpec spec;
  spec.path = options_.harness;
  spec.argv = {options_.harness};
  spec.env = currentEnvironment();
  spec.env.push_back(std::string(MOSAIC_ENV_SHM_FD) + "=" + std::to_string(kShmFd));
  spec.env.push_back(std::string(MOSAIC_ENV_CTL_FD) + "=" + std::to_string(kCtlFd));
  spec.env.push_back(std::string(MOSAIC_ENV_STATUS_FD) + "=" + std::to_string(kStatusFd));
  if (!options_.scratch.empty()) spec.env.push_back(std::string(MOSAIC_ENV_SCRATCH) + "=" + options_.scratch);
  if (!options_.fileSandbox) spec.env.push_back(std::string(MOSAIC_ENV_NO_FS_SANDBOX) + "=1");
  // Every library's symbols bound once as the server starts: with lazy
  // binding each child it forks binds again what its tests call
  // (MOSAIC_ENV_BIND_NOW; the executable's own -z now covers only its own).
  if (!std::getenv("LD_BIND_NOW")) {
    spec.env.push_back("LD_BIND_NOW=1");
    spec.env.push_back(std::string(MOSAIC_ENV_BIND_NOW) + "=1");
  }
  static std::atomic<unsigned> servers{0};
  id_ = hostId() + "-" + std::to_string(servers++);
  std::snprintf(header_->server_id, sizeof header_->server_id, "%s", id_.c_str());
  std::string tmpdir = temporaryRoot();
  for (const auto &[k, v] : options_.env) {
    spec.env.push_back(k + "=" + v);
    if (k == "TMPDIR" && !v.empty()) tmpdir = v;
  }
  // Where the runtime makes its scratch folder when it has no mount
  // namespace (runtime/sandbox.c): removed by stop(), whatever the server did.
  fallbackScratch_ = options_.scratch.empty() ? fallbackScratch(tmpdir, id_) : std::string();
  const int log = high(open(options_.log.empty() ? "/dev/null" : options_.log.c_str(),
                            O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644));
  spec.dups = {{-1, 0}, {-1, 1}, {log, 2}, {shm_, kShmFd}, {ctl[0], kCtlFd}, {status[1], kStatusFd}};
  if (symShm_ >= 0) {
    spec.dups.push_back({symShm_, kSymFd});
    spec.env.push_back(std::string(MOSAIC_ENV_SYM_FD) + "=" + std::to_string(kSymFd));
  }
  spec.pidNamespace = options_.pidNamespace;
  spec.inheritAffinity = true; // beside the search that drives it (CpuPin.h)
  spec.cpu = options_.cpu;     // or on the CPU beside it
  // The personality is the calling thread's and is inherited by what it
  // spawns; it is restored at once (it matters to this process only at exec).
  const int before = personality(0xffffffff);
  const bool fix = options_.fixedLayout && before != -1 && !(before & ADDR_NO_RANDOMIZE) &&
                   personality(static_cast<unsigned long>(before) | ADDR_NO_RANDOMIZE) != -1;
  auto spawned = log >= 0 ? spawnProcess(spec) : Expected<Spawned>(Error::internal("cannot open the server's log"));
  if (fix) personality(static_cast<unsigned long>(before));
  if (log >= 0) close(log);
  close(ctl[0]);
  close(status[1]);
  if (!spawned) {
    close(ctl[1]);
    close(status[0]);
    pid_ = -1;
    return Error::input("cannot start the harness '" + options_.harness + "': " + spawned.error().message);
  }
  pid_ = spawned->pid;
  ctl_ = ctl[1];
  status_ = status[0];

  mosaic_hello hello{};
  if (!readFull(status_, &hello, sizeof hello, kHelloTimeoutMs) || hello.magic != MOSAIC_PROTOCOL_MAGIC) {
    const std::string why = whyItDiedBeforeServing();
    stop();
    return Error::input("the harness '" + options_.harness + "' did not start as a fork server" + why,
                        logTail(options_.log));
  }
  if (hello.version != MOSAIC_PROTOCOL_VERSION || hello.trace_version != MOSAIC_TRACE_VERSION) {
    stop();
    return Error::input("the harness speaks protocol " + std::to_string(hello.version) + " / trace " +
                        std::to_string(hello.trace_version) + "; rebuild it");
  }
  if (hello.unit_blocks > blocks_ || hello.unit_sides > sides_ || hello.unit_mutants > mutants_) {
    stop();
    return Error::input("the harness has more blocks, sides or mutants than its description: stale build");
  }
  features_ = hello.features;
  return true;
}

// A harness that ended before its hello ended in the unit's static
// initialisation (a global constructor, or one of what it links): how.
std::string ForkServer::whyItDiedBeforeServing() {
  int status = 0;
  bool ended = false;
  // It closed the pipe as it died: a moment for its exit to be reaped
  // (100 x 10 ms, ours).
  for (int i = 0; i < 100 && pid_ > 0 && !ended; ++i) {
    ended = waitpid(pid_, &status, WNOHANG) == pid_;
    if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!ended) return {};
  pid_ = -1;
  const std::string where =
      " before serving, in the unit's static initialisation (a global constructor, or one of a library it links)";
  if (WIFSIGNALED(status)) return std::string(": it was killed by SIG") + sigabbrev_np(WTERMSIG(status)) + where;
  if (WIFEXITED(status) && WEXITSTATUS(status) > 128) // runtime/main.c: 128 + the signal
    return std::string(": it was killed by SIG") + sigabbrev_np(WEXITSTATUS(status) - 128) + where;
  if (WIFEXITED(status) && WEXITSTATUS(status) != 2) // 2: the server's own "cannot start"
    return ": it exited with code " + std::to_string(WEXITSTATUS(status)) + where;
  return {};
}

int ForkServer::stop() {
  if (ctl_ >= 0) {
    mosaic_request quit{};
    quit.magic = MOSAIC_PROTOCOL_MAGIC;
    quit.command = MOSAIC_CMD_QUIT;
    (void)writeAll(ctl_, &quit, sizeof quit);
    close(ctl_);
    ctl_ = -1;
  }
  if (status_ >= 0) {
    close(status_);
    status_ = -1;
  }
  int status = -1; // -1: it did not end by itself
  if (pid_ > 0) {
    // A test the server still waits for ends at its own timeout; do not
    // wait that long (100 x 10 ms, ours).
    bool ended = false;
    for (int i = 0; i < 100 && !ended; ++i) {
      ended = waitpid(pid_, &status, WNOHANG) == pid_;
      if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (!ended) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
      status = -1;
    }
    pid_ = -1;
  }
  if (!id_.empty()) removeCgroup(id_);
  if (!fallbackScratch_.empty()) { // the server removes it when it quits, but not when it is killed
    std::error_code ec;
    std::filesystem::remove_all(fallbackScratch_, ec);
  }
  return status;
}

ForkServer::~ForkServer() {
  stop();
  if (header_) munmap(header_, size_);
  if (shm_ >= 0) close(shm_);
  if (symHeader_) munmap(symHeader_, symSize_);
  if (symShm_ >= 0) close(symShm_);
}

bool ForkServer::readReplies(void *into, std::size_t bytes, int timeoutMs, const volatile std::sig_atomic_t *stop) {
  if (!stop) return readFull(status_, into, bytes, timeoutMs);
  bool cut = false;
  return readFull(status_, into, bytes, timeoutMs, [&] {
    if (!*stop || cut) return true;
    mosaic_request req{};
    req.magic = MOSAIC_PROTOCOL_MAGIC;
    req.command = MOSAIC_CMD_CUT;
    cut = true;
    return writeAll(ctl_, &req, sizeof req);
  });
}

Expected<bool> ForkServer::sendSlots(std::span<const std::span<const std::uint8_t>> inputs, const Limits &limits,
                                     const BatchBounds &bounds, std::size_t at) {
  if (pid_ <= 0) return Error::internal("the fork server is not running");
  const std::size_t n = inputs.size();
  if (n == 0 || at + n > slots_ || n > bank_)
    return Error::internal("a batch of " + std::to_string(n) + " tests from slot " + std::to_string(at) + " of " +
                           std::to_string(slots_));
  for (std::size_t i = 0; i < n; ++i) {
    if (inputs[i].size() > MOSAIC_INPUT_BYTES) return Error::input("test case too large for the trace");
    mosaic_trace_header *h = slot(at + i);
    // The layout again, from the host's numbers: the last test may have
    // written over the shared header (Trace.h), and reset and input follow it.
    mosaic_trace_layout(h, blocks_, sides_, mutants_);
    if (cleared_[at + i]) mosaic_trace_reset_counters(h);
    else mosaic_trace_reset(h);
    cleared_[at + i] = false;
    h->active_mutant = mutant_.value_or(MOSAIC_NO_MUTANT);
    std::memcpy(reinterpret_cast<char *>(h) + h->input_off, inputs[i].data(), inputs[i].size());
    h->input_len = static_cast<std::uint32_t>(inputs[i].size());
  }

  mosaic_request req{};
  req.magic = MOSAIC_PROTOCOL_MAGIC;
  req.command = MOSAIC_CMD_RUN;
  req.timeout_ms = limits.timeoutMs;
  req.memory_mb = options_.sanitized ? 0 : limits.memoryMb;
  req.file_size_mb = limits.fileSizeMb;
  req.max_processes = limits.maxProcesses;
  req.flags = limits.persistent && !symHeader_ ? MOSAIC_REQ_PERSISTENT : MOSAIC_REQ_ISOLATE;
  req.tests = static_cast<std::uint32_t>(n);
  req.deadline_ms = bounds.deadlineMs;
  req.slow_ms = bounds.slowMs;
  req.first_slot = static_cast<std::uint32_t>(at);
  // The region's header as the host laid it out: the last test may have
  // written over it.
  if (symHeader_)
    mosaic_sym_layout(symHeader_, MOSAIC_SYM_NODE_CAPACITY, MOSAIC_SYM_CONSTRAINT_CAPACITY, MOSAIC_SYM_INPUT_CAPACITY);
  if (!writeAll(ctl_, &req, sizeof req)) return Error::internal("the fork server is gone");
  return true;
}

Expected<std::vector<RunResult>> ForkServer::readSlots(std::size_t n, std::size_t at, const Limits &limits,
                                                       const BatchBounds &bounds) {
  std::vector<mosaic_reply> replies(n);
  // Each test may take its wall-clock limit; the server answers once for all.
  const auto wait = static_cast<int>(std::min<std::uint64_t>(
      n * MOSAIC_WALL_LIMIT_MS(limits.timeoutMs) + kReplyGraceMs, std::numeric_limits<int>::max()));
  if (!readReplies(replies.data(), n * sizeof(mosaic_reply), wait, n > 1 ? bounds.stop : nullptr))
    return Error::internal("the fork server stopped answering");
  std::vector<RunResult> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const mosaic_reply &reply = replies[i];
    if (reply.magic != MOSAIC_PROTOCOL_MAGIC) return Error::internal("the fork server stopped answering");
    if (reply.not_run) break; // the request was cut here: none after it ran
    const mosaic_trace_header *h = slot(at + i);
    RunResult r;
    r.outcome = static_cast<Outcome>(reply.outcome < kOutcomeCount ? reply.outcome : MOSAIC_OUTCOME_HARNESS_ERROR);
    r.signal = reply.signal;
    r.exitCode = reply.exit_code;
    r.statement = reply.statement;
    r.durationUs = reply.duration_us;
    r.fresh = reply.fresh != 0;
    r.stuck = reply.stuck != 0;
    r.recovered = reply.recovered != 0;
    r.cpuUs = reply.cpu_us;
    // The stack at a crash or abort, or at the throw of an exception that
    // left the unit (the runtime records it then only).
    if (r.outcome == Outcome::Crash || r.outcome == Outcome::Abort || r.outcome == Outcome::Ok)
      r.stack.assign(h->stack, h->stack + std::min(h->stack_count, MOSAIC_STACK_CAPACITY));
    out.push_back(std::move(r));
  }
  if (out.empty()) return Error::internal("the fork server ran none of the tests");
  return out;
}

Expected<std::vector<RunResult>> ForkServer::runBatch(std::span<const std::vector<std::uint8_t>> inputs,
                                                     const Limits &limits, const BatchBounds &bounds) {
  startBatch(inputs, limits, bounds);
  return finishBatch();
}

void ForkServer::releaseBatch() {
  // (A batch started meanwhile is in the other bank: spare().)
  for (std::size_t i = first_; i <= first_ + last_ && i < slots_; ++i) {
    mosaic_trace_layout(slot(i), blocks_, sides_, mutants_); // the areas where the host put them
    mosaic_trace_reset(slot(i));
    cleared_[i] = true;
  }
}

void ForkServer::placeCaller(bool batch) {
  if (options_.cpu < 0 || options_.callerCpu < 0) return;
  const int want = batch ? options_.callerCpu : options_.cpu;
  if (want == callerOn_ || want >= CPU_SETSIZE) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(want, &one);
  if (sched_setaffinity(0, sizeof one, &one) == 0) callerOn_ = want;
}

void ForkServer::startBatch(std::span<const std::vector<std::uint8_t>> inputs, const Limits &limits,
                            const BatchBounds &bounds) {
  assert(!pending_ && "finishBatch() before the next startBatch()");
  placeCaller(inputs.size() > 1);
  Pending p{.inputs = {inputs.begin(), inputs.end()}, .limits = limits, .bounds = bounds, .at = spare()};
  // One test goes through run() in finishBatch(), with its restarts; a
  // request that could not be sent, one at a time in a new server.
  if (p.inputs.size() > 1) {
    std::vector<std::span<const std::uint8_t>> spans(p.inputs.begin(), p.inputs.end());
    p.sent = static_cast<bool>(sendSlots(spans, limits, bounds, p.at));
  }
  pending_ = std::move(p);
}

Expected<std::vector<RunResult>> ForkServer::finishBatch() {
  if (!pending_) return Error::internal("no batch was started");
  const Pending p = std::move(*pending_);
  pending_.reset();
  const std::size_t n = p.inputs.size();
  if (n > 1) {
    if (p.sent)
      if (auto all = readSlots(n, p.at, p.limits, p.bounds)) {
        first_ = p.at;
        last_ = all->size() - 1;
        return all;
      }
    stop();
    ++restarts_;
    if (auto ok = spawn(); !ok) return ok.takeError();
  }
  // One at a time, each in its own slot of the batch's bank.
  std::vector<RunResult> out;
  const auto began = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0 && ((p.bounds.stop && *p.bounds.stop) ||
                  (p.bounds.deadlineMs &&
                   std::chrono::steady_clock::now() - began >= std::chrono::milliseconds(p.bounds.deadlineMs))))
      break;
    if (i > 0 && p.bounds.slowMs && out.back().durationUs >= std::uint64_t{p.bounds.slowMs} * 1000) break;
    auto r = runAt(p.inputs[i], p.limits, p.at + i);
    if (!r) return r.takeError();
    out.push_back(std::move(*r));
  }
  first_ = p.at;
  last_ = out.empty() ? 0 : out.size() - 1; // the bounds may have ended it early
  return out;
}

Expected<RunResult> ForkServer::runOnce(std::span<const std::uint8_t> input, const Limits &limits, std::size_t at) {
  const std::span<const std::uint8_t> one[] = {input};
  if (auto sent = sendSlots(one, limits, {}, at); !sent) return sent.takeError();
  auto r = readSlots(1, at, limits, {});
  if (!r) return r.takeError();
  return std::move(r->front());
}

Expected<RunResult> ForkServer::run(std::span<const std::uint8_t> input, const Limits &limits) {
  if (pending_) return Error::internal("a test run while a batch is started");
  placeCaller(false);
  const std::size_t at = spare();
  auto r = runAt(input, limits, at);
  first_ = at;
  last_ = 0;
  return r;
}

Expected<RunResult> ForkServer::runAt(std::span<const std::uint8_t> input, const Limits &limits, std::size_t at) {
  auto r = runOnce(input, limits, at);
  if (r) return r;
  // The server died or hung: start a new one and try once more.
  stop();
  ++restarts_;
  if (auto ok = spawn(); !ok) return ok.takeError();
  r = runOnce(input, limits, at);
  if (r) return r;
  // Twice: the test ends the server (without a PID namespace of its own, a
  // test can signal it). That is the test's result; the next test gets a
  // new server.
  // Where the test was: the last statement it started (the child may go
  // on for a moment after the signal it sent, so not current_stmt).
  const int statement = static_cast<int>(slot(at)->stmt_count) - 1;
  const int status = stop();
  ++restarts_;
  if (auto ok = spawn(); !ok) return ok.takeError();
  if (status == -1 || !WIFSIGNALED(status)) return r; // it hung, or quit: no result of the test's
  RunResult killed;
  killed.outcome = Outcome::Crash;
  killed.signal = WTERMSIG(status);
  killed.statement = statement;
  killed.killedServer = true;
  return killed;
}

} // namespace mosaic::exec
