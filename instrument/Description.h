// The static description of an instrumented unit (format: model/Description.h).
#pragma once

#include "Layout.h"

#include <string>

namespace mosaic::instrument {

/// Writes the description of `layout` as JSON to `path`: per function its
/// blocks (lines, successors, control dependences), branches (sides, source
/// location) and CFG diameter. Must run before the IR is instrumented.
/// Returns false (after a message on stderr) when the file cannot be written.
bool writeDescription(const ModuleLayout &layout, const std::string &unit, const std::string &path);

} // namespace mosaic::instrument
