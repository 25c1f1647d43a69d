// mosaic: the command-line tool. The flag table (driver/Flags.h) -> a CLI11
// parser -> Options -> driver; nothing else.
#include "mosaic/driver/Analyze.h"
#include "mosaic/driver/CrashReport.h"
#include "mosaic/driver/Flags.h"
#include "mosaic/driver/Generate.h"
#include "mosaic/driver/Mutate.h"
#include "mosaic/driver/Options.h"
#include "mosaic/driver/Predict.h"
#include "mosaic/driver/Project.h"
#include "mosaic/driver/Reproduce.h"
#include "mosaic/driver/Run.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <map>

namespace {

using namespace mosaic::driver;

constexpr const char *kExitCodes = "Exit codes: 0 ok, 1 findings (failing behaviour found), "
                                   "2 usage or input error, 3 internal error.";

struct Subcommand {
  Command command;
  const char *description;
};

const Subcommand kSubcommands[] = {
    {kAnalyze, "Parse a unit with the project's flags and show its program model: what a generated test can call and "
               "build, and what is skipped and why."},
    {kRun, "Build the unit's instrumented harness once and run random tests through the fork server until the budget "
           "ends: executions per second, coverage, outcomes, failures with a minimal test each."},
    {kGenerate, "Search for tests of a unit (DynaMOSA by default) and write them as a GoogleTest suite with a "
                "CMakeLists.txt; then build it, run it 5 times, repair or remove what fails, and measure its coverage "
                "with llvm-cov."},
    {kMutate, "Measure a test suite's mutation score on the unit: build it once with the unit's mutants compiled in, "
              "run its tests against each sampled mutant, and report the mutants killed, survived and not covered "
              "per operator and line."},
    {kReproduce, "Write a unit test that reproduces a crash from its stack trace (a sanitizer report, a libFuzzer "
                 "log, a gdb or lldb backtrace): search the unit of the trace's deepest frame in the project for a "
                 "test that fails the same way with the same frames, and write it as a GoogleTest death test."},
    {kPredict, "Rank the project's units by how likely they are to be defective, from its git history (Schwa: recent "
               "revisions, fixes and authors, weighted by time), each with its recent fixes and riskiest functions."},
    {kProject, "Generate tests for every unit of a project: each searched by `generate` in a worker process with a "
               "share of the budget from defect prediction (BADS), its result stored as it finishes (a re-run resumes "
               "and redoes only what changed), and one CMakeLists.txt over all the suites."},
};

// The help line of a flag: its sentence and, where the options hold one,
// its default.
std::string helpOf(const Flag &f, Command command) {
  const std::string def = f.defaultFor(command);
  return def.empty() ? f.help : f.help + " (default " + def + ")";
}

// Adds `command`'s flags to `app`; each value given is kept as typed in
// `given`, to be stored through the table once parsing is done.
void addFlags(CLI::App &app, Command command, std::map<const Flag *, std::string> &given) {
  std::map<std::string, CLI::Option *> byName;
  for (const Flag *f : flagsOf(command)) {
    CLI::Option *o = nullptr;
    if (f->shape == FlagShape::Switch) {
      o = app.add_flag_callback(f->names, [f, &given] { given[f] = ""; }, helpOf(*f, command));
    } else {
      o = app.add_option_function<std::string>(
          f->names, [f, &given](const std::string &v) { given[f] = v; }, helpOf(*f, command));
      if (!f->value.empty()) o->type_name(f->value);
    }
    if (f->required) o->required();
    if (!f->group.empty()) o->group(f->group);
    byName[f->longName()] = o;
  }
  for (const Flag *f : flagsOf(command))
    if (!f->excludes.empty() && byName.count(f->excludes)) byName[f->longName()]->excludes(byName[f->excludes]);
}

// Stores the values given through the flag table and runs the subcommand.
int dispatch(const std::map<Command, CLI::App *> &commands,
             const std::map<Command, std::map<const Flag *, std::string>> &given) {
  CommandLine options;
  for (const auto &[command, sub] : commands) {
    if (!sub->parsed()) continue;
    for (const auto &[flag, value] : given.at(command))
      if (auto error = flag->set(options, command, value)) {
        std::cerr << "mosaic: error: " << *error << "\n";
        return kExitUsage;
      }
    switch (command) {
    case kAnalyze: return runAnalyze(options.analyze, std::cout, std::cerr);
    case kRun: return runRandom(options.run, std::cout, std::cerr);
    case kGenerate: return generate(options.generate, std::cout, std::cerr);
    case kMutate: return mutate(options.mutate, std::cout, std::cerr);
    case kReproduce: return reproduce(options.reproduce, std::cout, std::cerr);
    case kPredict: return predict(options.predict, std::cout, std::cerr);
    case kProject: return project(options.project, std::cout, std::cerr);
    }
  }
  return kExitUsage;
}

} // namespace

int main(int argc, char **argv) {
  installCrashReport(argv[0]);
  CLI::App app{"mosaic: unit tests for C and C++, generated from your build."};
  app.footer(kExitCodes);
  app.set_version_flag("--version", std::string("mosaic " MOSAIC_VERSION " (LLVM " MOSAIC_LLVM_VERSION ")"));
  app.require_subcommand(1);

  std::map<Command, CLI::App *> commands;
  std::map<Command, std::map<const Flag *, std::string>> given;
  for (const Subcommand &s : kSubcommands) {
    CLI::App *sub = app.add_subcommand(commandName(s.command), s.description);
    sub->footer(kExitCodes);
    addFlags(*sub, s.command, given[s.command]);
    commands[s.command] = sub;
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    const int code = app.exit(e); // prints help, version, or the error
    return code == 0 ? kExitOk : kExitUsage;
  }

  // No exception leaves mosaic as an abort: exit code 3 and what it was.
  try {
    return dispatch(commands, given);
  } catch (const std::exception &e) {
    std::cerr << "mosaic: internal error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "mosaic: internal error: an exception of unknown type\n";
  }
  return kExitInternal;
}
