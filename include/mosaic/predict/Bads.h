// BADS: a total search budget split across units by their predicted
// defectiveness (seed 000, Alg. 1; ALGORITHMS.md §3.2).
#pragma once

#include <cstddef>
#include <vector>

namespace mosaic::predict {

struct BadsOptions {
  /// The weight of normalised rank r' (0 the most defective): e_a + e_b
  /// e^(e_c r'), the published constants (confirmed by the code's configs).
  double ea = 0.02393705, eb = 0.9731946, ec = -10.47408;
  /// Tier 1 is the top ceil(tierShare N) units.
  double tierShare = 0.5;
  /// Per unit, as multiples of the average budget T/N: tier 1's units get
  /// 1.8 on average with at least 1, tier 2's 0.2 each (the paper's T = 15N:
  /// 27 s and 3 s per unit, t_min 15 s and 3 s; T = 30N: 54 and 6, 30 and 6).
  double tier1Average = 1.8, tier1Minimum = 1.0, tier2Average = 0.2, tier2Minimum = 0.2;
};

/// The seconds each unit gets of `total`, given their probabilities of
/// being defective (same order; only their order counts, so Schwa's s,
/// which does not saturate at 1.0 as 1 - e^-s does in a double, serves too). `predictionSeconds` (T_DP) is taken from
/// the total, split between the tiers by their totals (the paper: by their
/// sizes, which can leave a small tier less than nothing). Units of equal
/// probability keep their order among themselves.
std::vector<double> allocateBads(const std::vector<double> &probabilities, double total, double predictionSeconds = 0,
                                 const BadsOptions &options = {});

/// `total` split evenly: the ablation, and what a project without history gets.
std::vector<double> allocateEven(std::size_t units, double total);

} // namespace mosaic::predict
