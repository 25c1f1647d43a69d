// A read-only view of the shared-memory trace of the last test
// (abi/Trace.h): coverage, distances, comparison operands, statement
// outcomes, observations, output.
#pragma once

#include "mosaic/abi/Trace.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mosaic::exec {

struct Observation {
  std::uint32_t statement = 0;
  mosaic_obs_kind kind = MOSAIC_OBS_INT;
  std::uint8_t target = 0; ///< MOSAIC_OBS_RESULT, MOSAIC_OBS_RECEIVER, MOSAIC_OBS_ARG0 + i
  std::int16_t field = -1;
  std::int64_t integer = 0; ///< INT, UINT (bits), BOOL, NULL
  double floating = 0;
  std::string bytes;        ///< STRING; EXCEPTION: "type\0what"
};

/// A view of the shared trace. Its layout (offsets and capacities) is the
/// host's, copied when the view is made: the program under test shares the
/// mapping and may write anywhere in it (a wild pointer into it, hostile
/// code), so nothing read from the shared header decides where to read;
/// counts read there are bounded by the capacities.
class Trace {
public:
  explicit Trace(const mosaic_trace_header *header) : h_(header), layout_(header ? *header : mosaic_trace_header{}) {}

  std::span<const std::uint8_t> blocks() const;
  /// Per side: 0 when never evaluated, else 1 + the minimum distance.
  std::span<const double> sides() const;
  /// Per mutant: 0 when never reached, else 1 + the least infection
  /// distance; empty unless the harness has the mutants' probes.
  std::span<const double> mutants() const;
  /// The whole mutants area (its capacity): in a harness built with mutant
  /// schemata, 1.0 for each mutant whose site the test reached.
  std::span<const double> mutantArea() const;
  /// Per block: at a function's entry block, MOSAIC_DIRECT_* (abi/Trace.h):
  /// whether the test called the function directly, and whether such a
  /// call returned.
  std::span<const std::uint8_t> direct() const;
  /// Per side, as sides(), counting only branches evaluated in a call the
  /// test made directly (at call depth 1).
  std::span<const double> directSides() const;
  std::span<const mosaic_cmp_entry> comparisons() const;
  std::span<const mosaic_str_entry> strings() const;
  std::span<const mosaic_stmt_record> statements() const;
  std::vector<Observation> observations() const;
  std::string_view output() const;
  std::uint32_t unitBlocks() const { return h_->unit_blocks; }
  std::uint32_t unitSides() const { return h_->unit_sides; }
  std::uint32_t unitMutants() const { return h_->unit_mutants; }
  const mosaic_trace_header &header() const { return *h_; }
  /// The layout the host wrote, as it wrote it.
  const mosaic_trace_header &layout() const { return layout_; }

private:
  const mosaic_trace_header *h_;
  mosaic_trace_header layout_;
};

} // namespace mosaic::exec
