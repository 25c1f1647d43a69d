// `mosaic generate`: search for tests of a unit and write them as a
// GoogleTest suite that builds and passes.
#pragma once

#include "mosaic/driver/Options.h"
#include "mosaic/driver/Run.h"
#include "mosaic/search/Criteria.h"
#include "mosaic/search/Search.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace mosaic::driver {

/// `generate` takes every option of `run` (with a 60 s budget and a 100 ms
/// timeout by default), and these.
struct GenerateOptions : RunOptions {
  GenerateOptions() {
    budgetSeconds = 60; // issue 5's default (EvoSuite's search budget is 60 s too)
    // Lower than `run`'s 1 s: a search spends its budget on many short
    // tests, and a test of a unit that takes 100 ms is a hang in all but
    // name (ours).
    timeoutMs = 100;
  }
  std::string outDir;              ///< -o: where the suite is written
  std::string algorithm = "dynamosa"; ///< --algorithm
  /// --grt-components: GRT's components on (search/Grt.h), for ablation.
  std::string grtComponents = "all";
  /// --search-components: GRT's components a search other than grt uses
  /// too (search::parseSearchComponents).
  std::string searchComponents = "none";
  std::vector<std::string> criteria = search::defaultCriteria(); ///< --criteria
  std::string secondary = "length"; ///< --secondary: the tie-break between equally fit tests
  std::uint32_t bbcUsage = 50;       ///< --bbc-usage: percent of ties BBC decides (seed 003's 50%)
  search::SearchOptions search;     ///< --population, --crossover-rate, ... (EvoSuite's defaults)
  search::VariationOptions variation; ///< --p-delete, --max-test-length, ... (EvoSuite's defaults)
  bool verify = true;              ///< build and run the written suite (--no-verify skips)
  /// Comparison operands seen at run time join the constant pool
  /// (--no-dynamic-pool turns it off, to measure what it brings).
  bool dynamicPool = true;
  /// --function-weights FILE: a JSON object of the unit's functions (by
  /// name or qualified name) to a defect-prediction score >= 0 (`mosaic
  /// project` writes it from Schwa at function level); the search calls a
  /// function with the highest score twice as often as one without a score
  /// (1 + score / the highest), so its goals are worked on first and most.
  std::string functionWeights;
  /// Re-run the failures kept and the regression suite once in an ASan +
  /// UBSan harness (--no-sanitizer-check turns it off; moot with --sanitize).
  bool sanitizerCheck = true;
  /// Measure the verified suite's coverage with clang source-based coverage
  /// and llvm-cov (--no-coverage turns it off: one configure, build and run
  /// of the suite fewer, about 6 s of a small unit's generate here, for when
  /// the figure is measured elsewhere, as bench/run does, or not wanted).
  bool coverage = true;
  /// Keep only the assertions a mutant of the unit would notice, and every
  /// call's result (stages::filterAssertions; builds a third harness).
  bool filterAssertions = false;
  /// Measure the suite's coverage of every goal of the eight criteria,
  /// whatever --criteria chose (--measure-criteria; MeasureCriteria.h):
  /// seed 001's comparison of selections. The harness probes the mutants.
  bool measureCriteria = false;
  /// Write the misuse failures too (--misuse-tests), in a suite of their
  /// own; by default they are only counted.
  bool misuseTests = false;
  int verifyRuns = 5;              ///< runs of the built suite that must all pass
  /// The search may stop once a failing test covers every goal (`reproduce`:
  /// the crash is what it seeks); `generate` wants each covered cleanly.
  bool failingTestsCover = false;
  /// The search stops once this goal is covered (search::Budget::
  /// doneWhenCovered): `reproduce`'s crash, ahead of its guiding goals.
  std::optional<std::size_t> doneWhenCovered;
  /// Every test of the search ends with a call of one of these callables
  /// (search::Variation::guideTo): `reproduce`'s entry into the trace's
  /// frames. Empty for generate.
  std::vector<std::uint32_t> entryCalls;
  std::size_t testsPerFile = 100;  ///< --tests-per-file: split test files beyond this
  /// Concolic execution beside the search (--concolic; issue 22): a
  /// symbolic harness, Z3, and the branches to flip chosen by
  /// `concolicSelection` ("knn": TARDIS's classifier; "fifo": the ablation).
  bool concolic = false;
  std::string concolicSelection = "knn";
  unsigned concolicTimeoutMs = 1000; ///< Z3's time per query (--concolic-timeout)
  /// Which branches the concolic side offers to flip (--concolic-flips):
  /// "approach" (toward uncovered sides; past an unsatisfiable flip, its
  /// unsat core, then toward the side or the covered sides its branch is
  /// control dependent on) or "uncovered" (only toward uncovered sides: the
  /// ablation).
  std::string concolicFlips = "approach";
};

/// Returns an ExitCode: kExitFindings when a likely defect was found (a
/// failure of class stages::FailureClass::Defect).
int generate(const GenerateOptions &options, std::ostream &out, std::ostream &err);

} // namespace mosaic::driver
