// Mutant schemata (issue 20, `mosaic mutate`): every mutant compiled into
// the unit at once, one chosen at run time.
#pragma once

#include "Layout.h"

#include <llvm/IR/Module.h>

namespace mosaic::instrument {

/// Rewrites each mutation site of `layout` so that its result is the
/// mutant's whose id the global MOSAIC_HOOK_ACTIVE_MUTANT holds, the
/// original's when it holds none of them; and reports each site reached
/// (MOSAIC_HOOK_MUTANT_REACHED). A division a mutant adds divides by 1
/// unless that mutant is the active one: an inactive mutant never traps.
/// The module then needs the mutation runtime (runtime/mutate.c), not the
/// harness's.
void applySchemata(llvm::Module &module, const ModuleLayout &layout);

} // namespace mosaic::instrument
