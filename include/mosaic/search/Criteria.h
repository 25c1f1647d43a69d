// The criteria mosaic knows, by name, in their canonical order: the order
// of a function's goals, whatever order the user lists them in.
#pragma once

#include "mosaic/search/Criterion.h"
#include "mosaic/support/Expected.h"

#include <memory>
#include <string>
#include <vector>

namespace mosaic::search {

using CriterionList = std::vector<std::unique_ptr<const Criterion>>;

/// Every criterion's name, canonical order first to last.
const std::vector<std::string> &criterionNames();
/// Seed 001's criteria that mosaic has, what "all" and "smart" choose from.
const std::vector<std::string> &allCriteria();
/// The criteria on by default (issue 5: all three).
std::vector<std::string> defaultCriteria();
/// The named criteria (names or abbreviations) in canonical order,
/// duplicates once; "all" adds seed 001's criteria (allCriteria()), and
/// "smart", alone, their smart selection (§6.1); an Input error
/// naming the known ones for a name that is none of them, or for none at all.
Expected<CriterionList> makeCriteria(const std::vector<std::string> &names);

// The three criteria of issue 5 (ALGORITHMS.md §1.1):
/// Every function entered (EvoSuite's METHOD coverage, by calls direct or not).
std::unique_ptr<const Criterion> functionCriterion();
/// Every branch side and switch case taken; fitness approach level + ν(branch distance).
/// With `smart`, those of the functions the tests call are passive (Goal::
/// passive: kept when covered, never sought; their direct-branch goals are).
std::unique_ptr<const Criterion> branchCriterion(bool smart = false);
/// Every source line of a block run; fitness the best over its blocks of
/// reaching one. With `minBlockLines` > 1, only the last line of each block
/// spanning at least that many lines (smart selection).
std::unique_ptr<const Criterion> lineCriterion(std::uint32_t minBlockLines = 1);
/// Smart selection's line threshold: seed 001's lineThreshold, the median
/// block size in the DynaMOSA benchmarks (ALGORITHMS.md §6.1).
inline constexpr std::uint32_t kSmartLineThreshold = 8;
/// Every subsuming mutant weakly killed (issue 20, ALGORITHMS.md §6.2):
/// reached with operands on which it computes something else. Needs a
/// harness built with the mutants' probes (Criterion::needsWeakMutation).
std::unique_ptr<const Criterion> weakMutationCriterion();
/// Every branch side of a function the tests call taken in a call the test
/// made directly (seed 001's DBC; Reach::entryPoint).
std::unique_ptr<const Criterion> directBranchCriterion();
/// Every function the tests call called by a test directly (TMC).
std::unique_ptr<const Criterion> topLevelCriterion();
/// ... and returning to the test normally from such a call (NTMC).
std::unique_ptr<const Criterion> noExceptionCriterion();
/// Every way a call of each target ended a test (EC; Failures.cpp): goals
/// found at run time.
std::unique_ptr<const Criterion> failureCriterion();
/// Every class of value each target's result falls in (OC; Outputs.cpp).
std::unique_ptr<const Criterion> outputCriterion();
/// A criterion's name for `name`, which may be one of seed 001's
/// abbreviations (bc, lc, dbc, tmc, ntmc, ec, oc).
std::string canonicalCriterion(const std::string &name);

} // namespace mosaic::search
