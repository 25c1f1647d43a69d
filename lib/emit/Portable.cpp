// Paths in a written suite that survive a move (Portable.h).
#include "Portable.h"

#include <filesystem>
#include <optional>
#include <system_error>

namespace mosaic::emit {

namespace fs = std::filesystem;

namespace {

constexpr const char *kRootVariable = "MOSAIC_PROJECT_ROOT";
constexpr const char *kBuildVariable = "MOSAIC_BUILD_DIR";

// `path` relative to `folder` when it lies inside it ("" for the folder
// itself), else nothing.
std::optional<std::string> inside(const std::string &path, const std::string &folder) {
  if (folder.empty()) return std::nullopt;
  const fs::path rel = fs::path(path).lexically_normal().lexically_relative(fs::path(folder).lexically_normal());
  if (rel.empty()) return std::nullopt;
  const std::string r = rel.string();
  if (r == ".") return std::string();
  if (r == ".." || r.rfind("../", 0) == 0) return std::nullopt;
  return r;
}

// The folder `to` as seen from `from` ("../../proj"), both absolute.
std::string relativeTo(const std::string &to, const std::string &from) {
  const std::string rel = fs::path(to).lexically_normal().lexically_relative(fs::path(from).lexically_normal()).string();
  return rel.empty() ? to : rel;
}

// The flags that name a path, joined to it (harness::buildFlags writes them so).
constexpr const char *kPathFlags[] = {"-isystem", "-iquote", "-include", "-idirafter", "-imacros", "-I"};

} // namespace

ProjectPaths::ProjectPaths(const UnitBuild &build) : root_(build.root), buildDir_(build.buildDir), suiteDir_(build.suiteDir) {
  // A build folder inside the project is reached through the project's variable.
  if (inside(buildDir_, root_)) buildDir_.clear();
  if (root_.empty() || suiteDir_.empty()) root_.clear(), buildDir_.clear();
}

std::string ProjectPaths::cmakePath(const std::string &path) const {
  if (auto rel = inside(path, root_)) return std::string("${") + kRootVariable + "}" + (rel->empty() ? "" : "/" + *rel);
  if (auto rel = inside(path, buildDir_)) return std::string("${") + kBuildVariable + "}" + (rel->empty() ? "" : "/" + *rel);
  return path;
}

std::string ProjectPaths::cmakeFlag(const std::string &flag) const {
  for (const char *p : kPathFlags) {
    const std::string prefix = p;
    if (flag.size() > prefix.size() && flag.rfind(prefix, 0) == 0 && flag[prefix.size()] == '/')
      return prefix + cmakePath(flag.substr(prefix.size()));
  }
  return flag;
}

std::string ProjectPaths::cmakeDefaults() const {
  if (root_.empty()) return "";
  std::string out = std::string(kBeginDefaults) + "\n";
  out += "# The project's files are named relative to MOSAIC_PROJECT_ROOT";
  out += buildDir_.empty() ? "" : " and its build folder's to MOSAIC_BUILD_DIR";
  out += ";\n# by default as this suite was written beside them. Point elsewhere with -D.\n";
  auto variable = [&](const char *name, const std::string &folder) {
    out += std::string("if(NOT DEFINED ") + name + ")\n  set(" + name + " " +
           cmakeQuotePath("${CMAKE_CURRENT_SOURCE_DIR}/" + relativeTo(folder, suiteDir_)) + ")\nendif()\n";
    // Resolved, so that compilers and llvm-cov name the unit's files as
    // mosaic does (no "..", no symbolic links).
    out += std::string("get_filename_component(") + name + " \"${" + name + "}\" REALPATH)\n";
  };
  variable(kRootVariable, root_);
  if (!buildDir_.empty()) variable(kBuildVariable, buildDir_);
  return out + kEndDefaults + "\n";
}

std::string ProjectPaths::includeFromProject(const std::string &header) const {
  for (const std::string &folder : {root_, buildDir_})
    if (auto rel = inside(header, folder); rel && !rel->empty()) return "\"" + *rel + "\"";
  return "";
}

std::vector<std::string> ProjectPaths::quoteFolders() const {
  std::vector<std::string> out;
  for (const std::string &folder : {root_, buildDir_})
    if (!folder.empty()) out.push_back("-iquote" + cmakePath(folder));
  return out;
}

std::string cmakeQuotePath(const std::string &text, bool list) {
  std::string out = "\"";
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool variable = c == '$' && (text.compare(i, 2 + std::string(kRootVariable).size(), std::string("${") + kRootVariable) == 0 ||
                                       text.compare(i, 2 + std::string(kBuildVariable).size(), std::string("${") + kBuildVariable) == 0 ||
                                       text.compare(i, 26, "${CMAKE_CURRENT_SOURCE_DIR") == 0);
    if (c == '"' || c == '\\' || (c == '$' && !variable) || (c == ';' && !list)) out.push_back('\\');
    out.push_back(c);
  }
  return out + "\"";
}

bool mosaicOnlyFlag(const std::string &flag) { return flag.rfind("-resource-dir", 0) == 0; }

std::string includeThroughFolders(const std::string &header, const std::vector<std::string> &flags,
                                  const std::vector<std::string> &searchedFirst) {
  struct Folder {
    std::string path;
    bool quoteOnly; // -iquote
    bool spells = true;
  };
  // The compiler's order for a quoted include: -iquote, then -I, then
  // -isystem; the folders searched before all of them first.
  std::vector<Folder> folders;
  for (const std::string &f : searchedFirst) folders.push_back({f, false, false});
  for (const char *kind : {"-iquote", "-I", "-isystem"})
    for (const std::string &f : flags) {
      const std::string prefix = kind;
      if (f.size() > prefix.size() && f.rfind(prefix, 0) == 0 && f[prefix.size()] == '/' &&
          !(prefix == "-I" && (f.rfind("-isystem", 0) == 0 || f.rfind("-iquote", 0) == 0)))
        folders.push_back({f.substr(prefix.size()), prefix == "-iquote"});
    }
  std::error_code ec;
  std::string best;
  bool bestQuoted = false;
  for (const Folder &folder : folders) {
    if (!folder.spells) continue;
    const auto rel = inside(header, folder.path);
    if (!rel || rel->empty()) continue;
    // This spelling must find this file first, searching as the compiler does.
    bool ours = false;
    for (const Folder &other : folders) {
      if (folder.quoteOnly == false && other.quoteOnly) continue; // <...> skips -iquote
      const fs::path candidate = fs::path(other.path) / *rel;
      if (!fs::exists(candidate, ec)) continue;
      ours = fs::equivalent(candidate, header, ec);
      break;
    }
    if (ours && (best.empty() || rel->size() < best.size())) best = *rel, bestQuoted = folder.quoteOnly;
  }
  if (best.empty()) return "";
  return bestQuoted ? "\"" + best + "\"" : "<" + best + ">";
}

std::string relocateSuite(const std::string &cmakeText, const std::string &fromDir, const std::string &toDir) {
  const size_t begin = cmakeText.find(ProjectPaths::kBeginDefaults);
  const size_t end = cmakeText.find(ProjectPaths::kEndDefaults);
  if (begin == std::string::npos || end == std::string::npos || end < begin) return cmakeText;
  const std::string marker = "${CMAKE_CURRENT_SOURCE_DIR}/";
  std::string block = cmakeText.substr(begin, end - begin);
  for (size_t at = block.find(marker); at != std::string::npos; at = block.find(marker, at + 1)) {
    const size_t from = at + marker.size(), to = block.find('"', from);
    if (to == std::string::npos) break;
    const fs::path folder = (fs::path(fromDir) / block.substr(from, to - from)).lexically_normal();
    block.replace(from, to - from, relativeTo(folder.string(), toDir));
  }
  return cmakeText.substr(0, begin) + block + cmakeText.substr(end);
}

} // namespace mosaic::emit
