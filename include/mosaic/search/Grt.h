// Guided random testing (seed 002, GRT; ALGORITHMS.md §4): Randoop's
// feedback-directed loop (extend sequences that ran normally, keep the new
// ones that run normally as building blocks) steered by six cheap
// analyses, each switchable for ablation. The parts the loop is made of are
// here so that each can be tested alone; the loop is makeGrt (Algorithms.h).
#pragma once

#include "mosaic/search/Execution.h"
#include "mosaic/support/Expected.h"
#include "mosaic/support/Random.h"
#include "mosaic/testcase/ConstantPool.h"
#include "mosaic/testcase/TestCase.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mosaic::search {

/// The six components (all on by default) and their parameters, with
/// Randoop's GRT values (ALGORITHMS.md §4) unless noted.
struct GrtOptions {
  bool constantMining = true; ///< the unit's literals, weighted by TF-IDF, as inputs
  bool impurity = true;       ///< fuzz reused inputs; a mutating call on a reused object
  bool elephantBrain = true;  ///< pool values by what made them, not only their declared type
  bool detective = true;      ///< build a missing argument from its producers on demand
  bool orienteering = true;   ///< prefer cheap sequences: 1 / (time × √size)
  bool bloodhound = true;     ///< prefer callables with uncovered branches and few successes
  /// Constant mining: the probability that an input is a mined literal
  /// (Randoop's --literal-tfidf-probability, p_const = 0.01, is for Java's
  /// many class-level literals; a C unit's are fewer and each guards code,
  /// so ours is EvoSuite's seeded-constant share, 0.5, with p_const for the
  /// callable's own literals: ALGORITHMS.md §4.1).
  double minedShare = 0.5;
  double localConstantProbability = 0.01;
  double fuzzStddev = 30; ///< impurity: numbers + N(0, σ²), σ = 30 (--grt-fuzzing-stddev)
  /// Impurity: a mutating call on a reused object before its use (ours: the
  /// paper gives no rate; half of the reuses).
  double mutateBeforeReuse = 0.5;
  double alpha = 0.9; ///< bloodhound: weight of the uncovered ratio against successes
  double p = 0.99;    ///< bloodhound: decay of a callable's weight with its selections since the last update
  /// Bloodhound's update period, a share of the budget: the paper's t = 50 s
  /// of its longest budget, 600 s (scaled so that a 60 s run updates 12 times).
  double updateShare = 50.0 / 600.0;
  /// Null for a pointer argument no pooled value fits, without the
  /// detective (Randoop's --null-ratio default, 0.05).
  double nullRatio = 0.05;
};

/// `names`: a comma-separated list of components to keep on ("all",
/// "none", or any of constant-mining, impurity, elephant-brain, detective,
/// orienteering, bloodhound); the others are off.
Expected<GrtOptions> parseGrtComponents(const std::string &names, GrtOptions base = {});
/// The names of the components on, comma-separated ("none" when none).
std::string grtComponentNames(const GrtOptions &options);

/// Bloodhound's weight of one callable (ALGORITHMS.md §4.6): w(m, 0) =
/// α·uncovRatio + (1−α)·(1 − succ/maxSucc); after k ≥ 1 selections since
/// the last update, max((−3/ln(1−p))·p^k/k, 1/ln(|M|+3))·w(m, 0).
double bloodhoundWeight(double uncoveredRatio, double successes, double maxSuccesses, std::uint64_t k,
                        std::size_t callables, double alpha, double p);
/// Its two factors: w(m, 0), and the decay after k selections (1 at k = 0).
double bloodhoundBase(double uncoveredRatio, double successes, double maxSuccesses, double alpha);
double bloodhoundDecay(std::uint64_t k, std::size_t callables, double p);

/// Orienteering's weight of a pooled sequence: 1 / (Σ time of its
/// statements × √size) (the paper's; ALGORITHMS.md §4.5), with the time in
/// microseconds and at least 1 µs, so that a sequence too fast to measure
/// is not infinitely preferred.
double orienteeringWeight(const Execution &run, std::size_t size);

/// Impurity on a number: v + N(0, σ²), cast back to the type's width and
/// signedness (`bits`, `isSigned`); a floating value (`floating`) stays one.
std::uint64_t fuzzNumber(std::uint64_t value, unsigned bits, bool isSigned, bool floating, double stddev, Rng &rng);
/// Impurity on a string: one of insert a printable character (32–126),
/// remove one, replace one, or take a substring, chosen uniformly.
std::string fuzzString(const std::string &s, Rng &rng);

/// Constant mining's global selection on `pool`'s static literals (those
/// of `program`, ConstantPool::addStatic): each weighted by tfIdf, its term
/// frequency the number of the unit's callables that use it, the documents
/// the project's source files and the unit (model::Program::literalDocuments).
/// GRT's own, and DynaMOSA's and the other searches' with
/// `--search-components constant-mining`.
void weighLiteralsByTfIdf(testcase::ConstantPool &pool, const model::Program &program);

/// `names` for a search other than GRT (--search-components): "none" or
/// the GRT components it can use: constant-mining and bloodhound (the
/// detective's on-demand building is every search's own already).
Expected<GrtOptions> parseSearchComponents(const std::string &names);

/// TF-IDF weights of literals (constant mining's global selection,
/// ALGORITHMS.md §4.1): `tf` occurrences in the unit, `documents` the
/// project's units, `containing` how many of them hold the literal:
/// tf·log((|D|+1)/(|D|+1−containing)).
double tfIdf(double tf, std::size_t documents, std::size_t containing);

} // namespace mosaic::search
