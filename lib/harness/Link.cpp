// Leaving out what a harness cannot link (see Link.h).
#include "mosaic/harness/Link.h"

#include "mosaic/support/Process.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace mosaic::harness {

namespace fs = std::filesystem;

namespace {

std::string trim(std::string s) {
  const size_t b = s.find_first_not_of(" \t");
  const size_t e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// The text between a marker and the closing quote of a linker message
// ("undefined reference to `X'", "in function `X':").
std::optional<std::string> quoted(const std::string &line, const std::string &marker) {
  const size_t at = line.find(marker);
  if (at == std::string::npos) return std::nullopt;
  const size_t begin = at + marker.size();
  const size_t end = line.rfind('\'');
  if (end == std::string::npos || end <= begin) return std::nullopt;
  return line.substr(begin, end - begin);
}

// A C function's symbol as the linker prints it: a bare identifier.
bool isCIdentifier(const std::string &s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

} // namespace

std::optional<std::pair<std::string, size_t>> functionNameAndArity(const std::string &demangled) {
  const std::string d = trim(demangled);
  const size_t close = d.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  // Only qualifiers may follow the parameter list.
  std::istringstream qualifiers(d.substr(close + 1));
  for (std::string w; qualifiers >> w;)
    if (w != "const" && w != "volatile" && w != "&" && w != "&&" && w != "const&" && w != "const&&") return std::nullopt;
  int depth = 0;
  size_t open = std::string::npos;
  for (size_t i = close + 1; i-- > 0;) {
    if (d[i] == ')') ++depth;
    else if (d[i] == '(' && --depth == 0) {
      open = i;
      break;
    }
  }
  if (open == std::string::npos || open == 0) return std::nullopt;
  std::string name = d.substr(0, open);
  // A template function's demangled name starts with its result type:
  // drop what comes before the last space outside brackets (not inside an
  // operator's own spelling: `operator<`, `operator()`).
  size_t scanned = name.size();
  for (size_t at = name.find("operator"); at != std::string::npos; at = name.find("operator", at + 1))
    if (at == 0 || name[at - 1] == ':' || name[at - 1] == ' ') {
      scanned = at;
      break;
    }
  int nest = 0;
  size_t cut = std::string::npos;
  for (size_t i = 0; i < scanned; ++i) {
    if (name[i] == '<' || name[i] == '(' || name[i] == '[') ++nest;
    else if (name[i] == '>' || name[i] == ')' || name[i] == ']') --nest;
    else if (name[i] == ' ' && nest == 0) cut = i;
  }
  if (cut != std::string::npos) name = name.substr(cut + 1);
  const std::string params = trim(d.substr(open + 1, close - open - 1));
  size_t arity = 0;
  if (!params.empty() && params != "void") {
    arity = 1;
    nest = 0;
    for (char c : params) {
      if (c == '<' || c == '(' || c == '[') ++nest;
      else if (c == '>' || c == ')' || c == ']') --nest;
      else if (c == ',' && nest == 0) ++arity;
    }
  }
  if (name.empty()) return std::nullopt;
  return std::make_pair(name, arity);
}

testcase::Unlinked unlinkedFunctions(const std::string &linkerOutput) {
  testcase::Unlinked out;
  auto add = [&](const std::string &symbol) {
    for (const char *prefix : {"vtable for ", "typeinfo for ", "VTT for "})
      if (symbol.rfind(prefix, 0) == 0) {
        out.functions.insert({testcase::Unlinked::destructorOf(trim(symbol.substr(std::string(prefix).size()))), 0});
        return;
      }
    if (auto f = functionNameAndArity(symbol)) out.functions.insert(*f);
    else if (isCIdentifier(trim(symbol))) out.functions.insert({trim(symbol), testcase::Unlinked::kAnyArity});
  };
  std::istringstream in(linkerOutput);
  for (std::string line; std::getline(in, line);) {
    if (auto symbol = quoted(line, "undefined reference to `")) add(*symbol);
    else if (const size_t at = line.find("undefined symbol: "); at != std::string::npos) add(line.substr(at + 18));
    // The function whose definition needs the missing one (GNU ld names
    // it; mosaic's own harness functions are not the unit's).
    else if (auto context = quoted(line, "in function `")) {
      std::string f = *context;
      if (f.size() >= 2 && f.compare(f.size() - 2, 2, "':") == 0) f.resize(f.size() - 2);
      if (f.rfind("__mosaic", 0) != 0) add(f);
    }
  }
  return out;
}

namespace {

// The harness's type aliases a line names ("__mosaic_t<id>").
std::vector<std::string> aliasesIn(const std::string &text) {
  static const std::regex alias(R"(__mosaic_t\d+\b)");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), alias); it != std::sregex_iterator(); ++it)
    out.push_back(it->str());
  return out;
}

// A generated harness as CodegenCalls.cpp lays it out: each callable's call
// function (`/* signature */` above `static int __mosaic_call_<id>(`, to
// its closing "}" line) and the aliases it names; the line of each alias.
struct HarnessLayout {
  struct Call {
    std::string id;
    size_t first = 0, last = 0; // 1-based lines
    std::string signature;
    std::set<std::string> aliases;
  };
  std::vector<std::string> lines;
  std::vector<Call> calls;
  std::map<size_t, std::string> aliasAt; // line -> "__mosaic_t<id>"

  explicit HarnessLayout(const std::string &source) {
    static const std::regex call(R"(^static int __mosaic_call_(\d+)\()");
    std::istringstream in(source);
    for (std::string line; std::getline(in, line);) {
      lines.push_back(line);
      const size_t n = lines.size();
      std::smatch m;
      if (line.rfind("using __mosaic_t", 0) == 0) {
        if (auto a = aliasesIn(line); !a.empty()) aliasAt[n] = a.front();
      }
      const std::string &previous = n > 1 ? lines[n - 2] : lines.back();
      if (n > 1 && std::regex_search(line, m, call) && previous.size() > 6 && previous.rfind("/* ", 0) == 0)
        calls.push_back({m[1].str(), n, 0, previous.substr(3, previous.size() - 6), {}});
      else if (line == "}" && !calls.empty() && calls.back().last == 0)
        calls.back().last = n;
      else if (!calls.empty() && calls.back().last == 0)
        for (std::string &a : aliasesIn(line)) calls.back().aliases.insert(std::move(a));
    }
  }

  const Call *owner(size_t line) const {
    for (const Call &c : calls)
      if (line >= c.first && line <= c.last) return &c;
    return nullptr;
  }
};

} // namespace

std::map<std::string, std::string> uncompilableCallables(const std::string &source, const std::string &sourcePath,
                                                         const std::string &compilerOutput) {
  const HarnessLayout layout(source);
  // The diagnostics, an error with its notes at a time. An error in the
  // spelling of a type alias (a type the front end could not name from
  // outside its scope) blames every call that uses the alias: without
  // them the alias is not written. An error elsewhere on a line that names
  // such an alias (an accessor's cast to it: re2's SparseSetT::iterator) is
  // its consequence, and goes with it.
  const std::string file = fs::path(sourcePath).filename().string();
  std::set<std::string> failedAliases;
  {
    static const std::regex located(R"(^(.*?):(\d+):\d+: error: )");
    std::istringstream in(compilerOutput);
    for (std::string line; std::getline(in, line);) {
      std::smatch m;
      if (!std::regex_search(line, m, located) || fs::path(m[1].str()).filename() != file) continue;
      if (auto a = layout.aliasAt.find(std::stoul(m[2].str())); a != layout.aliasAt.end()) failedAliases.insert(a->second);
    }
  }
  auto namesFailedAlias = [&](size_t at) {
    if (at == 0 || at > layout.lines.size()) return false;
    for (const std::string &a : aliasesIn(layout.lines[at - 1]))
      if (failedAliases.count(a)) return true;
    return false;
  };
  bool consequence = false;
  static const std::regex diagnostic(R"(^(.*?):(\d+):\d+: (error|note|warning): (.*)$)");
  std::map<std::string, std::string> out;
  std::string message;
  const HarnessLayout::Call *blamed = nullptr;
  std::string blamedAlias;
  bool open = false, orphan = false;
  auto close = [&] {
    if (!open) return;
    open = false;
    if (blamed) {
      out.emplace(blamed->signature, message);
      return;
    }
    bool any = false;
    for (const HarnessLayout::Call &c : layout.calls)
      if (!blamedAlias.empty() && c.aliases.count(blamedAlias)) {
        out.emplace(c.signature, "type " + blamedAlias + ": " + message);
        any = true;
      }
    if (!any && !consequence) orphan = true;
  };
  std::istringstream in(compilerOutput);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, diagnostic)) continue;
    const std::string kind = m[3].str();
    if (kind == "warning") continue;
    if (kind == "error") {
      close();
      open = true;
      blamed = nullptr;
      blamedAlias.clear();
      consequence = false;
      message = m[4].str();
    }
    if (!open || blamed || fs::path(m[1].str()).filename() != file) continue;
    const size_t at = std::stoul(m[2].str());
    blamed = layout.owner(at);
    const auto alias = layout.aliasAt.find(at);
    if (!blamed && alias == layout.aliasAt.end() && namesFailedAlias(at)) consequence = true;
    if (!blamed && blamedAlias.empty() && alias != layout.aliasAt.end()) blamedAlias = alias->second;
  }
  close();
  if (orphan) return {};
  return out;
}

std::map<std::string, std::string> unlinkableCallables(const std::string &source, const std::string &linkerOutput) {
  // The signature of each call function, by the callable's id (a variadic
  // call's __mosaic_ffi_call_<id> shares it).
  std::map<std::string, std::string> signatureOf;
  for (const HarnessLayout::Call &c : HarnessLayout(source).calls) signatureOf[c.id] = c.signature;
  // GNU ld: "...: in function `__mosaic_call_268(mosaic_ctx*, ...)':" then
  // "...: undefined reference to `symbol'" lines.
  static const std::regex context(R"(in function `__mosaic_(?:ffi_)?call_(\d+)\()");
  std::map<std::string, std::string> out;
  std::string in_;
  std::istringstream in(linkerOutput);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, context)) {
      in_ = m[1].str();
      continue;
    }
    if (line.find("in function `") != std::string::npos) in_.clear();
    auto symbol = quoted(line, "undefined reference to `");
    if (!symbol || in_.empty()) continue;
    if (auto it = signatureOf.find(in_); it != signatureOf.end())
      out.emplace(it->second, "it does not link: undefined reference to " + *symbol);
  }
  return out;
}

namespace {

fs::path memoPath(const model::Program &program, const BuildOptions &options) {
  return fs::absolute(options.workDir) /
         fmt::format("{}-{:012x}.unlinked", fs::path(program.unit).stem().string(), fnv1a(program.unit) & 0xffffffffffffull);
}

// One function per line: arity, a tab, the qualified name; or
// "uncompilable", a tab, a callable's signature, a tab, its first error.
testcase::Unlinked readMemo(const fs::path &path) {
  testcase::Unlinked out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("uncompilable\t", 0) == 0) {
      const size_t tab = line.find('\t', 13);
      if (tab != std::string::npos) out.uncompilable[line.substr(13, tab - 13)] = line.substr(tab + 1);
      continue;
    }
    if (const size_t tab = line.find('\t'); tab != std::string::npos && tab > 0 &&
        line.find_first_not_of("0123456789") == tab)
      out.functions.insert({line.substr(tab + 1), std::stoul(line.substr(0, tab))});
  }
  return out;
}

void writeMemo(const fs::path &path, const testcase::Unlinked &unlinked) {
  std::error_code ec;
  if (unlinked.functions.empty() && unlinked.uncompilable.empty()) {
    fs::remove(path, ec);
    return;
  }
  fs::create_directories(path.parent_path(), ec);
  std::ofstream out(path);
  for (const auto &[name, arity] : unlinked.functions) out << arity << '\t' << name << '\n';
  for (const auto &[signature, why] : unlinked.uncompilable) out << "uncompilable\t" << signature << '\t' << why << '\n';
}

// The left-out callables a user knows: the model's own, by signature.
std::vector<std::string> leftOut(const model::Program &program, const testcase::Unlinked &unlinked) {
  std::vector<std::string> out;
  for (const model::Callable &c : program.callables)
    if (unlinked.contains(c.qualifiedName, c.params.size())) out.push_back(c.signature);
  return out;
}

} // namespace

Expected<Harness> buildLinkedHarness(const model::Program &program, std::unique_ptr<testcase::Catalog> &catalog,
                                     const Toolchain &toolchain, const BuildOptions &options) {
  const fs::path memo = memoPath(program, options);
  const testcase::Unlinked remembered = readMemo(memo);
  testcase::Unlinked unlinked = remembered;
  BuildOptions attempt = options;
  for (int k = 1;; ++k) {
    catalog = std::make_unique<testcase::Catalog>(program, unlinked);
    LinkFailure failure;
    auto h = buildHarness(program, *catalog, toolchain, attempt, &failure);
    if (h) {
      if (unlinked.functions != remembered.functions || unlinked.uncompilable != remembered.uncompilable)
        writeMemo(memo, unlinked);
      if (!unlinked.uncompilable.empty()) {
        constexpr size_t kNamed = 4; // ours: a note line, not a list
        std::string shown;
        size_t k = 0;
        for (const auto &[signature, why] : unlinked.uncompilable)
          if (k++ < kNamed) shown += (k > 1 ? "; " : "") + signature + " (" + why + ")";
        if (unlinked.uncompilable.size() > kNamed) shown += fmt::format(" and {} more", unlinked.uncompilable.size() - kNamed);
        h->notes.push_back(fmt::format("left out {} callable(s) whose call does not compile or link in the harness: {} "
                                       "(remembered in {})",
                                       unlinked.uncompilable.size(), shown, memo.string()));
      }
      if (const auto names = leftOut(program, unlinked); !names.empty()) {
        constexpr size_t kNamed = 4; // ours: a note line, not a list
        std::string shown;
        for (size_t i = 0; i < names.size() && i < kNamed; ++i) shown += (i ? ", " : "") + names[i];
        if (names.size() > kNamed) shown += fmt::format(" and {} more", names.size() - kNamed);
        h->notes.push_back(fmt::format("left out {} callable(s) that no object the harness links defines (in a file "
                                       "the build does not compile?), and what needs them: {} (remembered in {})",
                                       names.size(), shown, memo.string()));
      }
      return h;
    }
    const size_t before = unlinked.functions.size() + unlinked.uncompilable.size();
    unlinked.functions.insert(failure.unlinked.functions.begin(), failure.unlinked.functions.end());
    unlinked.uncompilable.insert(failure.uncompilable.begin(), failure.uncompilable.end());
    // A call the linker blamed (unlinkableCallables) whose function the
    // missing names already cover is left out as unlinked, said once.
    for (const model::Callable &c : program.callables)
      if (unlinked.contains(c.qualifiedName, c.params.size())) unlinked.uncompilable.erase(c.signature);
    if (k >= kLinkAttempts || unlinked.functions.size() + unlinked.uncompilable.size() == before) return h;
    if (!failure.projectDir.empty()) attempt.reuseProject = failure.projectDir;
  }
}

} // namespace mosaic::harness
