// --measure-criteria: the coverage of all eight criteria by a suite's
// tests, whatever criteria the search was given, as seed 001 measures
// every suite it compares (ALGORITHMS.md §6).
#pragma once

#include "Executors.h"
#include "Session.h"
#include "mosaic/testcase/TestCase.h"

#include <string>
#include <vector>

namespace mosaic::driver {

/// One criterion's goals (every goal of it: no selection) and those the
/// tests cover. Exception goals exist only once a run shows them, so for
/// that criterion `covered` equals `total`: the failure kinds reached.
struct MeasuredCriterion {
  std::string name;
  size_t covered = 0, total = 0;
};

/// Runs each of `tests` once more on `session`'s fork server (which must
/// probe the mutants: SessionOptions::weakMutation) with `limits`, each in
/// a fresh process, and counts the goals of `--criteria all` they cover.
/// A test that cannot run covers nothing.
std::vector<MeasuredCriterion> measureCriteria(Session &session, exec::Limits limits,
                                               const std::vector<const testcase::TestCase *> &tests);

/// "branch 40/48 (83.3%), line ..." for the report.
std::string measuredSummary(const std::vector<MeasuredCriterion> &measured);

} // namespace mosaic::driver
