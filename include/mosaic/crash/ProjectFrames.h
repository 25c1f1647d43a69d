// A trace's frames placed in a project (issue 21): which are the project's
// units (source files its compile database builds), which are elsewhere in
// the project (its headers), which are outside it (the C library, the
// sanitizer's runtime, libFuzzer, the STL). A trace often comes from
// another machine (a CI runner, OSS-Fuzz: /src/cjson/cJSON.c) or names
// files as the compiler was given them (seg.c): a file is matched by its
// longest path suffix that names one project file alone.
#pragma once

#include "mosaic/crash/Trace.h"

#include <optional>
#include <string>
#include <vector>

namespace mosaic::crash {

enum class Place {
  Unit,     ///< a source file of the compile database
  Project,  ///< another file under the project's root (a header)
  External, ///< outside the project, or no file named
};

struct PlacedFrame {
  TraceFrame frame;
  Place place = Place::External;
  /// Unit: the database's file (absolute); Project: the file under the root.
  std::string file;
};

struct PlacedTrace {
  std::vector<PlacedFrame> frames; ///< all of the trace's, innermost first
  /// Index of the innermost frame in a unit (where the search starts), if any.
  std::optional<size_t> deepestUnitFrame() const;
  /// The frames in the project (units and headers), innermost first: the
  /// frames a reproduction must match.
  std::vector<PlacedFrame> projectFrames() const;
};

/// Places `trace`'s frames among `units` (the compile database's source
/// files, absolute) and the files under `root` (the project's folder; ""
/// when unknown).
PlacedTrace placeFrames(const StackTrace &trace, const std::vector<std::string> &units, const std::string &root);

} // namespace mosaic::crash
