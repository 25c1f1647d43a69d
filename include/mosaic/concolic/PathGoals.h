// Path conditions the solver could not decide, as goals of the search
// (issue 22; SUSHI's path-condition fitness, ALGORITHMS.md §7.4). When Z3
// times out (or gives up) on flipping a branch toward an uncovered side,
// the flipped path condition becomes a goal: its fitness is the SUSHI
// distance of the condition on a test's own values, so the search climbs
// toward inputs that satisfy it; it is covered when a run takes the side
// the flip was for. A criterion like the others (Criterion.h), whose goals
// appear while the search runs (Criterion::discover).
#pragma once

#include "mosaic/testcase/TestCase.h"
#include "mosaic/search/Criterion.h"
#include "mosaic/solver/PathCondition.h"

#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace mosaic::concolic {

/// One undecided path condition: what it was flipped toward and where its
/// input bytes sit in a test.
struct UndecidedPath {
  solver::PathGoal goal;
  std::vector<solver::InputByte> inputs; ///< the bytes the goal reads, in its order (PathGoal::inputs)
  std::uint32_t side = 0;                ///< the branch side the flip was for
  std::uint32_t function = 0;            ///< its function (UnitDescription::functions)
  std::uint32_t line = 0;
  std::string label;                     ///< "path condition 2 to words.c:33:7 true (number)"
  /// The statements its input bytes sit in, as the test it came from had
  /// them (index, kind, type): a test whose statements there differ (the
  /// search inserted or removed some) says nothing about it.
  std::vector<std::tuple<std::uint32_t, testcase::Op, model::TypeId>> shape;
};

/// The path condition of flipping constraint `flip` of `trace`, keeping
/// `keep`, as traced from `test`: its goal, the input bytes it reads and
/// the shape of `test` where they sit. The side, function, line and label
/// are the caller's to fill.
UndecidedPath undecidedPath(const solver::SymbolicTrace &trace, const std::vector<std::size_t> &keep, std::size_t flip,
                            const testcase::TestCase &test);
/// Whether `test` has `path`'s shape.
bool sameShape(const testcase::TestCase &test, const UndecidedPath &path);

/// The undecided conditions, shared by the concolic side (which adds them)
/// and the criterion (which makes them goals).
class UndecidedPaths {
public:
  /// Adds one; it becomes a goal at the search's next run.
  void add(UndecidedPath path);
  std::size_t size() const { return paths_.size(); }
  const UndecidedPath &operator[](std::size_t i) const { return paths_[i]; }
  /// The ones not yet handed out as goals; marks them handed out.
  std::vector<std::uint32_t> takeNew();

private:
  std::vector<UndecidedPath> paths_;
  std::size_t handedOut_ = 0;
};

/// The input bytes of `path` with the values test `test` has for them: a
/// primitive's byte, a string's or buffer's byte; the run's value where the
/// test has none (a call's result, a byte past a shorter string, a
/// statement of another kind).
std::vector<std::uint8_t> inputValues(const testcase::TestCase &test, const UndecidedPath &path);

/// The criterion "path-condition": no goals until the concolic side adds
/// undecided conditions to `paths`.
std::unique_ptr<const search::Criterion> pathConditionCriterion(std::shared_ptr<UndecidedPaths> paths);

} // namespace mosaic::concolic
