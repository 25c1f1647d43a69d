// Runs known from the statements a test begins with (StoppedPrefixes.h).
#include "mosaic/search/StoppedPrefixes.h"

#include "mosaic/support/Process.h"

#include <algorithm>
#include <string_view>

namespace mosaic::search {

namespace {

// The bytes of a field, for fnv1a.
template <class T> std::string_view bytesOf(const T &v) {
  return {reinterpret_cast<const char *>(&v), sizeof v};
}

// The hash of statements [0, k] from that of [0, k - 1].
std::uint64_t extend(std::uint64_t prefix, const testcase::Statement &s) { return fnv1a(bytesOf(statementHash(s)), prefix); }

size_t runBytes(const Execution &e) {
  return sizeof e + (e.sides.size() + e.directSides.size() + e.mutants.size()) * sizeof(double) + e.blocks.size() +
         e.direct.size() + e.statements.size() * sizeof(StatementRun) + e.report.size();
}

} // namespace

std::uint64_t statementHash(const testcase::Statement &s) {
  std::uint64_t h = fnv1a(bytesOf(s.op));
  h = fnv1a(bytesOf(s.type), h);
  h = fnv1a(bytesOf(s.callable), h);
  h = fnv1a(bytesOf(s.field), h);
  h = fnv1a(bytesOf(s.bits), h);
  h = fnv1a(bytesOf(s.refs.size()), h);
  if (!s.refs.empty()) h = fnv1a({reinterpret_cast<const char *>(s.refs.data()), s.refs.size() * sizeof s.refs[0]}, h);
  return fnv1a(s.bytes, h);
}

std::shared_ptr<const Execution> StoppedPrefixes::find(const testcase::TestCase &test) const {
  if (entries_.empty()) return nullptr;
  std::uint64_t h = 0;
  for (size_t k = 0; k < test.statements.size(); ++k) {
    h = extend(h, test.statements[k]);
    if (!marked(h)) continue;
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
    ++forgotten_;
  }
  if (forgotten_ > entries_.size()) { // more stale bits than kept keys: from the kept keys again
    std::fill(bits_.begin(), bits_.end(), 0);
    for (const Entry &kept : entries_) mark(kept.key);
    forgotten_ = 0;
  }
  if (e.bytes > maxBytes_) return;
  bytes_ += e.bytes;
  entries_.push_back(std::move(e));
  mark(entries_.back().key);
  byKey_.emplace(entries_.back().key, &entries_.back());
}

} // namespace mosaic::search
