// `mosaic run`.
#include "mosaic/driver/Run.h"

#include "mosaic/driver/Toolchain.h"
#include "mosaic/analysis/FrontEnd.h"
#include "mosaic/exec/ForkServer.h"
#include "mosaic/harness/Build.h"
#include "mosaic/model/Derive.h"
#include "mosaic/model/Description.h"
#include "mosaic/testcase/Printer.h"
#include "mosaic/testcase/TestFactory.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <array>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace mosaic::driver {

namespace fs = std::filesystem;
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

struct Crash {
  testcase::TestCase test;
  exec::RunResult result;
  std::string where; // the callable at the faulting statement
  std::string output;
  std::uint64_t count = 0;
  bool reproducible = true; // in a fresh process of its own
};

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
  const auto start = Clock::now();
  auto program = analysis::analyzeUnit({options.unit.buildDir, options.unit.unit});
  if (!program) {
    fmt::print(err, "mosaic: error: {}\n{}", program.error().message, program.error().detail);
    return program.error().kind == ErrorKind::Internal ? kExitInternal : kExitUsage;
  }
  for (const std::string &note : program->notes) fmt::print(err, "mosaic: note: {}\n", note);
  if (auto sel = model::selectTargets(*program, {options.unit.function, options.unit.className}); !sel) {
    fmt::print(err, "mosaic: error: {}\n", sel.error().message);
    return kExitUsage;
  }
  const model::Program &p = *program;
  const testcase::Catalog catalog(p);

  harness::BuildOptions build;
  build.workDir = options.workDir.empty() ? (fs::path(options.unit.buildDir) / "mosaic").string() : options.workDir;
  build.sanitize = options.sanitize;
  const auto buildStart = Clock::now();
  auto h = harness::buildHarness(p, catalog, toolchain(), build);
  if (!h) {
    fmt::print(err, "mosaic: error: {}\n{}\n", h.error().message, h.error().detail);
    return kExitUsage;
  }
  const double buildSeconds = std::chrono::duration<double>(Clock::now() - buildStart).count();
  for (const std::string &note : h->notes) fmt::print(err, "mosaic: note: {}\n", note);
  auto description = model::readDescription(h->description);
  if (!description) {
    fmt::print(err, "mosaic: error: {}\n", description.error().message);
    return kExitInternal;
  }

  std::vector<model::CallableId> targets;
  std::vector<std::pair<std::string, std::string>> cannot;
  for (model::CallableId id : p.targets) {
    if (catalog.callable(id)) targets.push_back(id);
    else cannot.emplace_back(p.callable(id).signature, catalog.whyNotCallable(id));
  }
  fmt::print(out, "unit         {} ({})\n", p.unit, p.language == "c" ? "C" : "C++");
  fmt::print(out, "harness      {} ({})\n", h->binary,
             h->cached ? "cached" : fmt::format("built in {:.1f} s", buildSeconds));
  fmt::print(out, "targets      {} callable of {}\n", targets.size(), p.targets.size());
  for (const auto &[sig, why] : cannot) fmt::print(out, "  cannot call {}: {}\n", sig, why);
  if (targets.empty()) {
    fmt::print(err, "mosaic: error: no target can be called yet\n");
    return kExitUsage;
  }

  exec::ServerOptions serverOptions;
  serverOptions.harness = h->binary;
  serverOptions.log = (fs::path(h->directory) / "server.log").string();
  serverOptions.env = exec::sanitizerEnvironment(options.memoryMb);
  serverOptions.sanitized = options.sanitize;
  auto server = exec::ForkServer::start(serverOptions, description->blocks, description->sides);
  if (!server) {
    fmt::print(err, "mosaic: error: {}\n{}\n", server.error().message, server.error().detail);
    return kExitInternal;
  }
  exec::Limits limits;
  limits.timeoutMs = options.timeoutMs;
  limits.memoryMb = options.memoryMb;
  limits.persistent = !options.isolate;

  Rng rng(options.seed);
  testcase::ConstantPool pool;
  pool.addStatic(p);
  testcase::TestFactory factory(catalog, pool, rng);

  std::vector<bool> blocks(description->blocks), sides(description->sides);
  std::map<std::uint32_t, std::vector<std::uint32_t>> blockLines;
  for (const auto &f : description->functions)
    for (const auto &b : f.blocks) blockLines[b.id] = b.lines;
  std::set<std::uint32_t> lines;
  std::size_t blocksCovered = 0, sidesCovered = 0;
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
        options.budgetSeconds, executions, elapsed > 0 ? executions / elapsed : 0.0, sidesCovered, description->sides,
        lines.size(), description->lineCount(), crashes.size());
    if (tty) fmt::print(err, "\r{}\x1b[K{}", line, final ? "\n" : "");
    else if (!final || Clock::now() - lastProgress > std::chrono::seconds(1)) fmt::print(err, "{}\n", line);
  };

  while (!interrupted && Clock::now() < deadline && (options.maxExecutions == 0 || executions < options.maxExecutions)) {
    testcase::TestCase test = factory.randomTest(targets);
    if (test.statements.empty()) continue;
    auto r = (*server)->run(testcase::encode(test), limits);
    if (!r) {
      if (++errors > 20) { // the harness keeps dying at start: give up with what we have
        fmt::print(err, "\nmosaic: error: {}\n", r.error().message);
        break;
      }
      continue;
    }
    ++executions;
    ++outcomes[static_cast<size_t>(r->outcome)];
    const exec::Trace &trace = (*server)->trace();
    const auto hit = trace.blocks();
    for (size_t b = 0; b < hit.size(); ++b)
      if (hit[b] && !blocks[b]) {
        blocks[b] = true;
        ++blocksCovered;
        for (std::uint32_t l : blockLines[static_cast<std::uint32_t>(b)]) lines.insert(l);
      }
    const auto dist = trace.sides();
    for (size_t s = 0; s < dist.size(); ++s)
      if (dist[s] == 1.0 && !sides[s]) { // 1 + distance 0: taken
        sides[s] = true;
        ++sidesCovered;
      }
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
    minimise(p, **server, limits, c, minimiseRuns);
  }

  const double rate = elapsed > 0 ? executions / elapsed : 0;
  auto pct = [](std::size_t a, std::size_t b) { return b ? 100.0 * a / b : 0.0; };
  fmt::print(out, "executions   {} in {:.1f} s ({:.0f}/s), seed {}\n", executions, elapsed, rate, options.seed);
  fmt::print(out, "branches     {} of {} sides ({:.1f}%)\n", sidesCovered, description->sides, pct(sidesCovered, description->sides));
  fmt::print(out, "lines        {} of {} ({:.1f}%)\n", lines.size(), description->lineCount(), pct(lines.size(), description->lineCount()));
  fmt::print(out, "blocks       {} of {} ({:.1f}%)\n", blocksCovered, description->blocks, pct(blocksCovered, description->blocks));
  std::vector<std::string> counts;
  for (int o = 0; o < exec::kOutcomeCount; ++o)
    if (outcomes[o]) counts.push_back(fmt::format("{} {}", exec::toString(static_cast<exec::Outcome>(o)), outcomes[o]));
  fmt::print(out, "outcomes     {}\n", fmt::join(counts, ", "));
  fmt::print(out, "failures     {}\n", crashes.empty() ? std::string("none") : std::to_string(crashes.size()) + " distinct");
  int n = 0;
  for (const auto &[key, c] : crashes) {
    if (!c.reproducible) {
      fmt::print(out, "  {}. {} in {} (seen {} times); not reproducible in a fresh process (it depends on an earlier "
                      "test); the test of {} statements:\n",
                 ++n, exec::describe(c.result), c.where, c.count, c.test.statements.size());
    } else {
      fmt::print(out, "  {}. {} in {} (seen {} times); a minimal test of {} statements:\n", ++n,
                 exec::describe(c.result), c.where, c.count, c.test.statements.size());
    }
    fmt::print(out, "{}", testcase::toCode(p, c.test, "       "));
  }

  if (!options.jsonOut.empty()) {
    nlohmann::ordered_json j;
    j["unit"] = p.unit;
    j["seed"] = options.seed;
    j["budget_seconds"] = options.budgetSeconds;
    j["elapsed_seconds"] = elapsed;
    j["executions"] = executions;
    j["executions_per_second"] = rate;
    j["harness"] = {{"binary", h->binary}, {"cached", h->cached}, {"build_seconds", buildSeconds},
                    {"sanitize", options.sanitize}, {"restarts", (*server)->restarts()}};
    j["branches"] = {{"covered", sidesCovered}, {"total", description->sides}};
    j["lines"] = {{"covered", lines.size()}, {"total", description->lineCount()}};
    j["blocks"] = {{"covered", blocksCovered}, {"total", description->blocks}};
    for (int o = 0; o < exec::kOutcomeCount; ++o) j["outcomes"][exec::toString(static_cast<exec::Outcome>(o))] = outcomes[o];
    j["failures"] = nlohmann::ordered_json::array();
    for (const auto &[key, c] : crashes)
      j["failures"].push_back({{"outcome", exec::toString(c.result.outcome)},
                               {"signal", c.result.signal},
                               {"exit_code", c.result.exitCode},
                               {"statement", c.result.statement},
                               {"callable", c.where},
                               {"count", c.count},
                               {"reproducible", c.reproducible},
                               {"test", testcase::toCode(p, c.test, "")},
                               {"output", c.output}});
    j["harness_errors"] = nlohmann::ordered_json::array();
    for (const auto &[t, invalid] : harnessErrors)
      j["harness_errors"].push_back({{"invalid_statement", invalid}, {"test", testcase::toCode(p, t, "")}});
    j["not_callable"] = nlohmann::ordered_json::array();
    for (const auto &[sig, why] : cannot) j["not_callable"].push_back({{"callable", sig}, {"reason", why}});
    std::ofstream(options.jsonOut) << j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
  }
  (void)start;
  return crashes.empty() ? kExitOk : kExitFindings;
}

} // namespace mosaic::driver
