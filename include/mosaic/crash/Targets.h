// Which units a crash's search tries, and with which target frames (issue
// 21; EvoCrash's and Botsing's target frame levels): the deepest frame in a
// unit first, then each unit further up the stack, whose calls lead down
// to the crash when the deepest unit's own functions cannot.
#pragma once

#include "mosaic/crash/CrashGoal.h"
#include "mosaic/crash/ProjectFrames.h"

#include "mosaic/model/Program.h"

#include <string>
#include <vector>

namespace mosaic::crash {

/// One unit a search tries.
struct TargetChoice {
  /// The unit (a compile database file, absolute).
  std::string unit;
  /// The frames to match, from the trace's deepest frame in a unit up to
  /// this unit's; `deepest` is this unit's innermost frame (the line to
  /// reach: the call that leads down, or the crash's own line).
  CrashTarget target;
  /// How many of the trace's frames from its deepest in a unit it takes.
  size_t traceFrames = 0;
};

/// The choices of a placed trace, at most `maxUnits`, deepest first. The
/// frames end at the first outside the project (where the test's calls
/// take their place) or where the trace recurses (a frame it already
/// holds: a stack overflow's cycle, whose depth no test needs to repeat).
/// Empty when no frame is in a unit. Each choice's target.caller is the
/// first frame of the next unit up, also for the last choice when
/// `maxUnits` cut the frames there.
std::vector<TargetChoice> targetChoices(const StackTrace &trace, const PlacedTrace &placed, size_t maxUnits);

/// Where a search's tests enter the trace (search::Variation::guideTo;
/// Botsing's target method): the callables of `offered` (those a test of
/// the unit may call where a program would: its targets that are not the
/// library's inside, and the methods its classes inherit) that the
/// innermost frame naming one of them names (sameFunction on the qualified
/// name), from the trace's deepest frame in a unit outward, up to the
/// first frame outside the project. Empty when no frame names one.
/// muparser's division by zero in the private static ParserInt::Div, under
/// ParserBase::ParseCmdCodeBulk, ..., ParserBase::Eval: the inherited Eval.
std::vector<model::CallableId> entryCallables(const model::Program &program,
                                              const std::vector<model::CallableId> &offered, const PlacedTrace &placed);

} // namespace mosaic::crash
