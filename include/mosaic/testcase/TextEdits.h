// Structure-aware edits of strings and byte buffers. Character-level edits
// (Pynguin's delete/replace/insert) rarely build the text a parser wants:
// a tag, a keyword, a nested bracket. These edits move whole tokens of the
// pool's dictionary and whole parts of the string, after libFuzzer's
// MutationDispatcher (insert or overwrite with a dictionary word, copy part,
// cross over, erase bytes), and a decimal number of the text set to one of
// AFL's interesting values (an expression's "1/2" becomes "1/0").
#pragma once

#include "mosaic/testcase/ConstantPool.h"
#include "mosaic/support/Random.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mosaic::testcase {

/// The edits, for tests; `editText` picks one at random.
enum class TextEdit { InsertToken, OverwriteToken, CopyPart, CrossOver, Erase, Number };
inline constexpr int kTextEditCount = 6;

/// AFL's interesting values (its config.h: INTERESTING_8, _16 and _32),
/// the boundaries where integer code goes wrong: 0, -1, INT_MIN, ...
const std::vector<std::int64_t> &interestingValues();

/// Applies `edit` to `s` (tokens and the other string for CrossOver from
/// `pool`); the result is at most `maxLength` bytes. It may equal `s` (an
/// empty pool, nothing to copy).
std::string editText(const std::string &s, TextEdit edit, const ConstantPool &pool, Rng &rng, double dynamicShare,
                     size_t maxLength);
/// One edit chosen uniformly.
std::string editText(const std::string &s, const ConstantPool &pool, Rng &rng, double dynamicShare, size_t maxLength);

/// A new string of 2 to 8 dictionary tokens, each followed by nothing, a
/// space or a random printable character (ours: the seed of structured text
/// before the search learns more); empty when the dictionary is.
std::string tokenSentence(const ConstantPool &pool, Rng &rng, double dynamicShare, size_t maxLength);

} // namespace mosaic::testcase
