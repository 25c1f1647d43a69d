// The one source of randomness: seeded explicitly, passed by reference.
#pragma once

#include <cassert>
#include <cstdint>
#include <optional>
#include <random>

namespace mosaic {

/// A seeded pseudo-random generator (std::mt19937_64). The same seed gives
/// the same sequence on every machine: mosaic's runs are reproducible.
class Rng {
public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}

  std::uint64_t next() { return engine_(); }
  /// Uniform in [lo, hi], both included.
  std::int64_t uniform(std::int64_t lo, std::int64_t hi) {
    assert(lo <= hi);
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(engine_);
  }
  /// Uniform index in [0, n); n > 0.
  std::size_t index(std::size_t n) {
    assert(n > 0);
    return static_cast<std::size_t>(std::uniform_int_distribution<std::uint64_t>(0, n - 1)(engine_));
  }
  /// Uniform in [0, 1): the draw's top 53 bits, as libstdc++'s
  /// generate_canonical makes it for this engine but without the long
  /// double logarithm it takes on every call (a tenth of a MOSA selection's
  /// time went there: preference sorting flips a coin per tie).
  double uniform01() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  bool chance(double p) { return uniform01() < p; }
  double gaussian() { return std::normal_distribution<double>(0.0, 1.0)(engine_); }
  /// An index in [0, n) drawn with probability weightOf(k) / the total
  /// (roulette wheel); nullopt, with no draw made, when the total is not
  /// positive. Weights are non-negative.
  template <class Weight> std::optional<std::size_t> weighted(std::size_t n, Weight weightOf) {
    double total = 0;
    for (std::size_t k = 0; k < n; ++k) total += weightOf(k);
    if (!(total > 0)) return std::nullopt;
    double at = uniform01() * total;
    for (std::size_t k = 0; k < n; ++k)
      if ((at -= weightOf(k)) < 0) return k;
    return n - 1; // rounding left `at` at the end of the wheel
  }
  template <class Container> auto &pick(Container &c) { return c[index(c.size())]; }
  template <class Container> const auto &pick(const Container &c) { return c[index(c.size())]; }

private:
  std::mt19937_64 engine_;
};

} // namespace mosaic
