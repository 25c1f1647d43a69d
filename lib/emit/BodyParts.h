// What the files that write one test case share (private to Body*.cpp in
// lib/emit): facts about a test's statements and how names are made.
#pragma once

#include "Body.h"

#include <cctype>
#include <optional>
#include <set>
#include <string>

namespace mosaic::emit {

// The names every Body*.cpp file uses.
using model::TypeKind;
using testcase::Op;
using testcase::Ref;
using testcase::Statement;
using testcase::TestCase;

/// `expr` as one argument of a GoogleTest macro: in parentheses when it has
/// a comma outside parentheses, brackets and braces, which the preprocessor
/// would take for a separator (`static_cast<const DynArray<Node *, 10> &>(a)`).
inline std::string macroArgument(const std::string &expr) {
  int depth = 0;
  for (char ch : expr) {
    if (ch == '(' || ch == '[' || ch == '{') ++depth;
    else if (ch == ')' || ch == ']' || ch == '}') --depth;
    else if (ch == ',' && depth == 0) return "(" + expr + ")";
  }
  return expr;
}

using testcase::isCall;

/// Whether a field's name is reserved (`__` or `_` and a capital): the C
/// library's, named by its feature macros. glibc's struct tm has
/// `__tm_gmtoff` in a C unit built without _DEFAULT_SOURCE and `tm_gmtoff`
/// in C++, which defines _GNU_SOURCE: a test cannot name it.
inline bool reservedFieldName(const std::string &n) {
  return n.size() > 1 && n[0] == '_' && (n[1] == '_' || std::isupper(static_cast<unsigned char>(n[1])));
}

/// The first statement before `end` that takes the address of statement i.
inline std::optional<size_t> addressTakenAt(const testcase::TestCase &t, size_t i, size_t end) {
  for (size_t j = i + 1; j < end; ++j)
    if (t.statements[j].op == testcase::Op::AddressOf && t.statements[j].refs.at(0) == i) return j;
  return std::nullopt;
}

/// The last component of a qualified name, without template arguments
/// (BodyNames.cpp, as are the two below).
std::string simpleName(std::string name);

/// `raw` as a C identifier: every other character becomes '_', trailing
/// '_' go, and a "v" goes before a leading digit (or is the whole name).
std::string identifier(const std::string &raw);

/// The names no variable of a test may take: C and C++ keywords, what a
/// test file declares or includes, and the simple names of the program's
/// callables, records, enums, enumerators and type aliases.
std::set<std::string> reservedNames(const model::Program &program);

} // namespace mosaic::emit
