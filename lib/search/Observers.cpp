// Observers shared by every subcommand (Observers.h).
#include "mosaic/search/Observers.h"

#include <algorithm>
#include <set>
#include <string>

namespace mosaic::search {

void CoverageTimeline::evaluated(const Evaluator &e, const Evaluation &ev) {
  if (!ev.searching) return;
  statements_ += ev.test.statements.size();
  testMicros_ += ev.run.result.durationUs;
  const double elapsed = e.budget().elapsed();
  const Archive &archive = e.archive();
  if (archive.coveredCount() != coveredSeen_) {
    coveredSeen_ = archive.coveredCount();
    if (firstCovered_.size() < archive.size()) firstCovered_.resize(archive.size(), -1.0); // goals found meanwhile
    for (size_t g = 0; g < firstCovered_.size(); ++g)
      if (firstCovered_[g] < 0 && archive.covered(g)) firstCovered_[g] = elapsed;
  }
  if (elapsed >= nextSample_) {
    samples_.push_back({elapsed, e.executions(), archive.coveredCount(), statements_, testMicros_ / 1e6});
    nextSample_ = elapsed + 1.0; // one sample a second
  }
}

void CoverageTimeline::finished(const Evaluator &e) {
  samples_.push_back({e.budget().elapsed(), e.executions(), e.archive().coveredCount(), statements_, testMicros_ / 1e6});
}

void DynamicPoolFeeder::evaluated(const Evaluator &, const Evaluation &ev) {
  if (ev.trace) harvest(*ev.trace, pool_, &ev.test);
}

namespace {

// A text byte: printable ASCII or the whitespace a parser skips.
bool isTextByte(std::uint64_t b) { return (b >= 0x20 && b < 0x7f) || (b >= '\t' && b <= '\r'); }

// An integer a comparison met, as a dictionary token when its bytes read as
// text: a character compared with (`*s == '<'`), or the little-endian bytes
// of a wider constant (a four-byte tag compared at once). Other values are
// no token.
void addIfText(testcase::ConstantPool &pool, std::int64_t v) {
  auto u = static_cast<std::uint64_t>(v);
  if (u == 0) return;
  std::string bytes;
  for (; u != 0; u >>= 8) {
    if (!isTextByte(u & 0xffu)) return;
    bytes.push_back(static_cast<char>(u & 0xffu));
  }
  pool.addToken(bytes);
}

} // namespace

// Feeds what the unit compared its inputs with into the dynamic pool. An
// operand equal to a value the test itself supplied is the input side of
// the comparison, not what the unit wanted: it is left out, so the pool
// holds the unit's constants rather than every random input (ours; EvoSuite
// and Pynguin add both operands).
void harvest(const exec::Trace &trace, testcase::ConstantPool &pool, const testcase::TestCase *test) {
  std::set<std::int64_t> suppliedInts;
  std::set<std::string> suppliedStrings;
  if (test)
    for (const testcase::Statement &st : test->statements) {
      if (st.op == testcase::Op::Primitive) suppliedInts.insert(static_cast<std::int64_t>(st.bits));
      if (st.op == testcase::Op::CString || st.op == testcase::Op::StdString || st.op == testcase::Op::Buffer)
        suppliedStrings.insert(st.bytes.substr(0, MOSAIC_STR_BYTES));
    }
  auto addInt = [&](std::int64_t v, std::int64_t other) {
    if (!suppliedInts.count(v) || suppliedInts.count(other)) pool.addInteger(v, true);
  };
  for (const mosaic_cmp_entry &c : trace.comparisons()) {
    if (c.flags & MOSAIC_CMP_FLOAT) {
      pool.addFloat(testcase::doubleOf(c.a), true);
      pool.addFloat(testcase::doubleOf(c.b), true);
      continue;
    }
    const unsigned width = (c.flags >> MOSAIC_CMP_WIDTH_SHIFT) & 0xffu;
    auto value = [&](std::uint64_t v) -> std::int64_t {
      if (width == 0 || width >= 64) return static_cast<std::int64_t>(v);
      const std::uint64_t m = std::uint64_t{1} << (width - 1);
      v &= (m << 1) - 1;
      return (c.flags & MOSAIC_CMP_SIGNED) ? static_cast<std::int64_t>((v ^ m) - m) : static_cast<std::int64_t>(v);
    };
    addInt(value(c.a), value(c.b));
    addInt(value(c.b), value(c.a));
    addIfText(pool, value(c.a));
    addIfText(pool, value(c.b));
  }
  for (const mosaic_str_entry &s : trace.strings()) {
    const std::string a(s.a, std::min<std::uint32_t>(s.len_a, MOSAIC_STR_BYTES));
    const std::string b(s.b, std::min<std::uint32_t>(s.len_b, MOSAIC_STR_BYTES));
    if (!suppliedStrings.count(a) || suppliedStrings.count(b)) pool.addString(a, true);
    if (!suppliedStrings.count(b) || suppliedStrings.count(a)) pool.addString(b, true);
  }
}

} // namespace mosaic::search
