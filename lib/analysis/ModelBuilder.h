// The parsed translation unit -> the program model.
#pragma once

#include "mosaic/model/Program.h"

namespace llvm {
class StringRef;
} // namespace llvm

namespace clang {
class ASTContext;
class Sema;
} // namespace clang

namespace mosaic::analysis {

struct InstalledHeaders;

/// Fills `program` (types, records, enums, callables, skipped) from the AST
/// of a unit that parsed without errors. Only declarations outside system
/// headers become callables; types from anywhere are modelled as far as a
/// test needs them. Sema is needed to declare implicit constructors.
/// A callable declared in the project's headers is its interface only in one
/// the build installs (`installed`), or, when the build names none, in one
/// whose name does not say private (Callable::internalApi).
void buildModel(clang::ASTContext &ctx, clang::Sema &sema, const InstalledHeaders &installed,
                model::Program &program);

/// Whether `path` names a header by its extension (.h .hh .hpp .hxx .H):
/// what a test can include, where a `.c` or `.inc` file is not.
bool isHeaderPath(llvm::StringRef path);

} // namespace mosaic::analysis
