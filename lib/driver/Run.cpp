// `mosaic run`.
#include "mosaic/driver/Run.h"

#include "RunReport.h"
#include "Session.h"
#include "mosaic/exec/ForkServer.h"
#include "mosaic/testcase/Printer.h"
#include "mosaic/testcase/TestFactory.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <csignal>
#include <cstring>
#include <map>

namespace mosaic::driver {

using Clock = std::chrono::steady_clock;

std::optional<double> parseDuration(const std::string &text) {
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (...) {
    return std::nullopt;
  }
  const std::string unit = text.substr(used);
  if (v < 0) return std::nullopt;
  if (unit.empty() || unit == "s") return v;
  if (unit == "ms") return v / 1000;
  if (unit == "m" || unit == "min") return v * 60;
  if (unit == "h") return v * 3600;
  return std::nullopt;
}

namespace {

volatile std::sig_atomic_t interrupted = 0;
void onInterrupt(int) { interrupted = 1; }


// What identifies a failure: its outcome (and signal) and the callable it
// happened in.
std::string crashKey(const exec::RunResult &r, const std::string &where) {
  return fmt::format("{}/{}/{}", exec::toString(r.outcome), r.signal, where);
}

std::string whereOf(const model::Program &p, const testcase::TestCase &t, int statement) {
  if (statement < 0 || static_cast<size_t>(statement) >= t.statements.size()) return "(after the last statement)";
  const testcase::Statement &s = t.statements[statement];
  if (s.op == testcase::Op::Call || s.op == testcase::Op::MethodCall || s.op == testcase::Op::Construct)
    return p.callable(s.callable).qualifiedName;
  return "(building a value)";
}

bool isFailure(exec::Outcome o) {
  return o != exec::Outcome::Ok && o != exec::Outcome::HarnessError;
}

// Feeds what the unit compared its inputs with into the dynamic pool.
void harvest(const exec::Trace &trace, testcase::ConstantPool &pool) {
  for (const mosaic_cmp_entry &c : trace.comparisons()) {
    if (c.flags & MOSAIC_CMP_FLOAT) {
      pool.addFloat(testcase::doubleOf(c.a), true);
      pool.addFloat(testcase::doubleOf(c.b), true);
      continue;
    }
    const unsigned width = (c.flags >> MOSAIC_CMP_WIDTH_SHIFT) & 0xffu;
    auto value = [&](std::uint64_t v) -> std::int64_t {
      if (width == 0 || width >= 64) return static_cast<std::int64_t>(v);
      const std::uint64_t m = std::uint64_t{1} << (width - 1);
      v &= (m << 1) - 1;
      return (c.flags & MOSAIC_CMP_SIGNED) ? static_cast<std::int64_t>((v ^ m) - m) : static_cast<std::int64_t>(v);
    };
    pool.addInteger(value(c.a), true);
    pool.addInteger(value(c.b), true);
  }
  for (const mosaic_str_entry &s : trace.strings()) {
    pool.addString(std::string(s.a, std::min<std::uint32_t>(s.len_a, MOSAIC_STR_BYTES)), true);
    pool.addString(std::string(s.b, std::min<std::uint32_t>(s.len_b, MOSAIC_STR_BYTES)), true);
  }
}

// Confirms a failure in a fresh process of its own (a persistent child may
// carry state from earlier tests), then removes statements from the end
// backwards while the failure stays the same (delta debugging in its
// simplest form).
void minimise(const model::Program &p, exec::ForkServer &server, exec::Limits limits, Crash &crash, int &runs) {
  constexpr int kMaxRuns = 200; // per failure; ours
  limits.persistent = false;
  const std::string key = crashKey(crash.result, crash.where);
  auto same = [&](const testcase::TestCase &t) {
    ++runs;
    auto r = server.run(testcase::encode(t), limits);
    return r && crashKey(*r, whereOf(p, t, r->statement)) == key;
  };
  if (!same(crash.test)) {
    crash.reproducible = false;
    return;
  }
  for (size_t i = crash.test.statements.size(); i-- > 0 && runs < kMaxRuns;) {
    if (i >= crash.test.statements.size()) continue;
    testcase::TestCase candidate = testcase::withoutStatement(crash.test, i);
    if (!candidate.statements.empty() && same(candidate)) crash.test = std::move(candidate);
  }
}

} // namespace

int runRandom(const RunOptions &options, std::ostream &out, std::ostream &err) {
  auto opened = openSession({options.unit, options.workDir, options.sanitize, options.memoryMb}, err);
  if (auto *code = std::get_if<int>(&opened)) return *code;
  Session &session = *std::get<std::unique_ptr<Session>>(opened);
  const model::Program &p = session.program;
  const model::UnitDescription &description = session.description;
  exec::ForkServer &server = *session.server;
  const std::vector<model::CallableId> &targets = session.targets;

  fmt::print(out, "unit         {} ({})\n", p.unit, p.language == "c" ? "C" : "C++");
  fmt::print(out, "harness      {} ({})\n", session.harness.binary,
             session.harness.cached ? "cached" : fmt::format("built in {:.1f} s", session.buildSeconds));
  fmt::print(out, "targets      {} callable of {}\n", targets.size(), p.targets.size());
  for (const auto &[sig, why] : session.notCallable) fmt::print(out, "  cannot call {}: {}\n", sig, why);
  if (targets.empty()) {
    fmt::print(err, "mosaic: error: no target can be called yet\n");
    return kExitUsage;
  }
  exec::Limits limits;
  limits.timeoutMs = options.timeoutMs;
  limits.memoryMb = options.memoryMb;
  limits.persistent = !options.isolate;

  Rng rng(options.seed);
  testcase::ConstantPool pool;
  pool.addStatic(p);
  testcase::TestFactory factory(*session.catalog, pool, rng);
  Coverage coverage(description);
  std::array<std::uint64_t, exec::kOutcomeCount> outcomes{};
  std::map<std::string, Crash> crashes;
  std::uint64_t executions = 0, errors = 0;
  // Tests the harness could not perform: a disagreement between the test
  // factory and the harness generator, i.e. a bug of mosaic's. Kept for the
  // report.
  std::vector<std::pair<testcase::TestCase, int>> harnessErrors;

  interrupted = 0;
  auto previous = std::signal(SIGINT, onInterrupt);
  const bool tty = options.progress && isatty(STDERR_FILENO);
  const auto runStart = Clock::now();
  const auto deadline = runStart + std::chrono::duration<double>(options.budgetSeconds);
  auto lastProgress = runStart;
  auto progress = [&](bool final) {
    const double elapsed = std::chrono::duration<double>(Clock::now() - runStart).count();
    const std::string line = fmt::format(
        "[{:5.1f}s/{:.0f}s] {} execs ({:.0f}/s) | branches {}/{} | lines {}/{} | failures {}", elapsed,
        options.budgetSeconds, executions, elapsed > 0 ? executions / elapsed : 0.0, coverage.sides(), description.sides,
        coverage.lines(), description.lineCount(), crashes.size());
    if (tty) fmt::print(err, "\r{}\x1b[K{}", line, final ? "\n" : "");
    else if (!final || Clock::now() - lastProgress > std::chrono::seconds(1)) fmt::print(err, "{}\n", line);
  };

  while (!interrupted && Clock::now() < deadline && (options.maxExecutions == 0 || executions < options.maxExecutions)) {
    testcase::TestCase test = factory.randomTest(targets);
    if (test.statements.empty()) continue;
    auto r = server.run(testcase::encode(test), limits);
    if (!r) {
      if (++errors > 20) { // the harness keeps dying at start: give up with what we have
        fmt::print(err, "\nmosaic: error: {}\n", r.error().message);
        break;
      }
      continue;
    }
    ++executions;
    ++outcomes[static_cast<size_t>(r->outcome)];
    const exec::Trace &trace = server.trace();
    coverage.add(trace);
    harvest(trace, pool);
    if (r->outcome == exec::Outcome::HarnessError && harnessErrors.size() < 5) {
      int invalid = -1;
      const auto stmts = trace.statements();
      for (size_t k = 0; k < stmts.size(); ++k)
        if (stmts[k].status == MOSAIC_STMT_INVALID) invalid = static_cast<int>(k);
      harnessErrors.emplace_back(test, invalid);
    }
    if (isFailure(r->outcome)) {
      const std::string where = whereOf(p, test, r->statement);
      Crash &c = crashes[crashKey(*r, where)];
      if (c.count++ == 0 || test.statements.size() < c.test.statements.size()) {
        c.test = test;
        c.result = *r;
        c.where = where;
        c.output = std::string(trace.output());
      }
    }
    if (Clock::now() - lastProgress > std::chrono::milliseconds(tty ? 250 : 5000)) {
      progress(false);
      lastProgress = Clock::now();
    }
  }
  progress(true);
  std::signal(SIGINT, previous);
  const double elapsed = std::chrono::duration<double>(Clock::now() - runStart).count();

  int minimiseRuns = 0;
  for (auto &[key, c] : crashes) {
    minimiseRuns = 0;
    minimise(p, server, limits, c, minimiseRuns);
  }

  RunResults results{options,    p,           description, coverage, executions, elapsed,
                     outcomes,   crashes,     harnessErrors, session.notCallable};
  printResults(results, out);
  if (!options.jsonOut.empty()) writeResults(results, session, options.jsonOut);
  return crashes.empty() ? kExitOk : kExitFindings;
}

} // namespace mosaic::driver
