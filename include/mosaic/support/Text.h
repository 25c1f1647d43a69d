// Small text utilities shared by the components.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mosaic {

/// Levenshtein distance between two strings (insert, delete, replace = 1).
size_t editDistance(std::string_view a, std::string_view b);

/// Up to `limit` candidates closest to `word` by edit distance, nearest
/// first, among those within a third of the word's length (at least 2): the
/// "did you mean" list of an error message.
std::vector<std::string> closestMatches(std::string_view word, const std::vector<std::string> &candidates,
                                        size_t limit = 3);

/// `s` in lower case (ASCII letters; other bytes as they are).
std::string lowercase(std::string s);

/// "a, b or c" for a list of words.
std::string joinOr(const std::vector<std::string> &words);

/// A file's bytes; empty when it cannot be read.
std::string readFile(const std::string &path);

} // namespace mosaic
