// The harness generator: the translation unit that performs test cases on
// a unit, compiled once per unit (Build.h).
#pragma once

#include "mosaic/model/Program.h"
#include "mosaic/testcase/Catalog.h"

#include <string>
#include <utility>
#include <vector>

namespace mosaic::harness {

struct CodegenOptions {
  bool exceptions = true; ///< C++: catch exceptions per statement (false under -fno-exceptions)
};

struct GeneratedHarness {
  /// The wrapper translation unit: it #includes the unit's source (so that
  /// `static` functions and types defined there are in reach), then defines
  /// __mosaic_unit_exec (abi/Harness.h) for it.
  std::string source;
  std::string extension; ///< ".c" for a C unit, ".cpp" for C++
  /// Callables the harness can call, and the others with the reason.
  std::vector<model::CallableId> callables;
  std::vector<std::pair<model::CallableId, std::string>> notCallable;
};

/// Generates the harness of `program`'s unit. Every statement the test
/// factory can produce for this catalog is one the harness performs; an
/// ill-typed statement makes it answer MOSAIC_STMT_INVALID, never misbehave.
GeneratedHarness generateHarness(const model::Program &program, const testcase::Catalog &catalog,
                                 const CodegenOptions &options = {});

} // namespace mosaic::harness
