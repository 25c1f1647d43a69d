// Reading an object file's symbol table without a process per file.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace mosaic::harness {

/// Whether the ELF64 little-endian object at `path` defines `name` as a
/// global symbol in an executable section (what `nm -g --defined-only`
/// lists as "T name"); nullopt when the file is not such an object (LLVM
/// bitcode from -flto, an unreadable file): the caller asks nm then. In
/// process because nm loads the linker plugins of every LLVM on the machine
/// (Debian's binutils: /usr/lib/bfd-plugins), 0.14 s a call on the
/// bench machine, once per object of a project per harness built.
std::optional<bool> elfDefinesFunction(const std::string &path, std::string_view name);

} // namespace mosaic::harness
