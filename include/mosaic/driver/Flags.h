// The command line as one table: every flag of every subcommand, declared
// once with its name, value, help, the subcommands that take it, and where
// its value goes in the options. The tool builds its parser and help from
// this table; docs/CLI.md's flag tables are rendered from it, and a test
// checks that the help, the docs and the table agree. Defaults are the
// options structs' own (Run.h, Generate.h, search::SearchOptions, ...):
// the table shows them, it does not repeat them.
#pragma once

#include "mosaic/driver/Analyze.h"
#include "mosaic/driver/Generate.h"
#include "mosaic/driver/Mutate.h"
#include "mosaic/driver/Predict.h"
#include "mosaic/driver/Project.h"
#include "mosaic/driver/Reproduce.h"
#include "mosaic/driver/Run.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mosaic::driver {

enum Command : unsigned { kAnalyze = 1u, kRun = 2u, kGenerate = 4u, kMutate = 8u, kReproduce = 16u, kPredict = 32u,
                         kProject = 64u };
const char *commandName(Command command);

/// What the subcommands read: one options struct each.
struct CommandLine {
  AnalyzeOptions analyze;
  RunOptions run;
  GenerateOptions generate;
  MutateOptions mutate;
  ReproduceOptions reproduce;
  PredictOptions predict;
  ProjectOptions project;
};

/// How a flag is given: a value after it, none (a switch), or the unit's
/// position.
enum class FlagShape { Value, Switch, Positional };

struct Flag {
  std::string names;     ///< CLI11 style: "-p,--build-dir", "--seed", "unit"
  std::string value;     ///< what the value is, for help and docs: "DIR", "N", "30s"; "" for switches
  FlagShape shape = FlagShape::Value;
  unsigned commands = 0; ///< Command bits
  std::string help;      ///< one sentence, no default in it (shown from the options)
  std::string group;     ///< help section: "" (the main one) or "Search parameters"
  bool required = false;
  std::string excludes;  ///< a flag that cannot be given with this one ("--class")
  /// Stores the value as typed ("" for a switch) into the options of
  /// `command`; an error message when it does not parse or is out of range.
  std::function<std::optional<std::string>(CommandLine &, Command, const std::string &)> set;
  /// The value the options hold, as a user would type it ("" when there is
  /// nothing to show: no default, or a switch).
  std::function<std::string(const CommandLine &, Command)> show;

  /// The long name ("--build-dir"), or the positional name.
  std::string longName() const;
  /// The default for `command`, from default-constructed options.
  std::string defaultFor(Command command) const;
};

/// Every flag, in the order help and docs list them.
const std::vector<Flag> &flagTable();
/// The flags of one subcommand, in table order.
std::vector<const Flag *> flagsOf(Command command);

/// The markdown table of `command`'s flags that docs/CLI.md carries
/// between `<!-- flags:NAME -->` and `<!-- /flags -->`.
std::string flagsMarkdown(Command command);

} // namespace mosaic::driver
