// A project as its compile database shows it: its source files, the folder
// that holds them, and which of them are the project's library code (the
// units project mode and defect prediction work on) rather than its tests,
// fuzz harnesses, examples and tools.
#pragma once

#include "mosaic/support/Expected.h"

#include <string>
#include <vector>

namespace mosaic::driver {

/// The source files of a compile database (a folder holding
/// compile_commands.json, or the file), canonical, each once, in its order.
Expected<std::vector<std::string>> databaseFiles(const std::string &buildDir);

/// The deepest folder holding every file: where the project's headers are
/// looked for.
std::string commonFolder(const std::vector<std::string> &files);

/// The project's folder, which a written suite names the project's files
/// relative to (emit/Portable.h): the git work tree that holds every file
/// of the database when there is one; else the deepest folder holding the
/// files and the include folders of `flags` (-I, -isystem, -iquote, joined
/// and absolute) that are not system folders (/usr, /opt) nor in
/// `buildDir`. Canonical.
std::string projectRoot(const std::vector<std::string> &files, const std::vector<std::string> &flags,
                        const std::string &buildDir);

/// Why `file` (under `root`) is not the project's library code, by its
/// path: a folder or a file name that says test, fuzz, example, benchmark,
/// tool or doc ("tests/cjson_add.c is under tests/"); "" for library code.
std::string notLibraryCode(const std::string &file, const std::string &root);

} // namespace mosaic::driver
