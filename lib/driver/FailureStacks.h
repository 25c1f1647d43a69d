// The frames in the project of a failure's stack, named (stages::Context::
// frames): the harness's recorded stack, or the one a sanitizer report
// prints, symbolised with llvm-symbolizer, without the frames of the
// harness, of mosaic's runtime and of the system.
#pragma once

#include "mosaic/exec/Outcome.h"
#include "mosaic/exec/Stack.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mosaic::driver {

class FailureStacks {
public:
  /// `harness` and `sanitized` are the binaries (sanitized may be "");
  /// `harnessDirs` the folders holding their generated sources; frames'
  /// files under `root` are named relative to it.
  FailureStacks(std::string symbolizer, std::string harness, std::string sanitized, std::vector<std::string> harnessDirs,
                std::string root);

  /// The folder a project's paths are best shown relative to: the deepest
  /// one holding both the unit and its compile database.
  static std::string projectRoot(const std::string &unit, const std::string &compileDatabase);

  std::vector<exec::Frame> operator()(const exec::RunResult &result, std::string_view output, bool sanitized);

  /// Whether a sanitizer report of the sanitized harness is about mosaic's
  /// own code: its innermost frame outside the sanitizer's runtime is the
  /// harness's or mosaic's runtime's (an observation reading a char *
  /// field past its buffer), not the program's. Such a report is no claim.
  bool mosaicsOwn(std::string_view report);

  /// Whether a frame is the project's: a file named, not a system one
  /// (/usr, /lib), not the generated harness, not mosaic's runtime.
  bool inProject(const exec::Frame &frame) const;

private:
  /// Whether a frame is mosaic's: the generated harness or its runtime.
  bool mosaics(const exec::Frame &frame) const;

  std::string harness_, sanitized_;
  exec::Symbolizer plain_;
  std::optional<exec::Symbolizer> sanitizedSymbolizer_;
  std::vector<std::string> harnessDirs_;
  std::string root_;
};

} // namespace mosaic::driver
