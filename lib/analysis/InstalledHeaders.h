// The headers a project's build installs: its interface, in the project's
// own words. A function declared only in a header the build keeps to itself
// (re2's re2/prog.h, zstd's lib/compress/hist.h) is the library's inside,
// whatever the header is called: a failure reached by calling it with
// arbitrary arguments is no claim a user of the library would accept.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mosaic::analysis {

struct InstalledHeaders {
  /// Where they were read ("cmake_install.cmake", "make -n install",
  /// "meson-info/intro-installed.json"); empty when the build says nothing
  /// (no install rule names a header), and then header names decide.
  std::string source;
  /// Headers as the build names them: absolute paths, or paths relative to
  /// some folder of the project (`re2/re2.h`, `lua.h`), matched as a suffix.
  std::vector<std::string> files;
  /// Absolute folders installed whole (CMake's install(DIRECTORY)).
  std::vector<std::string> folders;

  bool known() const { return !files.empty() || !folders.empty(); }
  /// Whether the build installs `header` (an absolute, canonical path;
  /// findInstalledHeaders makes the absolute ones here canonical too).
  bool installs(std::string_view header) const;
};

/// Reads what the build in `buildDir` (the folder of compile_commands.json)
/// installs: Meson's introspection file, else every cmake_install.cmake
/// under it, else the commands `make -n install` prints there (at most 30 s;
/// nothing is installed: make only prints, DESTDIR points nowhere). Empty
/// when none of them names a header.
InstalledHeaders findInstalledHeaders(const std::string &buildDir);

/// The parsers behind it, exposed for tests. Each appends to `out`.
/// `text` of a cmake_install.cmake: the `file(INSTALL ...)` of TYPE FILE
/// (headers among FILES) and TYPE DIRECTORY (FILES are folders).
void readCMakeInstall(std::string_view text, InstalledHeaders &out);
/// What `make -n install DESTDIR=destDir` printed: headers named on a
/// command that installs or copies (install, cp, automake's `list=`), but
/// not destinations (under destDir).
void readMakeDryRun(std::string_view text, std::string_view destDir, InstalledHeaders &out);

} // namespace mosaic::analysis
