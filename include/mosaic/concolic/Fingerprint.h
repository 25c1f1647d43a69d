// TARDIS's fingerprint of a path condition (seed 004; ALGORITHMS.md §7.1):
// a 16 x 64-bit Bloom-filter matrix over its clauses. Row 0 records each
// clause's abstract form (digits deleted: no constants, no input indices),
// rows 1..15 its concrete form in the column of its abstract one, so that
// conditions alike in shape are near, and alike in values nearer.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace mosaic::concolic {

/// What a fingerprint keeps of a clause: Java's hash of its abstract form
/// (digits deleted) and of its concrete form. Kept instead of the clause's
/// text (up to 4 KB) by the conditions waiting for the solver.
struct ClauseHash {
  std::int32_t abstract = 0, concrete = 0;
  static ClauseHash of(const std::string &clause);
  bool operator==(const ClauseHash &) const = default;
};

class Fingerprint {
public:
  static constexpr int kRows = 16, kColumns = 64; // TARDIS BloomFilter.java

  /// The fingerprint of the clauses (solver::clauseText of a slice).
  static Fingerprint of(const std::vector<std::string> &clauses);
  /// Adds one clause: of(c1..cn) is of(c1..cn-1) with cn added, so the
  /// fingerprints of a condition's prefixes are made in one pass.
  void add(const std::string &clause) { add(ClauseHash::of(clause)); }
  void add(ClauseHash clause);

  /// Jaccard similarity of the set bits, M11 / (M11 + M10 + M01); 0 when
  /// neither has a bit set (ALGORITHMS.md §7.2).
  double similarity(const Fingerprint &other) const;

  bool test(int row, int column) const { return (rows_[static_cast<size_t>(row)] >> column) & 1u; }
  bool operator==(const Fingerprint &) const = default;

private:
  std::array<std::uint64_t, kRows> rows_{};
};

/// Java's String.hashCode over the bytes of `s`, as TARDIS hashes clauses
/// (the clauses here are ASCII, where bytes and UTF-16 units agree).
std::int32_t javaHash(const std::string &s);

} // namespace mosaic::concolic
