// Frames placed by their function's definition (DefinedIn.h).
#include "DefinedIn.h"

#include "mosaic/support/Text.h"

#include <filesystem>
#include <map>
#include <regex>
#include <set>

namespace mosaic::driver {

namespace {

// The name a definition spells: "Shelf::at[abi:cxx11](int) const" ->
// "Shelf::at"; "" for what names no function ("??", an address).
std::string definitionName(const std::string &function) {
  std::string name = function.substr(0, function.find('('));
  if (const auto tag = name.find("[abi:"); tag != std::string::npos) name.erase(tag);
  static const std::regex identifier(R"(^[A-Za-z_][\w:~]*$)");
  return std::regex_match(name, identifier) ? name : "";
}

std::string escaped(const std::string &s) {
  static const std::regex special(R"([.^$|()\[\]{}*+?\\])");
  return std::regex_replace(s, special, R"(\$&)");
}

} // namespace

std::vector<std::string> fileFramesByDefinition(crash::StackTrace &trace, const std::vector<std::string> &units) {
  std::set<std::string> wanted;
  for (const crash::TraceFrame &f : trace.frames)
    if (f.frame.file.empty() && !definitionName(f.frame.function).empty())
      wanted.insert(definitionName(f.frame.function));
  if (wanted.empty()) return {};
  // Each name's definitions: a line that starts (column 0) with a type or
  // the name itself, then the name and its parameter list, and that does not
  // end in ';' (a declaration) — C's and C++'s usual layout of definitions.
  std::map<std::string, std::set<std::string>> definedIn;
  std::map<std::string, std::regex> patterns;
  for (const std::string &name : wanted)
    patterns.emplace(name, std::regex(R"(^(?:[A-Za-z_][\w\s\*&:<>,]*[\s\*&:])?)" + escaped(name) + R"(\s*\()"));
  for (const std::string &unit : units) {
    const std::string text = readFile(unit);
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      const std::string line = text.substr(start, end - start);
      start = end + 1;
      if (line.empty() || line[0] == ' ' || line[0] == '\t' || line[0] == '#' || line[0] == '/') continue;
      const auto last = line.find_last_not_of(" \t\r");
      if (last != std::string::npos && line[last] == ';') continue;
      for (const auto &[name, pattern] : patterns)
        if (line.find(name.substr(name.rfind(':') == std::string::npos ? 0 : name.rfind(':') + 1)) != std::string::npos &&
            std::regex_search(line, pattern))
          definedIn[name].insert(unit);
    }
  }
  std::vector<std::string> placed;
  for (crash::TraceFrame &f : trace.frames) {
    if (!f.frame.file.empty()) continue;
    const auto it = definedIn.find(definitionName(f.frame.function));
    if (it == definedIn.end() || it->second.size() != 1) continue;
    f.frame.file = *it->second.begin();
    f.frame.line = 0;
    placed.push_back(f.frame.function + " -> " + std::filesystem::path(f.frame.file).filename().string());
  }
  return placed;
}

} // namespace mosaic::driver
