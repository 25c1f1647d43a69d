// `mosaic generate`: session -> search -> stages -> writer -> verify.
#include "mosaic/driver/Generate.h"

#include "Concolic.h"
#include "Phases.h"
#include "Executors.h"
#include "FailureStacks.h"
#include "FunctionWeights.h"
#include "Faults.h"
#include "Interrupt.h"
#include "MeasureCriteria.h"
#include "Output.h"
#include "Progress.h"
#include "ProjectFiles.h"
#include "Session.h"
#include "UnitSearch.h"
#include "Verify.h"
#include "mosaic/driver/Toolchain.h"
#include "mosaic/emit/Suite.h"
#include "mosaic/model/Derive.h"
#include "mosaic/search/Observers.h"
#include "mosaic/search/Secondary.h"
#include "mosaic/stages/Classify.h"
#include "mosaic/stages/Failures.h"
#include "mosaic/stages/Stage.h"
#include "mosaic/testcase/TestFactory.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <limits>

namespace mosaic::driver {

namespace {

namespace fs = std::filesystem;

std::string percentText(std::size_t a, std::size_t b) { return b ? fmt::format("{:.1f}%", 100.0 * a / b) : "-"; }

// The stages' candidates and reproducible failures as the writer takes them.
void toSuiteTests(const stages::Work &work, const search::Goals &goals, bool misuseTests,
                  std::vector<emit::SuiteTest> &passing, std::vector<emit::SuiteTest> &failing) {
  for (const stages::Candidate &c : work.passing) {
    emit::SuiteTest st;
    st.test = c.test;
    st.appendedFrom = c.appendedFrom;
    st.foundAt = c.foundAt;
    st.observations = c.observations;
    st.threwAt = c.threwAt;
    st.exceptionType = c.exceptionType;
    for (size_t g : c.goals)
      if (goals[g].criterion->listedInTests()) st.covers.push_back(goals[g].label);
    passing.push_back(std::move(st));
  }
  // Likely defects first, then robustness, then misuse (within each, in
  // the order of their sites).
  for (const auto cls : {stages::FailureClass::Defect, stages::FailureClass::Robustness, stages::FailureClass::Misuse})
  for (const auto &[site, f] : work.failures) {
    if (!f.reproducible || f.kind != cls) continue;
    if (f.kind == stages::FailureClass::Misuse && !misuseTests) continue;
    emit::SuiteTest st;
    st.test = f.test;
    st.result = f.result;
    st.report = f.output;
    st.failureClass = stages::toString(f.kind);
    st.why = f.why + (f.duplicates ? fmt::format(" (and {} other test(s) to the same site)", f.duplicates) : "");
    st.stack = f.frames;
    st.sanitizerReport = f.sanitizerReport;
    failing.push_back(std::move(st));
  }
}

// Failing tests per class, as the suite has them: the written ones (after
// verification removed any that did not fail as a test), and the misuse
// failures left unwritten without --misuse-tests.
std::map<stages::FailureClass, size_t> failureClasses(const stages::Work &work,
                                                      const std::vector<emit::SuiteTest> &failing, bool misuseTests) {
  std::map<stages::FailureClass, size_t> n;
  for (const emit::SuiteTest &st : failing)
    for (const auto cls : {stages::FailureClass::Defect, stages::FailureClass::Robustness, stages::FailureClass::Misuse})
      if (st.failureClass == stages::toString(cls)) ++n[cls];
  if (!misuseTests)
    for (const auto &[site, f] : work.failures) n[stages::FailureClass::Misuse] += f.reproducible && f.kind == stages::FailureClass::Misuse;
  return n;
}

void printReport(const GenerateOptions &options, const SearchSummary &s, const search::Goals &goals,
                 const search::Archive &archive, const stages::Work &work, const std::vector<emit::SuiteTest> &failing,
                 const std::map<stages::FailureClass, size_t> &classes, const VerifyResult &verified,
                 const std::vector<MeasuredCriterion> &measured, std::ostream &out) {
  fmt::print(out, "search       {} for {:.1f} s: {} executions ({:.0f}/s){}\n", search::toString(s.algorithm), s.seconds,
             s.executions, s.seconds > 0 ? s.executions / s.seconds : 0.0,
             s.predicted ? fmt::format("; {} tests known to stop where a run of their first statements did", s.predicted)
                         : "");
  fmt::print(out, "goals        {} of {} covered: {} (mosaic's own counters)\n", archive.coveredCount(), goals.size(),
             coverageSummary(goals, archive));
  fmt::print(out,
             "suite        {} tests kept of {} archived; {} dropped as unstable; {} state inspectors and {} releases "
             "added; {} minimisation runs{}\n",
             work.passing.size() + static_cast<size_t>(work.counts.unstable), s.archived, work.counts.unstable,
             work.counts.inspectors, work.counts.releases, work.counts.minimiseRuns,
             work.counts.grown ? fmt::format("; {} given larger buffers (what ASan saw them overrun)", work.counts.grown)
                               : "");
  if (options.filterAssertions && !work.passing.empty()) {
    const double tests = static_cast<double>(work.passing.size());
    fmt::print(out,
               "assertions   {:.1f} a test before mutation filtering, {:.1f} after ({} of {} mutant runs told apart "
               "from the original)\n",
               work.counts.assertionsBefore / tests, work.counts.assertionsAfter / tests, work.counts.mutantsKilled,
               work.counts.mutantsTried);
  }
  if (options.verify) {
    if (verified.interrupted) {
      fmt::print(out, "verified     interrupted: the suite is written, not verified\n");
    } else if (verified.built) {
      fmt::print(out, "verified     written {}, compiled {}, passed {} ({} runs each), repaired {}, removed {}\n",
                 verified.written, verified.compiled, verified.passed, options.verifyRuns, verified.repaired,
                 verified.removed);
      if (verified.deathsNotReproduced > 0)
        fmt::print(out, "             the test binary died {} times where the same tests then passed: not held against them\n",
                   verified.deathsNotReproduced);
      const LlvmCoverage &c = verified.coverage;
      if (!options.coverage)
        fmt::print(out, "llvm-cov     not measured (--no-coverage)\n");
      else if (c.measured)
        fmt::print(out, "llvm-cov     branches {}/{} ({}), lines {}/{} ({}), functions {}/{}\n", c.branchesCovered,
                   c.branches, percentText(c.branchesCovered, c.branches), c.linesCovered, c.lines,
                   percentText(c.linesCovered, c.lines), c.functionsCovered, c.functions);
      else
        fmt::print(out, "llvm-cov     not measured: {}\n", c.error);
    } else {
      fmt::print(out, "verified     the suite does not build:\n{}\n", verified.error);
    }
  }
  auto count = [&](stages::FailureClass c) { return classes.count(c) ? classes.at(c) : size_t{0}; };
  fmt::print(out, "failing      {} tests ({} disabled): {} likely defects, {} robustness{}\n", failing.size(),
             verified.failingDisabled, count(stages::FailureClass::Defect), count(stages::FailureClass::Robustness),
             options.misuseTests ? fmt::format(", {} misuse", count(stages::FailureClass::Misuse))
                                 : fmt::format("; {} misuse not written (--misuse-tests)",
                                               count(stages::FailureClass::Misuse)));
  if (!measured.empty())
    fmt::print(out, "criteria     {} (every goal of the eight criteria, the suite's tests run again)\n",
               measuredSummary(measured));
  fmt::print(out, "written      {}/\n", options.outDir);
}

void writeJson(const GenerateOptions &options, const Session &session, const SearchSummary &s,
               const search::Goals &goals, const search::Archive &archive, const search::CoverageTimeline &timeline,
               const search::OutcomeCounter &outcomes, const stages::Work &work,
               const std::vector<emit::SuiteTest> &passing, const std::vector<emit::SuiteTest> &failing,
               const std::map<stages::FailureClass, size_t> &failingClasses, const VerifyResult &verified,
               const std::string &sanitizerCheck, const std::vector<MeasuredCriterion> &measured,
               const nlohmann::json &concolic, const PhaseTimes &phases) {
  const model::Program &p = session.program;
  nlohmann::json j;
  j["unit"] = p.unit;
  j["algorithm"] = search::toString(s.algorithm);
  j["seed"] = options.seed;
  j["search_seconds"] = s.seconds;
  j["executions"] = s.executions;
  j["executions_per_second"] = s.seconds > 0 ? s.executions / s.seconds : 0.0;
  j["search_host_cpu_seconds"] = s.hostCpuSeconds;
  j["search_wait_seconds"] = s.waitSeconds;
  j["runs_predicted"] = s.predicted;
  j["interrupted"] = s.interrupted;
  j["criteria"] = options.criteria;
  j["secondary"] = options.secondary;
  // mosaic's own peak resident memory: the front end, search and archive,
  // not the harness, the program under test or the compilers it ran.
  struct rusage self {};
  if (getrusage(RUSAGE_SELF, &self) == 0) j["peak_rss_mib"] = static_cast<double>(self.ru_maxrss) / 1024.0;
  // The targets, and why the ones a test cannot call are out of reach.
  nlohmann::json notCallable = nlohmann::json::array();
  for (const auto &[signature, why] : session.notCallable)
    notCallable.push_back({{"callable", signature}, {"reason", why}});
  // What the front end left out of the unit's own declarations (a variadic
  // function, a private member, a template never instantiated).
  nlohmann::json skipped = nlohmann::json::array();
  for (const model::Skipped &k : p.skipped)
    if (model::concernsUnit(p, k)) skipped.push_back({{"name", k.name}, {"what", k.what}, {"reason", k.reason}});
  j["callables"] = {{"targets", p.targets.size()}, {"callable", session.targets.size()},
                    {"not_callable", std::move(notCallable)}, {"skipped", std::move(skipped)}};
  nlohmann::json g;
  for (const search::CriterionCoverage &c : search::coverageByCriterion(goals, archive))
    g[std::string(c.criterion->name())] = {{"total", c.total}, {"covered", c.covered},
                                           {"uncovered", nlohmann::json::array()}};
  // What the search did not reach, by the goals' labels: where to look next.
  // The covered lines too, for the source view of project mode's HTML
  // report (HtmlReport.h).
  for (size_t k = 0; k < goals.size(); ++k) {
    if (!archive.covered(k)) g[std::string(goals[k].criterion->name())]["uncovered"].push_back(goals[k].label);
    else if (goals[k].criterion->name() == "line") g["line"]["covered_goals"].push_back(goals[k].label);
  }
  j["goals"] = g;
  nlohmann::json samples = nlohmann::json::array();
  for (const auto &t : timeline.samples())
    samples.push_back({{"seconds", t.seconds},
                       {"executions", t.executions},
                       {"covered", t.covered},
                       {"statements", t.statements},
                       {"test_seconds", t.testSeconds}});
  j["coverage_over_time"] = samples;
  nlohmann::json oc;
  for (int k = 0; k < exec::kOutcomeCount; ++k) oc[exec::toString(static_cast<exec::Outcome>(k))] = outcomes.counts()[k];
  j["outcomes"] = oc;
  nlohmann::json os;
  for (int k = 0; k < exec::kOutcomeCount; ++k)
    os[exec::toString(static_cast<exec::Outcome>(k))] = static_cast<double>(outcomes.micros()[k]) / 1e6;
  j["outcome_seconds"] = os;
  j["children_forked"] = outcomes.forks();
  j["crashes_recovered"] = outcomes.recovered();
  j["tests"] = {{"archived", s.archived},
                {"kept", work.passing.size() + static_cast<size_t>(work.counts.unstable)},
                {"unstable", work.counts.unstable},
                {"written", verified.written},
                {"compiled", verified.compiled},
                {"passed", verified.passed},
                {"repaired", verified.repaired},
                {"removed", verified.removed},
                {"flaky_assertions", verified.flakyAssertions},
                {"deaths_not_reproduced", verified.deathsNotReproduced},
                {"failing", failing.size()},
                {"failing_disabled", verified.failingDisabled},
                {"verified", options.verify && verified.built},
                {"inspectors", work.counts.inspectors},
                {"releases", work.counts.releases},
                {"grown_buffers", work.counts.grown}};
  if (!measured.empty()) {
    nlohmann::json m = nlohmann::json::object();
    for (const MeasuredCriterion &c : measured) m[c.name] = {{"covered", c.covered}, {"total", c.total}};
    j["measured_criteria"] = std::move(m);
  }
  if (options.filterAssertions)
    j["assertions"] = {{"before", work.counts.assertionsBefore},
                       {"after", work.counts.assertionsAfter},
                       {"mutant_runs", work.counts.mutantsTried},
                       {"mutants_told_apart", work.counts.mutantsKilled}};
  // The tests as written (GoogleTest names, for --gtest_filter), and the
  // distinct failures (by crash site, after ClassifyFailures).
  nlohmann::json written = nlohmann::json::array();
  for (const auto &[name, site] : verified.tests) {
    nlohmann::json t = {{"name", name}, {"failing", site.failing}};
    if (!site.failing && site.test < passing.size()) t["found_at"] = passing[site.test].foundAt;
    written.push_back(std::move(t));
  }
  j["suite"] = std::move(written);
  nlohmann::json failures = nlohmann::json::array();
  for (const auto &[site, f] : work.failures) {
    nlohmann::json stack = nlohmann::json::array();
    for (const exec::Frame &fr : f.frames) stack.push_back(fr.str());
    failures.push_back({{"outcome", exec::toString(f.result.outcome)}, {"signal", f.result.signal}, {"where", f.where},
                        {"seen", f.count}, {"reproducible", f.reproducible}, {"class", stages::toString(f.kind)},
                        {"why", f.why}, {"site", f.site}, {"duplicates", f.duplicates}, {"stack", std::move(stack)},
                        {"sanitizer_only", f.sanitizerOnly}, {"sanitizer_report", !f.sanitizerReport.empty()}});
  }
  j["failures"] = std::move(failures);
  nlohmann::json classes = nlohmann::json::object();
  for (const auto &[c, n] : failingClasses)
    if (n) classes[stages::toString(c)] = n;
  j["failing_classes"] = std::move(classes);
  j["sanitizer_check"] = sanitizerCheck;
  j["concolic"] = concolic;
  // Wall time by phase (the report's "time" line), and in all.
  nlohmann::json phaseSeconds = nlohmann::json::object();
  for (const auto &[name, seconds] : phases.phases()) phaseSeconds[name] = seconds;
  j["phase_seconds"] = std::move(phaseSeconds);
  j["total_seconds"] = phases.total();
  const LlvmCoverage &c = verified.coverage;
  if (c.measured)
    j["llvm_cov"] = {{"branches", c.branches}, {"branches_covered", c.branchesCovered},
                     {"lines", c.lines},       {"lines_covered", c.linesCovered},
                     {"functions", c.functions}, {"functions_covered", c.functionsCovered}};
  std::ofstream(options.jsonOut) << j.dump(2) << "\n";
}

// The unit's ASan + UBSan harness and its server, for the sanitizer check
// (empty when off, when the search itself ran sanitized, or when the unit
// does not build with the sanitizers: `why` says).
struct SanitizedHarness {
  std::optional<harness::Harness> harness;
  std::unique_ptr<exec::ForkServer> server;
  std::string why; ///< "on", or why not
};

SanitizedHarness sanitizedHarness(const Session &session, const GenerateOptions &options, std::ostream &err) {
  SanitizedHarness s;
  if (!options.sanitizerCheck) {
    s.why = "off (--no-sanitizer-check)";
    return s;
  }
  if (options.sanitize) {
    s.why = "the search ran sanitized (--sanitize)";
    return s;
  }
  harness::BuildOptions build;
  build.sanitize = true;
  auto h = buildVariant(session, build);
  if (!h) {
    s.why = "the unit does not build with ASan + UBSan";
    fmt::print(err, "mosaic: note: no sanitizer check: {}\n", h.error().message);
    return s;
  }
  exec::ServerOptions server;
  server.env = exec::sanitizerEnvironment(options.memoryMb);
  server.sanitized = true;
  auto started = serveVariant(*h, server);
  if (!started) {
    s.why = "its sanitized harness does not start";
    fmt::print(err, "mosaic: note: no sanitizer check: {}\n", started.error().message);
    return s;
  }
  s.harness = std::move(*h);
  s.server = std::move(started->server);
  s.why = "on";
  return s;
}

// The harness with every mutant compiled in (--filter-assertions), and its
// fork server; empty when off or when it does not build (`why` says).
struct SchemataHarness {
  std::optional<harness::Harness> harness;
  std::unique_ptr<exec::ForkServer> server;
  std::string why;
};

SchemataHarness schemataHarness(const Session &session, const GenerateOptions &options, std::ostream &err) {
  SchemataHarness s;
  if (!options.filterAssertions) {
    s.why = "off";
    return s;
  }
  harness::BuildOptions build;
  build.sanitize = options.sanitize;
  build.schemata = true;
  auto failed = [&](const std::string &message) {
    s.why = "its harness with the mutants compiled in does not build or start";
    fmt::print(err, "mosaic: note: assertions not filtered: {}\n", message);
    return std::move(s);
  };
  auto h = buildVariant(session, build);
  if (!h) return failed(h.error().message);
  exec::ServerOptions server;
  if (options.sanitize) {
    server.env = exec::sanitizerEnvironment(options.memoryMb);
    server.sanitized = true;
  }
  auto started = serveVariant(*h, server, /*mutants=*/true);
  if (!started) return failed(started.error().message);
  s.harness = std::move(*h);
  s.server = std::move(started->server);
  s.why = "on";
  return s;
}

// The stages of `generate`, from the archive to the tests the suite keeps.
void runStages(Session &session, const GenerateOptions &options, const search::Goals &goals, UnitSearch &search,
               const SanitizedHarness &sanitized, const SchemataHarness &schemata, stages::Work &work,
               PhaseTimes &phases) {
  work.archived = search.archive().solutions();
  work.firstCovered = search.timeline().firstCovered();
  search::ObservedExecutor searchRuns(search.evaluator());
  exec::Limits alone = search.limits();
  alone.persistent = false;
  ServerExecutor isolated(*session.server, alone, {.observations = true, .outputs = goals.needsOutputs()});
  exec::Limits tight = alone;
  tight.timeoutMs = search.searchTimeoutMs();
  ServerExecutor candidates(*session.server, tight, {.observations = true, .outputs = goals.needsOutputs()});
  exec::ServerOptions freshOptions;
  freshOptions.harness = session.harness.binary;
  freshOptions.env = exec::sanitizerEnvironment(options.memoryMb);
  // Fresh memory there holds other bytes than in the search's server, so a
  // value read from memory the unit never wrote (an uninitialised member, a
  // freed block) differs between the runs and is not asserted: glibc fills
  // malloc'd blocks with ~N and freed ones with N (mallopt M_PERTURB), ASan
  // fills up to 4 KiB of each block with its malloc_fill_byte (0xbe
  // otherwise). 0xa5 and 0x5a are ours: any bytes other than 0 and 0xbe.
  freshOptions.env.emplace_back("MALLOC_PERTURB_", "165");
  for (auto &[name, value] : freshOptions.env)
    if (name == "ASAN_OPTIONS") value += ":malloc_fill_byte=90";
  freshOptions.sanitized = options.sanitize;
  freshOptions.fixedLayout = false;
  // Nor a PID namespace: a value that is a PID differs there, and is not asserted.
  freshOptions.pidNamespace = false;
  auto freshServer = exec::ForkServer::start(freshOptions, session.description.blocks, session.description.sides,
                                            session.probedMutants);
  std::optional<ServerExecutor> fresh;
  if (freshServer)
    fresh.emplace(**freshServer, alone, search::ExecutorOptions{.observations = true, .outputs = goals.needsOutputs()});
  // Minimising and extending get at most half the search's time again, and
  // at least 10 s (ours).
  const double postBudget = std::max(10.0, options.budgetSeconds * 0.5);
  stages::Context context{session.program, *session.catalog, goals, searchRuns, isolated, fresh ? &*fresh : nullptr,
                          stages::Deadline::in(postBudget, search.stopFlag()),
                          stages::Deadline::in(std::numeric_limits<double>::infinity(), search.stopFlag()), nullptr, {}, {}};
  context.candidates = &candidates;
  std::optional<ServerExecutor> sanitizedRuns;
  if (sanitized.server) {
    exec::Limits limits = search.limits();
    // ASan and UBSan make a test slower (about 2x, their authors say):
    // three times the time before a sanitized run is a hang (ours).
    limits.timeoutMs *= 3;
    sanitizedRuns.emplace(*sanitized.server, limits);
    context.sanitized = &*sanitizedRuns;
  }
  std::vector<std::string> generated{session.harness.directory, fs::path(toolchain().abiInclude).parent_path() / "runtime"};
  if (sanitized.harness) generated.push_back(sanitized.harness->directory);
  FailureStacks stacks(toolchain().llvmSymbolizer, session.harness.binary,
                       sanitized.harness ? sanitized.harness->binary : std::string(), generated,
                       FailureStacks::projectRoot(session.program.unit, session.program.compileDatabase));
  context.frames = [&stacks](const exec::RunResult &r, std::string_view output, bool inSanitized) {
    return stacks(r, output, inSanitized);
  };
  context.mosaicsOwn = [&stacks](std::string_view report) { return stacks.mosaicsOwn(report); };
  std::optional<SchemataRunner> mutantRuns;
  if (schemata.server) {
    mutantRuns.emplace(*schemata.server, alone);
    context.mutants = &*mutantRuns;
  }
  std::vector<std::unique_ptr<stages::Stage>> pipeline;
  pipeline.push_back(stages::reduce());
  pipeline.push_back(stages::minimise());
  pipeline.push_back(stages::extend());
  pipeline.push_back(stages::growBuffers());
  pipeline.push_back(stages::observe());
  pipeline.push_back(stages::filterAssertions());
  pipeline.push_back(stages::minimiseFailures());
  pipeline.push_back(stages::sanitizeCheck());
  pipeline.push_back(stages::classifyFailures());
  phases.mark("stage servers");
  for (const auto &stage : pipeline) {
    faultPoint(stage->name());
    stage->run(work, context);
    phases.mark(stage->name());
  }
}

// Options that are wrong whatever the unit: the exit code, or nullopt.
std::optional<int> badOptions(const GenerateOptions &options, std::ostream &err) {
  if (!search::parseAlgorithm(options.algorithm)) {
    fmt::print(err, "mosaic: error: unknown algorithm '{}' (dynamosa, mosa, ws, mio, random, grt)\n",
               options.algorithm);
    return kExitUsage;
  }
  if (auto grt = search::parseGrtComponents(options.grtComponents); !grt) {
    fmt::print(err, "mosaic: error: {}\n", grt.error().message);
    return kExitUsage;
  }
  if (auto components = search::parseSearchComponents(options.searchComponents); !components) {
    fmt::print(err, "mosaic: error: {}\n", components.error().message);
    return kExitUsage;
  }
  if (auto criteria = search::makeCriteria(options.criteria); !criteria) {
    fmt::print(err, "mosaic: error: {}\n", criteria.error().message);
    return kExitUsage;
  }
  if (!options.functionWeights.empty())
    if (auto weights = readFunctionWeights(options.functionWeights); !weights) {
      fmt::print(err, "mosaic: error: {}\n", weights.error().message);
      return kExitUsage;
    }
  if (auto bad = concolicOptionsError(options)) {
    fmt::print(err, "mosaic: error: {}\n", *bad);
    return kExitUsage;
  }
  if (options.outDir.empty()) {
    fmt::print(err, "mosaic: error: no output folder (-o)\n");
    return kExitUsage;
  }
  auto out = prepareOutputFolder(options.outDir, options.unit.unit);
  if (out && !options.jsonOut.empty()) out = checkWritableFile(options.jsonOut, "--json");
  if (!out) {
    fmt::print(err, "mosaic: error: {}\n", out.error().message);
    return kExitUsage;
  }
  return std::nullopt;
}

} // namespace

// The writer, then (unless --no-verify) the verify stage.
VerifyResult writeSuite(const Session &session, const GenerateOptions &options, std::vector<emit::SuiteTest> &passing,
                        std::vector<emit::SuiteTest> &failing, const std::string &coverage,
                        const volatile std::sig_atomic_t *stop, std::ostream &err) {
  const model::Program &p = session.program;
  emit::UnitBuild build;
  build.flags = harness::unitFlags(p);
  for (const harness::ProjectUnit &u : session.harness.project) build.project.push_back({u.file, u.flags});
  build.linkLibraries = {"m"};
  // The libraries outside the project the harness needed (zlib for
  // taglib's tzlib.cpp): a path, or a -l flag as CMake takes it (`z`).
  for (const std::string &lib : session.harness.libraries)
    build.linkLibraries.push_back(lib.rfind("-l", 0) == 0 ? lib.substr(2) : lib);
  // Where the suite finds the project once both are moved (emit/Portable.h).
  if (!p.compileDatabase.empty()) {
    std::error_code ec;
    const fs::path buildDir = fs::weakly_canonical(fs::absolute(p.compileDatabase).parent_path(), ec);
    if (auto files = databaseFiles(buildDir.string())) {
      build.root = projectRoot(*files, build.flags, buildDir.string());
      build.buildDir = buildDir.string();
      build.suiteDir = fs::weakly_canonical(fs::absolute(options.outDir), ec).string();
    }
  }
  emit::WriteOptions write;
  write.testsPerFile = options.testsPerFile;
  write.coverage = coverage;
  VerifyResult verified;
  if (options.verify) {
    fmt::print(err, "building and running the suite ({} runs)...\n", options.verifyRuns);
    VerifyOptions verify{options.outDir, toolchain(), options.verifyRuns, options.coverage, write};
    verify.stop = stop;
    return verifySuite(p, *session.catalog, passing, failing, build, verify, err);
  }
  const emit::Suite suite = emit::writeSuite(p, *session.catalog, passing, failing, build, write);
  writeFiles(suite, options.outDir);
  verified.tests = suite.tests;
  verified.ident = suite.ident;
  return verified;
}

int generate(const GenerateOptions &options, std::ostream &out, std::ostream &err) {
  if (auto code = badOptions(options, err)) return *code;
  // The criteria, once (badOptions checked the names): they also say which
  // harness the session builds.
  search::CriterionList criteria = std::move(*search::makeCriteria(options.criteria));
  bool weakMutation = false;
  for (const auto &c : criteria) weakMutation |= c->needsWeakMutation();
  weakMutation |= options.measureCriteria; // the mutants' goals are measured too
  PhaseTimes phases;
  auto opened =
      openTestableSession({options.unit, options.workDir, options.sanitize, options.memoryMb, weakMutation, options.pinCpu, options.spareCpu},
                          out, err);
  if (auto *code = std::get_if<int>(&opened)) return *code;
  Session &session = *std::get<std::unique_ptr<Session>>(opened);
  phases.mark("analysis and harness");
  faultPoint("session");
  if (!options.functionWeights.empty())
    if (auto scores = readFunctionWeights(options.functionWeights)) {
      const std::vector<double> w = targetWeights(session.program, *scores);
      fmt::print(err, "mosaic: note: defect prediction weights {} of the unit's callables (--function-weights {}): "
                      "the riskiest is called twice as often as an unscored one\n",
                 std::count_if(w.begin(), w.end(), [](double x) { return x > 1.0; }), options.functionWeights);
    }
  // With concolic execution, the path conditions Z3 cannot decide become
  // goals of their own criterion as the search runs (SUSHI).
  auto undecided = std::make_shared<concolic::UndecidedPaths>();
  if (options.concolic) criteria.push_back(concolic::pathConditionCriterion(undecided));
  const search::Goals goals(session.description, std::move(criteria), {&session.program, session.targets});
  // BBC's sleep and usage count in the fraction of the budget used, which
  // the evaluator (made below, with the search) knows.
  const search::Evaluator *evaluator = nullptr;
  search::BbcOptions bbc{.progress = [&evaluator] { return evaluator ? evaluator->budget().used(evaluator->executions()) : 0.0; },
                         .sleep = search::bbcSleep(options.budgetSeconds),
                         .usagePercent = options.bbcUsage,
                         .seed = options.seed};
  auto secondary = search::makeSecondary(options.secondary, goals, std::move(bbc));
  if (!secondary) {
    fmt::print(err, "mosaic: error: {}\n", secondary.error().message);
    return kExitUsage;
  }

  stages::Work work;
  UnitSearch search(session, options, goals, **secondary, work, err);
  evaluator = &search.evaluator();
  ConcolicSide concolic = concolicSide(session, options, search.limits(), err);
  if (concolic.hybrid) {
    concolic.hybrid->undecidedTo(undecided);
    search.evaluator().addSideTask(*concolic.hybrid);
    search.evaluator().addObserver(*concolic.hybrid);
  }
  phases.mark("setup");
  const SearchSummary summary = search.run(*search::parseAlgorithm(options.algorithm), err);
  phases.mark("search");
  faultPoint("search");
  const SanitizedHarness sanitized = sanitizedHarness(session, options, err);
  const SchemataHarness schemata = schemataHarness(session, options, err);
  phases.mark("stage harnesses");
  runStages(session, options, goals, search, sanitized, schemata, work, phases);
  std::vector<emit::SuiteTest> passing, failing;
  toSuiteTests(work, goals, options.misuseTests, passing, failing);
  std::vector<MeasuredCriterion> measured;
  if (options.measureCriteria) {
    std::vector<const testcase::TestCase *> tests;
    for (const auto *list : {&passing, &failing})
      for (const emit::SuiteTest &st : *list) tests.push_back(&st.test);
    measured = measureCriteria(session, search.limits(), tests);
    phases.mark("criteria measured");
  }
  faultPoint("write");
  const VerifyResult verified = writeSuite(session, options, passing, failing,
                                          coverageSummary(goals, search.archive()), search.stopFlag(), err);
  search.release();
  phases.mark(options.verify ? "write and verify" : "write", verified.coverageSeconds, "llvm-cov");
  faultPoint("report");

  const auto classes = failureClasses(work, failing, options.misuseTests);
  printReport(options, summary, goals, search.archive(), work, failing, classes, verified, measured, out);
  printConcolic(concolic, summary.executions, out);
  fmt::print(out, "time         {:.1f} s: {}\n", phases.total(), phases.summary());
  if (!options.jsonOut.empty())
    writeJson(options, session, summary, goals, search.archive(), search.timeline(), search.outcomes(), work,
              passing, failing, classes, verified, sanitized.why, measured, concolicJson(concolic, summary.executions),
              phases);
  if (options.verify && !verified.built && !verified.interrupted) return kExitInternal;
  // A failing test is a claim: exit code 1 only for a likely defect the
  // suite has (verification removes one that does not fail as a test).
  return classes.count(stages::FailureClass::Defect) && classes.at(stages::FailureClass::Defect) ? kExitFindings
                                                                                                  : kExitOk;
}

} // namespace mosaic::driver
