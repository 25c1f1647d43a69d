// The static description of an instrumented unit, as the LLVM pass writes it
// (instrument/Description.cpp): per function its CFG with stable block ids,
// control dependences on branch sides, branches and the CFG diameter. What
// approach levels and the DynaMOSA goal graph are computed from.
#pragma once

#include "mosaic/support/Expected.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mosaic::model {

struct BlockInfo {
  std::uint32_t id = 0;
  std::vector<std::uint32_t> lines;      ///< source lines of the unit file, ascending
  std::vector<std::uint32_t> successors; ///< block ids
  std::vector<std::uint32_t> deps;       ///< branch sides the block is control dependent on
};

struct SideInfo {
  std::uint32_t id = 0;
  std::uint32_t target = 0;            ///< the block it leads to
  std::optional<std::int64_t> value;   ///< switch case value
  bool isDefault = false;              ///< switch default
};

struct BranchInfo {
  std::uint32_t block = 0;
  bool isSwitch = false;
  std::uint32_t line = 0, column = 0;
  std::vector<SideInfo> sides; ///< br: true then false; switch: cases then default
};

/// A mutant of an instruction of the function (instrument/Mutants.h).
struct MutantInfo {
  std::uint32_t id = 0;
  std::uint32_t block = 0;             ///< the block its instruction is in
  std::uint32_t line = 0, column = 0;
  std::string op;                      ///< "AOR", "ROR" or "BOR"
  std::string original, replacement;   ///< "+" -> "-", "<" -> "<=", "==" -> "false"
  bool subsuming = true;               ///< one of its operator's subsuming mutants (ALGORITHMS.md §6.1)
};

struct FunctionInfo {
  std::string linkageName; ///< the IR name (mangled for C++)
  std::string name;        ///< the source name
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t entry = 0;    ///< block id of the entry block
  std::uint32_t diameter = 0; ///< longest shortest path between blocks
  std::vector<BlockInfo> blocks;
  std::vector<BranchInfo> branches;
  std::vector<MutantInfo> mutants;
};

struct UnitDescription {
  static constexpr int kFormatVersion = 2; ///< instrument/Description.cpp writes this version
  std::string unit;
  std::uint32_t blocks = 0;
  std::uint32_t sides = 0;
  std::uint32_t mutants = 0;
  std::vector<FunctionInfo> functions;

  /// Distinct source lines that belong to some block.
  std::size_t lineCount() const;
};

/// Reads a description file; fails on malformed JSON or another format version.
Expected<UnitDescription> readDescription(const std::string &path);

} // namespace mosaic::model
