// mosaic: the command-line tool. Flags -> Options -> driver; nothing else.
#include "mosaic/driver/Analyze.h"
#include "mosaic/driver/Options.h"

#include <CLI/CLI.hpp>

#include <iostream>

namespace {

constexpr const char *kExitCodes = "Exit codes: 0 ok, 1 findings (failing behaviour found), "
                                   "2 usage or input error, 3 internal error.";

} // namespace

int main(int argc, char **argv) {
  using namespace mosaic::driver;
  CLI::App app{"mosaic: unit tests for C and C++, generated from your build."};
  app.footer(kExitCodes);
  app.set_version_flag("--version", std::string("mosaic " MOSAIC_VERSION " (LLVM " MOSAIC_LLVM_VERSION ")"));
  app.require_subcommand(1);

  AnalyzeOptions analyze;
  CLI::App *analyzeCmd =
      app.add_subcommand("analyze", "Parse a unit with the project's flags and show its program model: "
                                    "what a generated test can call and build, and what is skipped and why.");
  analyzeCmd->add_option("-p,--build-dir", analyze.buildDir, "Folder with compile_commands.json")->required();
  analyzeCmd->add_option("unit", analyze.unit, "Source file of the unit to analyse")->required();
  auto *fn = analyzeCmd->add_option("--function", analyze.function, "Only this function (name or qualified name)");
  auto *cls = analyzeCmd->add_option("--class", analyze.className, "Only this class (its constructors and methods)");
  fn->excludes(cls);
  analyzeCmd->add_option("--json", analyze.jsonOut, "Write the full model as JSON to this file ('-' for stdout)");
  analyzeCmd->footer(kExitCodes);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    const int code = app.exit(e); // prints help, version, or the error
    return code == 0 ? kExitOk : kExitUsage;
  }

  if (analyzeCmd->parsed()) return runAnalyze(analyze, std::cout, std::cerr);
  return kExitUsage;
}
