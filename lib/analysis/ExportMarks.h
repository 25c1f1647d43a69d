// What a project marks as exported, where the mark is a macro this build
// defines as nothing.
#pragma once

#include <clang/Lex/Preprocessor.h>

#include <optional>
#include <string>

namespace clang {
class NamedDecl;
class SourceManager;
} // namespace clang

namespace mosaic::analysis {

// The Windows-only export macros of C and C++ libraries (msgpack-c's
// MSGPACK_DLLEXPORT, libconfig's LIBCONFIG_API, pugixml's PUGIXML_CLASS
// through PUGIXML_API) expand to nothing on Linux, so they leave no
// attribute in the AST; yet where a project writes one, it says as plainly
// as a visibility attribute which declarations are its interface.
class EmptyExportMacros {
public:
  EmptyExportMacros(const clang::SourceManager &sm, clang::Preprocessor &pp) : sm_(sm), pp_(pp) {}

  // Whether `d`, a function or a class, is written with such a macro: as
  // the token just before its first one (`MSGPACK_DLLEXPORT\nbool f(...)`:
  // an empty expansion leaves the declaration starting after it), or
  // between its first token and its name (`extern LIBCONFIG_API int
  // config_read(...)`, `class PUGIXML_CLASS xml_node`).
  bool marks(const clang::NamedDecl *d) const;

  // The message of a deprecation macro `d` is written after, when this
  // build defines it as nothing: `LZ4_DEPRECATED("use LZ4_decompress_safe()
  // instead") int LZ4_decompress_safe_withPrefix64k(...)` in lz4.h, which
  // lz4.c compiles with LZ4_DISABLE_DEPRECATE_WARNINGS (a test including
  // lz4.h sees the attribute). A macro call just before the declaration
  // whose name says DEPRECATED; its string argument, or "" without one.
  std::optional<std::string> deprecationMark(const clang::NamedDecl *d) const;

  // Whether `name` is an object-like macro that expands to nothing (through
  // other such macros) and is named as an export mark (exportMarkName).
  bool emptyExportMacro(llvm::StringRef name) const;

private:
  const clang::SourceManager &sm_;
  clang::Preprocessor &pp_;
};

// A macro name that says "export": EXPORT, API, DLL or PUBLIC in upper
// case (MSGPACK_DLLEXPORT, LIBCONFIG_API, PUGIXML_API, FMT_API, ZEXPORT,
// the names of the eighteen benchmark subjects' marks).
bool exportMarkName(llvm::StringRef name);

} // namespace mosaic::analysis
