#include "ExportMarks.h"

#include <clang/AST/Decl.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/MacroInfo.h>

#include <cctype>

namespace mosaic::analysis {

namespace {

// How deep a chain of macros defined as other macros is followed
// (PUGIXML_CLASS -> PUGIXML_API -> nothing is two).
constexpr int MaxMacroDepth = 4;

bool identifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

} // namespace

bool exportMarkName(llvm::StringRef name) {
  for (llvm::StringRef word : {"EXPORT", "API", "DLL", "PUBLIC"})
    if (name.contains(word)) return true;
  return false;
}

bool EmptyExportMacros::emptyExportMacro(llvm::StringRef name) const {
  // Follows the chain, asking at each link whether it expands to nothing
  // but other macros; one name along it must say "export".
  bool named = false;
  std::vector<llvm::StringRef> todo{name};
  for (int depth = 0; !todo.empty(); ++depth) {
    if (depth > MaxMacroDepth) return false;
    std::vector<llvm::StringRef> next;
    for (llvm::StringRef n : todo) {
      const auto it = pp_.getIdentifierTable().find(n);
      if (it == pp_.getIdentifierTable().end()) return false;
      const clang::MacroInfo *mi = pp_.getMacroInfo(it->getValue());
      if (!mi || !mi->isObjectLike()) return false;
      named = named || exportMarkName(n);
      for (const clang::Token &t : mi->tokens()) {
        const clang::IdentifierInfo *ii = t.getIdentifierInfo();
        if (!ii) return false;
        next.push_back(ii->getName());
      }
    }
    todo = std::move(next);
  }
  return named;
}

bool EmptyExportMacros::marks(const clang::NamedDecl *d) const {
  const clang::SourceLocation begin = sm_.getExpansionLoc(d->getBeginLoc());
  const clang::SourceLocation name = sm_.getExpansionLoc(d->getLocation());
  if (begin.isInvalid() || name.isInvalid() || sm_.getFileID(begin) != sm_.getFileID(name)) return false;
  const clang::FileID file = sm_.getFileID(begin);
  const llvm::StringRef text = sm_.getBufferData(file);
  const unsigned from = sm_.getFileOffset(begin), to = sm_.getFileOffset(name);
  if (from > to || to > text.size()) return false;
  // The token before: skip white space back, read an identifier back.
  size_t end = from;
  while (end > 0 && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  size_t start = end;
  while (start > 0 && identifierChar(text[start - 1])) --start;
  // Not the macro's own #define line right above the declaration.
  const size_t line = text.rfind('\n', start); // the last before `start`
  const bool directive = text.slice(line == llvm::StringRef::npos ? 0 : line, start).contains('#');
  if (start < end && !directive && emptyExportMacro(text.slice(start, end))) return true;
  // The tokens from the first to the name, raw (macros unexpanded).
  clang::Lexer lexer(sm_.getLocForStartOfFile(file), pp_.getLangOpts(), text.begin(), text.begin() + from, text.end());
  clang::Token t;
  while (!lexer.LexFromRawLexer(t) && sm_.getFileOffset(t.getLocation()) < to)
    if (t.is(clang::tok::raw_identifier) && emptyExportMacro(t.getRawIdentifier())) return true;
  return false;
}

std::optional<std::string> EmptyExportMacros::deprecationMark(const clang::NamedDecl *d) const {
  const clang::SourceLocation begin = sm_.getExpansionLoc(d->getBeginLoc());
  if (begin.isInvalid()) return std::nullopt;
  const llvm::StringRef text = sm_.getBufferData(sm_.getFileID(begin));
  size_t end = sm_.getFileOffset(begin);
  if (end > text.size()) return std::nullopt;
  // Back over white space and up to two words (`LZ4LIB_API`, whose
  // attribute the declaration's range leaves out, `extern`) to `)`, then to
  // its `(` (no parenthesis inside: a message is one string), then over the
  // macro's name.
  for (int words = 0;; ++words) {
    while (end > 0 && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
    if (words == 2 || end == 0 || !identifierChar(text[end - 1])) break;
    while (end > 0 && identifierChar(text[end - 1])) --end;
  }
  if (end == 0 || text[end - 1] != ')') return std::nullopt;
  // Its `(`, past the string (lz4's message names "LZ4_decompress_safe_usingDict()").
  size_t open = end - 1;
  for (bool quoted = false; open > 0;) {
    const char ch = text[--open];
    if (ch == '"' && (open == 0 || text[open - 1] != '\\')) quoted = !quoted;
    else if (!quoted && ch == ')') return std::nullopt; // a nested call: no message macro
    else if (!quoted && ch == '(') break;
  }
  if (text[open] != '(') return std::nullopt;
  size_t nameEnd = open;
  while (nameEnd > 0 && std::isspace(static_cast<unsigned char>(text[nameEnd - 1]))) --nameEnd;
  size_t start = nameEnd;
  while (start > 0 && identifierChar(text[start - 1])) --start;
  if (!text.slice(start, nameEnd).upper().ends_with("DEPRECATED")) return std::nullopt;
  const llvm::StringRef args = text.slice(open + 1, end - 1).trim();
  if (args.size() >= 2 && args.front() == '"' && args.back() == '"') return args.slice(1, args.size() - 1).str();
  return std::string();
}

} // namespace mosaic::analysis
