// `mosaic project`: every unit of a project, each searched by `mosaic
// generate` in a worker process with a budget from defect prediction
// (BADS over Schwa's scores, seed 000), each unit's result stored as it
// finishes, one CMakeLists.txt over every unit's suite.
#pragma once

#include "mosaic/driver/Options.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace mosaic::driver {

struct ProjectOptions {
  AnalyzeOptions unit;                 ///< -p (buildDir)
  std::string outDir;                  ///< -o
  double budgetSeconds = 0;            ///< --budget: the whole project's search time (0: per unit)
  double budgetPerUnitSeconds = 60;    ///< --budget-per-unit: the average a unit gets when --budget is 0
  std::uint64_t jobs = 1;              ///< -j: units searched at once
  std::vector<std::string> include;    ///< --include: globs over paths relative to the project (none: every unit)
  std::vector<std::string> exclude;    ///< --exclude: globs over the same paths
  std::string allocation = "bads";     ///< --allocation: bads or even
  std::uint64_t seed = 1;              ///< --seed: every unit's search seed
  /// --max-executions: each unit's search also ends after this many test
  /// executions (0: no bound), so that a run repeats exactly whatever the
  /// machine's speed (with --seed).
  std::uint64_t maxExecutions = 0;
  bool includeTests = false;           ///< --include-tests: tests, fuzzers, examples and tools are units too
  /// --function-weights: Schwa at function level passed to each unit's
  /// search (generate --function-weights). Off by default: measured without
  /// a gain on cJSON.c (bench/results/function-weights-2026-11-27).
  bool functionWeights = false;
  bool verify = true;                  ///< --no-verify: the suites are written, not built and run
  bool progress = true;                ///< --no-progress
  /// --dry-run: print each unit's score and budget and write them to
  /// OUT/plan.json, without running any unit.
  bool dryRun = false;
  /// --shard I/N: only this process's part of the units (Shards.h; also
  /// from a Slurm job array's or a Kubernetes Indexed Job's environment).
  std::string shard;
  std::vector<std::string> merge;      ///< --merge: shard outputs to combine into -o, instead of a run
};

/// Runs the project's units (the compile database's library code, then
/// --include and --exclude) in `jobs` worker processes, each `mosaic
/// generate` for its budget into OUT/units/<id>, and keeps OUT/project.json
/// up to date as units finish: a later run with the same inputs (the
/// unit's file, the project's headers, its compile command, mosaic's
/// version and these options) skips a unit already done, so an interrupted
/// run resumes. Writes OUT/CMakeLists.txt over every unit's suite (CTest
/// runs them all). With a shard, only its part of the units, split so that
/// every shard gets about the same search time; with `merge`, the shards'
/// outputs are combined into one. kExitFindings when a unit found a likely
/// defect, kExitUsage for a bad database or options, kExitOk otherwise.
int project(const ProjectOptions &options, std::ostream &out, std::ostream &err);

} // namespace mosaic::driver
