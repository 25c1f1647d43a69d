// Runs known from the statements a test begins with (StoppedPrefixes.h).
#include "mosaic/search/StoppedPrefixes.h"

#include <algorithm>
#include <functional>

namespace mosaic::search {

namespace {

// boost::hash_combine's mixing step, on 64 bits.
std::uint64_t combine(std::uint64_t seed, std::uint64_t v) {
  return seed ^ (v + 0x9e3779b97f4a7c15ull + (seed << 12) + (seed >> 4));
}

// The hash of statements [0, k] from that of [0, k - 1].
std::uint64_t extend(std::uint64_t prefix, const testcase::Statement &s) { return combine(prefix, statementHash(s)); }

size_t runBytes(const Execution &e) {
  return sizeof e + (e.sides.size() + e.directSides.size() + e.mutants.size()) * sizeof(double) + e.blocks.size() +
         e.direct.size() + e.statements.size() * sizeof(StatementRun) + e.report.size();
}

} // namespace

std::uint64_t statementHash(const testcase::Statement &s) {
  std::uint64_t h = static_cast<std::uint64_t>(s.op);
  h = combine(h, s.type);
  h = combine(h, s.callable);
  h = combine(h, s.field);
  h = combine(h, s.bits);
  h = combine(h, std::hash<std::string>{}(s.bytes));
  h = combine(h, s.refs.size());
  for (testcase::Ref r : s.refs) h = combine(h, r);
  return h;
}

std::shared_ptr<const Execution> StoppedPrefixes::find(const testcase::TestCase &test) const {
  if (entries_.empty()) return nullptr;
  std::uint64_t h = 0;
  for (size_t k = 0; k < test.statements.size(); ++k) {
    h = extend(h, test.statements[k]);
    const auto [first, last] = byKey_.equal_range(h);
    for (auto it = first; it != last; ++it) {
      const Entry &e = *it->second;
      const auto stop = static_cast<size_t>(e.run->stoppedAt);
      if (stop == k && std::equal(test.statements.begin(), test.statements.begin() + static_cast<long>(k) + 1,
                                  e.test->statements.begin()))
        return e.run;
    }
  }
  return nullptr;
}

void StoppedPrefixes::add(std::shared_ptr<const testcase::TestCase> test, std::shared_ptr<const Execution> run) {
  if (!test || !run || run->stoppedAt < 0 || static_cast<size_t>(run->stoppedAt) >= test->statements.size()) return;
  Entry e{std::move(test), std::move(run), 0, 0};
  for (size_t k = 0; k <= static_cast<size_t>(e.run->stoppedAt); ++k) e.key = extend(e.key, e.test->statements[k]);
  e.bytes = runBytes(*e.run);
  while (!entries_.empty() && bytes_ + e.bytes > maxBytes_) {
    const Entry &old = entries_.front();
    const auto [first, last] = byKey_.equal_range(old.key);
    for (auto it = first; it != last; ++it)
      if (it->second == &old) {
        byKey_.erase(it);
        break;
      }
    bytes_ -= old.bytes;
    entries_.pop_front();
  }
  if (e.bytes > maxBytes_) return;
  bytes_ += e.bytes;
  entries_.push_back(std::move(e));
  byKey_.emplace(entries_.back().key, &entries_.back());
}

} // namespace mosaic::search
