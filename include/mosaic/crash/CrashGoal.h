// The goal of a crash's search (issue 21): a search::Criterion with one
// goal at the trace's deepest frame in the unit, whose fitness is the
// WeightedSum (or STDistance) of Fitness.h over a run. The algorithms, archive and stages
// see an ordinary goal; covered means reproduced (fitness 0): the line
// reached, the same kind of failure, the trace's project frames in the
// run's stack in order.
#pragma once

#include "mosaic/crash/Fitness.h"
#include "mosaic/crash/Trace.h"
#include "mosaic/search/Criterion.h"
#include "mosaic/search/Execution.h"

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace mosaic::crash {

struct CrashTarget {
  FailureKind kind;
  /// The trace's frames in the project, innermost first, their files as
  /// this machine has them (placeFrames).
  std::vector<exec::Frame> frames;
  /// The deepest frame in the unit: the line the search must reach.
  exec::Frame deepest;
  /// What the search minimises; either way the goal is covered by the same
  /// runs (the line reached, the same failure, the frames in order).
  CrashFitness fitness = CrashFitness::WeightedSum;
  /// The trace's frame in the project right above `frames`, when the trace
  /// entered them from there (a caller in another unit): the program did
  /// not call the outermost target frame's function itself.
  std::optional<exec::Frame> caller = std::nullopt;
  /// The unit's callables (model ids) that are the library's inside
  /// (testcase::Catalog::internalCallable). With a `caller`, a run that
  /// fails in a call of one of them entered where the trace's program did
  /// not: it reproduces only with the caller's frame in its stack too (which
  /// such a call does not have), as generate's classification calls a
  /// failure reached only through the library's inside misuse.
  std::vector<std::uint32_t> insideEntries = {};
};

/// A run's stack, named, its frames in the project only, innermost first
/// (the driver's FailureStacks: the harness's recorded stack, or the
/// frames of the sanitizer's report).
using RunFrames = std::function<std::vector<exec::Frame>(const search::Execution &)>;

/// How a run failed, in a trace's terms (a Sanitizer run's class from its
/// report).
RunFailure runFailure(const search::Execution &e);

/// The crash criterion: one goal in the description's function that holds
/// the deepest frame's line (none when no function does), named "crash".
std::unique_ptr<const search::Criterion> crashCriterion(CrashTarget target, RunFrames frames);

/// The parts of a run's crash fitness, for reports ("reached the line,
/// failed otherwise, 2 of 3 frames").
struct CrashDistance {
  double ds = 1, de = 1, dtr = 1;
  /// The run failed in a call of one of the target's insideEntries, with a
  /// caller to match: d_tr counts the caller's frame.
  bool enteredInside = false;
  double total() const;
};
CrashDistance crashDistance(const CrashTarget &target, const search::Goal &goal, const search::Execution &e,
                            const search::Reach &reach, const RunFrames &frames);

} // namespace mosaic::crash
