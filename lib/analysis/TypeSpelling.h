// How test code spells a Clang type: the helpers TypeMapper's spelling
// (TypeSpelling.cpp) and its mapping (TypeMapper.cpp) share. Private to
// the front end.
#pragma once

#include <clang/AST/Decl.h>
#include <clang/AST/Type.h>
#include <llvm/ADT/STLFunctionalExtras.h>

#include <string>

namespace mosaic::analysis::typenames {

/// `s` with the names libstdc++ gives std::string and std::string_view once
/// typedefs are gone (inside a class template instantiation, say) put back
/// as the typedefs: the same types, written as a reader expects.
std::string resugarStd(std::string s);

/// Whether `type` is written with a typedef that `pred` accepts (not
/// looking into what the typedef stands for).
bool namesTypedef(clang::QualType type, llvm::function_ref<bool(const clang::TypedefNameDecl *)> pred);

/// "nested in a private section" (or protected) when `decl`, or a class it
/// is nested in, is declared in one: then no test can name it. "" otherwise.
std::string hiddenSection(const clang::Decl *decl);

/// C names a struct or union defined inside another at file scope (C11
/// 6.2.1p4: lua's `struct NodeKey`, defined in `union Node`); C++ scopes it
/// in the enclosing class. For the record type itself (a field's type, a
/// local a test declares), `spelling` with the tag qualified (`struct
/// Node::NodeKey`); "" for any other type, or when an enclosing record has
/// no name to qualify it with. Not through pointers: a file-scope
/// prototype's `struct NodeKey *` is, compiled as C++, a pointer to
/// another, incomplete ::NodeKey, which no scoping makes the same type.
std::string scopedForCxx(clang::QualType type, const std::string &spelling);

} // namespace mosaic::analysis::typenames
