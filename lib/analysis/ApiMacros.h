// Function-like macros of a C API that call one of its functions with some
// arguments fixed: zlib's `inflateInit(strm)`, which is
// `inflateInit_((strm), ZLIB_VERSION, (int)sizeof(z_stream))`; lua's
// `lua_call(L, n, r)`, which is `lua_callk(L, (n), (r), 0, NULL)`. The
// library means them to be called, and the fixed arguments are what its
// checks want (inflateInit_ rejects any other version string or struct
// size), values a search would otherwise have to guess.
#pragma once

#include "mosaic/model/Program.h"

namespace clang {
class Preprocessor;
class SourceManager;
} // namespace clang

namespace mosaic::analysis {

/// Adds to `program` one callable for each function-like macro defined in a
/// project header (not a system header, not the unit file) whose body is
/// exactly a call `F(a1, ..., an)` of a free function F of the model (not
/// variadic, not itself hidden by a macro) where every macro parameter is
/// one whole argument (`p` or `(p)`), used once, and the other arguments
/// mention none of them; at least one argument is fixed (an alias adds
/// nothing). The callable is F's with the parameters the macro passes on,
/// in the macro's order, named by the macro (Callable::macroOf: F), never a
/// target; the harness and the tests call the macro, through the headers
/// that define it, and so run F. Skipped: a macro of the name of a callable
/// already there. Returns how many were added.
size_t addApiMacros(const clang::Preprocessor &pp, const clang::SourceManager &sm, model::Program &program);

} // namespace mosaic::analysis
