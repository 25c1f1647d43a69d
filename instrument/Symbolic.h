// The pass's symbolic mode (issue 22; MOSAIC_PASS_SYMBOLIC=1): SymCC's
// design, our code. Every integer value of 64 bits or fewer gets a shadow
// value, the runtime's node of its expression (0: concrete), computed by
// calls to runtime/symbolic.c next to the instruction: arithmetic,
// comparisons, casts, selects, phis, loads and stores through byte-granular
// shadow memory, memcpy/memmove/memset, arguments and results of calls
// between instrumented functions. Each conditional branch and switch on a
// symbolic value records a constraint. Pointers and floats stay concrete.
#pragma once

#include "Layout.h"

#include <llvm/IR/Module.h>

namespace mosaic::instrument {

/// Adds symbolic tracing to every function defined in `module` (the unit,
/// the harness around it, the header code it uses), before any other
/// probe; branches of the unit's functions carry their side ids from
/// `layout`, others MOSAIC_SYM_NO_SIDE.
void traceSymbolically(llvm::Module &module, const ModuleLayout &layout);

} // namespace mosaic::instrument
