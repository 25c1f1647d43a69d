// What a project's build installs (InstalledHeaders.h).
#include "InstalledHeaders.h"

#include "ModelBuilder.h"

#include "mosaic/support/Process.h"
#include "mosaic/support/Text.h"

#include <llvm/Support/JSON.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>
#include <unistd.h>

namespace mosaic::analysis {

namespace fs = std::filesystem;

namespace {

// `./x.h` and `../x.h` name x.h in some folder of the project: what is left
// is matched as a path suffix.
std::string relativeTail(std::string token) {
  while (token.starts_with("./") || token.starts_with("../")) token.erase(0, token.find('/') + 1);
  return token;
}

void addFile(InstalledHeaders &out, std::string path) {
  if (!isHeaderPath(path)) return;
  if (path.front() != '/') path = relativeTail(std::move(path));
  if (!path.empty() && std::find(out.files.begin(), out.files.end(), path) == out.files.end())
    out.files.push_back(std::move(path));
}

// The double-quoted strings of a CMake command's arguments (cmake_install.cmake
// quotes every path), with their positions.
std::vector<std::pair<size_t, std::string>> quoted(std::string_view args) {
  std::vector<std::pair<size_t, std::string>> out;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] != '"') continue;
    std::string s;
    size_t j = i + 1;
    for (; j < args.size() && args[j] != '"'; ++j) {
      if (args[j] == '\\' && j + 1 < args.size()) ++j;
      s += args[j];
    }
    out.emplace_back(i, std::move(s));
    i = j;
  }
  return out;
}

// Where `word` stands on its own (between blanks, outside quotes) in a
// CMake command's arguments, from `from`; npos when it does not.
size_t findWord(std::string_view args, std::string_view word, size_t from) {
  bool inQuote = false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == '"') inQuote = !inQuote;
    if (inQuote || i < from || args.compare(i, word.size(), word) != 0) continue;
    const auto blank = [&](size_t k) { return k >= args.size() || std::isspace(static_cast<unsigned char>(args[k])); };
    if ((i == 0 || blank(i - 1)) && blank(i + word.size())) return i;
  }
  return std::string_view::npos;
}

// Absolute paths as installs() compares them, resolved once: canonical
// (zstd's cmake_install.cmake names `.../build/cmake/../../lib/zstd.h`).
InstalledHeaders canonical(InstalledHeaders found) {
  std::error_code ec;
  for (std::vector<std::string> *paths : {&found.files, &found.folders})
    for (std::string &p : *paths)
      if (p.front() == '/')
        if (std::string c = fs::weakly_canonical(p, ec).string(); !ec && !c.empty()) p = std::move(c);
  return found;
}

void readMesonInstalled(const std::string &text, InstalledHeaders &out) {
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json) {
    llvm::consumeError(json.takeError());
    return;
  }
  if (const llvm::json::Object *o = json->getAsObject())
    for (const auto &[from, to] : *o) addFile(out, from.str());
}

} // namespace

bool InstalledHeaders::installs(std::string_view header) const {
  for (const std::string &f : files) {
    if (f.front() == '/') {
      if (header == f) return true;
    } else if (header.size() > f.size() && header.ends_with(f) && header[header.size() - f.size() - 1] == '/') {
      return true;
    }
  }
  for (std::string_view folder : folders) {
    while (folder.size() > 1 && folder.back() == '/') folder.remove_suffix(1);
    if (header.size() > folder.size() && header.starts_with(folder) && header[folder.size()] == '/') return true;
  }
  return false;
}

void readCMakeInstall(std::string_view text, InstalledHeaders &out) {
  for (size_t at = text.find("file(INSTALL"); at != std::string_view::npos; at = text.find("file(INSTALL", at + 1)) {
    // Arguments run to the first ')' outside quotes.
    size_t end = at;
    bool inQuote = false;
    for (; end < text.size(); ++end) {
      if (text[end] == '\\') ++end;
      else if (text[end] == '"') inQuote = !inQuote;
      else if (text[end] == ')' && !inQuote) break;
    }
    const std::string_view args = text.substr(at, end - at);
    const size_t typeAt = findWord(args, "TYPE", 0);
    const size_t filesAt = findWord(args, "FILES", 0);
    if (typeAt == std::string_view::npos || filesAt == std::string_view::npos) continue;
    const size_t kindAt = args.find_first_not_of(" \t\n", typeAt + 4);
    if (kindAt == std::string_view::npos) continue;
    const bool directory = findWord(args, "DIRECTORY", 0) == kindAt;
    if (!directory && findWord(args, "FILE", 0) != kindAt) continue; // libraries, programs
    // FILES lists paths up to an option (FILES_MATCHING, PATTERN, ...),
    // which are written bare.
    size_t stop = args.size();
    for (const char *option : {"FILES_MATCHING", "PATTERN", "REGEX", "PERMISSIONS", "RENAME", "OPTIONAL"})
      stop = std::min(stop, findWord(args, option, filesAt));
    for (const auto &[pos, path] : quoted(args)) {
      if (pos < filesAt || pos >= stop || path.empty() || path.front() != '/') continue;
      if (directory) out.folders.push_back(path);
      else addFile(out, path);
    }
  }
}

void readMakeDryRun(std::string_view text, std::string_view destDir, InstalledHeaders &out) {
  // Logical lines: a recipe line continued with a backslash is one command.
  std::string joined;
  joined.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      joined += ' ';
      ++i;
    } else {
      joined += text[i];
    }
  }
  std::istringstream lines(joined);
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> words;
    std::string word;
    for (char c : line + " ") {
      if (c == ' ' || c == '\t' || c == '\'' || c == '"' || c == ';' || c == '=') {
        if (!word.empty()) words.push_back(std::move(word));
        word.clear();
      } else {
        word += c;
      }
    }
    const bool copies = std::any_of(words.begin(), words.end(), [](const std::string &w) {
      const std::string base = fs::path(w).filename().string();
      return base == "install" || base == "cp" || base == "list" || w.find("INSTALL") != std::string::npos;
    });
    if (!copies) continue;
    for (const std::string &w : words)
      if (!std::string_view(w).starts_with(destDir) && w.front() != '-') addFile(out, w);
  }
}

InstalledHeaders findInstalledHeaders(const std::string &buildDir) {
  InstalledHeaders out;
  std::error_code ec;
  const fs::path dir = fs::is_directory(buildDir, ec) ? fs::path(buildDir) : fs::path(buildDir).parent_path();

  if (const fs::path meson = dir / "meson-info" / "intro-installed.json"; fs::exists(meson, ec)) {
    readMesonInstalled(readFile(meson.string()), out);
    if (out.known()) out.source = "meson-info/intro-installed.json";
    return canonical(std::move(out));
  }

  if (fs::exists(dir / "cmake_install.cmake", ec)) {
    for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
         it != end; it.increment(ec)) {
      if (ec) break;
      if (it->path().filename() == "cmake_install.cmake") readCMakeInstall(readFile(it->path().string()), out);
    }
    if (out.known()) out.source = "cmake_install.cmake";
    return canonical(std::move(out));
  }

  static const char *const kMakefiles[] = {"GNUmakefile", "makefile", "Makefile"}; // GNU make's search order
  if (std::none_of(std::begin(kMakefiles), std::end(kMakefiles),
                   [&](const char *name) { return fs::exists(dir / name, ec); }))
    return out;
  // A destination that cannot exist: make only prints (-n), but a recipe
  // line run anyway ($(MAKE), '+') installs nothing real there either.
  const std::string destDir = "/nonexistent/mosaic-install-" + std::to_string(::getpid());
  ProcessOptions options{.directory = dir.string(), .env = {{"LC_ALL", "C"}, {"MAKEFLAGS", ""}}, .ownGroup = true};
  auto made = runProcess({"timeout", "30", "make", "-n", "install", "DESTDIR=" + destDir}, options);
  if (!made) return out;
  readMakeDryRun(made->output, destDir, out);
  if (out.known()) out.source = "make -n install";
  return canonical(std::move(out));
}

} // namespace mosaic::analysis
