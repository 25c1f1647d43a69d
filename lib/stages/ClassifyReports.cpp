// What a failure's report says (Classify.h): glibc's and the sanitizers'
// words read for the claim (an assertion, a null dereference, an overrun,
// heap corruption), and the buffers a test gives a callee grown to fit.
#include "Claims.h"

#include "mosaic/abi/Trace.h"
#include "mosaic/support/Text.h"
#include "mosaic/testcase/Lifetime.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstring>
#include <fmt/format.h>
#include <functional>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

namespace mosaic::stages {

namespace claims {

namespace {

// A function's name without template arguments and parameters, so that
// a demangled frame ("ns::Vector<char const>::SubVector(int, int)") and a
// callable's qualified name ("ns::Vector<const char>::SubVector") compare.
std::string bareName(const std::string &name) {
  std::string out;
  int angle = 0;
  for (size_t k = 0; k < name.size(); ++k) {
    const char ch = name[k];
    // "operator<" and "operator()" keep their brackets.
    if (name.compare(k, 8, "operator") == 0) {
      const size_t op = name.find_first_of("(", k + 8);
      const size_t len = op == std::string::npos ? name.size() - k : op - k + (name.compare(op, 2, "()") == 0 ? 2 : 0);
      out += name.substr(k, len);
      k += len - 1;
      continue;
    }
    if (ch == '<') ++angle;
    else if (ch == '>' && angle > 0) --angle;
    else if (ch == '(' && angle == 0) break;
    else if (angle == 0) out += ch;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// The function glibc's message names ("bignum.cc:125: uint64_t
// dc::HexCharValue(const int): Assertion `...' failed."): the last word
// before the first parenthesis of the part between the line number and
// "Assertion". "" when it cannot be read.
std::string assertingFunction(const std::string &output, size_t assertionAt) {
  const size_t lineStart = output.rfind('\n', assertionAt) == std::string::npos ? 0 : output.rfind('\n', assertionAt) + 1;
  const std::string line = output.substr(lineStart, assertionAt - lineStart);
  // FILE:LINE: SIGNATURE: 
  const size_t afterLine = [&] {
    for (size_t k = 0; k + 1 < line.size(); ++k)
      if (line[k] == ':' && std::isdigit(static_cast<unsigned char>(line[k + 1]))) {
        size_t e = k + 1;
        while (e < line.size() && std::isdigit(static_cast<unsigned char>(line[e]))) ++e;
        if (e + 1 < line.size() && line[e] == ':' && line[e + 1] == ' ') return e + 2;
      }
    return std::string::npos;
  }();
  if (afterLine == std::string::npos) return "";
  const std::string signature = line.substr(afterLine);
  const size_t paren = signature.find('(');
  if (paren == std::string::npos) return "";
  std::string head = signature.substr(0, paren);
  const size_t space = head.find_last_of(" *&");
  return space == std::string::npos ? head : head.substr(space + 1);
}

// Whether a sanitizer report says the run dereferenced a null pointer:
// UBSan's null-pointer checks ("member access within null pointer", "null
// pointer passed as argument 1"), or ASan's SEGV in the zero page (its own
// hint, or an address below 4096: Linux never maps the first page, whose
// vm.mmap_min_addr is at least 4096).
bool nullDereference(const std::string &report) {
  if (report.find("address points to the zero page") != std::string::npos) return true;
  if (report.find("runtime error: ") != std::string::npos && report.find("null pointer") != std::string::npos)
    return true;
  std::smatch m;
  if (!std::regex_search(report, m, std::regex(R"(SEGV on unknown address (?:0x)?([0-9a-fA-F]{1,16}))"))) return false;
  return std::stoull(m[1].str(), nullptr, 16) < 4096;
}

// Whether ASan reports an access past a buffer of the heap or a stack (or
// a global's, with `globals`), or into memory it poisoned (a pool's).
bool reportsOverrun(const std::string &report, bool globals) {
  for (const char *kind : {"AddressSanitizer: heap-buffer-overflow", "AddressSanitizer: stack-buffer-overflow",
                           "AddressSanitizer: use-after-poison"})
    if (report.find(kind) != std::string::npos) return true;
  return globals && report.find("AddressSanitizer: global-buffer-overflow") != std::string::npos;
}

// The thread a sanitizer report says the error happened in ("... T1)" on
// its ERROR line; T0 is the main thread, the test's): -1 when it says none.
int reportThread(const std::string &report) {
  const size_t error = report.find("ERROR: ");
  if (error == std::string::npos) return -1;
  const std::string line = report.substr(error, report.find('\n', error) - error);
  std::smatch m;
  if (!std::regex_search(line, m, std::regex(R"( T([0-9]+)\)?\s*$)"))) return -1;
  return std::stoi(m[1].str());
}

} // namespace

} // namespace claims

using namespace claims;

std::string libraryAssertion(const exec::RunResult &result, const std::string &output,
                             const std::vector<exec::Frame> &frames, const std::string &callable) {
  if (result.outcome != exec::Outcome::Abort) return "";
  const size_t at = output.find("Assertion `");
  // An abort() the library calls itself, with no message of glibc's or the
  // C++ runtime's (double-conversion's DOUBLE_CONVERSION_UNREACHABLE when a
  // Bignum would outgrow its fixed capacity): as deliberate as an
  // assertion. Not glibc's fatal checks ("*** buffer overflow detected ***",
  // a corrupted heap), nor an uncaught exception ("terminate called").
  if (at == std::string::npos) {
    if (frames.empty() || heapCorruption(output) || output.find("***") != std::string::npos ||
        output.find("terminate called") != std::string::npos || output.find("Sanitizer") != std::string::npos)
      return "";
    return fmt::format("{}() stops at an abort() of {}(): a check the library makes on purpose, so what the test "
                       "gave is outside what it accepts",
                       callable, bareName(frames.front().function));
  }
  const size_t end = output.find("' failed", at);
  if (end == std::string::npos) return "";
  const size_t from = at + std::string("Assertion `").size();
  const std::string expr = output.substr(from, end - from);
  const std::string asserting = frames.empty() ? assertingFunction(output, at) : frames.front().function;
  if (!asserting.empty() && bareName(asserting) == bareName(callable))
    return fmt::format("{}() rejects its arguments with its own assertion `{}`: a precondition its caller broke",
                       callable, expr);
  return fmt::format("{}() stops at the assertion `{}`{}: a check the library makes on purpose, so what the test "
                     "gave is outside what it accepts",
                     callable, expr, asserting.empty() ? "" : " of " + bareName(asserting) + "()");
}

std::string errorReturnedEarlier(const testcase::Catalog &catalog, const TestCase &test, const exec::RunResult &result,
                                 const std::vector<exec::Observation> &observations) {
  if (test.statements.empty()) return "";
  const model::Program &p = catalog.program();
  const size_t i = failingStatement(test, result);
  if (!isCall(test.statements[i].op)) return "";
  const auto objects = objectCone(catalog, test, i);
  for (size_t j = 0; j < i; ++j) {
    const Statement &u = test.statements[j];
    if (!isCall(u.op) || std::none_of(u.refs.begin(), u.refs.end(), [&](Ref r) {
          // An object, not a number or a NULL both calls were given.
          return r < test.statements.size() && test.statements[r].op != Op::Null &&
                 test.statements[r].op != Op::Primitive && oneOf(test, objects, r);
        }))
      continue;
    const model::Type &result = p.type(p.type(p.callable(u.callable).result).value);
    for (const exec::Observation &o : observations) {
      if (o.statement != j || o.target != MOSAIC_OBS_RESULT || o.field != -1 ||
          (o.kind != MOSAIC_OBS_INT && o.kind != MOSAIC_OBS_UINT))
        continue;
      // An enumerator named for an error (xxhash's XXH_ERROR: a word err,
      // error, fail, failed, failure or invalid). Not a negative integer:
      // a comparison's -1 is no error.
      std::string said;
      if (result.kind == model::TypeKind::Enum && result.enumId)
        for (const model::Enumerator &e : p.enums.at(*result.enumId).enumerators)
          if (e.value == o.integer && anyIdentifierWord(e.name.substr(e.name.rfind(':') + 1), [](std::string_view w) {
                const std::string l = lowercase(std::string(w));
                return l == "err" || l == "error" || l == "fail" || l == "failed" || l == "failure" || l == "invalid";
              }))
            said = e.name;
      if (!said.empty())
        return fmt::format("follows the error {} that an earlier call on the same object returned, {} (statement {}), "
                           "which the test did not heed",
                           said, callName(p, u), j);
    }
  }
  return "";
}

std::string nullKeptEarlier(const testcase::Catalog &catalog, const TestCase &test, const exec::RunResult &result,
                            const std::vector<exec::Observation> &observations, const std::string &report) {
  if (test.statements.empty()) return "";
  // A null dereference, as the report says; or any failure after a null
  // callback was kept (leveldb's Cache::Insert(k, v, 1, nullptr), then
  // Cache::Erase(k) calls the deleter, wherever the fault lands).
  const bool nullRead = nullDereference(report);
  const model::Program &p = catalog.program();
  const size_t i = failingStatement(test, result);
  if (!isCall(test.statements[i].op)) return "";
  const auto inCone = cone(test, i);
  // An object the failing call uses (or its address), not a null itself.
  const auto used = [&](Ref r) {
    return r < test.statements.size() && test.statements[r].op != Op::Null && oneOf(test, inCone, r);
  };
  // A struct the test zero-initialised and gave to no call before this
  // one (libogg's `ogg_page og = {}; ogg_page_bos(&og)` reads
  // og.header[5]): the null it dereferenced is one of its pointer fields.
  if (nullRead)
    for (size_t j : builtValues(test, i)) {
      const Statement &s = test.statements[j];
      const auto rec = s.op == Op::Aggregate && s.refs.empty() ? recordOf(p, s.type) : std::nullopt;
      if (!rec || p.type(p.type(s.type).value).kind != model::TypeKind::Record || !hasPointerField(p, p.record(*rec)))
        continue;
      const bool earlier = std::any_of(test.statements.begin() + static_cast<std::ptrdiff_t>(j) + 1,
                                       test.statements.begin() + static_cast<std::ptrdiff_t>(i), [&](const Statement &u) {
                                         return isCall(u.op) && std::any_of(u.refs.begin(), u.refs.end(), [&](Ref r) {
                                                  return holdsValue(test, r, j);
                                                });
                                       });
      if (!earlier)
        return fmt::format("{} dereferences a null pointer in a {} the test zero-initialised and gave it first",
                           callName(p, test.statements[i]), p.record(*rec).name);
    }
  for (size_t j = 0; j < i; ++j) {
    const Statement &u = test.statements[j];
    if (u.op != Op::Call && u.op != Op::MethodCall) continue;
    // It may keep the null only in an object it is given to change.
    if (std::none_of(u.refs.begin(), u.refs.end(), [&](Ref r) { return used(r) && !onlyReads(p, u, r); })) continue;
    const auto args = argumentsOf(p, u);
    for (size_t k = 0; k < args.size(); ++k) {
      const Ref r = args[k].ref;
      if (r >= test.statements.size()) continue;
      if (!nullRead && !(callbackArgument(p, args[k]) && test.statements[r].op == Op::Null)) continue;
      if (nullValue(test, observations, r))
        return fmt::format("{} {} after {} was given NULL as {}{} for an object it uses", callName(p, test.statements[i]),
                           nullRead ? "dereferences a null pointer" : "fails", callName(p, u), paramName(args[k], k),
                           resultOf(p, test.statements[r]));
    }
  }
  return "";
}

std::string wrongKindDowncast(const testcase::Catalog &catalog, const TestCase &test, const exec::RunResult &result,
                              const std::string &report) {
  if (test.statements.empty()) return "";
  std::smatch m;
  if (!std::regex_search(report, m, std::regex(R"(runtime error: downcast of address \S+ which does not point to an object of type '([^']+)')")))
    return "";
  const size_t i = failingStatement(test, result);
  if (!isCall(test.statements[i].op)) return "";
  return fmt::format("{} cast an object it was given to {}, which that object is not: it takes only objects of that "
                     "kind",
                     callName(catalog.program(), test.statements[i]), m[1].str());
}

std::string overrunInABuiltStruct(const testcase::Catalog &catalog, const TestCase &test, const exec::RunResult &result,
                                  const std::string &report) {
  if (test.statements.empty()) return "";
  if (!reportsOverrun(report, /*globals=*/true)) return "";
  const size_t i = failingStatement(test, result);
  if (!isCall(test.statements[i].op)) return "";
  const auto found = builtRecordAroundOwnMemory(catalog, test, i);
  if (!found) return "";
  return fmt::format("{} overran a buffer given inside a {} built by hand (its {} is the test's): a {} the API fills "
                     "may hold more than the test gave",
                     callName(catalog.program(), test.statements[i]), catalog.program().record(found->first).name,
                     found->second, catalog.program().record(found->first).name);
}

std::string readPastAnArrayWithNoLength(const testcase::Catalog &catalog, const TestCase &test,
                                        const exec::RunResult &result, const std::string &report) {
  if (test.statements.empty()) return "";
  // Arrays a test makes are on the heap or its stack, never globals.
  bool overrun = report.find("READ of size") != std::string::npos && reportsOverrun(report, /*globals=*/false);
  // Or a read far past it, into memory that is not mapped (libspiro's
  // spiro.c: "SEGV on unknown address 0x508000040010 ... caused by a READ
  // memory access"); not near NULL, which is a null pointer's.
  std::smatch m;
  constexpr unsigned long long kNullPage = 0x10000; // ours: an offset from NULL stays below it
  if (!overrun && report.find("caused by a READ memory access") != std::string::npos &&
      std::regex_search(report, m, std::regex(R"(AddressSanitizer: SEGV on unknown address (0x[0-9a-f]+))")))
    overrun = std::stoull(m[1].str(), nullptr, 16) >= kNullPage;
  if (!overrun) return "";
  const size_t i = failingStatement(test, result);
  if (!isCall(test.statements[i].op)) return "";
  const model::Program &p = catalog.program();
  const auto args = argumentsOf(p, test.statements[i]);
  // An array a call returned, with a length of the test's own (libspiro's
  // spiro_to_bpath(run_spiro(src, 4), 2336, bc)): the test never knew how
  // long the array is.
  for (size_t k = 0; k < args.size(); ++k) {
    const model::Param *param = args[k].param;
    if (!param || param->role != model::ParamRole::Buffer || !param->pairedWith || args[k].ref >= i) continue;
    const unsigned n = *param->pairedWith;
    if (n >= args.size() || args[n].ref >= i || !isCall(test.statements[args[k].ref].op) ||
        test.statements[args[n].ref].op != Op::Primitive)
      continue;
    return fmt::format("{} read past the end of the array {} returned, given as {} with {} = {}, a length of the "
                       "test's own: only the caller that made the array knows its length",
                       callName(p, test.statements[i]), callName(p, test.statements[args[k].ref]),
                       paramName(args[k], k), paramName(args[n], n),
                       static_cast<std::int64_t>(test.statements[args[n].ref].bits));
  }
  // A call that takes a length anywhere may be told the array's size.
  if (std::any_of(args.begin(), args.end(), [](const Argument &a) { return a.param && a.param->pairedWith; })) return "";
  for (size_t k = 0; k < args.size(); ++k) {
    if (!args[k].param || args[k].ref >= i) continue;
    // A pointer to structs or to pointers (not bytes: a string has its NUL).
    const model::Type &param = p.type(p.type(args[k].param->type).value);
    if (param.kind != model::TypeKind::Pointer || !param.pointee) continue;
    const model::TypeKind element = p.type(p.type(*param.pointee).value).kind;
    if (element != model::TypeKind::Record && element != model::TypeKind::Pointer) continue;
    // An array the test made (its elements, or zeroed bytes), or the address of one object.
    const Statement &s = test.statements[args[k].ref];
    std::string given;
    if (s.op == Op::Array && !s.refs.empty()) given = fmt::format("the {}-element array", s.refs.size());
    else if (s.op == Op::Buffer) given = "the array of zeroes";
    else if (s.op == Op::AddressOf) given = "the address of one object";
    else continue;
    return fmt::format("{} read past the end of {} the test gave it as {}, with no length beside it: it finds the "
                       "array's end by a mark (a last element of its own kind) the test did not put there",
                       callName(p, test.statements[i]), given, paramName(args[k], k));
  }
  return "";
}

std::string misuseOutsideTheCall(const testcase::Catalog &catalog, const TestCase &test,
                                 const exec::RunResult &result, const std::vector<exec::Frame> &frames,
                                 const std::string &report) {
  if (test.statements.empty()) return "";
  const size_t i = failingStatement(test, result);
  if (!isCall(test.statements[i].op)) return "";
  const model::Program &p = catalog.program();
  const std::string called = bareName(p.callable(test.statements[i].callable).qualifiedName);
  std::string in;
  if (const int thread = reportThread(report); thread > 0) {
    in = "thread T" + std::to_string(thread);
  } else {
    if (frames.empty() || result.stack.size() >= MOSAIC_STACK_CAPACITY ||
        std::any_of(frames.begin(), frames.end(), [&](const exec::Frame &f) { return bareName(f.function) == called; }))
      return "";
    in = bareName(frames.front().function) + "()";
  }
  for (size_t j = 0; j < i; ++j) {
    if (!isCall(test.statements[j].op)) continue;
    if (std::string why = argumentMisuse(catalog, test, j); !why.empty())
      return fmt::format("it failed outside {}() (in {}), and an earlier call was misuse: {}", called, in, why);
    if (const model::Callable &c = p.callable(test.statements[j].callable); internal(catalog, c))
      return fmt::format("it failed outside {}() (in {}), after an earlier call of {}, {}, with arguments its own "
                         "callers may never pass",
                         called, in, callName(p, test.statements[j]), catalog.insideOf(c));
  }
  return "";
}

bool heapCorruption(const std::string &output) {
  // glibc's malloc checks (malloc.c's malloc_printerr and its assertions).
  for (const char *sign : {"double free", "free(): invalid", "malloc(): ", "realloc(): invalid",
                           "malloc assertion failure", "corrupted size vs. prev_size", "corrupted double-linked list",
                           "munmap_chunk(): invalid pointer"})
    if (output.find(sign) != std::string::npos) return true;
  return false;
}

std::vector<size_t> unusualIntegers(const testcase::Catalog &catalog, const TestCase &test,
                                    const exec::RunResult &result) {
  std::vector<size_t> out;
  if (test.statements.empty()) return out;
  const model::Program &p = catalog.program();
  const size_t i = failingStatement(test, result);
  // The failing call's cone, and that of each earlier call on one of its
  // objects (libogg's oggpack_adv(&b, -943), then oggpack_read(&b, 0)
  // reads before b's buffer).
  for (size_t j : coneWithEarlierCalls(catalog, test, i)) {
    const Statement &s = test.statements[j];
    if (s.op != Op::Primitive || p.type(p.type(s.type).value).kind != model::TypeKind::Integer) continue;
    if (s.bits == 0 || s.bits == 1 || pairedLength(catalog, test, j)) continue;
    out.push_back(j);
  }
  return out;
}

std::vector<UnsizedBuffer> unsizedBuffers(const testcase::Catalog &catalog, const TestCase &test,
                                          const exec::RunResult &result) {
  std::vector<UnsizedBuffer> out;
  if (test.statements.empty()) return out;
  const model::Program &p = catalog.program();
  const size_t last = failingStatement(test, result);
  std::set<size_t> seen;
  for (size_t i = 0; i <= last && i < test.statements.size(); ++i) {
    const Statement &s = test.statements[i];
    if (!isCall(s.op)) continue;
    const auto args = argumentsOf(p, s);
    for (size_t a = 0; a < args.size(); ++a) {
      const Argument &arg = args[a];
      if (!arg.param || arg.ref == testcase::kNoRef || arg.ref >= i) continue;
      const model::Param &param = *arg.param;
      // Half of a pair has its length; a string the callee only reads (a
      // `const char *`) ends at its NUL, and reading past it is the
      // callee's doing. A `char *` may be where it writes (libmd's
      // SHA1Data(const uint8_t *, size_t, char *), declared without names).
      if (param.pairedWith || param.role == model::ParamRole::Buffer || param.role == model::ParamRole::End ||
          param.role == model::ParamRole::Length || param.role == model::ParamRole::Callback)
        continue;
      const model::Type &pt = p.type(p.type(param.type).value);
      if (pt.kind != model::TypeKind::Pointer || !pt.pointee) continue;
      const bool readOnly = p.type(*pt.pointee).isConst;
      const Statement &v = test.statements[arg.ref];
      const bool cstring = v.op == Op::CString;
      if (cstring && param.role == model::ParamRole::CString && readOnly) continue;
      // Bytes, a string, or scalars: an array of them or the address of
      // one (libmodbus's modbus_get_float(const uint16_t *src) reads two).
      std::optional<std::string> bytes;
      if (v.op == Op::Buffer) bytes = v.bytes;
      else if (cstring) bytes = v.bytes + '\0';
      else bytes = scalarBytes(p, test, arg.ref);
      if (!bytes || bytes->size() >= kRoomyBuffer || !seen.insert(arg.ref).second) continue;
      out.push_back({arg.ref, i, paramName(arg, a), std::move(*bytes)});
    }
  }
  return out;
}

TestCase withRoomyBuffers(const TestCase &test, const std::vector<UnsizedBuffer> &buffers) {
  TestCase out = test;
  for (const UnsizedBuffer &b : buffers) {
    Statement &s = out.statements.at(b.statement);
    s.op = Op::Buffer;
    s.refs.clear();
    s.bytes = b.bytes;
    if (s.bytes.size() < kRoomyBuffer) s.bytes.resize(kRoomyBuffer, '\0');
  }
  return out;
}

TestCase withGrownBuffers(const TestCase &test, const std::vector<UnsizedBuffer> &buffers, size_t factor) {
  TestCase out = test;
  for (const UnsizedBuffer &b : buffers) {
    Statement &s = out.statements.at(b.statement);
    if (s.op == Op::Array || s.op == Op::AddressOf) {
      // Scalars (unsizedBuffers): the array's elements, or the one addressed.
      const std::vector<Ref> elements = s.refs;
      if (elements.empty()) continue;
      s.op = Op::Array;
      s.refs.resize(std::max<size_t>(elements.size() * factor, 1), elements.back());
      continue;
    }
    s.op = Op::Buffer;
    s.bytes = b.bytes;
    s.bytes.resize(std::max<size_t>(s.bytes.size(), 1) * factor, '\0');
  }
  return out;
}

std::string describeValue(const testcase::Catalog &catalog, const TestCase &test, size_t index) {
  const model::Program &p = catalog.program();
  const Statement &v = test.statements.at(index);
  const model::Type &ty = p.type(p.type(v.type).value);
  const std::string value = ty.isSigned ? std::to_string(static_cast<std::int64_t>(v.bits))
                                        : std::to_string(ty.bits >= 64 ? v.bits : v.bits & ((1ull << ty.bits) - 1));
  for (size_t k = index + 1; k < test.statements.size(); ++k) {
    const Statement &s = test.statements[k];
    if (!isCall(s.op)) continue;
    const auto args = argumentsOf(p, s);
    for (size_t a = 0; a < args.size(); ++a)
      if (args[a].ref == index) return value + " as " + paramName(args[a], a) + " of " + callName(p, s);
  }
  return value;
}

std::string sanitizerClass(const std::string &output) {
  // UBSan: the words of its message before the first value ("signed
  // integer overflow: 1 + 2", "addition of unsigned offset to 0x5020...").
  if (const size_t at = output.find("runtime error: "); at != std::string::npos) {
    std::istringstream words(output.substr(at + 15, output.find('\n', at) - at - 15));
    std::string cls;
    for (std::string w; words >> w;) {
      if (std::any_of(w.begin(), w.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); })) break;
      const bool last = w.back() == ':';
      if (last) w.pop_back();
      cls += (cls.empty() ? "" : " ") + w;
      if (last) break;
    }
    return cls;
  }
  // ASan and the others: "ERROR: AddressSanitizer: heap-buffer-overflow on ...".
  if (const size_t at = output.find("Sanitizer: "); at != std::string::npos) {
    const size_t from = at + 11;
    const size_t end = output.find_first_of(" \n:(", from);
    return output.substr(from, end == std::string::npos ? std::string::npos : end - from);
  }
  return "";
}

std::string failureSite(const exec::RunResult &result, const std::string &output, const std::vector<exec::Frame> &frames,
                        const std::string &where, size_t depth) {
  std::string kind = exec::toString(result.outcome);
  if (result.outcome == exec::Outcome::Crash || result.outcome == exec::Outcome::Abort)
    kind += " " + std::to_string(result.signal);
  if (result.outcome == exec::Outcome::Exit) kind += " " + std::to_string(result.exitCode);
  if (result.outcome == exec::Outcome::Sanitizer) kind += " " + sanitizerClass(output);
  if (frames.empty()) return kind + " in " + where;
  std::string site = kind + " at";
  for (size_t k = 0; k < frames.size() && k < depth; ++k)
    site += (k ? " < " : " ") + frames[k].function + ":" + std::to_string(frames[k].line);
  return site;
}

} // namespace mosaic::stages
