// Runs that stopped at a statement, kept by the test's statements up to
// that one: the harness runs a test's statements in order and none after
// the one a run stopped at (a crash, an abort, a hang, an exit, a C++
// exception or a null object), so a later test that begins with the same
// statements stops there the same way and its run is known without
// running it. DynaMOSA breeds such tests all the time (a mutation past a
// crashing call, an archived failing test mutated at its end): on cJSON.c
// they were a sixth of the tests and a third of the search's time, and 98%
// of them, run anyway, did stop as predicted (the rest: hangs a loaded
// machine timed out once).
#pragma once

#include "mosaic/search/Execution.h"
#include "mosaic/testcase/TestCase.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

namespace mosaic::search {

/// A hash of one statement (every field: Statement::operator== agrees).
std::uint64_t statementHash(const testcase::Statement &statement);

class StoppedPrefixes {
public:
  /// Keeps runs while their trace vectors take at most `maxBytes` (ours:
  /// 64 MiB, a few hundred runs of a unit with thousands of branches),
  /// forgetting the oldest first.
  explicit StoppedPrefixes(std::size_t maxBytes = std::size_t{64} << 20) : maxBytes_(maxBytes) {}

  /// The kept run of a test that `test` begins with, statement for
  /// statement up to where that run stopped; null when there is none.
  std::shared_ptr<const Execution> find(const testcase::TestCase &test) const;
  /// Keeps `run` of `test` when it stopped at a statement (Execution::stoppedAt).
  void add(std::shared_ptr<const testcase::TestCase> test, std::shared_ptr<const Execution> run);
  std::size_t size() const { return entries_.size(); }

private:
  struct Entry {
    std::shared_ptr<const testcase::TestCase> test;
    std::shared_ptr<const Execution> run;
    std::uint64_t key = 0;
    std::size_t bytes = 0;
  };
  std::size_t maxBytes_, bytes_ = 0;
  std::deque<Entry> entries_;                              ///< oldest first
  std::unordered_multimap<std::uint64_t, const Entry *> byKey_; ///< by prefix hash
  /// One bit per prefix hash modulo kBits, set for every kept key (and for
  /// keys forgotten since the last rebuild): a test's prefixes are looked
  /// up in byKey_ only where the bit is set. A random test of 23 statements
  /// asked the multimap 23 times, a cache miss each (2% of http_parser.c's
  /// random search); the bits, 8 KiB, stay in the first-level cache.
  static constexpr std::size_t kBits = std::size_t{1} << 16; // ours
  std::vector<std::uint64_t> bits_ = std::vector<std::uint64_t>(kBits / 64, 0);
  std::size_t forgotten_ = 0; ///< keys forgotten since the bits were rebuilt
  void mark(std::uint64_t key) { bits_[(key % kBits) / 64] |= std::uint64_t{1} << (key % 64); }
  bool marked(std::uint64_t key) const { return (bits_[(key % kBits) / 64] >> (key % 64)) & 1u; }
};

} // namespace mosaic::search
