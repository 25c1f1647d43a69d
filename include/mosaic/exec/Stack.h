// The stack of a failure, named: the raw frames a harness records
// (RunResult::stack) or a sanitizer prints, turned into functions, files
// and lines by llvm-symbolizer. Symbolising costs a process, so it is done
// only for the failures a suite keeps, never on the search's path.
#pragma once

#include "mosaic/support/Expected.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace mosaic::exec {

struct Frame {
  std::string function; ///< demangled; "??" when unknown
  std::string file;     ///< as the debug information names it; empty when unknown
  unsigned line = 0;
  unsigned column = 0;
  bool inlined = false; ///< inlined into the frame that follows
  /// "inflate zlib/inflate.c:123" (the file as given; no line when unknown).
  std::string str() const;
  bool operator==(const Frame &) const = default;
};

/// The frames of the first stack a sanitizer report prints ("#0 0x4f1a2
/// in f file.c:3:5" or, unsymbolised, "#0 0x55d1 (/path/harness+0x4f1a2)"),
/// as addresses in `module` (a path; frames of other modules are external,
/// abi/Trace.h MOSAIC_STACK_EXTERNAL), innermost first. Empty when the
/// report has no stack.
std::vector<std::uint64_t> reportStack(std::string_view report, std::string_view module);

/// Names the frames of one executable with llvm-symbolizer, caching what it
/// has named. One llvm-symbolizer runs for the object's lifetime, reading
/// addresses on its standard input: the executable's debug information is
/// read once, not once per stack (a search that met a hundred failures
/// spent seconds starting it again and again). Where it cannot be kept
/// running, each stack gets a run of its own.
class Symbolizer {
public:
  /// `tool` is llvm-symbolizer's path, `binary` the executable the
  /// addresses are in.
  Symbolizer(std::string tool, std::string binary) : tool_(std::move(tool)), binary_(std::move(binary)) {}
  ~Symbolizer();
  Symbolizer(const Symbolizer &) = delete;
  Symbolizer &operator=(const Symbolizer &) = delete;

  /// The frames of `stack` (RunResult::stack), innermost first, each
  /// address expanded into its inlined frames; external frames are left
  /// out. The first address is where the failure happened; the others are
  /// return addresses, looked up one byte back (in the call).
  Expected<std::vector<Frame>> symbolize(const std::vector<std::uint64_t> &stack);

private:
  /// llvm-symbolizer's answer for `addresses` (hexadecimal, one per line).
  Expected<std::string> ask(const std::vector<std::string> &addresses);
  bool start();
  void stop();
  /// llvm-symbolizer's command line, without addresses.
  std::vector<std::string> command() const;

  std::string tool_, binary_;
  std::map<std::uint64_t, std::vector<Frame>> cache_;
  int pid_ = -1, to_ = -1, from_ = -1; ///< the running llvm-symbolizer and its pipes
  bool gaveUp_ = false;                 ///< it could not be kept running: one run per stack
};

} // namespace mosaic::exec
