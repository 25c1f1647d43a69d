// Input samples from the project's own code (ProjectSamples.h).
#include "ProjectSamples.h"

#include "mosaic/support/Text.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/FileManager.h>
#include <clang/Basic/LangOptions.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Basic/TargetInfo.h>
#include <clang/Basic/TargetOptions.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/LiteralSupport.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/TargetParser/Host.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace mosaic::analysis {

namespace fs = std::filesystem;

namespace {

// What it takes to lex a file in raw mode and evaluate its string literals
// (escapes, raw strings, u8 prefixes, adjacent literals joined).
class LexContext {
public:
  LexContext()
      : diags_(new clang::DiagnosticIDs(), new clang::DiagnosticOptions(), new clang::IgnoringDiagConsumer()),
        files_(clang::FileSystemOptions()) {
    // C and C++ files alike: a C++17 lexer also reads C (C's identifiers
    // that are C++ keywords are raw identifiers here either way).
    lang_.CPlusPlus = lang_.CPlusPlus11 = lang_.CPlusPlus14 = lang_.CPlusPlus17 = true;
    lang_.LineComment = lang_.Digraphs = lang_.Bool = true;
    auto target = std::make_shared<clang::TargetOptions>();
    target->Triple = llvm::sys::getDefaultTargetTriple();
    target_ = clang::TargetInfo::CreateTargetInfo(diags_, target);
  }

  /// `present`, when given, receives the keys (model::integerLiteralKey &
  /// co) of the file's literals that are among `keys`.
  bool lex(const std::string &text, const std::set<std::string> &names, size_t maxSampleBytes,
           std::vector<std::string> (&ranks)[3], const std::set<std::string> *keys = nullptr,
           std::set<std::string> *present = nullptr);

private:
  clang::DiagnosticsEngine diags_;
  clang::FileManager files_;
  clang::LangOptions lang_;
  llvm::IntrusiveRefCntPtr<clang::TargetInfo> target_;
};

bool isNarrowString(clang::tok::TokenKind k) {
  return k == clang::tok::string_literal || k == clang::tok::utf8_string_literal;
}

bool isStringToken(clang::tok::TokenKind k) {
  return isNarrowString(k) || k == clang::tok::wide_string_literal || k == clang::tok::utf16_string_literal ||
         k == clang::tok::utf32_string_literal;
}

// Words followed by a parenthesis that is not a call's.
bool isKeywordBeforeParen(llvm::StringRef word) {
  static const std::set<llvm::StringRef> keywords = {"if", "while", "for", "switch", "return", "sizeof", "alignof",
                                                     "_Alignof", "decltype", "catch", "defined", "static_assert",
                                                     "_Static_assert", "noexcept", "typeof", "__typeof__"};
  return keywords.count(word) != 0;
}

// The key of a numeric or character literal's value (model::integerLiteralKey,
// floatLiteralKey), as the front end folds the unit's own; "" when it is
// neither (a suffix or form this reading does not know).
std::string numericKey(const clang::Token &tok, llvm::StringRef spelling) {
  std::string text = spelling.str();
  if (tok.is(clang::tok::char_constant)) {
    if (text.size() == 3 && text[0] == '\'' && text[2] == '\'') return model::integerLiteralKey(static_cast<unsigned char>(text[1]));
    return "";
  }
  text.erase(std::remove(text.begin(), text.end(), '\''), text.end()); // C++14 digit separators
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const bool floating = hex ? text.find_first_of("pP") != std::string::npos
                            : text.find_first_of(".eE") != std::string::npos;
  while (!text.empty() && std::strchr(floating ? "fFlL" : "uUlLzZ", text.back())) text.pop_back();
  errno = 0;
  char *end = nullptr;
  if (floating) {
    const double v = std::strtod(text.c_str(), &end);
    return end && *end == 0 && errno == 0 ? model::floatLiteralKey(v) : "";
  }
  const bool binary = text.size() > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B');
  const unsigned long long v = std::strtoull(binary ? text.c_str() + 2 : text.c_str(), &end, binary ? 2 : 0);
  return end && *end == 0 && errno == 0 ? model::integerLiteralKey(static_cast<std::int64_t>(v)) : "";
}

bool LexContext::lex(const std::string &text, const std::set<std::string> &names, size_t maxSampleBytes,
                     std::vector<std::string> (&ranks)[3], const std::set<std::string> *keys,
                     std::set<std::string> *present) {
  // A source manager per file: it keeps every buffer it was given.
  clang::SourceManager sources(diags_, files_);
  const clang::FileID file = sources.createFileID(llvm::MemoryBuffer::getMemBuffer(text, "<project file>"));
  clang::Lexer lexer(file, sources.getBufferOrFake(file), sources, lang_);

  // One frame per open parenthesis: is it a call, and a call of the unit?
  struct Frame {
    bool call;
    bool unitCall;
  };
  std::vector<Frame> frames;
  std::vector<clang::Token> pending; // adjacent string literals
  std::vector<std::string> found[3];
  bool callsUnit = false;
  bool inDirective = false;
  clang::Token previous;
  previous.startToken();

  auto flush = [&] {
    if (pending.empty()) return;
    const bool narrow = std::all_of(pending.begin(), pending.end(), [](const clang::Token &t) {
      return isNarrowString(t.getKind());
    });
    if (narrow && !inDirective) {
      clang::StringLiteralParser literal(pending, sources, lang_, *target_, &diags_);
      if (present && !literal.hadError)
        if (std::string key = model::stringLiteralKey(literal.GetString().str()); keys->count(key))
          present->insert(std::move(key));
      if (!literal.hadError && literal.GetStringLength() >= 2 && literal.GetStringLength() <= maxSampleBytes) {
        const bool inUnitCall = std::any_of(frames.begin(), frames.end(), [](const Frame &f) { return f.unitCall; });
        const bool inCall = std::any_of(frames.begin(), frames.end(), [](const Frame &f) { return f.call; });
        found[inUnitCall ? 0 : inCall ? 2 : 1].push_back(literal.GetString().str());
      }
    }
    pending.clear();
  };

  clang::Token tok;
  while (!lexer.LexFromRawLexer(tok)) {
    // A directive ends at the next line start; its literals (#include
    // names, #define texts) are dropped by the flush while still inside.
    if (tok.isAtStartOfLine() && (inDirective || tok.is(clang::tok::hash))) {
      flush();
      inDirective = tok.is(clang::tok::hash);
    }
    if (isStringToken(tok.getKind())) {
      pending.push_back(tok);
      previous = tok;
      continue;
    }
    flush();
    if (inDirective) {
      previous = tok;
      continue;
    }
    if (present && tok.isOneOf(clang::tok::numeric_constant, clang::tok::char_constant))
      if (std::string key = numericKey(tok, llvm::StringRef(tok.getLiteralData(), tok.getLength()));
          !key.empty() && keys->count(key))
        present->insert(std::move(key));
    if (tok.is(clang::tok::l_paren)) {
      Frame f{false, false};
      if (previous.is(clang::tok::raw_identifier) && !isKeywordBeforeParen(previous.getRawIdentifier())) {
        f.call = true;
        f.unitCall = names.count(previous.getRawIdentifier().str()) != 0;
        callsUnit = callsUnit || f.unitCall;
      }
      frames.push_back(f);
    } else if (tok.is(clang::tok::r_paren) && !frames.empty()) {
      frames.pop_back();
    } else if (tok.isOneOf(clang::tok::semi, clang::tok::l_brace, clang::tok::r_brace)) {
      frames.clear(); // an unbalanced parenthesis (in a macro's text) ends with its statement
    }
    previous = tok;
  }
  flush();
  if (callsUnit)
    for (int r = 0; r < 3; ++r) ranks[r].insert(ranks[r].end(), found[r].begin(), found[r].end());
  return callsUnit;
}

bool isSourceFile(const fs::path &p) {
  static const std::set<std::string> extensions = {".c", ".cc", ".cpp", ".cxx", ".c++", ".C",
                                                   ".h", ".hh", ".hpp", ".hxx", ".h++", ".inc"};
  return extensions.count(p.extension().string()) != 0;
}

// `count` of `from`'s elements, spread evenly over it.
void takeEvenly(const std::vector<std::string> &from, size_t count, std::vector<std::string> &to) {
  if (from.size() <= count) {
    to.insert(to.end(), from.begin(), from.end());
    return;
  }
  for (size_t i = 0; i < count; ++i) to.push_back(from[i * from.size() / count]);
}

} // namespace

bool lexSamples(const std::string &text, const std::set<std::string> &names, size_t maxSampleBytes,
                std::vector<std::string> (&ranks)[3]) {
  LexContext context;
  return context.lex(text, names, maxSampleBytes, ranks);
}

std::string projectRoot(const std::string &unit, const std::vector<std::string> &databaseFiles) {
  fs::path root = fs::path(unit).parent_path();
  for (const std::string &f : databaseFiles) {
    const fs::path p = fs::path(f).parent_path();
    fs::path common;
    for (auto a = root.begin(), b = p.begin(); a != root.end() && b != p.end() && *a == *b; ++a, ++b) common /= *a;
    root = common;
  }
  // "/" or "/home": the database spans unrelated trees (a test framework
  // built from /usr/src); start from the unit's folder instead.
  auto shallow = [](const fs::path &p) { return std::distance(p.begin(), p.end()) <= 2; };
  if (shallow(root)) root = fs::path(unit).parent_path();
  // A database that lists the library alone (its tests not configured)
  // stops in a folder of sources: go up to the first folder with a build
  // file, the top of the library's part of the project, where its tests
  // usually are beside it (at most 3 levels: ours).
  std::error_code ec;
  auto buildFile = [&](const fs::path &dir) {
    // GNU make reads GNUmakefile, makefile and Makefile (libtommath's is
    // `makefile`: without it the walk left the project); a repository's top
    // (.git) is as far as a project goes.
    for (const char *f : {"CMakeLists.txt", "meson.build", "configure.ac", "configure", "Makefile.am", "Makefile",
                          "makefile", "GNUmakefile", "BUILD.bazel", "WORKSPACE", ".git"})
      if (fs::exists(dir / f, ec)) return true;
    return false;
  };
  for (int up = 0; up < 3 && !buildFile(root) && !shallow(root.parent_path()); ++up) root = root.parent_path();
  return root.string();
}

ProjectSamples mineProjectSamples(const std::string &root, const std::string &unit,
                                  const std::set<std::string> &names, const std::set<std::string> &literalKeys,
                                  const SampleLimits &limits) {
  ProjectSamples result;
  if (names.empty() && literalKeys.empty()) return result;
  std::vector<fs::path> paths;
  std::error_code ec;
  const fs::path self = fs::weakly_canonical(unit, ec);
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (it->is_directory(ec)) {
      // Hidden folders, and build trees (their sources are generated or copied).
      if (name.starts_with(".") || name == "CMakeFiles" || fs::exists(it->path() / "CMakeCache.txt", ec))
        it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec) && isSourceFile(it->path()) && it->path() != self) paths.push_back(it->path());
    if (paths.size() >= 20 * limits.maxFiles) break; // a walk of a whole disk ends
  }
  std::sort(paths.begin(), paths.end());

  LexContext context;
  std::vector<std::string> ranks[3];
  for (const fs::path &p : paths) {
    if (result.filesLexed >= limits.maxFiles) break;
    const auto size = fs::file_size(p, ec);
    if (ec || size > limits.maxFileBytes) continue;
    const std::string text = readFile(p.string());
    // mosaic's own suites, written into the project: their literals came
    // from an earlier run, and would make the same seed give another suite.
    if (generatedByMosaic(text)) continue;
    ++result.filesLexed;
    std::set<std::string> present;
    if (context.lex(text, names, limits.maxSampleBytes, ranks, &literalKeys, &present)) ++result.filesCalling;
    for (const std::string &key : present) ++result.literalDocuments.holding[key];
  }
  result.literalDocuments.files = static_cast<std::uint32_t>(result.filesLexed);

  // Distinct, best rank first, then thinned evenly within the last rank
  // that fits only in part.
  std::set<std::string> seen;
  for (auto &rank : ranks) {
    std::vector<std::string> fresh;
    for (std::string &s : rank)
      if (seen.insert(s).second) fresh.push_back(std::move(s));
    const size_t room = limits.maxSamples - result.samples.size();
    takeEvenly(fresh, room, result.samples);
    if (result.samples.size() >= limits.maxSamples) break;
  }
  return result;
}

} // namespace mosaic::analysis
