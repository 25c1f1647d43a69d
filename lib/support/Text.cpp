// Small text utilities.
#include "mosaic/support/Text.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <numeric>

namespace mosaic {

size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), size_t{0});
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::vector<std::string> closestMatches(std::string_view word, const std::vector<std::string> &candidates,
                                        size_t limit) {
  const size_t bound = std::max<size_t>(2, word.size() / 3);
  // (distance, position): ties keep the candidates' order. (std::stable_sort
  // would do, but libstdc++ 12's version warns under clang 19.)
  std::vector<std::pair<size_t, size_t>> scored;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const size_t d = editDistance(word, candidates[i]);
    const bool seen = std::any_of(scored.begin(), scored.end(),
                                  [&](const auto &s) { return candidates[s.second] == candidates[i]; });
    if (d <= bound && !seen) scored.emplace_back(d, i);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && i < limit; ++i) out.push_back(candidates[scored[i].second]);
  return out;
}

std::string joinOr(const std::vector<std::string> &words) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i) out += i + 1 == words.size() ? " or " : ", ";
    out += words[i];
  }
  return out;
}

std::string lowercase(std::string s) {
  for (char &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string foldedIdentifier(std::string name) {
  std::erase(name, '_');
  return lowercase(std::move(name));
}

namespace {

// Whether the run of digits ending at `last` follows an upper-case letter.
bool upperBeforeDigits(std::string_view name, size_t last) {
  size_t k = last;
  while (k > 0 && std::isdigit(static_cast<unsigned char>(name[k]))) --k;
  return std::isupper(static_cast<unsigned char>(name[k]));
}

} // namespace

bool anyIdentifierWord(std::string_view name, const std::function<bool(std::string_view)> &visit) {
  size_t start = 0;
  auto flush = [&](size_t end) { return end > start && visit(name.substr(start, end - start)); };
  for (size_t i = 0; i < name.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    if (c == '_' || c == ':' || c == '~' || c == '-' || c == '.') {
      if (flush(i)) return true;
      start = i + 1;
      continue;
    }
    if (i == 0) continue;
    const unsigned char before = static_cast<unsigned char>(name[i - 1]);
    // Upper case after lower case or a digit; two lower-case letters after
    // a digit that follows an upper-case letter (lcms2's cmsMD5add: md5,
    // add), not one (vec3f, draw3d stay words) nor after a lower-case one
    // (utf8proc, sha256sum: their digits are part of a lower-case word).
    const bool lowerAfterUpperDigits = std::islower(c) && std::isdigit(before) && i + 1 < name.size() &&
                                       std::islower(static_cast<unsigned char>(name[i + 1])) &&
                                       upperBeforeDigits(name, i - 1);
    if ((std::isupper(c) && (std::islower(before) || std::isdigit(before))) || lowerAfterUpperDigits) {
      if (flush(i)) return true;
      start = i;
    }
  }
  return flush(name.size());
}

std::vector<std::string> identifierWords(std::string_view name) {
  std::vector<std::string> words;
  anyIdentifierWord(name, [&](std::string_view w) {
    words.push_back(lowercase(std::string(w)));
    return false;
  });
  return words;
}

bool containsFolded(std::string_view text, std::string_view lower) {
  if (lower.empty()) return true;
  // ASCII folding inline: std::tolower is a call into the C locale per byte.
  const auto fold = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  for (size_t i = 0; i + lower.size() <= text.size(); ++i) {
    if (fold(text[i]) != lower[0]) continue;
    size_t k = 1;
    while (k < lower.size() && fold(text[i + k]) == lower[k]) ++k;
    if (k == lower.size()) return true;
  }
  return false;
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool generatedByMosaic(std::string_view text) {
  return text.substr(0, text.find('\n')).find(kGeneratedMarker) != std::string_view::npos;
}

bool sourceFileName(std::string_view path) {
  const size_t dot = path.rfind('.');
  if (dot == std::string_view::npos || path.find('/', dot) != std::string_view::npos) return false;
  const std::string_view ext = path.substr(dot);
  // Headers by their extensions, and the fragments headers include (.inl,
  // .ipp, .tcc, .tpp, .txx: template definitions; .inc, .def: tables and
  // X-macros); any other extension is code a source file includes as part
  // of itself (lzo's lzo1x_c.ch, lz4hc.c's lz4.c).
  for (std::string_view header : {".h", ".hh", ".hpp", ".hxx", ".h++", ".H", ".inl", ".ipp", ".tcc", ".tpp", ".txx",
                                  ".inc", ".def"})
    if (ext == header) return false;
  return true;
}

} // namespace mosaic
