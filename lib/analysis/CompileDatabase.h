// Finding a unit's compile command in compile_commands.json, and adjusting
// it so that Clang 19 parses what the project's own compiler compiled.
#pragma once

#include "mosaic/support/Expected.h"

#include <string>
#include <vector>

namespace mosaic::analysis {

/// The command a unit is parsed with.
struct UnitCommand {
  std::string file;                ///< absolute path of the unit
  std::string directory;           ///< working directory of the command
  std::string database;            ///< absolute path of the compile_commands.json
  std::vector<std::string> args;   ///< argv, compiler first, as adjusted
  std::vector<std::string> notes;  ///< what was adjusted, for the user
  std::vector<std::string> projectFiles; ///< every file the database lists (absolute)
};

/// Loads BUILD_DIR/compile_commands.json (or BUILD_DIR itself when it names
/// the file) and returns the command for `unit`. A unit the database does not
/// list gets the flags of the closest entry (same directory first), with a
/// note saying so. Fails with an Input error when there is no database, the
/// unit does not exist, or the database has no entry to borrow from.
Expected<UnitCommand> findUnitCommand(const std::string &buildDir, const std::string &unit);

/// Adjusts a compiler command line for parsing with Clang 19 (exposed for
/// tests): drops compiler wrappers (ccache), flags Clang's driver does not
/// know, -Werror and friends; adds -resource-dir of clang-19 and -w. Each
/// dropped flag is explained in `notes`.
std::vector<std::string> adjustForClang(const std::vector<std::string> &args, const std::string &resourceDir,
                                        std::vector<std::string> &notes);

} // namespace mosaic::analysis
