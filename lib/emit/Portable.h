// Paths in a written suite that survive a move (private to lib/emit): a
// suite is committed beside the project and built on other machines, so
// the files and folders of the project are written relative to two CMake
// variables, MOSAIC_PROJECT_ROOT (the project's sources) and
// MOSAIC_BUILD_DIR (its build folder, where generated headers are), whose
// defaults are relative to the suite's own folder; and the unit's headers
// are included as the project's code includes them, through its include
// folders (`#include <json/value.h>`), not by absolute path.
#pragma once

#include "mosaic/emit/Suite.h"

#include <string>
#include <vector>

namespace mosaic::emit {

/// The two CMake variables and what they stand for on this machine.
class ProjectPaths {
public:
  /// From UnitBuild::root, buildDir and suiteDir. An empty root keeps
  /// every path absolute (a suite written without a project folder).
  explicit ProjectPaths(const UnitBuild &build);

  /// `path` (absolute) as the text of a CMake path: "${MOSAIC_PROJECT_ROOT}/src/a.c"
  /// under the project, "${MOSAIC_BUILD_DIR}/config.h" under its build
  /// folder, the path itself elsewhere (a system folder). Not quoted.
  std::string cmakePath(const std::string &path) const;
  /// A compile flag with the path it names (-I, -isystem, -iquote,
  /// -include, -idirafter, joined) written as cmakePath does; other flags
  /// as they are. Not quoted.
  std::string cmakeFlag(const std::string &flag) const;
  /// The CMake lines that give both variables their defaults, relative to
  /// the suite's folder (between kBeginDefaults and kEndDefaults, so that
  /// `mosaic project --merge` can write them again for the suite's new
  /// place: relocateDefaults).
  std::string cmakeDefaults() const;
  /// `header` spelled relative to the project's folder or its build
  /// folder, quoted (`"src/lib/util.h"`), for a test file whose targets
  /// search both (quoteFolders); empty when it is in neither.
  std::string includeFromProject(const std::string &header) const;
  /// The -iquote flags (CMake text, not quoted) that make
  /// includeFromProject's spellings work.
  std::vector<std::string> quoteFolders() const;

  static constexpr const char *kBeginDefaults = "# mosaic: where the project is (begin)";
  static constexpr const char *kEndDefaults = "# mosaic: where the project is (end)";

private:
  std::string root_, buildDir_, suiteDir_;
};

/// CMake's text for a quoted argument: `text` with `"` and `\` escaped, and
/// `$` too unless it opens one of ProjectPaths' variables, and `;` unless
/// `list` (then it separates the items of a CMake list).
std::string cmakeQuotePath(const std::string &text, bool list = false);

/// Flags of the unit's that only mosaic's own Clang needs (its resource
/// folder): left out of a written suite, whose compiler knows its own.
bool mosaicOnlyFlag(const std::string &flag);

/// How a test file includes `header` (absolute): `<json/value.h>` through
/// the first of the unit's include folders (-I, -isystem, -iquote in
/// `flags`, absolute) that finds this very file under that spelling, the
/// shortest such; else empty (the caller falls back to another spelling).
/// `searchedFirst`: folders the compiler searches before them (the main
/// header's folder, which CMakeFile names with target_include_directories,
/// whose -I CMake puts before the target's compile options): a spelling
/// they would resolve to another file is not this file's (libplist's main
/// header include/plist/plist.h shadows its private src/plist.h), but they
/// spell nothing themselves (TestFile spells a header beside the main one
/// by name, in quotes).
std::string includeThroughFolders(const std::string &header, const std::vector<std::string> &flags,
                                  const std::vector<std::string> &searchedFirst = {});

} // namespace mosaic::emit
