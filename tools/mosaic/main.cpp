// mosaic: the command-line tool. Flags -> Options -> driver; nothing else.
#include "mosaic/driver/Analyze.h"
#include "mosaic/driver/Options.h"
#include "mosaic/driver/Generate.h"
#include "mosaic/driver/Run.h"

#include <CLI/CLI.hpp>

#include <iostream>

namespace {

// The same flag on analyze, run and generate (FrontEndOptions::projectSamples).
constexpr const char *kNoProjectSamples =
    "Do not seed strings with the literals of the project's files that call the unit (its tests)";
constexpr const char *kExitCodes = "Exit codes: 0 ok, 1 findings (failing behaviour found), "
                                   "2 usage or input error, 3 internal error.";

} // namespace

int main(int argc, char **argv) {
  using namespace mosaic::driver;
  CLI::App app{"mosaic: unit tests for C and C++, generated from your build."};
  app.footer(kExitCodes);
  app.set_version_flag("--version", std::string("mosaic " MOSAIC_VERSION " (LLVM " MOSAIC_LLVM_VERSION ")"));
  app.require_subcommand(1);

  AnalyzeOptions analyze;
  CLI::App *analyzeCmd =
      app.add_subcommand("analyze", "Parse a unit with the project's flags and show its program model: "
                                    "what a generated test can call and build, and what is skipped and why.");
  analyzeCmd->add_option("-p,--build-dir", analyze.buildDir, "Folder with compile_commands.json")->required();
  analyzeCmd->add_option("unit", analyze.unit, "Source file of the unit to analyse")->required();
  auto *fn = analyzeCmd->add_option("--function", analyze.function, "Only this function (name or qualified name)");
  auto *cls = analyzeCmd->add_option("--class", analyze.className, "Only this class (its constructors and methods)");
  fn->excludes(cls);
  analyzeCmd->add_option("--json", analyze.jsonOut, "Write the full model as JSON to this file ('-' for stdout)");
  analyzeCmd->add_flag("!--no-project-samples", analyze.projectSamples, kNoProjectSamples);
  analyzeCmd->footer(kExitCodes);

  RunOptions run;
  std::string budget = "30s";
  CLI::App *runCmd = app.add_subcommand(
      "run", "Build the unit's instrumented harness once and run random tests through the fork server until the "
             "budget ends: executions per second, coverage, outcomes, failures with a minimal test each.");
  runCmd->add_option("-p,--build-dir", run.unit.buildDir, "Folder with compile_commands.json")->required();
  runCmd->add_option("unit", run.unit.unit, "Source file of the unit")->required();
  auto *rfn = runCmd->add_option("--function", run.unit.function, "Only call this function");
  auto *rcls = runCmd->add_option("--class", run.unit.className, "Only call this class's constructors and methods");
  rfn->excludes(rcls);
  bool random = true;
  runCmd->add_flag("--random", random, "Random testing (the only strategy of `run`; `generate` searches)");
  runCmd->add_option("--budget", budget, "Time budget: 30s, 2m, 1h (default 30s)");
  runCmd->add_option("--max-executions", run.maxExecutions, "Stop after this many tests");
  runCmd->add_option("--seed", run.seed, "Random seed (default 1): the same seed gives the same tests");
  runCmd->add_option("--json", run.jsonOut, "Write the statistics as JSON to this file");
  runCmd->add_option("--work-dir", run.workDir, "Where harnesses are built and cached (default BUILD_DIR/mosaic)");
  runCmd->add_option("--timeout", run.timeoutMs, "Per-test CPU-time limit in milliseconds (default 1000; sleeping tests end at 10x, at least 1 s)");
  runCmd->add_option("--memory", run.memoryMb, "Per-test memory limit in MiB (default 1024)");
  runCmd->add_flag("--sanitize", run.sanitize, "Build the harness with AddressSanitizer and UBSan");
  runCmd->add_flag("--isolate", run.isolate,
                   "A fresh process for every test (slower where fork is slow; by default a child runs test after "
                   "test with the unit's globals restored, when the unit allows it)");
  runCmd->add_flag("!--no-progress", run.progress, "No live progress line");
  runCmd->add_flag("!--no-project-samples", run.unit.projectSamples, kNoProjectSamples);
  runCmd->footer(kExitCodes);

  GenerateOptions gen;
  std::string genBudget = "60s";
  CLI::App *genCmd = app.add_subcommand(
      "generate", "Search for tests of a unit (DynaMOSA by default) and write them as a GoogleTest suite with a "
                  "CMakeLists.txt; then build it, run it 5 times, repair or remove what fails, and measure its "
                  "coverage with llvm-cov.");
  genCmd->add_option("-p,--build-dir", gen.unit.buildDir, "Folder with compile_commands.json")->required();
  genCmd->add_option("unit", gen.unit.unit, "Source file of the unit")->required();
  genCmd->add_option("-o,--output", gen.outDir, "Folder to write the suite to")->required();
  auto *gfn = genCmd->add_option("--function", gen.unit.function, "Only test this function");
  auto *gcls = genCmd->add_option("--class", gen.unit.className, "Only test this class's constructors and methods");
  gfn->excludes(gcls);
  genCmd->add_option("--algorithm", gen.algorithm, "dynamosa (default), mosa, ws, mio or random");
  genCmd->add_option("--budget", genBudget, "Search time: 60s (default), 2m, 1h");
  genCmd->add_option("--max-executions", gen.maxExecutions, "Stop the search after this many tests");
  genCmd->add_option("--seed", gen.seed, "Random seed (default 1): the same seed gives the same suite");
  genCmd->add_option("--json", gen.jsonOut, "Write statistics as JSON to this file");
  genCmd->add_option("--work-dir", gen.workDir, "Where harnesses are built and cached (default BUILD_DIR/mosaic)");
  genCmd->add_option("--timeout", gen.timeoutMs, "Per-test CPU-time limit in milliseconds (default 100; sleeping tests end at 10x, at least 1 s)");
  genCmd->add_option("--memory", gen.memoryMb, "Per-test memory limit in MiB (default 1024)");
  genCmd->add_flag("--isolate", gen.isolate, "A fresh process for every test");
  genCmd->add_flag("--sanitize", gen.sanitize,
                   "Build the harness with AddressSanitizer and UBSan: memory errors go to the failing suite");
  genCmd->add_flag("!--no-verify", gen.verify, "Write the suite without building and running it");
  genCmd->add_option("--verify-runs", gen.verifyRuns, "Runs of the built suite that must all pass (default 5)");
  genCmd->add_flag("!--no-dynamic-pool", gen.dynamicPool,
                   "Do not seed the search with comparison operands seen at run time");
  genCmd->add_flag("!--no-project-samples", gen.unit.projectSamples, kNoProjectSamples);
  genCmd->add_option("--tests-per-file", gen.testsPerFile, "Tests per file before a test file is split (default 100)")
      ->check(CLI::PositiveNumber);
  genCmd->add_flag("!--no-progress", gen.progress, "No live progress line");
  genCmd->footer(kExitCodes);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    const int code = app.exit(e); // prints help, version, or the error
    return code == 0 ? kExitOk : kExitUsage;
  }

  if (analyzeCmd->parsed()) return runAnalyze(analyze, std::cout, std::cerr);
  if (runCmd->parsed()) {
    const auto seconds = parseDuration(budget);
    if (!seconds) {
      std::cerr << "mosaic: error: --budget '" << budget << "' is not a duration (30s, 2m, 1h)\n";
      return kExitUsage;
    }
    run.budgetSeconds = *seconds;
    return runRandom(run, std::cout, std::cerr);
  }
  if (genCmd->parsed()) {
    const auto seconds = parseDuration(genBudget);
    if (!seconds) {
      std::cerr << "mosaic: error: --budget '" << genBudget << "' is not a duration (60s, 2m, 1h)\n";
      return kExitUsage;
    }
    gen.budgetSeconds = *seconds;
    return generate(gen, std::cout, std::cerr);
  }
  return kExitUsage;
}
