// Input samples from the project's own code: the string literals its other
// source files (its tests, its examples, its tools) pass to the unit.
//
// A parser's deep code is behind a whole document (an XML file, a JSON
// value, an XPath expression) that neither the unit's own literals nor
// token edits build in a minute. The project's tests hold such documents by
// the hundred, next to the calls that feed them to the unit. This is
// EvoSuite's seeding from the code that uses a class (Fraser & Arcuri,
// "The Seed is Strong", ICST 2012), at the level of tokens: the files are
// lexed, not compiled, so it costs milliseconds and needs no compile
// command for them.
#pragma once

#include "mosaic/model/Program.h"

#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace mosaic::analysis {

/// Bounds of the search (ours: enough for the test folders of the
/// benchmark's subjects, small enough to stay well under a second).
struct SampleLimits {
  std::size_t maxFiles = 2000;            ///< source files lexed
  std::size_t maxFileBytes = 2u << 20;    ///< larger files are data, not code
  std::size_t maxSamples = 1000;          ///< samples kept
  std::size_t maxSampleBytes = 4096;      ///< longer literals are dropped
};

struct ProjectSamples {
  /// Distinct literals (bytes, at least 2), best first: those written in
  /// the arguments of a call to one of the unit's functions, then those not
  /// in any call (initialisers: `const char *text = "<doc/>";`), then those
  /// in other calls (messages, macros), evenly thinned to the limit.
  std::vector<std::string> samples;
  std::size_t filesLexed = 0;   ///< source files read
  std::size_t filesCalling = 0; ///< of those, files that call one of `names`
  /// Of the literal keys asked for, in how many of the files lexed each
  /// appears (GRT's constant mining weighs the unit's literals by it).
  model::LiteralDocuments literalDocuments;
};

/// The folder the project's sources are searched in: the deepest folder
/// holding `unit` and every file of the compile database or, when that
/// folder has no build file (CMakeLists.txt, meson.build, configure.ac,
/// configure, Makefile.am, Makefile), the first folder above it that has
/// one (up to 3 levels). When the deepest common folder is the file
/// system's root or a folder right under it, the same from the unit's folder.
std::string projectRoot(const std::string &unit, const std::vector<std::string> &databaseFiles);

/// Lexes the C and C++ source files under `root` in path order (hidden
/// folders and CMake build trees skipped, `unit` itself skipped: its
/// literals are mined from its AST), and keeps the narrow string literals
/// of the files that call a function named in `names`; counts the files
/// holding each of `literalKeys` (model::integerLiteralKey & co).
ProjectSamples mineProjectSamples(const std::string &root, const std::string &unit,
                                  const std::set<std::string> &names, const std::set<std::string> &literalKeys = {},
                                  const SampleLimits &limits = {});

/// The same on one file's text (exposed for tests): appends its literals to
/// the three ranks (in calls to `names`, in no call, in other calls) and
/// returns whether it calls one of `names`.
bool lexSamples(const std::string &text, const std::set<std::string> &names, std::size_t maxSampleBytes,
                std::vector<std::string> (&ranks)[3]);

} // namespace mosaic::analysis
