// The one source of randomness: seeded explicitly, passed by reference.
#pragma once

#include <cassert>
#include <cstdint>
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
  template <class Container> auto &pick(Container &c) { return c[index(c.size())]; }
  template <class Container> const auto &pick(const Container &c) { return c[index(c.size())]; }

private:
  std::mt19937_64 engine_;
};

} // namespace mosaic
