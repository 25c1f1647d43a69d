// Naming a failure's stack (Stack.h).
#include "mosaic/exec/Stack.h"

#include "mosaic/abi/Trace.h"
#include "mosaic/support/Process.h"
#include "mosaic/support/Spawn.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
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

Symbolizer::~Symbolizer() { stop(); }

std::vector<std::string> Symbolizer::command() const {
  return {tool_, "--obj=" + binary_, "--functions=linkage", "--demangle", "--inlining"};
}

bool Symbolizer::start() {
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0) return false;
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]), close(in[1]);
    return false;
  }
  SpawnSpec spec;
  spec.path = tool_;
  spec.argv = command();
  spec.env = currentEnvironment();
  spec.dups = {{in[0], 0}, {out[1], 1}, {-1, 2}};
  auto spawned = spawnProcess(spec);
  close(in[0]), close(out[1]);
  if (!spawned) {
    close(in[1]), close(out[0]);
    return false;
  }
  pid_ = spawned->pid, to_ = in[1], from_ = out[0];
  return true;
}

void Symbolizer::stop() {
  if (pid_ < 0) return;
  close(to_), close(from_);
  kill(pid_, SIGKILL);
  while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
  }
  pid_ = to_ = from_ = -1;
}

Expected<std::string> Symbolizer::ask(const std::vector<std::string> &addresses) {
  if (!gaveUp_ && (pid_ >= 0 || start())) {
    std::string request;
    for (const std::string &a : addresses) request += a + "\n";
    // Each answer ends with an empty line: read until there is one per
    // address. 60 s (ours): reading a large executable's debug information
    // the first time takes seconds, never a minute.
    std::string answer;
    size_t ends = 0;
    bool ok = writeAll(to_, request.data(), request.size());
    while (ok && ends < addresses.size()) {
      pollfd p{from_, POLLIN, 0};
      char buf[8192];
      ssize_t n = poll(&p, 1, 60000);
      if (n > 0) n = read(from_, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        ok = false;
        break;
      }
      const size_t from = answer.size() > 0 ? answer.size() - 1 : 0;
      answer.append(buf, static_cast<size_t>(n));
      for (size_t at = answer.find("\n\n", from); at != std::string::npos; at = answer.find("\n\n", at + 2)) ++ends;
    }
    if (ok && ends == addresses.size()) return answer;
    stop();
    gaveUp_ = true; // one run per stack from now on
  }
  std::vector<std::string> argv = command();
  argv.insert(argv.end(), addresses.begin(), addresses.end());
  auto r = runProcess(argv);
  if (!r) return r.takeError();
  if (r->exitCode != 0) return Error::internal(commandLine(argv) + " failed: " + r->output.substr(0, 500));
  return r->output;
}

Expected<std::vector<Frame>> Symbolizer::symbolize(const std::vector<std::uint64_t> &stack) {
  std::vector<std::uint64_t> wanted;
  for (size_t i = 0; i < stack.size(); ++i) {
    if (stack[i] & MOSAIC_STACK_EXTERNAL) continue;
    const std::uint64_t a = i == 0 || stack[i] == 0 ? stack[i] : stack[i] - 1; // a return address: in the call
    if (!cache_.count(a) && std::find(wanted.begin(), wanted.end(), a) == wanted.end()) wanted.push_back(a);
  }
  if (!wanted.empty()) {
    std::vector<std::string> hex;
    for (std::uint64_t a : wanted) {
      char text[24];
      std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(a));
      hex.push_back(text);
    }
    auto output = ask(hex);
    if (!output) return output.takeError();
    const auto groups = parseSymbolizer(*output);
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
