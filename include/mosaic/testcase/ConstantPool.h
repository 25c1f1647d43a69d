// Constants that input values are drawn from: the unit's own literals (the
// static pool, from the front end) and the operands the unit compared its
// inputs with at run time (the dynamic pool, from the trace).
#pragma once

#include "mosaic/model/Program.h"
#include "mosaic/support/Random.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_set>
#include <string>
#include <vector>

namespace mosaic::testcase {

class ConstantPool {
public:
  /// Bound on each dynamic list: the oldest values make room (EvoSuite keeps
  /// its dynamic pool bounded the same way; the size is ours).
  static constexpr size_t kMaxDynamic = 4096;

  /// Adds the literals of every callable of the program, and its samples.
  void addStatic(const model::Program &program);
  void addInteger(std::int64_t v, bool dynamic);
  void addFloat(double v, bool dynamic);
  void addString(const std::string &s, bool dynamic);

  /// Weighs the static integers, floats and strings by `weight` of their
  /// keys (model::integerLiteralKey & co): a draw from the static part then
  /// picks in proportion (GRT's constant mining, TF-IDF); uniformly without.
  /// Values added later weigh as the least weighted one.
  void weighStatic(const std::function<double(const std::string &key)> &weight);

  /// A value from the dynamic pool with probability `dynamicShare` when it
  /// has one, else from the static pool; nullopt when both are empty.
  std::optional<std::int64_t> integer(Rng &rng, double dynamicShare) const;
  std::optional<double> floating(Rng &rng, double dynamicShare) const;
  std::optional<std::string> string(Rng &rng, double dynamicShare) const;
  std::optional<std::int64_t> character(Rng &rng) const;

  /// The inputs' dictionary, for structure-aware string mutation (libFuzzer's
  /// -dict and its table of recent comparisons, TORC): the unit's string
  /// literals and the characters it compares with, and at run time the
  /// strings and byte sequences its comparisons met (addToken). A token from
  /// the dynamic part with probability `dynamicShare` when it has one.
  std::optional<std::string> token(Rng &rng, double dynamicShare) const;
  /// A byte sequence a comparison met at run time (a character compared
  /// with, the bytes of a wider integer that read as text).
  void addToken(const std::string &bytes);

  /// An input the project's own code gives the unit (Program::samples: a
  /// whole document, expression or number as its tests write it); nullopt
  /// when there are none.
  std::optional<std::string> sample(Rng &rng) const;
  size_t samples() const { return samples_.size(); }

  size_t size() const;
  size_t dynamicSize() const { return ints_[1].size() + floats_[1].size() + strings_[1].size() + tokens_[1].size(); }

private:
  /// Adds `v` to `list` unless `seen` has it; a full dynamic list replaces
  /// its oldest value, at `oldest` (a ring: nothing shifts). Hash sets: a
  /// run's every comparison lands here, and ordered sets of 4,096 strings
  /// took a sixth of a random search's host time on pugixml.cpp.
  template <class T>
  static void add(std::vector<T> &list, std::unordered_set<T> &seen, size_t &oldest, const T &v, bool dynamic);
  template <class T>
  static std::optional<T> draw(const std::vector<T> (&lists)[2], const std::vector<double> &weights, Rng &rng,
                               double dynamicShare);

  // [0] static, [1] dynamic.
  std::vector<std::int64_t> ints_[2];
  std::unordered_set<std::int64_t> intSeen_[2];
  std::vector<double> floats_[2];
  std::unordered_set<double> floatSeen_[2];
  std::vector<std::string> strings_[2];
  std::unordered_set<std::string> stringSeen_[2];
  std::vector<std::int64_t> chars_;
  // The dictionary's tokens besides strings_: [0] the unit's characters as
  // one-byte strings, [1] byte sequences seen compared at run time.
  std::vector<std::string> tokens_[2];
  std::unordered_set<std::string> tokenSeen_[2];
  std::vector<std::string> samples_;
  // Where each dynamic list's oldest value is, once it is full (add).
  size_t intOldest_ = 0, floatOldest_ = 0, stringOldest_ = 0, tokenOldest_ = 0;
  // weighStatic's weights of ints_[0], floats_[0], strings_[0] (empty: uniform).
  std::vector<double> intWeights_, floatWeights_, stringWeights_;
};

} // namespace mosaic::testcase
