// Secondary objectives (ALGORITHMS.md §1.3-1.4): which of two tests with
// the same fitness for a goal is better. The archive (which test to keep
// for a covered goal), MOSA/DynaMOSA's preference sorting (which test leads
// front 0 for a goal) and MIO (which member of a goal's population to
// replace) all ask one SecondaryObjective. Test length is today's
// (EvoSuite's TOTAL_LENGTH); basic-block coverage (§5.1) comes next.
#pragma once

#include "mosaic/search/Execution.h"
#include "mosaic/support/Expected.h"
#include "mosaic/testcase/TestCase.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mosaic::search {

class Goals;

/// A test and its run, as an objective compares them.
struct Scored {
  const testcase::TestCase &test;
  const Execution &run;
};

class SecondaryObjective {
public:
  virtual ~SecondaryObjective() = default;
  /// Its name on the command line (--secondary).
  virtual std::string_view name() const = 0;
  /// For goal `goal` (an index into Goals), with a and b equally fit for
  /// it: negative when a is better, positive when b is, 0 when neither. A
  /// strict weak order per goal: compare(g, a, a) == 0, and the sign flips
  /// with the arguments.
  virtual int compare(size_t goal, const Scored &a, const Scored &b) const = 0;
};

/// The shorter test is better (fewer statements).
std::unique_ptr<const SecondaryObjective> shorterTest();

/// Every secondary objective's name.
const std::vector<std::string> &secondaryNames();
/// The objective named `name` for `goals`; a Usage error for an unknown name.
Expected<std::unique_ptr<const SecondaryObjective>> makeSecondary(const std::string &name, const Goals &goals);

} // namespace mosaic::search
