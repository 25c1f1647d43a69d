// The frame lines of each trace format (TraceFrames.h).
#include "TraceFrames.h"

#include <cxxabi.h>

#include <cstdlib>
#include <regex>

namespace mosaic::crash::frames {

namespace {

std::string trim(std::string_view s) {
  const size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string_view::npos) return "";
  return std::string(s.substr(a, s.find_last_not_of(" \t\r") - a + 1));
}

unsigned number(const std::ssub_match &m) { return m.matched ? static_cast<unsigned>(std::stoul(m.str())) : 0; }

// "path:line[:col]" into the frame; false when `token` is not one.
bool location(const std::string &token, exec::Frame &f) {
  static const std::regex kLoc(R"(^(.+?):(\d+)(?::(\d+))?$)");
  std::smatch m;
  if (!std::regex_match(token, m, kLoc)) return false;
  f.file = m[1];
  f.line = number(m[2]);
  f.column = number(m[3]);
  return true;
}

// "(module+0xoffset)" -> module.
std::optional<std::string> moduleOffset(const std::string &token) {
  static const std::regex kModule(R"(^\((.*)\+0x[0-9a-fA-F]+\)$)");
  std::smatch m;
  if (std::regex_match(token, m, kModule)) return m[1].str();
  return std::nullopt;
}

// A sanitizer frame's tail: "FUNCTION LOCATION", "FUNCTION (MODULE+OFF)",
// "LOCATION (MODULE+OFF)" (ThreadSanitizer), with the BuildId stripped.
// The location or module is the last space-free token; the function is
// what precedes it (C++ signatures hold spaces).
void tail(std::string rest, TraceFrame &t, bool tsan) {
  static const std::regex kBuildId(R"(\s*\(BuildId: [0-9a-fA-F]+\)\s*$)");
  rest = std::regex_replace(rest, kBuildId, "");
  rest = trim(rest);
  auto lastToken = [&]() -> std::string {
    const size_t space = rest.find_last_of(' ');
    std::string token = space == std::string::npos ? rest : rest.substr(space + 1);
    rest = space == std::string::npos ? "" : trim(rest.substr(0, space));
    return token;
  };
  if (tsan) { // "f /src/a.c:3:26 (x+0xe4598)", "pthread_create <null> (x+0x61e91)"
    if (auto m = moduleOffset(lastToken())) t.module = *m;
    const std::string loc = lastToken();
    if (loc != "<null>" && !location(loc, t.frame)) rest += (rest.empty() ? "" : " ") + loc;
    t.frame.function = rest;
    return;
  }
  const size_t space = rest.find_last_of(' ');
  const std::string last = space == std::string::npos ? rest : rest.substr(space + 1);
  if (auto m = moduleOffset(last)) {
    t.module = *m;
    lastToken();
  } else if (space != std::string::npos && location(last, t.frame)) {
    lastToken();
  }
  t.frame.function = rest;
}

} // namespace

std::string demangle(const std::string &symbol) {
  if (symbol.rfind("_Z", 0) != 0) return symbol;
  int status = 0;
  char *out = abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
  if (status != 0 || !out) return symbol;
  std::string s(out);
  std::free(out);
  return s;
}

std::optional<TraceFrame> sanitizer(std::string_view line) {
  static const std::regex kFrame(R"(^\s*#\d+\s+0x[0-9a-fA-F]+(?:\s+in\s+(.*?))?(\s+\(.*)?$)");
  static const std::regex kTsan(R"(^\s*#\d+\s+(\S.*\s\(\S+\+0x[0-9a-fA-F]+\)(?:\s+\(BuildId: [0-9a-fA-F]+\))?)\s*$)");
  const std::string s(line);
  std::smatch m;
  TraceFrame t;
  if (std::regex_match(s, m, kFrame)) {
    // "#0 0x7f (/lib/libc.so.6+0x1234)": no function.
    tail(m[1].str() + m[2].str(), t, false);
    return t;
  }
  if (std::regex_match(s, m, kTsan)) {
    tail(m[1].str(), t, true);
    return t;
  }
  return std::nullopt;
}

std::optional<TraceFrame> gdb(std::string_view line) {
  static const std::regex kFrame(R"(^#\d+\s+(?:0x[0-9a-fA-F]+\s+in\s+)?(.*?)\s*$)");
  static const std::regex kAt(R"(^(.*)\s+at\s+(\S+:\d+)$)");
  static const std::regex kFrom(R"(^(.*)\s+from\s+(\S+)$)");
  const std::string s = trim(line);
  std::smatch m;
  if (!std::regex_match(s, m, kFrame)) return std::nullopt;
  std::string rest = m[1];
  if (rest.empty() || rest.front() == '<') return std::nullopt; // "<signal handler called>"
  TraceFrame t;
  if (std::regex_match(rest, m, kAt)) {
    location(m[2], t.frame);
    rest = m[1];
  } else if (std::regex_match(rest, m, kFrom)) {
    t.module = m[2];
    rest = m[1];
  }
  // The function ends where its arguments start: the first " (" (gdb
  // prints "f (x=1)", "std::terminate() ()", "(anonymous namespace)::g (y=2)").
  const size_t args = rest.find(" (");
  t.frame.function = trim(rest.substr(0, args));
  if (t.frame.function == "??") t.frame.function.clear();
  return t;
}

std::optional<TraceFrame> lldb(std::string_view line) {
  static const std::regex kFrame(R"(^\s*\*?\s*frame #\d+:\s+0x[0-9a-fA-F]+\s+([^`\s]+)`(.*?)\s*$)");
  static const std::regex kAt(R"(^(.*)\s+at\s+(\S+:\d+(?::\d+)?)$)");
  static const std::regex kOffset(R"(^(.*)\s+\+\s+\d+$)");
  const std::string s(line);
  std::smatch m;
  if (!std::regex_match(s, m, kFrame)) return std::nullopt;
  TraceFrame t;
  t.module = m[1];
  std::string rest = m[2];
  if (std::regex_match(rest, m, kAt)) {
    location(m[2], t.frame);
    rest = m[1];
  } else if (std::regex_match(rest, m, kOffset)) {
    rest = m[1];
  }
  // lldb prints the arguments after the name: "f(c=0x7ff)"; a signature's
  // own parentheses hold no '='.
  if (!rest.empty() && rest.back() == ')') {
    int depth = 0;
    for (size_t i = rest.size(); i-- > 0;) {
      depth += rest[i] == ')' ? 1 : rest[i] == '(' ? -1 : 0;
      if (depth == 0) {
        const std::string args = rest.substr(i);
        if (args.find('=') != std::string::npos || args == "()") rest = rest.substr(0, i);
        break;
      }
    }
  }
  t.frame.function = trim(rest);
  return t;
}

std::optional<TraceFrame> backtraceSymbols(std::string_view line) {
  static const std::regex kFrame(R"(^\s*(\S+?)\(([^()+]*)(?:\+0x[0-9a-fA-F]+)?\)\s*\[0x[0-9a-fA-F]+\]\s*$)");
  const std::string s(line);
  std::smatch m;
  if (!std::regex_match(s, m, kFrame)) return std::nullopt;
  TraceFrame t;
  t.module = m[1];
  t.frame.function = demangle(m[2]);
  return t;
}

} // namespace mosaic::crash::frames
