// The static and dynamic constant pools.
#include "mosaic/testcase/ConstantPool.h"

#include <algorithm>
#include <cmath>

namespace mosaic::testcase {

template <class T>
void ConstantPool::add(std::vector<T> &list, std::unordered_set<T> &seen, size_t &oldest, const T &v, bool dynamic) {
  if (!seen.insert(v).second) return;
  if (dynamic && list.size() >= kMaxDynamic) {
    // Erasing the front shifted 4,095 values per new one (a random search
    // meets new operands every test): the oldest is overwritten instead.
    seen.erase(list[oldest]);
    list[oldest] = v;
    oldest = (oldest + 1) % list.size();
    return;
  }
  list.push_back(v);
}

template <class T>
std::optional<T> ConstantPool::draw(const std::vector<T> (&lists)[2], const std::vector<double> &weights, Rng &rng,
                                    double dynamicShare) {
  const bool useDynamic = !lists[1].empty() && (lists[0].empty() || rng.chance(dynamicShare));
  const std::vector<T> &list = lists[useDynamic ? 1 : 0];
  if (list.empty()) return std::nullopt;
  if (useDynamic || weights.empty()) return rng.pick(list);
  // In proportion to the weights; values added after weighStatic weigh as
  // the least weighted one.
  const double least = *std::min_element(weights.begin(), weights.end());
  auto weightOf = [&](size_t k) { return k < weights.size() ? weights[k] : least; };
  double total = 0;
  for (size_t k = 0; k < list.size(); ++k) total += weightOf(k);
  if (!(total > 0)) return rng.pick(list);
  double at = rng.uniform01() * total;
  for (size_t k = 0; k < list.size(); ++k)
    if ((at -= weightOf(k)) < 0) return list[k];
  return list.back();
}

void ConstantPool::weighStatic(const std::function<double(const std::string &key)> &weight) {
  intWeights_.clear(), floatWeights_.clear(), stringWeights_.clear();
  for (std::int64_t v : ints_[0]) intWeights_.push_back(weight(model::integerLiteralKey(v)));
  for (double v : floats_[0]) floatWeights_.push_back(weight(model::floatLiteralKey(v)));
  for (const std::string &v : strings_[0]) stringWeights_.push_back(weight(model::stringLiteralKey(v)));
}

void ConstantPool::addStatic(const model::Program &program) {
  for (const model::Callable &c : program.callables) {
    for (std::int64_t v : c.constants.integers) addInteger(v, false);
    for (double v : c.constants.floats) addFloat(v, false);
    for (const std::string &s : c.constants.strings) addString(s, false);
    for (std::int64_t ch : c.constants.chars) {
      addInteger(ch, false);
      if (std::find(chars_.begin(), chars_.end(), ch) == chars_.end()) chars_.push_back(ch);
      if (ch >= 0 && ch <= 255) add(tokens_[0], tokenSeen_[0], tokenOldest_, std::string(1, static_cast<char>(ch)), false);
    }
  }
  for (const model::Enum &e : program.enums)
    for (const model::Enumerator &en : e.enumerators) addInteger(en.value, false);
  samples_.insert(samples_.end(), program.samples.begin(), program.samples.end());
}

std::optional<std::string> ConstantPool::sample(Rng &rng) const {
  if (samples_.empty()) return std::nullopt;
  return rng.pick(samples_);
}

void ConstantPool::addInteger(std::int64_t v, bool dynamic) { add(ints_[dynamic], intSeen_[dynamic], intOldest_, v, dynamic); }

void ConstantPool::addFloat(double v, bool dynamic) {
  if (std::isnan(v)) return; // NaN != NaN: it would never be found again
  add(floats_[dynamic], floatSeen_[dynamic], floatOldest_, v, dynamic);
}

void ConstantPool::addString(const std::string &s, bool dynamic) {
  add(strings_[dynamic], stringSeen_[dynamic], stringOldest_, s, dynamic);
}

std::optional<std::int64_t> ConstantPool::integer(Rng &rng, double share) const { return draw(ints_, intWeights_, rng, share); }
std::optional<double> ConstantPool::floating(Rng &rng, double share) const { return draw(floats_, floatWeights_, rng, share); }
std::optional<std::string> ConstantPool::string(Rng &rng, double share) const { return draw(strings_, stringWeights_, rng, share); }

std::optional<std::int64_t> ConstantPool::character(Rng &rng) const {
  if (chars_.empty()) return std::nullopt;
  return rng.pick(chars_);
}

void ConstantPool::addToken(const std::string &bytes) {
  if (!bytes.empty()) add(tokens_[1], tokenSeen_[1], tokenOldest_, bytes, true);
}

std::optional<std::string> ConstantPool::token(Rng &rng, double dynamicShare) const {
  // Strings and the other tokens of each part, weighted by their counts.
  const size_t part[2] = {strings_[0].size() + tokens_[0].size(), strings_[1].size() + tokens_[1].size()};
  const int d = part[1] && (!part[0] || rng.chance(dynamicShare)) ? 1 : 0;
  if (!part[d]) return std::nullopt;
  const size_t k = rng.index(part[d]);
  return k < strings_[d].size() ? strings_[d][k] : tokens_[d][k - strings_[d].size()];
}

size_t ConstantPool::size() const {
  size_t n = chars_.size();
  for (int i = 0; i < 2; ++i) n += ints_[i].size() + floats_[i].size() + strings_[i].size();
  n += tokens_[1].size() + samples_.size(); // tokens_[0] repeats chars_
  return n;
}

} // namespace mosaic::testcase
