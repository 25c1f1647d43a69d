// Naming a failure's stack (Stack.h).
#include "mosaic/exec/Stack.h"

#include "mosaic/abi/Trace.h"
#include "mosaic/support/Process.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace mosaic::exec {

std::string Frame::str() const {
  std::string s = function.empty() ? "??" : function;
  if (!file.empty()) s += " " + file + (line ? ":" + std::to_string(line) : "");
  return s;
}

std::vector<std::uint64_t> reportStack(std::string_view report, std::string_view module) {
  std::vector<std::uint64_t> stack;
  std::istringstream in{std::string(report)};
  bool started = false;
  for (std::string line; std::getline(in, line);) {
    const size_t hash = line.find_first_not_of(" \t");
    if (hash == std::string::npos || line[hash] != '#' || hash + 1 >= line.size() ||
        !std::isdigit(static_cast<unsigned char>(line[hash + 1]))) {
      if (started) break; // the first stack ends at the first line that is not a frame
      continue;
    }
    if (started && line.compare(hash, 3, "#0 ") == 0) break; // a second stack ("allocated by ...")
    started = true;
    // "(MODULE+0xOFFSET)": the frame's module and its address there.
    const size_t plus = line.rfind("+0x");
    const size_t open = plus == std::string::npos ? std::string::npos : line.rfind('(', plus);
    if (open == std::string::npos) {
      stack.push_back(MOSAIC_STACK_EXTERNAL);
      continue;
    }
    const std::string_view name(line.data() + open + 1, plus - open - 1);
    const std::uint64_t offset = std::strtoull(line.c_str() + plus + 1, nullptr, 16);
    const bool same = name == module || std::filesystem::path(name).filename() == std::filesystem::path(module).filename();
    stack.push_back(same ? offset : (offset | MOSAIC_STACK_EXTERNAL));
  }
  return stack;
}

namespace {

// llvm-symbolizer's default output: per address, pairs of lines (function,
// then file:line:column), the innermost inlined frame first, and a blank
// line after the last pair.
std::vector<std::vector<Frame>> parseSymbolizer(const std::string &out) {
  std::vector<std::vector<Frame>> groups(1);
  std::istringstream in(out);
  for (std::string function; std::getline(in, function);) {
    if (function.empty()) {
      if (!groups.back().empty()) groups.emplace_back();
      continue;
    }
    std::string where;
    std::getline(in, where);
    Frame f;
    f.function = function;
    // FILE:LINE:COLUMN, the file possibly holding colons of its own.
    const size_t c2 = where.rfind(':');
    const size_t c1 = c2 == std::string::npos || c2 == 0 ? std::string::npos : where.rfind(':', c2 - 1);
    if (c1 != std::string::npos) {
      f.file = where.substr(0, c1);
      f.line = static_cast<unsigned>(std::strtoul(where.c_str() + c1 + 1, nullptr, 10));
      f.column = static_cast<unsigned>(std::strtoul(where.c_str() + c2 + 1, nullptr, 10));
    } else {
      f.file = where;
    }
    if (f.file == "??") f.file.clear();
    groups.back().push_back(std::move(f));
  }
  if (groups.back().empty()) groups.pop_back();
  for (auto &g : groups)
    for (size_t k = 0; k + 1 < g.size(); ++k) g[k].inlined = true;
  return groups;
}

} // namespace

Expected<std::vector<Frame>> Symbolizer::symbolize(const std::vector<std::uint64_t> &stack) {
  std::vector<std::uint64_t> wanted;
  for (size_t i = 0; i < stack.size(); ++i) {
    if (stack[i] & MOSAIC_STACK_EXTERNAL) continue;
    const std::uint64_t a = i == 0 || stack[i] == 0 ? stack[i] : stack[i] - 1; // a return address: in the call
    if (!cache_.count(a)) wanted.push_back(a);
  }
  if (!wanted.empty()) {
    std::vector<std::string> argv{tool_, "--obj=" + binary_, "--functions=linkage", "--demangle", "--inlining"};
    for (std::uint64_t a : wanted) {
      char hex[24];
      std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(a));
      argv.push_back(hex);
    }
    auto r = runProcess(argv);
    if (!r) return r.takeError();
    if (r->exitCode != 0) return Error::internal(commandLine(argv) + " failed: " + r->output.substr(0, 500));
    const auto groups = parseSymbolizer(r->output);
    if (groups.size() != wanted.size())
      return Error::internal("llvm-symbolizer named " + std::to_string(groups.size()) + " of " +
                             std::to_string(wanted.size()) + " addresses");
    for (size_t k = 0; k < wanted.size(); ++k) cache_[wanted[k]] = groups[k];
  }
  std::vector<Frame> frames;
  for (size_t i = 0; i < stack.size(); ++i) {
    if (stack[i] & MOSAIC_STACK_EXTERNAL) continue;
    const std::uint64_t a = i == 0 || stack[i] == 0 ? stack[i] : stack[i] - 1;
    for (const Frame &f : cache_[a]) frames.push_back(f);
  }
  return frames;
}

} // namespace mosaic::exec
