// `mosaic generate`: search, then minimise, observe, write, build, verify.
#include "mosaic/driver/Generate.h"

#include "Failures.h"
#include "Inspect.h"
#include "Session.h"
#include "Verify.h"
#include "mosaic/driver/Run.h"
#include "mosaic/driver/Toolchain.h"
#include "mosaic/emit/Suite.h"
#include "mosaic/search/Search.h"
#include "mosaic/testcase/TestFactory.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fstream>
#include <map>
#include <set>

namespace mosaic::driver {

using Clock = std::chrono::steady_clock;

namespace {

volatile std::sig_atomic_t interrupted = 0;
void onInterrupt(int) { interrupted = 1; }

search::Execution toExecution(const exec::RunResult &r, const exec::Trace &trace) {
  search::Execution e;
  e.outcome = r.outcome;
  e.sides.assign(trace.sides().begin(), trace.sides().end());
  e.blocks.assign(trace.blocks().begin(), trace.blocks().end());
  const auto stmts = trace.statements();
  for (size_t k = 0; k < stmts.size(); ++k)
    if (stmts[k].status == MOSAIC_STMT_THREW || stmts[k].status == MOSAIC_STMT_NULL) {
      e.stoppedAt = static_cast<int>(k);
      e.threw = true;
      break;
    }
  if (e.failed() && r.statement >= 0) e.stoppedAt = r.statement;
  return e;
}

bool sameObservation(const exec::Observation &a, const exec::Observation &b) {
  if (a.statement != b.statement || a.kind != b.kind || a.target != b.target || a.field != b.field) return false;
  if (a.kind == MOSAIC_OBS_FLOAT)
    return std::memcmp(&a.floating, &b.floating, sizeof a.floating) == 0 || (a.floating != a.floating && b.floating != b.floating);
  return a.integer == b.integer && a.bytes == b.bytes;
}

struct Observed {
  bool ok = false;           ///< ran without failing, three times
  std::vector<exec::Observation> stable;
  int threwAt = -1;
  std::string exceptionType;
  int nullAt = -1;           ///< a statement that needed an object behind a null pointer
};

// Runs a test three times (twice forked from the long-running server, once
// in a server started afresh: different address-space layout) and keeps
// what every run observed alike.
Observed observe(const testcase::TestCase &t, exec::ForkServer &main, exec::ForkServer *fresh, exec::Limits limits) {
  Observed o;
  limits.persistent = false;
  std::vector<std::vector<exec::Observation>> runs;
  for (int k = 0; k < 3; ++k) {
    exec::ForkServer &server = (k == 2 && fresh) ? *fresh : main;
    auto r = server.run(testcase::encode(t), limits);
    if (!r || r->outcome != exec::Outcome::Ok) return o;
    const exec::Trace &trace = server.trace();
    if (k == 0) {
      const auto stmts = trace.statements();
      for (size_t i = 0; i < stmts.size(); ++i) {
        if (stmts[i].status == MOSAIC_STMT_NULL) {
          o.nullAt = static_cast<int>(i);
          break;
        }
        if (stmts[i].status == MOSAIC_STMT_THREW) {
          o.threwAt = static_cast<int>(i);
          break;
        }
      }
    }
    runs.push_back(trace.observations());
  }
  for (const exec::Observation &a : runs[0]) {
    if (a.kind == MOSAIC_OBS_EXCEPTION) {
      if (static_cast<int>(a.statement) == o.threwAt) o.exceptionType = a.bytes.substr(0, a.bytes.find('\0'));
      continue;
    }
    if (a.kind == MOSAIC_OBS_UNREADABLE) continue;
    bool everywhere = true;
    for (size_t k = 1; k < runs.size() && everywhere; ++k)
      everywhere = std::any_of(runs[k].begin(), runs[k].end(), [&](const exec::Observation &b) { return sameObservation(a, b); });
    // The same observation twice for a statement (a value observed through
    // two names) is asserted once.
    if (everywhere && std::none_of(o.stable.begin(), o.stable.end(), [&](const exec::Observation &b) { return sameObservation(a, b); }))
      o.stable.push_back(a);
  }
  o.ok = true;
  return o;
}

std::string percent(std::size_t a, std::size_t b) { return b ? fmt::format("{:.1f}%", 100.0 * a / b) : "-"; }

} // namespace

int generate(const GenerateOptions &options, std::ostream &out, std::ostream &err) {
  const auto algorithm = search::parseAlgorithm(options.algorithm);
  if (!algorithm) {
    fmt::print(err, "mosaic: error: unknown algorithm '{}' (dynamosa, mosa, ws, mio, random)\n", options.algorithm);
    return kExitUsage;
  }
  if (options.outDir.empty()) {
    fmt::print(err, "mosaic: error: no output folder (-o)\n");
    return kExitUsage;
  }
  auto opened = openSession({options.unit, options.workDir, options.sanitize, options.memoryMb}, err);
  if (auto *code = std::get_if<int>(&opened)) return *code;
  Session &session = *std::get<std::unique_ptr<Session>>(opened);
  const model::Program &p = session.program;
  exec::ForkServer &server = *session.server;
  printSession(session, out);
  if (session.targets.empty()) {
    fmt::print(err, "mosaic: error: no target can be called\n");
    return kExitUsage;
  }
  exec::Limits limits = testLimits(options.timeoutMs, options.memoryMb, options.isolate);

  Rng rng(options.seed);
  testcase::ConstantPool pool;
  pool.addStatic(p);
  testcase::TestFactory factory(*session.catalog, pool, rng);
  const search::Goals goals(session.description);
  search::Archive archive(goals.size());
  std::map<std::string, Crash> crashes;
  std::array<std::uint64_t, exec::kOutcomeCount> outcomes{};

  search::Executor executor = [&](const testcase::TestCase &t) -> std::optional<search::Execution> {
    auto r = server.run(testcase::encode(t), limits);
    if (!r) return std::nullopt;
    ++outcomes[static_cast<size_t>(r->outcome)];
    const exec::Trace &trace = server.trace();
    if (options.dynamicPool) harvest(trace, pool, &t);
    if (isFailure(r->outcome)) recordFailure(crashes, p, t, *r, trace);
    return toExecution(*r, trace);
  };

  interrupted = 0;
  auto previous = std::signal(SIGINT, onInterrupt);
  search::Budget budget;
  budget.seconds = options.budgetSeconds;
  budget.maxExecutions = options.maxExecutions;
  budget.stop = &interrupted;
  search::Evaluator evaluator(goals, archive, executor, budget);
  const bool tty = options.progress && isatty(STDERR_FILENO);
  auto lastProgress = Clock::now();
  nlohmann::json timeline = nlohmann::json::array();
  double nextSample = 0;
  // When each goal was first covered (seconds; negative: not yet), updated
  // only when the archive's count changes.
  std::vector<double> firstCovered(goals.size(), -1.0);
  size_t coveredSeen = 0;
  auto coveredOf = [&](search::GoalKind kind) {
    size_t n = 0;
    for (size_t g = 0; g < goals.size(); ++g) n += goals[g].kind == kind && archive.covered(g);
    return n;
  };
  auto progressLine = [&] {
    const double elapsed = budget.elapsed();
    return fmt::format("[{:5.1f}s/{:.0f}s] goals {}/{} (branches {}/{}, lines {}/{}, functions {}/{}) | {} execs "
                       "({:.0f}/s) | failures {}",
                       elapsed, options.budgetSeconds, archive.coveredCount(), goals.size(),
                       coveredOf(search::GoalKind::Branch), goals.count(search::GoalKind::Branch),
                       coveredOf(search::GoalKind::Line), goals.count(search::GoalKind::Line),
                       coveredOf(search::GoalKind::Function), goals.count(search::GoalKind::Function),
                       evaluator.executions(), elapsed > 0 ? evaluator.executions() / elapsed : 0.0, crashes.size());
  };
  evaluator.onEvaluated = [&](const search::Evaluator &e) {
    const double elapsed = e.budget().elapsed();
    if (archive.coveredCount() != coveredSeen) {
      coveredSeen = archive.coveredCount();
      for (size_t g = 0; g < goals.size(); ++g)
        if (firstCovered[g] < 0 && archive.covered(g)) firstCovered[g] = elapsed;
    }
    if (elapsed >= nextSample) {
      timeline.push_back({{"seconds", elapsed}, {"executions", e.executions()}, {"covered", archive.coveredCount()}});
      nextSample = elapsed + 1.0;
    }
    if (Clock::now() - lastProgress > std::chrono::milliseconds(tty ? 250 : 5000)) {
      if (tty) fmt::print(err, "\r{}\x1b[K", progressLine());
      else fmt::print(err, "{}\n", progressLine());
      lastProgress = Clock::now();
    }
  };
  search::Variation variation(*session.catalog, factory, rng, session.targets);
  auto search = search::makeAlgorithm(*algorithm, evaluator, variation, rng, search::SearchOptions{});
  search->run();
  const double searchSeconds = budget.elapsed();
  if (tty) fmt::print(err, "\r{}\x1b[K\n", progressLine());
  else fmt::print(err, "{}\n", progressLine());
  timeline.push_back({{"seconds", searchSeconds}, {"executions", evaluator.executions()}, {"covered", archive.coveredCount()}});
  const bool stopped = interrupted != 0;
  std::signal(SIGINT, previous);
  if (stopped) fmt::print(err, "mosaic: interrupted: writing the suite found so far\n");

  // Reduce: keep a test only while it covers a goal the kept ones do not
  // (greedy set cover, most goals first, then shorter).
  const auto postStart = Clock::now();
  struct Candidate {
    testcase::TestCase test;
    std::vector<size_t> goals; ///< goals it is kept for
    double foundAt = 0;        ///< when the last of them was first covered
    size_t appendedFrom = static_cast<size_t>(-1); ///< inspectors and releases from here on
  };
  std::vector<search::Solution> solutions = archive.solutions();
  // The archive keeps a failing test for a goal until a clean one covers it;
  // when the search ends first (every goal covered), the goals it covered
  // before its failing statement are still the suite's: its prefix up to
  // that statement takes its place when it runs cleanly.
  for (search::Solution &s : solutions) {
    if (!s.run->failed() || s.run->stoppedAt <= 0) continue;
    auto prefix = std::make_shared<testcase::TestCase>(*s.test);
    prefix->statements.resize(static_cast<size_t>(s.run->stoppedAt));
    auto run = executor(*prefix);
    if (run && !run->failed()) s = {prefix, std::make_shared<const search::Execution>(std::move(*run))};
  }
  std::vector<std::vector<size_t>> covers(solutions.size());
  for (size_t i = 0; i < solutions.size(); ++i) covers[i] = goals.coveredBy(*solutions[i].run);
  std::vector<size_t> order(solutions.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (covers[a].size() != covers[b].size()) return covers[a].size() > covers[b].size();
    if (solutions[a].test->statements.size() != solutions[b].test->statements.size())
      return solutions[a].test->statements.size() < solutions[b].test->statements.size();
    return a < b;
  });
  std::vector<bool> have(goals.size(), false);
  std::vector<Candidate> kept;
  for (size_t i : order) {
    if (solutions[i].run->failed()) continue; // failures go to the failing suite
    std::vector<size_t> fresh;
    for (size_t g : covers[i])
      if (!have[g]) fresh.push_back(g);
    if (fresh.empty()) continue;
    double foundAt = 0;
    for (size_t g : fresh) {
      have[g] = true;
      foundAt = std::max(foundAt, firstCovered[g]);
    }
    kept.push_back({*solutions[i].test, fresh, foundAt});
  }

  // Minimise: drop statements from the end backwards while the test still
  // covers the goals it is kept for (and does not fail).
  const double postBudget = std::max(10.0, options.budgetSeconds * 0.5); // ours: at most half the search's time again
  auto postLeft = [&] { return std::chrono::duration<double>(Clock::now() - postStart).count() < postBudget; };
  int minimiseRuns = 0;
  // Whether `test` still runs cleanly and covers every goal `c` is kept for.
  auto keepsGoals = [&](const Candidate &c, const testcase::TestCase &test) {
    auto run = executor(test);
    ++minimiseRuns;
    return run && !run->failed() &&
           std::all_of(c.goals.begin(), c.goals.end(), [&](size_t g) { return goals.covered(g, *run); });
  };
  for (Candidate &c : kept) {
    for (size_t i = c.test.statements.size(); i-- > 0 && postLeft();) {
      if (i >= c.test.statements.size()) continue;
      testcase::TestCase candidate = testcase::withoutStatement(c.test, i);
      if (!candidate.statements.empty() && keepsGoals(c, candidate)) c.test = std::move(candidate);
    }
    // A copy or move of an object, used instead of the object itself.
    for (size_t i = c.test.statements.size(); i-- > 0 && postLeft();) {
      if (i >= c.test.statements.size()) continue;
      const testcase::Statement &s = c.test.statements[i];
      if (s.op != testcase::Op::Construct || s.refs.size() != 1) continue;
      const model::Callable &ctor = p.callable(s.callable);
      if (!ctor.isCopyConstructor && !ctor.isMoveConstructor) continue;
      testcase::TestCase candidate = testcase::withAlias(c.test, i, s.refs[0]);
      if (keepsGoals(c, candidate)) c.test = std::move(candidate);
    }
    // A stub's result that no goal needs: its default, which the written
    // test leaves unsaid (emit/Body).
    for (size_t i = 0; i < c.test.statements.size() && postLeft(); ++i) {
      if (c.test.statements[i].op != testcase::Op::Subclass) continue;
      const std::vector<testcase::Ref> results = c.test.statements[i].refs;
      for (testcase::Ref r : results) {
        if (c.test.statements[r].op != testcase::Op::Primitive || c.test.statements[r].bits == 0) continue;
        testcase::TestCase candidate = c.test;
        candidate.statements[r].bits = 0;
        if (keepsGoals(c, candidate)) c.test = std::move(candidate);
      }
    }
  }

  // Extend: inspectors of the objects' final state, then releases of what
  // the API handed back (Inspect.h); all at once when the test still runs
  // cleanly and covers its goals with them, else one by one.
  int inspectorsKept = 0, releasesKept = 0;
  for (Candidate &c : kept) {
    if (!postLeft()) break;
    std::vector<testcase::Statement> extra = inspectors(p, *session.catalog, c.test);
    const size_t inspecting = extra.size();
    for (testcase::Statement &r : releases(p, *session.catalog, c.test)) extra.push_back(std::move(r));
    if (extra.empty()) continue;
    c.appendedFrom = c.test.statements.size();
    testcase::TestCase all = c.test;
    all.statements.insert(all.statements.end(), extra.begin(), extra.end());
    if (keepsGoals(c, all)) {
      c.test = std::move(all);
      inspectorsKept += static_cast<int>(inspecting);
      releasesKept += static_cast<int>(extra.size() - inspecting);
      continue;
    }
    for (size_t k = 0; k < extra.size() && postLeft(); ++k) {
      testcase::TestCase one = c.test;
      one.statements.push_back(extra[k]);
      if (!keepsGoals(c, one)) continue;
      c.test = std::move(one);
      (k < inspecting ? inspectorsKept : releasesKept) += 1;
    }
  }

  // Observe each test three times; keep the values every run agreed on.
  exec::ServerOptions freshOptions;
  freshOptions.harness = session.harness.binary;
  freshOptions.env = exec::sanitizerEnvironment(options.memoryMb);
  freshOptions.sanitized = options.sanitize;
  freshOptions.fixedLayout = false;
  auto freshServer = exec::ForkServer::start(freshOptions, session.description.blocks, session.description.sides);
  std::vector<emit::SuiteTest> passing;
  int unstable = 0;
  for (Candidate &c : kept) {
    Observed o = observe(c.test, server, freshServer ? freshServer->get() : nullptr, limits);
    if (o.ok && o.nullAt >= 0) {
      c.test.statements.resize(static_cast<size_t>(o.nullAt));
      o = c.test.statements.empty() ? Observed{} : observe(c.test, server, freshServer ? freshServer->get() : nullptr, limits);
    }
    if (!o.ok) {
      ++unstable;
      continue;
    }
    emit::SuiteTest st;
    st.test = c.test;
    st.appendedFrom = c.appendedFrom;
    st.foundAt = c.foundAt;
    st.observations = std::move(o.stable);
    st.threwAt = o.threwAt;
    st.exceptionType = o.exceptionType;
    for (size_t g : c.goals)
      if (goals[g].kind != search::GoalKind::Line) st.covers.push_back(goals[g].label);
    passing.push_back(std::move(st));
  }

  // Failing tests: confirmed alone and minimised.
  std::vector<emit::SuiteTest> failing;
  for (auto &[key, c] : crashes) {
    int runs = 0;
    minimiseFailure(p, server, limits, c, runs);
    if (!c.reproducible) continue;
    emit::SuiteTest st;
    st.test = c.test;
    st.result = c.result;
    st.report = c.output;
    failing.push_back(std::move(st));
  }

  emit::UnitBuild build;
  build.flags = harness::unitFlags(p);
  for (const harness::ProjectUnit &u : session.harness.project) build.project.push_back({u.file, u.flags});
  build.linkLibraries = {"m"};
  emit::WriteOptions write;
  write.testsPerFile = options.testsPerFile;
  VerifyResult verified;
  if (options.verify) {
    fmt::print(err, "building and running the suite ({} runs)...\n", options.verifyRuns);
    const harness::Toolchain tc = toolchain();
    verified = verifySuite(p, *session.catalog, passing, failing, build,
                           {options.outDir, tc.clang, tc.clangxx, options.verifyRuns, true, write}, err);
  } else {
    const emit::Suite suite = emit::writeSuite(p, *session.catalog, passing, failing, build, write);
    writeFiles(suite, options.outDir);
    verified.tests = suite.tests;
  }

  // Report.
  fmt::print(out, "search       {} for {:.1f} s: {} executions ({:.0f}/s)\n", search::toString(*algorithm), searchSeconds,
             evaluator.executions(), searchSeconds > 0 ? evaluator.executions() / searchSeconds : 0.0);
  fmt::print(out, "goals        {} of {} covered: branches {}/{}, lines {}/{}, functions {}/{} (mosaic's own counters)\n",
             archive.coveredCount(), goals.size(), coveredOf(search::GoalKind::Branch), goals.count(search::GoalKind::Branch),
             coveredOf(search::GoalKind::Line), goals.count(search::GoalKind::Line),
             coveredOf(search::GoalKind::Function), goals.count(search::GoalKind::Function));
  fmt::print(out,
             "suite        {} tests kept of {} archived; {} dropped as unstable; {} state inspectors and {} releases "
             "added; {} minimisation runs\n",
             kept.size(), solutions.size(), unstable, inspectorsKept, releasesKept, minimiseRuns);
  if (options.verify) {
    if (verified.built) {
      fmt::print(out, "verified     written {}, compiled {}, passed {} ({} runs each), repaired {}, removed {}\n",
                 verified.written, verified.compiled, verified.passed, options.verifyRuns, verified.repaired,
                 verified.removed);
      if (verified.coverage.measured)
        fmt::print(out, "llvm-cov     branches {}/{} ({}), lines {}/{} ({}), functions {}/{}\n",
                   verified.coverage.branchesCovered, verified.coverage.branches,
                   percent(verified.coverage.branchesCovered, verified.coverage.branches), verified.coverage.linesCovered,
                   verified.coverage.lines, percent(verified.coverage.linesCovered, verified.coverage.lines),
                   verified.coverage.functionsCovered, verified.coverage.functions);
      else
        fmt::print(out, "llvm-cov     not measured: {}\n", verified.coverage.error);
    } else {
      fmt::print(out, "verified     the suite does not build:\n{}\n", verified.error);
    }
  }
  fmt::print(out, "failing      {} tests ({} disabled)\n", failing.size(), verified.failingDisabled);
  fmt::print(out, "written      {}/\n", options.outDir);

  if (!options.jsonOut.empty()) {
    nlohmann::json j;
    j["unit"] = p.unit;
    j["algorithm"] = search::toString(*algorithm);
    j["seed"] = options.seed;
    j["search_seconds"] = searchSeconds;
    j["executions"] = evaluator.executions();
    j["executions_per_second"] = searchSeconds > 0 ? evaluator.executions() / searchSeconds : 0.0;
    j["interrupted"] = stopped;
    // mosaic's own peak resident memory: the front end, search and archive,
    // not the harness, the program under test or the compilers it ran.
    struct rusage self {};
    if (getrusage(RUSAGE_SELF, &self) == 0) j["peak_rss_mib"] = static_cast<double>(self.ru_maxrss) / 1024.0;
    nlohmann::json g;
    for (auto kind : {search::GoalKind::Branch, search::GoalKind::Line, search::GoalKind::Function})
      g[search::toString(kind)] = {{"total", goals.count(kind)}, {"covered", coveredOf(kind)}};
    j["goals"] = g;
    j["coverage_over_time"] = timeline;
    nlohmann::json oc;
    for (int k = 0; k < exec::kOutcomeCount; ++k) oc[exec::toString(static_cast<exec::Outcome>(k))] = outcomes[k];
    j["outcomes"] = oc;
    j["tests"] = {{"archived", solutions.size()},  {"kept", kept.size()},          {"unstable", unstable},
                  {"written", verified.written},   {"compiled", verified.compiled}, {"passed", verified.passed},
                  {"repaired", verified.repaired}, {"removed", verified.removed},  {"flaky_assertions", verified.flakyAssertions},
                  {"failing", failing.size()},     {"failing_disabled", verified.failingDisabled},
                  {"verified", options.verify && verified.built}, {"inspectors", inspectorsKept},
                  {"releases", releasesKept}};
    // The tests as written (GoogleTest names, for --gtest_filter), and the
    // distinct failures the search met (crashKey: outcome, signal, callable).
    nlohmann::json written = nlohmann::json::array();
    for (const auto &[name, site] : verified.tests) {
      nlohmann::json t = {{"name", name}, {"failing", site.failing}};
      if (!site.failing && site.test < passing.size()) t["found_at"] = passing[site.test].foundAt;
      written.push_back(std::move(t));
    }
    j["suite"] = std::move(written);
    nlohmann::json failures = nlohmann::json::array();
    for (const auto &[key, c] : crashes)
      failures.push_back({{"outcome", exec::toString(c.result.outcome)}, {"signal", c.result.signal}, {"where", c.where},
                          {"seen", c.count}, {"reproducible", c.reproducible}});
    j["failures"] = std::move(failures);
    if (verified.coverage.measured)
      j["llvm_cov"] = {{"branches", verified.coverage.branches}, {"branches_covered", verified.coverage.branchesCovered},
                       {"lines", verified.coverage.lines},       {"lines_covered", verified.coverage.linesCovered},
                       {"functions", verified.coverage.functions}, {"functions_covered", verified.coverage.functionsCovered}};
    std::ofstream(options.jsonOut) << j.dump(2) << "\n";
  }
  if (options.verify && !verified.built) return kExitInternal;
  return failing.empty() ? kExitOk : kExitFindings;
}

} // namespace mosaic::driver
