// compile_commands.json -> the unit's command line, adjusted for Clang 19.
#include "CompileDatabase.h"

#include <clang/Driver/Options.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/JSONCompilationDatabase.h>
#include <llvm/Option/ArgList.h>
#include <llvm/Option/OptTable.h>
#include <llvm/Support/Path.h>

#include <filesystem>
#include <set>

namespace mosaic::analysis {

namespace fs = std::filesystem;

namespace {

std::string canonicalPath(const std::string &path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  return ec ? path : p.string();
}

std::string entryPath(const clang::tooling::CompileCommand &c) {
  fs::path p(c.Filename);
  if (p.is_relative()) p = fs::path(c.Directory) / p;
  return canonicalPath(p.string());
}

// Compiler launchers that CMake's *_COMPILER_LAUNCHER or users put in front
// of the compiler; the compiler itself is the next argument.
bool isLauncher(const std::string &arg0) {
  const std::string base = fs::path(arg0).filename().string();
  return base == "ccache" || base == "sccache" || base == "distcc" || base == "icecc";
}

// Flags that turn warnings into errors or stop early: a parse for analysis
// must not fail because the project is strict about warnings.
bool isWarningAsError(const std::string &a) {
  return a == "-Werror" || a.rfind("-Werror=", 0) == 0 || a == "-pedantic-errors" || a == "-Wfatal-errors";
}

} // namespace

std::vector<std::string> adjustForClang(const std::vector<std::string> &in, const std::string &resourceDir,
                                        std::vector<std::string> &notes) {
  std::vector<std::string> args(in);
  while (args.size() > 1 && isLauncher(args.front())) {
    notes.push_back("dropped compiler launcher '" + args.front() + "'");
    args.erase(args.begin());
  }
  if (args.empty()) return args;

  // Ask Clang's own driver option table which arguments it does not know:
  // those are GCC-only flags (-fno-tree-vrp, -mindirect-branch=...), which
  // would make the parse fail with "unknown argument".
  std::vector<const char *> argv;
  for (size_t i = 1; i < args.size(); ++i) argv.push_back(args[i].c_str());
  unsigned missingIndex = 0, missingCount = 0;
  const llvm::opt::OptTable &table = clang::driver::getDriverOptTable();
  llvm::opt::InputArgList parsed = table.ParseArgs(argv, missingIndex, missingCount,
                                                   llvm::opt::Visibility(clang::driver::options::ClangOption));
  std::set<unsigned> drop; // indices into args
  for (const llvm::opt::Arg *a : parsed.filtered(clang::driver::options::OPT_UNKNOWN)) {
    drop.insert(a->getIndex() + 1);
    notes.push_back(std::string("dropped flag '") + a->getSpelling().str() + "' (not known to Clang 19)");
  }

  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); ++i) {
    if (drop.count(i)) continue;
    const std::string &a = args[i];
    if (i > 0 && isWarningAsError(a)) {
      notes.push_back("dropped flag '" + a + "' (warnings must not stop the analysis)");
      continue;
    }
    if (a == "-resource-dir" && i + 1 < args.size()) { ++i; continue; }
    if (a.rfind("-resource-dir=", 0) == 0) continue;
    out.push_back(a);
  }
  // Builtin headers (stddef.h, stdarg.h) must be clang-19's own, whatever
  // compiler the project used. Added right after the compiler: an inferred
  // command ends with `-- file`, after which nothing is a flag.
  out.insert(out.begin() + 1, {"-resource-dir=" + resourceDir, "-Wno-error", "-w"});
  return out;
}

Expected<UnitCommand> findUnitCommand(const std::string &buildDir, const std::string &unit) {
  std::error_code ec;
  if (!fs::exists(unit, ec) || fs::is_directory(unit, ec))
    return Error::input("unit '" + unit + "' does not exist or is not a file");

  fs::path dbFile = buildDir;
  if (fs::is_directory(dbFile, ec)) dbFile /= "compile_commands.json";
  if (!fs::exists(dbFile, ec))
    return Error::input("no compile_commands.json in '" + buildDir + "'",
                        "Create one with CMake (-DCMAKE_EXPORT_COMPILE_COMMANDS=ON), Meson (automatic), "
                        "or 'bear -- make', then pass its folder with -p.");

  std::string loadError;
  auto db = clang::tooling::JSONCompilationDatabase::loadFromFile(
      dbFile.string(), loadError, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!db) return Error::input("cannot read '" + dbFile.string() + "'", loadError);

  UnitCommand result;
  result.file = canonicalPath(unit);
  result.database = canonicalPath(dbFile.string());

  std::vector<clang::tooling::CompileCommand> matches;
  for (auto &c : db->getAllCompileCommands()) {
    const std::string path = entryPath(c);
    if (path == result.file) matches.push_back(c);
    result.projectFiles.push_back(path);
  }

  clang::tooling::CompileCommand chosen;
  if (!matches.empty()) {
    chosen = matches.front();
    if (matches.size() > 1)
      result.notes.push_back(std::to_string(matches.size()) +
                             " entries for the unit in compile_commands.json; using the first");
  } else {
    if (db->getAllFiles().empty()) return Error::input("'" + dbFile.string() + "' has no entries");
    // Clang's interpolating database borrows the flags of the entry whose
    // path is closest (same directory first), fixing up the language.
    auto inferred = clang::tooling::inferMissingCompileCommands(std::move(db));
    auto cmds = inferred->getCompileCommands(result.file);
    if (cmds.empty())
      return Error::input("'" + unit + "' is not in '" + dbFile.string() + "' and no entry is close enough to borrow from");
    chosen = cmds.front();
    result.notes.push_back("'" + unit + "' is not in compile_commands.json; using the flags of " +
                           (chosen.Heuristic.empty() ? std::string("the closest entry") : chosen.Heuristic));
  }
  result.directory = chosen.Directory;
  result.args = chosen.CommandLine;
  // An entry's own file argument names the entry's file: point it at the
  // unit's absolute path so the working directory does not matter.
  return result;
}

} // namespace mosaic::analysis
