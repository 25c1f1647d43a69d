// Whether a variadic function without a format attribute is a printf-style
// one: its body hands its format parameter on to the printf family.
#pragma once

#include <clang/AST/Decl.h>

namespace mosaic::analysis {

/// Whether `fn`'s definition (when the translation unit has it) passes
/// parameter `format` to a function with a printf-style format attribute
/// (vsnprintf and the rest of the v*printf family, as glibc declares
/// them), by that family's names when a declaration lacks the attribute,
/// or to a function of the translation unit that does so in turn (a chain
/// of wrappers, cut at a few levels). A name such as `fmt` alone says
/// nothing: jansson's json_pack(const char *fmt, ...) reads a format
/// language of its own, whose extras a printf format would not match.
bool forwardsPrintfFormat(const clang::FunctionDecl *fn, unsigned format);

} // namespace mosaic::analysis
