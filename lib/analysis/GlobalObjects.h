// Global objects of an API as values: nettle's hash and cipher tables
// (`extern const struct nettle_hash nettle_sha256;` in nettle-meta.h),
// which its functions take as `const struct nettle_hash *`. A test that
// fills such a table itself, with stub functions, runs none of the
// library's algorithms; `&nettle_sha256` runs SHA-256.
#pragma once

#include "mosaic/model/Program.h"

namespace clang {
class ASTContext;
} // namespace clang

namespace mosaic::analysis {

/// Adds to `program` one callable for each variable of external linkage,
/// declared at namespace scope in a project header (not a system header,
/// not the unit file), whose type is a complete record of the model that
/// some parameter already takes by pointer (to const when the object is
/// const): Callable::globalObject, named by the variable, no parameters,
/// its result that pointer type, never a target. Skipped: a name a
/// callable already has. Returns how many were added, in declaration order.
size_t addGlobalObjects(clang::ASTContext &ctx, model::Program &program);

} // namespace mosaic::analysis
