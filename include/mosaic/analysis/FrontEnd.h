// The Clang front end: one unit of a real project -> its program model.
//
// The only component that includes Clang (tests/architecture checks it).
#pragma once

#include "mosaic/model/Program.h"
#include "mosaic/support/Expected.h"

#include <string>

namespace mosaic::analysis {

struct FrontEndOptions {
  std::string buildDir; ///< folder holding compile_commands.json, or the file itself
  std::string unit;     ///< the source file to analyse
  /// Collect Program::samples from the project's other source files
  /// (analysis/ProjectSamples.h).
  bool projectSamples = true;
};

/// Parses `unit` with the project's own flags (as adjusted by
/// CompileDatabase.h) and builds its program model; targets are not selected
/// yet (model/Derive.h). Fails with an Input error, carrying Clang's
/// diagnostics as detail, when the unit cannot be found or does not parse.
Expected<model::Program> analyzeUnit(const FrontEndOptions &options);

} // namespace mosaic::analysis
