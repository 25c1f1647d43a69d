// Reading a crash's stack trace (Trace.h): its kind from the lines that
// name it, its frames from the lines of one format.
#include "mosaic/crash/Trace.h"

#include "TraceFrames.h"

#include <map>
#include <optional>
#include <regex>
#include <sstream>

namespace mosaic::crash {

namespace {

std::vector<std::string> lines(std::string_view text) {
  std::vector<std::string> out;
  std::istringstream in{std::string(text)};
  for (std::string l; std::getline(in, l);) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    out.push_back(l);
  }
  return out;
}

// Signals by the names sanitizers (SEGV) and shells (Segmentation fault)
// give them, and by number (Linux x86-64's, signal(7)).
std::optional<std::string> signalName(const std::string &word) {
  static const std::map<std::string, std::string> names = {
      {"SEGV", "SIGSEGV"}, {"BUS", "SIGBUS"},   {"FPE", "SIGFPE"},   {"ILL", "SIGILL"},   {"ABRT", "SIGABRT"},
      {"TRAP", "SIGTRAP"}, {"11", "SIGSEGV"},   {"7", "SIGBUS"},     {"8", "SIGFPE"},     {"4", "SIGILL"},
      {"6", "SIGABRT"},    {"5", "SIGTRAP"},    {"Segmentation fault", "SIGSEGV"}, {"Aborted", "SIGABRT"},
      {"Bus error", "SIGBUS"}, {"Floating point exception", "SIGFPE"}, {"Illegal instruction", "SIGILL"}};
  if (word.rfind("SIG", 0) == 0) return word;
  if (auto it = names.find(word); it != names.end()) return it->second;
  return std::nullopt;
}

// UBSan's message as a class: up to its colon, numbers as N
// ("signed integer overflow", "index N out of bounds for type 'int[N]'").
std::string ubsanClass(std::string message) {
  if (const size_t colon = message.find(':'); colon != std::string::npos) message.resize(colon);
  static const std::regex kNumber(R"(\b(0x[0-9a-fA-F]+|-?\d+)\b)");
  return std::regex_replace(message, kNumber, "N");
}

// A SUMMARY line's class: its words up to the location ("data race
// /src/a.c:3:26 in bump", "SEGV (/lib/libc.so.6+0x1) in f",
// "heap-buffer-overflow /src/lib.c:7:13 in f").
std::string summaryClass(const std::string &rest) {
  std::istringstream in(rest);
  std::string out;
  for (std::string w; in >> w;) {
    if (w.front() == '(' || w.find('/') != std::string::npos || w == "in" ||
        std::regex_search(w, std::regex(R"(:\d+)")))
      break;
    out += (out.empty() ? "" : " ") + w;
  }
  return out;
}

// What the trace says failed; the first match of the most specific kind of
// line wins: an uncaught exception, then a sanitizer's own class, then a
// signal a debugger, a handler or a shell names.
FailureKind kindOf(const std::vector<std::string> &ls) {
  static const std::regex kThrown(R"(terminate called after throwing an instance of '(.+)')");
  static const std::regex kUncaught(R"(terminating due to uncaught exception of type (.+?)(?:: |$))");
  static const std::regex kUbsan(R"(runtime error: (.+)$)");
  static const std::regex kSummary(R"(SUMMARY: (\w+Sanitizer): (.+)$)");
  static const std::regex kError(R"((?:ERROR|WARNING): (\w+Sanitizer|libFuzzer): (\S+(?: \S+)?))");
  static const std::regex kSignal(
      R"((?:Program received signal|Program terminated with signal|stop reason = signal) (SIG[A-Z]+)|\bsignal (\d+)\b|^(Segmentation fault|Aborted|Bus error|Floating point exception|Illegal instruction)\b|stop reason = (EXC_BAD_ACCESS))");
  std::smatch m;
  for (const auto &l : ls)
    if (std::regex_search(l, m, kThrown) || std::regex_search(l, m, kUncaught))
      return {FailureClass::Exception, m[1], ""};
  for (const auto &l : ls)
    if (l.find("terminate called without an active exception") != std::string::npos)
      return {FailureClass::Signal, "SIGABRT", ""};
  for (const auto &l : ls)
    if (std::regex_search(l, m, kUbsan)) return {FailureClass::Sanitizer, ubsanClass(m[1]), "UndefinedBehaviorSanitizer"};
  auto sanitizerKind = [](const std::string &tool, const std::string &what) -> FailureKind {
    if (auto sig = signalName(what)) return {FailureClass::Signal, *sig, tool};
    if (tool == "LeakSanitizer") return {FailureClass::Sanitizer, "memory-leak", tool};
    if (what == "allocation-size-too-big" || what == "out-of-memory") return {FailureClass::OutOfMemory, what, tool};
    return {FailureClass::Sanitizer, what, tool};
  };
  for (const auto &l : ls)
    if (l.find("LeakSanitizer: detected memory leaks") != std::string::npos)
      return {FailureClass::Sanitizer, "memory-leak", "LeakSanitizer"};
  for (const auto &l : ls)
    if (std::regex_search(l, m, kSummary) && m[1] != "UndefinedBehaviorSanitizer")
      return sanitizerKind(m[1], summaryClass(m[2]));
  for (const auto &l : ls) {
    if (!std::regex_search(l, m, kError)) continue;
    const std::string tool = m[1], what = m[2];
    if (tool == "libFuzzer") {
      if (what.rfind("timeout", 0) == 0) return {FailureClass::Timeout, "timeout", tool};
      if (what.rfind("out-of-memory", 0) == 0) return {FailureClass::OutOfMemory, "out-of-memory", tool};
      return {FailureClass::Signal, "", tool}; // deadly signal: which one it does not say
    }
    return sanitizerKind(tool, what.substr(0, what.find(' ')));
  }
  for (const auto &l : ls)
    if (std::regex_search(l, m, kSignal))
      for (int g = 1; g <= 4; ++g)
        if (m[g].matched) {
          if (m[g] == "EXC_BAD_ACCESS") return {FailureClass::Signal, "SIGSEGV", ""};
          if (auto sig = signalName(m[g])) return {FailureClass::Signal, *sig, ""};
        }
  return {};
}

bool sanitizerHeader(const std::string &l) {
  static const std::regex kHeader(R"((?:ERROR|WARNING): \w+(?:Sanitizer|libFuzzer):|runtime error: )");
  return std::regex_search(l, kHeader);
}

using Parse = std::optional<TraceFrame> (*)(std::string_view);

// The runs of consecutive lines `parse` reads, each a stack.
std::vector<std::vector<TraceFrame>> runs(const std::vector<std::string> &ls, Parse parse, size_t from = 0) {
  std::vector<std::vector<TraceFrame>> out;
  bool open = false;
  for (size_t i = from; i < ls.size(); ++i) {
    if (auto f = parse(ls[i])) {
      if (!open) out.emplace_back();
      out.back().push_back(std::move(*f));
      open = true;
    } else {
      open = false;
    }
  }
  return out;
}

// gdb wraps a long frame onto indented lines ("    at file.c:12"): one line each.
std::vector<std::string> joinGdbFrames(const std::vector<std::string> &ls) {
  std::vector<std::string> out;
  for (const auto &l : ls) {
    const bool continues = !out.empty() && out.back().rfind("#", 0) == 0 && !l.empty() &&
                           (l[0] == ' ' || l[0] == '\t') && l.find_first_not_of(" \t") != std::string::npos &&
                           l[l.find_first_not_of(" \t")] != '#';
    if (continues)
      out.back() += " " + l.substr(l.find_first_not_of(" \t"));
    else
      out.push_back(l);
  }
  return out;
}

const std::vector<TraceFrame> *longest(const std::vector<std::vector<TraceFrame>> &rs) {
  const std::vector<TraceFrame> *best = nullptr;
  for (const auto &r : rs)
    if (!best || r.size() > best->size()) best = &r;
  return best;
}

} // namespace

std::string FailureKind::str() const {
  switch (cls) {
  case FailureClass::Unknown: return "a failure of any kind";
  case FailureClass::Signal: return name.empty() ? "a fatal signal" : name;
  case FailureClass::Exception: return "uncaught " + name;
  default: return tool.empty() ? name : tool + ": " + name;
  }
}

std::string_view formatName(TraceFormat format) {
  switch (format) {
  case TraceFormat::Sanitizer: return "sanitizer report";
  case TraceFormat::LibFuzzer: return "libFuzzer crash log";
  case TraceFormat::Gdb: return "gdb backtrace";
  case TraceFormat::Lldb: return "lldb backtrace";
  case TraceFormat::BacktraceSymbols: return "backtrace_symbols output";
  }
  return "trace";
}

Expected<StackTrace> parseTrace(std::string_view text) {
  const std::vector<std::string> ls = lines(text);
  StackTrace t;
  t.kind = kindOf(ls);
  // A sanitizer's report: its first stack after the header (where it
  // failed; the allocation's and the free's stacks follow).
  size_t header = ls.size();
  for (size_t i = 0; i < ls.size() && header == ls.size(); ++i)
    if (sanitizerHeader(ls[i])) header = i;
  if (header < ls.size()) {
    t.format = text.find("libFuzzer") != std::string_view::npos ? TraceFormat::LibFuzzer : TraceFormat::Sanitizer;
    if (auto rs = runs(ls, frames::sanitizer, header); !rs.empty()) {
      t.frames = rs.front();
      return t;
    }
    // UBSan without print_stacktrace: the report's location is the frame.
    static const std::regex kAt(R"(^(.+?):(\d+):(\d+): runtime error: )");
    std::smatch m;
    if (std::regex_search(ls[header], m, kAt)) {
      TraceFrame f;
      f.frame.file = m[1];
      f.frame.line = static_cast<unsigned>(std::stoul(m[2]));
      f.frame.column = static_cast<unsigned>(std::stoul(m[3]));
      t.frames.push_back(std::move(f));
      return t;
    }
  }
  // A debugger's or a handler's backtrace: its longest stack (a debugger
  // also prints the frame it stopped in on its own).
  const std::vector<std::string> joined = joinGdbFrames(ls);
  auto gdbLike = [](std::string_view l) {
    static const std::regex kGdb(R"(^#\d+\s.*\s(?:at \S+:\d+|from \S+)$|^#\d+\s+0x[0-9a-fA-F]+ in \S.* \(.*\)$)");
    return std::regex_search(std::string(l), kGdb);
  };
  bool gdb = false;
  for (const auto &l : joined) gdb = gdb || gdbLike(l);
  const std::pair<TraceFormat, Parse> formats[] = {{TraceFormat::Lldb, frames::lldb},
                                                   {gdb ? TraceFormat::Gdb : TraceFormat::Sanitizer,
                                                    gdb ? frames::gdb : frames::sanitizer},
                                                   {TraceFormat::BacktraceSymbols, frames::backtraceSymbols}};
  for (const auto &[format, parse] : formats) {
    const auto rs = runs(format == TraceFormat::Gdb ? joined : ls, parse);
    if (const auto *best = longest(rs)) {
      t.format = format;
      t.frames = *best;
      return t;
    }
  }
  return Error::input("no stack frame in the trace",
                      "expected an AddressSanitizer, UndefinedBehaviorSanitizer, MemorySanitizer or ThreadSanitizer "
                      "report, a libFuzzer crash log, a gdb or lldb backtrace (bt), or backtrace_symbols() output");
}

} // namespace mosaic::crash
