// `mosaic run`.
#include "mosaic/driver/Run.h"

#include "Failures.h"
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


} // namespace

int runRandom(const RunOptions &options, std::ostream &out, std::ostream &err) {
  auto opened = openSession({options.unit, options.workDir, options.sanitize, options.memoryMb}, err);
  if (auto *code = std::get_if<int>(&opened)) return *code;
  Session &session = *std::get<std::unique_ptr<Session>>(opened);
  const model::Program &p = session.program;
  const model::UnitDescription &description = session.description;
  exec::ForkServer &server = *session.server;
  const std::vector<model::CallableId> &targets = session.targets;

  printSession(session, out);
  if (targets.empty()) {
    fmt::print(err, "mosaic: error: no target can be called yet\n");
    return kExitUsage;
  }
  exec::Limits limits = testLimits(options.timeoutMs, options.memoryMb, options.isolate);

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
    harvest(trace, pool, &test);
    if (r->outcome == exec::Outcome::HarnessError && harnessErrors.size() < 5) {
      int invalid = -1;
      const auto stmts = trace.statements();
      for (size_t k = 0; k < stmts.size(); ++k)
        if (stmts[k].status == MOSAIC_STMT_INVALID) invalid = static_cast<int>(k);
      harnessErrors.emplace_back(test, invalid);
    }
    if (isFailure(r->outcome)) recordFailure(crashes, p, test, *r, trace);
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
    minimiseFailure(p, server, limits, c, minimiseRuns);
  }

  RunResults results{options,    p,           description, coverage, executions, elapsed,
                     outcomes,   crashes,     harnessErrors, session.notCallable};
  printResults(results, out);
  if (!options.jsonOut.empty()) writeResults(results, session, options.jsonOut);
  return crashes.empty() ? kExitOk : kExitFindings;
}

} // namespace mosaic::driver
