// `mosaic reproduce`: a unit test that reproduces a crash from its stack
// trace (issue 21; seed 003, EvoCrash and Botsing for C and C++).
#pragma once

#include "mosaic/driver/Generate.h"

#include <iosfwd>
#include <string>

namespace mosaic::driver {

struct ReproduceOptions {
  ReproduceOptions() {
    // Crash reproduction is where seed 003 found BBC best, and it uses it
    // on every tie (ALGORITHMS.md §5.1: no usage limit, no sleep).
    search.secondary = "bbc";
    search.bbcUsage = 100;
  }
  /// The search's options, as `generate` takes them; the unit is the one
  /// the trace's deepest frame in the project is in.
  GenerateOptions search;
  std::string traceFile; ///< --trace
  std::string fitness = "weighted-sum"; ///< --crash-fitness: weighted-sum or st-distance
  /// --crash-guides: goals beside the crash that steer the search where the
  /// crash fitness is flat ("coverage": the goals `generate` seeks by
  /// default, the unit's functions, branch sides and lines; "none", the
  /// default: the crash alone, as EvoCrash). A trace's line in a function
  /// reached only through a function pointer (muParserInt.cpp's Div, called
  /// by the evaluator of another unit) has no approach level to descend;
  /// covering the unit's functions takes the search through the code
  /// around it. Where the crash fitness does lead, a thousand guides take
  /// the population from it: cjson-03 took 2,623 tests alone and 9,170 with
  /// them (bench/results/crashes-2026-12-03-guides).
  std::string guides = "none";
};

/// Reads the trace, places its frames among the compile database's units,
/// searches the deepest frame's unit for a test that fails the same way
/// with the trace's frames of that unit in its stack, and writes it as a
/// GoogleTest death test (with the trace in a comment) in -o. kExitOk when
/// reproduced, kExitFindings when not (the closest attempt is reported),
/// kExitUsage for a trace that cannot be read or placed.
int reproduce(const ReproduceOptions &options, std::ostream &out, std::ostream &err);

} // namespace mosaic::driver
