// Building a unit's harness: generate, compile the unit with mosaic's pass
// (once per unit: cached by content), link with the runtime and whatever
// else of the project the unit needs.
#pragma once

#include "mosaic/harness/Codegen.h"
#include "mosaic/support/Expected.h"

#include <map>
#include <string>
#include <vector>

namespace mosaic::harness {

/// Where mosaic's own parts are (the build tree knows them; tools pass them).
struct Toolchain {
  std::string clang = "clang-19";
  std::string clangxx = "clang++-19";
  std::string passPlugin;  ///< libMosaicPass.so
  std::string runtime;     ///< libmosaic_rt.a
  std::string mutateRuntime; ///< libmosaic_mutate_rt.a (a unit built with mutant schemata)
  std::string abiInclude;  ///< the folder holding mosaic/abi/*.h
  std::string llvmProfdata = "llvm-profdata-19"; ///< merges a written suite's coverage profiles
  std::string llvmCov = "llvm-cov-19";           ///< reports a written suite's coverage of the unit
  std::string llvmSymbolizer = "llvm-symbolizer-19"; ///< names the frames of a failure's stack
};

struct BuildOptions {
  std::string workDir;   ///< harnesses live in workDir/<unit>-<hash>/
  bool sanitize = false; ///< an ASan + UBSan harness
  unsigned jobs = 2;     ///< parallel compiles of the project's other units
  /// A folder holding libproject.a and project.json from an earlier attempt
  /// of this session (LinkFailure::projectDir): reused, not rebuilt.
  std::string reuseProject;
  /// The mutants' infection probes compiled in (the weak-mutation
  /// criterion's harness; abi/Hooks.h: MOSAIC_PASS_MUTANTS=weak).
  bool weakMutation = false;
  /// Every mutant compiled in, the one that runs chosen per test (assertion
  /// filtering's harness; MOSAIC_PASS_MUTANTS=schemata): nothing else of
  /// the unit is instrumented.
  bool schemata = false;
  /// Symbolic tracing compiled in everywhere (concolic execution's
  /// harness, issue 22; abi/Symbolic.h: MOSAIC_PASS_SYMBOLIC=1 and
  /// -DMOSAIC_SYMBOLIC, which makes the harness mark the test's values as
  /// input bytes). Runs slower; only for the concolic side's runs.
  bool symbolic = false;
};

/// What a harness that did not link leaves for another attempt
/// (buildLinkedHarness).
struct LinkFailure {
  testcase::Unlinked unlinked; ///< parsed from the linker's full output
  std::string projectDir;      ///< holds the project archive it built, if any
  /// When the harness does not compile and every error lies in the
  /// function of one callable or another (Link.h: uncompilableCallables),
  /// or does not link for a symbol only some calls need
  /// (unlinkableCallables): those callables, by signature, with their first error.
  std::map<std::string, std::string> uncompilable;
};

/// Another translation unit of the project, as its compile command builds it.
struct ProjectUnit {
  std::string file;                ///< absolute
  std::vector<std::string> flags;  ///< without the compiler, -c, -o and the file; paths absolute
};

struct Harness {
  std::string binary;
  std::string description;  ///< the pass's static description of the unit
  std::string directory;    ///< the harness's folder (sources, objects, logs)
  GeneratedHarness generated;
  bool cached = false;      ///< an identical earlier build was reused
  std::vector<std::string> notes;
  /// The project's other units the harness was linked with (empty when the
  /// unit needs none of them).
  std::vector<ProjectUnit> project;
  /// Libraries outside the project the harness was linked with
  /// (projectLibraries: taglib's tzlib.cpp calls zlib's inflate), as
  /// absolute paths or -l flags; empty when it needed none.
  std::vector<std::string> libraries;
};

/// The libraries outside the project its build links with, read from its
/// build folder (the compile database's): a CMake cache's
/// `NAME_LIBRARY[_RELEASE]` and `NAME_LIBRARIES` entries (taglib's
/// ZLIB_LIBRARY_RELEASE=/usr/lib/x86_64-linux-gnu/libz.so), and a
/// Makefile's `LIBS = -lz -lm` (autotools). Existing files and -l flags
/// only, in order, each once.
std::vector<std::string> projectLibraries(const std::string &buildDir);

/// Whether the object file defines a global `main` (nm): a program or a
/// test driver of the project (re2's util/test.cc), whose main the project
/// archive renames: linked in for another symbol it defines, it would
/// clash with gtest_main's main.
bool definesMain(const std::string &object);

/// Builds (or reuses) the harness of `program`'s unit. Fails with an Input
/// error carrying the compiler's output when the unit or harness does not
/// compile or link.
/// `failure`, when given, is filled when the link fails.
Expected<Harness> buildHarness(const model::Program &program, const testcase::Catalog &catalog,
                               const Toolchain &toolchain, const BuildOptions &options,
                               LinkFailure *failure = nullptr);

/// The standard flag the harness compiles with for the unit's `flag`: a
/// C++ standard before C++11 becomes its C++11 counterpart (gnu++98 ->
/// gnu++11), which the harness's code needs; anything else is kept.
std::string harnessStandard(const std::string &flag);

/// The arguments that compile the unit's harness wrapper with the unit's own
/// flags (exposed for tests): the analysis command without -fsyntax-only,
/// the unit file, outputs and dependency files, plus what the pass needs.
std::vector<std::string> harnessCompileCommand(const model::Program &program, const Toolchain &toolchain,
                                               const std::string &source, const std::string &object, bool sanitize);

/// The unit's own compile flags as a standalone build would pass them: no
/// compiler, outputs, dependency files or the file itself; relative include
/// paths made absolute; a C++ standard before C++11 raised as the harness's
/// (harnessStandard: the suite's wrapper is mosaic's code too).
std::vector<std::string> unitFlags(const model::Program &program);

} // namespace mosaic::harness
