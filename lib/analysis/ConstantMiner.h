// Constant mining: the literals a function body uses, as input seeds.
#pragma once

#include "mosaic/model/Program.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>

namespace mosaic::analysis {

/// Longest string literal kept; longer ones are data tables or messages, not
/// values an input is compared with (a choice of ours, not from a paper).
inline constexpr size_t kMaxMinedString = 1024;

/// Collects the literals of `body`: integer, floating, character and narrow
/// string literals, negated literals (`-1`), and integer constants that fold
/// (`(1 << 4)` from a macro, an enumerator compared against). Literals that
/// come from system headers or the compiler (`__FILE__`, `assert`'s text)
/// are left out. Each value appears once, in order of first appearance.
model::Constants mineConstants(const clang::Stmt *body, clang::ASTContext &ctx);

} // namespace mosaic::analysis
