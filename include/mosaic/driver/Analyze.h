// `mosaic analyze`: the front end's model of a unit, summarised.
#pragma once

#include "mosaic/driver/Options.h"
#include "mosaic/model/Program.h"

#include <iosfwd>

namespace mosaic::driver {

/// Runs the front end on the unit, selects targets, prints a summary to
/// `out` (errors and notes to `err`) and writes the JSON model when asked.
/// Returns an ExitCode.
int runAnalyze(const AnalyzeOptions &options, std::ostream &out, std::ostream &err);

/// The human-readable summary of a model: targets by kind, types by kind,
/// skipped declarations grouped by reason.
void printSummary(const model::Program &program, std::ostream &out);

} // namespace mosaic::driver
