// Options: what the user asked for, built once from the command line and
// passed down. There is no global configuration.
#pragma once

#include <string>

namespace mosaic::driver {

/// Exit codes of the mosaic tool (docs/CLI.md).
enum ExitCode : int {
  kExitOk = 0,       ///< done, nothing to report
  kExitFindings = 1, ///< done, and found failing behaviour (crashes, failing tests)
  kExitUsage = 2,    ///< bad flags or bad input: no database, no unit, a parse error
  kExitInternal = 3, ///< mosaic itself failed
};

struct AnalyzeOptions {
  std::string buildDir;  ///< -p: folder with compile_commands.json
  std::string unit;      ///< the source file
  std::string function;  ///< --function: only this function (all overloads)
  std::string className; ///< --class: only this class
  std::string jsonOut;   ///< --json: write the full model here ("-" for stdout)
  /// Seed strings with literals of the project's files that call the unit
  /// (--no-project-samples turns it off, to measure what it brings).
  bool projectSamples = true;
};

} // namespace mosaic::driver
