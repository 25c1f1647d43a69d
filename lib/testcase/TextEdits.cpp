// Structure-aware edits of strings and byte buffers (TextEdits.h).
#include "mosaic/testcase/TextEdits.h"

#include <algorithm>

namespace mosaic::testcase {

namespace {

// A position in [0, n].
size_t position(Rng &rng, size_t n) { return rng.index(n + 1); }

std::string clip(std::string s, size_t maxLength) {
  if (s.size() > maxLength) s.resize(maxLength);
  return s;
}

bool digit(char c) { return c >= '0' && c <= '9'; }

// TextEdit::Number: one decimal number of `s` (its digits, with the minus
// sign before them) replaced by an interesting value, or by its own value
// plus or minus one (a quarter of the time; ours); with no number in `s`,
// an interesting value inserted.
std::string editNumber(const std::string &s, Rng &rng, size_t maxLength) {
  std::vector<std::pair<size_t, size_t>> numbers; // [begin, end)
  for (size_t i = 0; i < s.size();) {
    if (!digit(s[i])) {
      ++i;
      continue;
    }
    size_t begin = i > 0 && s[i - 1] == '-' ? i - 1 : i;
    while (i < s.size() && digit(s[i])) ++i;
    numbers.emplace_back(begin, i);
  }
  const std::vector<std::int64_t> &values = interestingValues();
  std::string value = std::to_string(values[rng.index(values.size())]);
  if (numbers.empty()) {
    std::string out = s;
    out.insert(position(rng, s.size()), value);
    return clip(std::move(out), maxLength);
  }
  const auto [begin, end] = numbers[rng.index(numbers.size())];
  const std::string old = s.substr(begin, end - begin);
  if (old.size() <= 18 && rng.chance(0.25)) value = std::to_string(std::stoll(old) + (rng.chance(0.5) ? 1 : -1));
  return clip(s.substr(0, begin) + value + s.substr(end), maxLength);
}

} // namespace

const std::vector<std::int64_t> &interestingValues() {
  static const std::vector<std::int64_t> values = {
      -128, -1, 0, 1, 16, 32, 64, 100, 127,                                        // INTERESTING_8
      -32768, -129, 128, 255, 256, 512, 1000, 1024, 4096, 32767,                   // INTERESTING_16
      -2147483648LL, -100663046, -32769, 32768, 65535, 65536, 100663045, 2147483647, // INTERESTING_32
  };
  return values;
}

std::string editText(const std::string &s, TextEdit edit, const ConstantPool &pool, Rng &rng, double dynamicShare,
                     size_t maxLength) {
  switch (edit) {
  case TextEdit::InsertToken: {
    const auto token = pool.token(rng, dynamicShare);
    if (!token) return s;
    std::string out = s;
    out.insert(position(rng, s.size()), *token);
    return clip(std::move(out), maxLength);
  }
  case TextEdit::OverwriteToken: {
    const auto token = pool.token(rng, dynamicShare);
    if (!token) return s;
    std::string out = s;
    const size_t at = position(rng, s.size());
    out.replace(at, std::min(token->size(), s.size() - at), *token);
    return clip(std::move(out), maxLength);
  }
  case TextEdit::CopyPart: { // a part of the string again, elsewhere: nesting, repetition
    if (s.empty()) return s;
    const size_t from = rng.index(s.size());
    const size_t length = 1 + rng.index(s.size() - from);
    std::string out = s;
    out.insert(position(rng, s.size()), s.substr(from, length));
    return clip(std::move(out), maxLength);
  }
  case TextEdit::CrossOver: { // a head of this string, a tail of another (half the time a project sample)
    const auto other = pool.samples() && rng.chance(0.5) ? pool.sample(rng) : pool.string(rng, dynamicShare);
    if (!other) return s;
    return clip(s.substr(0, position(rng, s.size())) + other->substr(position(rng, other->size())), maxLength);
  }
  case TextEdit::Erase: {
    if (s.empty()) return s;
    const size_t from = rng.index(s.size());
    const size_t length = 1 + rng.index(std::min<size_t>(s.size() - from, 8)); // ours: short ranges
    std::string out = s;
    out.erase(from, length);
    return out;
  }
  case TextEdit::Number: return editNumber(s, rng, maxLength);
  }
  return s;
}

std::string editText(const std::string &s, const ConstantPool &pool, Rng &rng, double dynamicShare, size_t maxLength) {
  return editText(s, static_cast<TextEdit>(rng.index(kTextEditCount)), pool, rng, dynamicShare, maxLength);
}

std::string tokenSentence(const ConstantPool &pool, Rng &rng, double dynamicShare, size_t maxLength) {
  std::string out;
  const auto count = rng.uniform(2, 8);
  for (std::int64_t i = 0; i < count; ++i) {
    const auto token = pool.token(rng, dynamicShare);
    if (!token) return out;
    out += *token;
    switch (rng.index(3)) {
    case 0: break;
    case 1: out.push_back(' '); break;
    default: out.push_back(static_cast<char>(rng.uniform(32, 126)));
    }
  }
  return clip(std::move(out), maxLength);
}

} // namespace mosaic::testcase
