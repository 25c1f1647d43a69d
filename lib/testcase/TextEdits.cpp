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

} // namespace

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
