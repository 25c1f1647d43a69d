// TARDIS's Bloom-filter fingerprint (Fingerprint.h).
#include "mosaic/concolic/Fingerprint.h"

#include <bit>
#include <cctype>

namespace mosaic::concolic {

namespace {

// JDK 7's HashMap.hash, which TARDIS applies to each hash (ALGORITHMS.md
// §7.1): spreads the high bits into the low ones the modulo keeps.
std::uint32_t spread(std::uint32_t h) {
  h ^= (h >> 20) ^ (h >> 12);
  return h ^ (h >> 7) ^ (h >> 4);
}

// H(|31p + hash|) mod m, in Java's 32-bit arithmetic; the remainder taken
// non-negative (Java's % of Math.abs(Integer.MIN_VALUE) would be negative).
int slot(int p, std::int32_t hash, int m) {
  const std::int32_t sum = static_cast<std::int32_t>(31u * static_cast<std::uint32_t>(p) + static_cast<std::uint32_t>(hash));
  const std::int32_t abs = sum < 0 ? static_cast<std::int32_t>(0u - static_cast<std::uint32_t>(sum)) : sum;
  const std::int32_t h = static_cast<std::int32_t>(spread(static_cast<std::uint32_t>(abs)));
  return ((h % m) + m) % m;
}

std::string withoutDigits(const std::string &s) {
  std::string out;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) out += c;
  return out;
}

} // namespace

std::int32_t javaHash(const std::string &s) {
  std::uint32_t h = 0;
  for (unsigned char c : s) h = 31u * h + c;
  return static_cast<std::int32_t>(h);
}

Fingerprint Fingerprint::of(const std::vector<std::string> &clauses) {
  Fingerprint f;
  for (const std::string &c : clauses) f.add(c);
  return f;
}

ClauseHash ClauseHash::of(const std::string &clause) { return {javaHash(withoutDigits(clause)), javaHash(clause)}; }

void Fingerprint::add(ClauseHash clause) {
  for (int p : {7, 11, 13}) { // TARDIS's three hash seeds
    const int column = slot(p, clause.abstract, kColumns);
    const int row = 1 + slot(p, clause.concrete, kRows - 1);
    rows_[0] |= 1ull << column;
    rows_[static_cast<size_t>(row)] |= 1ull << column;
  }
}

double Fingerprint::similarity(const Fingerprint &other) const {
  int both = 0, either = 0;
  for (int r = 0; r < kRows; ++r) {
    both += std::popcount(rows_[static_cast<size_t>(r)] & other.rows_[static_cast<size_t>(r)]);
    either += std::popcount(rows_[static_cast<size_t>(r)] | other.rows_[static_cast<size_t>(r)]);
  }
  return either == 0 ? 0.0 : static_cast<double>(both) / either;
}

} // namespace mosaic::concolic
