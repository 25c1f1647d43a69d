// Linking a harness whose unit sees declarations that nothing defines.
//
// A unit may declare functions that no object of its project defines out of
// line: yaml-cpp's YAML::Node members are defined `inline` in node/impl.h,
// which memory.cpp never includes, so a harness that calls `YAML::Node()`
// does not link. Such functions are left out of the catalog (with the
// functions and classes that need them) and the harness is built again.
#pragma once

#include "mosaic/harness/Build.h"

#include <map>
#include <memory>
#include <string>

namespace mosaic::harness {

/// The functions a GNU ld / lld error output reports undefined, and the
/// functions whose definitions refer to them ("in function `f'"), by
/// qualified name and arity. `vtable for T` counts as T's destructor: no
/// object of T can be made or destroyed.
testcase::Unlinked unlinkedFunctions(const std::string &linkerOutput);

/// `f(a, b) const` → {"f", 2}; nullopt for what names no function.
std::optional<std::pair<std::string, size_t>> functionNameAndArity(const std::string &demangled);

/// The callables whose function in the generated harness `source` (the
/// file `sourcePath`) holds the compile errors of `compilerOutput`: an
/// error, or a note of it (a template instantiated "requested here"),
/// inside `__mosaic_call_<id>`, whose `/* signature */` comment names it.
/// By signature, with the first error of each; empty when any error lies
/// outside every callable's function (the unit itself does not compile, or
/// what all calls share): then no callable is to blame.
std::map<std::string, std::string> uncompilableCallables(const std::string &source, const std::string &sourcePath,
                                                         const std::string &compilerOutput);

/// The callables whose call function in the harness `source` needs a
/// symbol the link did not find (GNU ld's "in function `__mosaic_call_<id>"
/// before "undefined reference to"): a call of a function the unit only
/// declares whose name the model spells otherwise than the linker (an
/// inline namespace: fmt::v9::), or an implicit conversion to a constructor
/// nothing defines. By signature, with the missing symbol.
std::map<std::string, std::string> unlinkableCallables(const std::string &source, const std::string &linkerOutput);

/// Builds the harness of `program`; when it does not link for functions
/// nothing defines, or does not compile for the calls of some callables
/// (uncompilableCallables), leaves them out (`catalog` is rebuilt without
/// them) and tries again, at most kLinkAttempts times, reusing the project archive.
/// What was left out is remembered in the work folder, so that the next run
/// starts from the harness that linked (delete `<unit>-*.unlinked` there to
/// try them again). Notes say what was left out.
Expected<Harness> buildLinkedHarness(const model::Program &program, std::unique_ptr<testcase::Catalog> &catalog,
                                     const Toolchain &toolchain, const BuildOptions &options);

/// Builds after the first: each leaves out at least one more function.
/// Three covers a class whose helpers need it and their users in turn.
inline constexpr int kLinkAttempts = 4;

} // namespace mosaic::harness
