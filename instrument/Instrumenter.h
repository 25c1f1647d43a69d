// mosaic's instrumentation of one module: ids, probes, static description.
#pragma once

#include <llvm/IR/Module.h>

#include <string>

namespace mosaic::instrument {

/// Instruments the functions of `module` defined in the unit's own source
/// file (MOSAIC_PASS_UNIT; nothing is done when it is unset): a hit
/// store at each basic block, a branch-distance probe before each conditional
/// branch and switch, and string-comparison calls redirected to the runtime
/// (those anywhere in the module); with MOSAIC_PASS_MUTANTS=weak, an
/// infection probe before each instruction that has mutants (Mutants.h);
/// with MOSAIC_PASS_MUTANTS=schemata, only its mutants' schemata (Schemata.h). Writes the static description to
/// MOSAIC_PASS_DESCRIPTION when set. Returns whether the module changed.
bool instrumentModule(llvm::Module &module);

} // namespace mosaic::instrument
