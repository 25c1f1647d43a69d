// BADS budget allocation (Bads.h).
#include "mosaic/predict/Bads.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace mosaic::predict {

std::vector<double> allocateEven(std::size_t units, double total) {
  return std::vector<double>(units, units ? total / static_cast<double>(units) : 0.0);
}

std::vector<double> allocateBads(const std::vector<double> &probabilities, double total, double predictionSeconds,
                                 const BadsOptions &o) {
  const std::size_t n = probabilities.size();
  std::vector<double> out(n, 0.0);
  if (n == 0) return out;
  // Most defective first; equal ones in their given order.
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return probabilities[a] != probabilities[b] ? probabilities[a] > probabilities[b] : a < b;
  });
  const auto n1 = std::min(n, static_cast<std::size_t>(std::ceil(o.tierShare * static_cast<double>(n))));
  const std::size_t n2 = n - n1;
  // The tiers' totals in the paper's proportion (1.8 : 0.2 a unit), also
  // when they differ in size (odd N).
  const double weight1 = o.tier1Average * static_cast<double>(n1), weight2 = o.tier2Average * static_cast<double>(n2);
  const double total1 = total * weight1 / (weight1 + weight2), total2 = total - total1;
  struct Tier {
    std::size_t from, size;
    double total, minimum, prediction;
  };
  // T_DP is split by the tiers' totals (the paper: by their sizes), so
  // that no tier is left less than nothing when T_DP exceeds its total.
  const double prediction = std::clamp(predictionSeconds, 0.0, total);
  const Tier tiers[] = {
      {0, n1, total1, n1 ? total1 / static_cast<double>(n1) * o.tier1Minimum / o.tier1Average : 0,
       total > 0 ? prediction * total1 / total : 0},
      {n1, n2, total2, n2 ? total2 / static_cast<double>(n2) * o.tier2Minimum / o.tier2Average : 0,
       total > 0 ? prediction * total2 / total : 0},
  };
  for (const Tier &t : tiers) {
    if (t.size == 0) continue;
    const double size = static_cast<double>(t.size);
    const double variable = t.total - size * t.minimum - t.prediction;
    if (variable <= 0) { // nothing left to weight: the tier is split equally (the code's rule)
      for (std::size_t k = 0; k < t.size; ++k) out[order[t.from + k]] = std::max(0.0, (t.total - t.prediction) / size);
      continue;
    }
    std::vector<double> w(t.size);
    for (std::size_t k = 0; k < t.size; ++k) {
      const double r = t.size > 1 ? static_cast<double>(k) / (size - 1) : 0.0; // rank within the tier, normalised
      w[k] = o.ea + o.eb * std::exp(o.ec * r);
    }
    const double sum = std::accumulate(w.begin(), w.end(), 0.0);
    for (std::size_t k = 0; k < t.size; ++k) out[order[t.from + k]] = w[k] / sum * variable + t.minimum;
  }
  return out;
}

} // namespace mosaic::predict
