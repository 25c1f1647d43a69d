#include "ElfSymbols.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include <elf.h>

namespace mosaic::harness {

namespace {

// A bounds-checked view of the file's bytes.
struct Bytes {
  const std::vector<char> &data;
  template <class T> bool read(std::uint64_t at, T &out) const {
    if (at > data.size() || data.size() - at < sizeof(T)) return false;
    std::memcpy(&out, data.data() + at, sizeof(T));
    return true;
  }
};

} // namespace

std::optional<bool> elfDefinesFunction(const std::string &path, std::string_view name) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  const std::vector<char> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const Bytes b{data};
  Elf64_Ehdr eh;
  if (!b.read(0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_shentsize != sizeof(Elf64_Shdr))
    return std::nullopt;
  std::vector<Elf64_Shdr> sections(eh.e_shnum);
  for (size_t i = 0; i < sections.size(); ++i)
    if (!b.read(eh.e_shoff + i * sizeof(Elf64_Shdr), sections[i])) return std::nullopt;
  for (const Elf64_Shdr &symtab : sections) {
    if (symtab.sh_type != SHT_SYMTAB || symtab.sh_link >= sections.size()) continue;
    const Elf64_Shdr &strtab = sections[symtab.sh_link];
    for (std::uint64_t at = symtab.sh_offset; at + sizeof(Elf64_Sym) <= symtab.sh_offset + symtab.sh_size;
         at += sizeof(Elf64_Sym)) {
      Elf64_Sym s;
      if (!b.read(at, s)) return std::nullopt;
      if (ELF64_ST_BIND(s.st_info) != STB_GLOBAL || s.st_shndx == SHN_UNDEF || s.st_shndx >= sections.size())
        continue;
      if (!(sections[s.st_shndx].sh_flags & SHF_EXECINSTR)) continue;
      const std::uint64_t from = strtab.sh_offset + s.st_name;
      if (from >= data.size() || strtab.sh_offset + strtab.sh_size > data.size()) return std::nullopt;
      const char *text = data.data() + from;
      const size_t room = data.size() - from;
      if (strnlen(text, room) == name.size() && std::memcmp(text, name.data(), name.size()) == 0) return true;
    }
  }
  return false;
}

} // namespace mosaic::harness
