// `mosaic reproduce`: trace -> its frames in the project -> the deepest
// frame's unit -> a search with the crash goal -> a minimal test that
// fails the same way with the same frames -> a GoogleTest death test.
#include "mosaic/driver/Reproduce.h"

#include "Concolic.h"
#include "DefinedIn.h"
#include "ProjectFiles.h"
#include "FailureStacks.h"
#include "Output.h"
#include "SanitizedCheck.h"
#include "UnitSearch.h"
#include "mosaic/crash/CrashGoal.h"
#include "mosaic/crash/ProjectFrames.h"
#include "mosaic/crash/Targets.h"
#include "mosaic/search/Criteria.h"
#include "mosaic/driver/Toolchain.h"
#include "mosaic/support/Text.h"
#include "mosaic/testcase/Inherited.h"
#include "mosaic/testcase/Printer.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace mosaic::driver {

namespace {

namespace fs = std::filesystem;

// Units the search tries, the deepest first (ours: four, as a crash in a
// library's inside is often entered through its API a few units up: yajl's
// yajl_string_decode <- yajl_do_parse <- yajl_parse <- yajl_tree_parse;
// past that, a trace's callers are the harness's and the program's).
constexpr size_t kMaxTargetUnits = 4;

// `file` relative to `root`, when it lies under it.
std::optional<fs::path> underRoot(const std::string &file, const std::string &root) {
  const fs::path rel = fs::path(file).lexically_relative(root);
  if (rel.empty() || *rel.begin() == "..") return std::nullopt;
  return rel;
}

std::string framesLine(const std::vector<exec::Frame> &frames, const std::string &root) {
  std::string out;
  for (const exec::Frame &f : frames) {
    exec::Frame shown = f;
    if (!root.empty())
      if (auto rel = underRoot(f.file, root)) shown.file = rel->string();
    out += (out.empty() ? "" : " <- ") + shown.str();
  }
  return out;
}

// The frames of files under `root` (all of them when it is "").
std::vector<exec::Frame> inProject(std::vector<exec::Frame> frames, const std::string &root) {
  if (root.empty()) return frames;
  std::erase_if(frames, [&](const exec::Frame &f) { return !underRoot(f.file, root); });
  return frames;
}

// The run nearest to reproducing the crash: the best fitness of the crash
// goal (`goal`) over every run of the search, and its test.
class Closest final : public search::EvaluationObserver {
public:
  Closest(const search::Goals &goals, size_t goal) : goals_(goals), goal_(goal) {}
  void evaluated(const search::Evaluator &, const search::Evaluation &ev) override {
    if (!ev.searching) return;
    const double f = goals_.fitness(goal_, ev.run);
    if (test_ && f >= fitness_) return;
    fitness_ = f;
    test_ = ev.test;
    run_ = ev.run;
  }
  const std::optional<testcase::TestCase> &test() const { return test_; }
  const search::Execution &run() const { return run_; }

private:
  const search::Goals &goals_;
  size_t goal_;
  double fitness_ = 0;
  std::optional<testcase::TestCase> test_;
  search::Execution run_;
};

// The reproducing test without every statement it does not need: each
// removed (with what depends on it) when the rest still reproduces.
testcase::TestCase minimise(testcase::TestCase test, search::Execution &run, const search::Goals &goals, size_t goal,
                            search::Evaluator &evaluator) {
  // As stages' minimise drops statements, keeping the crash instead of goals.
  for (size_t i = test.statements.size(); i-- > 0;) {
    if (i >= test.statements.size()) continue;
    testcase::TestCase shorter = testcase::withoutStatement(test, i);
    if (shorter.statements.empty()) continue;
    if (auto r = evaluator.execute(shorter); r && goals.covered(goal, *r)) {
      test = std::move(shorter);
      run = std::move(*r);
    }
  }
  return test;
}

// What one unit's search came to: an exit code when reproduce is done
// (reproduced, or an error), else whether it searched at all (a unit
// whose line no instrumented function holds is not searched).
struct Attempt {
  std::optional<int> exitCode;
  bool searched = false;
  double seconds = 0; ///< the search's, of the budget
};

// Searches one choice's unit for the crash; when a run reproduces it, the
// test, minimised, is written and verified in -o.
Attempt attempt(const ReproduceOptions &options, GenerateOptions g, const crash::TargetChoice &choice, const crash::StackTrace &trace,
                const crash::PlacedTrace &placed, size_t deepest, const std::string &root, std::ostream &out,
                std::ostream &err) {
  crash::CrashTarget target = choice.target;
  // The unit's session; sanitized when only a sanitizer sees the failure.
  g.unit.unit = choice.unit;
  g.failingTestsCover = true;
  g.sanitize = g.sanitize || trace.kind.cls == crash::FailureClass::Sanitizer;
  g.criteria = {};
  const bool first = choice.unit == placed.frames[deepest].file;
  auto opened = openTestableSession({g.unit, g.workDir, g.sanitize, g.memoryMb, false, g.pinCpu, g.spareCpu}, out, err);
  if (auto *code = std::get_if<int>(&opened)) return first ? Attempt{*code, false} : Attempt{};
  Session &session = *std::get<std::unique_ptr<Session>>(opened);
  // Entered from a caller above: a call of the library's inside is not where
  // the trace's program entered it.
  if (target.caller)
    for (model::CallableId id = 0; id < session.program.callables.size(); ++id)
      if (session.catalog->internalCallable(session.program.callables[id])) target.insideEntries.push_back(id);
  // Every test ends by entering the trace where its program did.
  std::vector<model::CallableId> offered = testcase::inheritedMethods(*session.catalog, session.targets);
  for (model::CallableId id : session.targets)
    if (!session.catalog->internalCallable(session.program.callables[id])) offered.push_back(id);
  g.entryCalls = crash::entryCallables(session.program, offered, placed);
  if (!g.entryCalls.empty()) {
    std::vector<std::string> names;
    for (model::CallableId id : g.entryCalls) names.push_back(session.program.callables[id].signature);
    fmt::print(out, "entry        every test ends with a call of {}\n", fmt::join(names, " or "));
  }
  std::vector<std::string> generated{session.harness.directory, fs::path(toolchain().abiInclude).parent_path() / "runtime"};
  FailureStacks stacks(toolchain().llvmSymbolizer, session.harness.binary, g.sanitize ? session.harness.binary : "",
                       generated, root);
  const crash::RunFrames frames = [&stacks](const search::Execution &e) {
    const bool report = e.outcome() == exec::Outcome::Sanitizer;
    return stacks(e.result, report ? e.report : std::string(), report);
  };
  search::CriterionList criteria;
  criteria.push_back(crash::crashCriterion(target, frames));
  const search::Criterion *crashCriterion = criteria.back().get();
  if (options.guides == "coverage") {
    search::CriterionList guides = std::move(*search::makeCriteria(search::defaultCriteria()));
    for (auto &c : guides) criteria.push_back(std::move(c));
  }
  const search::Goals goals(session.description, std::move(criteria), {&session.program, session.targets});
  // The crash's one goal, among the guides' (in its function's place); its
  // cover ends the search.
  size_t crashGoal = 0;
  while (crashGoal < goals.size() && goals[crashGoal].criterion != crashCriterion) ++crashGoal;
  g.doneWhenCovered = crashGoal;
  if (crashGoal == goals.size()) {
    fmt::print(out, "unsearched   line {} of {} is in none of the functions the harness instruments\n",
               target.deepest.line, target.deepest.file);
    return {};
  }
  const search::Evaluator *evaluator = nullptr;
  auto secondary = search::makeSecondary(
      g.secondary, goals,
      {.progress = [&evaluator] { return evaluator ? evaluator->budget().used(evaluator->executions()) : 0.0; },
       .sleep = 0,
       .usagePercent = g.bbcUsage,
       .seed = g.seed});
  if (!secondary || !search::parseAlgorithm(g.algorithm)) {
    fmt::print(err, "mosaic: error: {}\n", secondary ? "unknown algorithm '" + g.algorithm + "'" : secondary.error().message);
    return {kExitUsage, false};
  }
  stages::Work work;
  UnitSearch search(session, g, goals, **secondary, work, err);
  evaluator = &search.evaluator();
  Closest closest(goals, crashGoal);
  search.evaluator().addObserver(closest);
  // --concolic: Z3 flips the branches on the way to the target line.
  ConcolicSide concolic = concolicSide(session, g, search.limits(), err, /*dependences=*/true);
  if (concolic.hybrid) {
    search.evaluator().addSideTask(*concolic.hybrid);
    search.evaluator().addObserver(*concolic.hybrid);
  }
  const SearchSummary summary = search.run(*search::parseAlgorithm(g.algorithm), err);
  fmt::print(out, "search       {} for {:.1f} s: {} executions\n", search::toString(summary.algorithm), summary.seconds,
             summary.executions);
  printConcolic(concolic, summary.executions, out);
  Attempt attemptDone{std::nullopt, true, summary.seconds};

  if (!search.archive().covered(crashGoal)) {
    search.release();
    fmt::print(out, "not reproduced\n");
    if (closest.test()) {
      const crash::CrashDistance d = crash::crashDistance(target, goals[crashGoal], closest.run(), goals.reach(), frames);
      const std::vector<exec::Frame> got = d.ds == 0 && (closest.run().failed() || closest.run().threw) ? frames(closest.run()) : std::vector<exec::Frame>{};
      size_t matched = 0;
      for (const exec::Frame &t : target.frames)
        for (const exec::Frame &f : got)
          if (crash::frameDistance(t, f) == 0) {
            ++matched;
            break;
          }
      fmt::print(out, "closest      fitness {:.3f}: line {} {}; {}; {} of {} frames matched{}\n", d.total(),
                 target.deepest.line, d.ds == 0 ? "reached" : "not reached",
                 d.ds > 0 ? "failure not looked at" : d.de == 0 ? "the same kind of failure" : "another outcome: " + exec::describe(closest.run().result),
                 matched, target.frames.size(), got.empty() ? "" : " (its stack: " + framesLine(got, root) + ")");
      if (d.enteredInside)
        fmt::print(out,
                   "             it fails in a call of {}, {}; the trace entered from {}, which it does not pass through\n",
                   session.program.callables[*closest.run().stoppedCallable].name,
                   session.catalog->insideOf(session.program.callables[*closest.run().stoppedCallable]),
                   framesLine({*target.caller}, root));
      fmt::print(out, "{}", testcase::toCode(session.program, *closest.test()));
    }
    return attemptDone;
  }

  // Reproduced: the covering test, minimised, written as a death test.
  search::Execution run = *search.archive().at(crashGoal).run;
  const testcase::TestCase test = minimise(*search.archive().at(crashGoal).test, run, goals, crashGoal, search.evaluator());
  emit::SuiteTest st;
  st.test = test;
  st.result = run.result;
  st.report = run.report;
  st.failureClass = "crash";
  st.why = "reproduces " + trace.kind.str() + " of " + fs::path(options.traceFile).filename().string();
  st.stack = frames(run);
  if (run.outcome() == exec::Outcome::Sanitizer) st.sanitizerClass = crash::runFailure(run).kind.name;
  if (run.outcome() == exec::Outcome::Ok && run.threw) {
    st.threwAt = run.stoppedAt;
    st.exceptionType = run.exceptionType;
  }
  st.origin.push_back("the trace (" + std::string(crash::formatName(trace.format)) + ", " + trace.kind.str() +
                      "), its frames in the project as it printed them:");
  for (size_t i = deepest; i < deepest + choice.traceFrames; ++i)
    st.origin.push_back("  " + placed.frames[i].frame.frame.str());
  std::vector<emit::SuiteTest> passing, failing{st};
  g.outDir = options.search.outDir;
  const VerifyResult verified = writeSuite(session, g, passing, failing, "", search.stopFlag(), err);
  search.release();
  fmt::print(out, "reproduced   by a test of {} statements: {}\n", test.statements.size(), framesLine(st.stack, root));
  // Verified: the suite builds, and the death test is in it and dies; a
  // sanitizer's, in the build with -DMOSAIC_SANITIZE=ON, where its twin
  // must also die at the trace's frames.
  bool dies = verified.built && verified.failingWritten == 1 && verified.failingDisabled == 0;
  const bool sanitizer = run.outcome() == exec::Outcome::Sanitizer;
  std::string why = dies && st.threwAt >= 0 ? "the test builds and throws as the trace did"
                    : dies                  ? "the death test builds and dies as the trace did"
                    : verified.built ? "the death test was removed or disabled by verification (see above)"
                                     : "the suite does not build";
  if (g.verify && dies && sanitizer) {
    VerifyOptions sanitized;
    sanitized.outDir = fs::absolute(g.outDir).string();
    sanitized.toolchain = toolchain();
    sanitized.stop = search.stopFlag();
    auto runner = cmakeSuiteRunner(session.program, sanitized);
    const SanitizedCheck c = checkSanitized(*runner, verified.ident + "_failing_test", trace.kind, target.frames);
    dies = c.error.empty() && c.deathTestPasses && c.twinMatches;
    why = !c.error.empty()       ? c.error
          : !c.deathTestPasses   ? "built with -DMOSAIC_SANITIZE=ON, the death test does not die with the report"
          : c.twinKind.empty()   ? "built with -DMOSAIC_SANITIZE=ON, the regression twin prints no report"
          : !c.twinMatches       ? "built with -DMOSAIC_SANITIZE=ON, the regression twin reports " + c.twinKind +
                                     " at " + framesLine(inProject(c.twinFrames, root), root) + ", not the trace's failure"
                                 : "built with -DMOSAIC_SANITIZE=ON, the death test dies with " + c.twinKind +
                                     " and its regression twin at the trace's frames";
  }
  if (g.verify) fmt::print(out, "verified     {}\n", why);
  fmt::print(out, "written      {}/\n", g.outDir);
  return {g.verify && !dies ? kExitInternal : kExitOk, true};
}

} // namespace

int reproduce(const ReproduceOptions &options, std::ostream &out, std::ostream &err) {
  if (options.fitness != "weighted-sum" && options.fitness != "st-distance") {
    fmt::print(err, "mosaic: error: unknown crash fitness '{}' (weighted-sum or st-distance)\n", options.fitness);
    return kExitUsage;
  }
  if (options.guides != "coverage" && options.guides != "none") {
    fmt::print(err, "mosaic: error: unknown crash guides '{}' (coverage or none)\n", options.guides);
    return kExitUsage;
  }
  if (auto bad = concolicOptionsError(options.search)) {
    fmt::print(err, "mosaic: error: {}\n", *bad);
    return kExitUsage;
  }
  // The trace.
  std::error_code ec;
  if (!fs::is_regular_file(options.traceFile, ec)) {
    fmt::print(err, "mosaic: error: no such trace file '{}'\n", options.traceFile);
    return kExitUsage;
  }
  const std::string text = readFile(options.traceFile);
  auto trace = crash::parseTrace(text);
  if (!trace) {
    fmt::print(err, "mosaic: error: cannot read the trace '{}': {}\n  {}\n", options.traceFile,
               trace.error().message, trace.error().detail);
    return kExitUsage;
  }
  auto units = databaseFiles(options.search.unit.buildDir);
  if (!units) {
    fmt::print(err, "mosaic: error: {}\n", units.error().message);
    return kExitUsage;
  }
  const std::string root = commonFolder(*units);
  // Frames with a function and no file (backtrace_symbols): the unit that defines it.
  const std::vector<std::string> byName = fileFramesByDefinition(*trace, *units);
  if (!byName.empty())
    fmt::print(out, "frames       without files, placed by their function's definition: {}\n",
               fmt::join(byName, ", "));
  const crash::PlacedTrace placed = crash::placeFrames(*trace, *units, root);
  fmt::print(out, "trace        {} ({}): {}, {} frames\n", options.traceFile, crash::formatName(trace->format),
             trace->kind.str(), trace->frames.size());
  const auto deepest = placed.deepestUnitFrame();
  if (!deepest) {
    std::string named;
    for (const crash::PlacedFrame &p : placed.frames)
      if (!p.frame.frame.file.empty()) named += "\n  " + p.frame.frame.str();
    fmt::print(err,
               "mosaic: error: no frame of the trace is in a source file of the compile database ({} files under "
               "{}); the frames that name a file:{}\n",
               units->size(), root, named.empty() ? " none (and no function it names is defined in one of them alone)" : named);
    return kExitUsage;
  }
  std::vector<crash::TargetChoice> choices = crash::targetChoices(*trace, placed, kMaxTargetUnits);
  GenerateOptions g = options.search;
  // Each unit's search gets an equal share of what the searches before it
  // left of the budget.
  double left = options.search.budgetSeconds;
  bool searched = false;
  for (size_t k = 0; k < choices.size(); ++k) {
    crash::TargetChoice &c = choices[k];
    g.budgetSeconds = left / static_cast<double>(choices.size() - k);
    if (options.fitness == "st-distance") c.target.fitness = crash::CrashFitness::STDistance;
    if (k > 0)
      fmt::print(out, "caller       not reproduced from {}: searching its caller's unit {}\n",
                 fs::path(choices[k - 1].unit).filename().string(), c.unit);
    fmt::print(out, "target       {}\n", framesLine(c.target.frames, root));
    const Attempt a = attempt(options, g, c, *trace, placed, *deepest, root, out, err);
    if (a.exitCode) return *a.exitCode;
    searched = searched || a.searched;
    left = std::max(0.0, left - a.seconds);
  }
  if (!searched) {
    fmt::print(err, "mosaic: error: line {} of {} is in none of the unit's functions that the harness instruments\n",
               choices.front().target.deepest.line, choices.front().target.deepest.file);
    return kExitUsage;
  }
  return kExitFindings;
}

} // namespace mosaic::driver
