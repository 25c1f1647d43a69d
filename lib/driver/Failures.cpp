// Failures and the dynamic pool (see Failures.h).
#include "Failures.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace mosaic::driver {

// What identifies a failure: its outcome (and signal) and the callable it
// happened in.
std::string crashKey(const exec::RunResult &r, const std::string &where) {
  return fmt::format("{}/{}/{}", exec::toString(r.outcome), r.signal, where);
}

std::string whereOf(const model::Program &p, const testcase::TestCase &t, int statement) {
  if (statement < 0 || static_cast<size_t>(statement) >= t.statements.size()) return "(after the last statement)";
  const testcase::Statement &s = t.statements[statement];
  if (s.op == testcase::Op::Call || s.op == testcase::Op::MethodCall || s.op == testcase::Op::Construct)
    return p.callable(s.callable).qualifiedName;
  return "(building a value)";
}

bool isFailure(exec::Outcome o) {
  return o != exec::Outcome::Ok && o != exec::Outcome::HarnessError;
}

void recordFailure(std::map<std::string, Crash> &crashes, const model::Program &p, const testcase::TestCase &t,
                   const exec::RunResult &r, const exec::Trace &trace) {
  const std::string where = whereOf(p, t, r.statement);
  Crash &c = crashes[crashKey(r, where)];
  if (c.count++ == 0 || t.statements.size() < c.test.statements.size()) {
    c.test = t;
    c.result = r;
    c.where = where;
    c.output = std::string(trace.output());
  }
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

// Confirms a failure in a fresh process of its own (a persistent child may
// carry state from earlier tests), then removes statements from the end
// backwards while the failure stays the same (delta debugging in its
// simplest form).
void minimiseFailure(const model::Program &p, exec::ForkServer &server, exec::Limits limits, Crash &crash, int &runs) {
  constexpr int kMaxRuns = 200; // per failure; ours
  limits.persistent = false;
  const std::string key = crashKey(crash.result, crash.where);
  auto same = [&](const testcase::TestCase &t) {
    ++runs;
    auto r = server.run(testcase::encode(t), limits);
    return r && crashKey(*r, whereOf(p, t, r->statement)) == key;
  };
  if (!same(crash.test)) {
    crash.reproducible = false;
    return;
  }
  for (size_t i = crash.test.statements.size(); i-- > 0 && runs < kMaxRuns;) {
    if (i >= crash.test.statements.size()) continue;
    testcase::TestCase candidate = testcase::withoutStatement(crash.test, i);
    if (!candidate.statements.empty() && same(candidate)) crash.test = std::move(candidate);
  }
}

} // namespace mosaic::driver
