// What a failing test claims (Classify.h): the order in which the rules
// of the Classify*.cpp files are asked, misuse first, then robustness, then
// a likely defect.
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

// A struct whose buffer the API allocates and grows (libogg's
// oggpack_buffer, which oggpack_write reallocates) cannot be given one of
// the test's memory: described, or "" when none.
std::string ownMemoryInABuiltRecord(const testcase::Catalog &catalog, const TestCase &t, size_t i) {
  const model::Program &p = catalog.program();
  if (const auto found = builtRecordAroundOwnMemory(catalog, t, i))
    return fmt::format("gives {} a {} built by hand whose {} points at the test's own memory, which it frees or "
                       "reallocates: only what malloc returned can be",
                       callName(p, t.statements[i]), p.record(found->first).name, found->second);
  return "";
}

// A call up to statement `last` given the address of an object the test
// made itself (constructed, or a stub of its own) as a non-const pointer to
// a class: a callee that takes ownership of what it is given (muParserX's
// TokenReader::AddValueReader(&reader), TokenPtr<IToken>(&token)) deletes
// it at the end, and only an object from `new` can be deleted. Described,
// or "" when none.
std::string ownObjectGivenAway(const testcase::Catalog &catalog, const TestCase &t, size_t last) {
  const model::Program &p = catalog.program();
  // What statement `r` is the address of, or `r` itself.
  const auto through = [&](Ref r) {
    const Statement &v = t.statements[r];
    return v.op == Op::AddressOf && !v.refs.empty() ? v.refs[0] : r;
  };
  for (size_t j = 0; j <= last && j < t.statements.size(); ++j) {
    const Statement &u = t.statements[j];
    if (!isCall(u.op)) continue;
    const auto args = argumentsOf(p, u);
    // The arguments given as a non-const pointer to a class.
    std::vector<size_t> owned;
    for (size_t k = 0; k < args.size(); ++k) {
      if (!args[k].param || args[k].ref >= t.statements.size()) continue;
      const model::Type &pt = p.type(p.type(args[k].param->type).value);
      if (pt.kind == model::TypeKind::Pointer && pt.pointee && !pt.pointeeConst && recordOf(p, args[k].param->type))
        owned.push_back(k);
    }
    for (size_t k : owned) {
      const Statement &v = t.statements[args[k].ref];
      if (v.op != Op::AddressOf || v.refs.empty() || v.refs[0] >= t.statements.size()) continue;
      const Op made = t.statements[v.refs[0]].op;
      if (made == Op::Construct || made == Op::Subclass)
        return fmt::format("gives {} the address of the test's own {} as {}: a callee that takes ownership deletes "
                           "what it is given, and only an object from new can be deleted",
                           callName(p, u), p.record(*recordOf(p, args[k].param->type)).name, paramName(args[k], k));
    }
    // Or a pointer, or the address of a reference, that a method of the
    // test's own object lent, at any depth (muParserX's
    // TokenPtr<IValue>(value.AsValue()), which is &value;
    // TokenPtr<IValue>(value.At(0, 0).AsValue()), an element of value's).
    for (size_t k : owned) {
      const Ref lender = through(args[k].ref);
      if (lender >= t.statements.size() || t.statements[lender].op != Op::MethodCall) continue;
      Ref owner = lender;
      while (owner < t.statements.size() && t.statements[owner].op == Op::MethodCall && !t.statements[owner].refs.empty())
        owner = t.statements[owner].refs[0] < t.statements.size() ? through(t.statements[owner].refs[0])
                                                                  : t.statements[owner].refs[0];
      if (owner < t.statements.size() && t.statements[owner].op == Op::Construct)
        return fmt::format("gives {} a pointer {} lent from the test's own object as {}: a callee that takes "
                           "ownership deletes what it is given, and only an object from new can be deleted",
                           callName(p, u), callName(p, t.statements[lender]), paramName(args[k], k));
    }
  }
  return "";
}

// Why a failure the failing call need not have caused (one after the
// test's last call, or a heap glibc found corrupted) is misuse: an earlier
// call was misuse by its own arguments, or of an internal function with
// the test's arguments. `happened` starts the sentence; "" when neither.
std::string earlierMisuse(const testcase::Catalog &catalog, const TestCase &t, size_t i, const std::string &happened) {
  const model::Program &p = catalog.program();
  for (size_t j = 0; j < i; ++j) {
    if (!isCall(t.statements[j].op)) continue;
    if (std::string why = argumentMisuse(catalog, t, j); !why.empty())
      return happened + ", and an earlier call was misuse: " + why;
    // An element of a container nothing was put into, whatever was then
    // done with it (swapped into another object, destroyed at the end); a
    // pointer only the API makes, used after a call replaced or released it.
    if (std::string why = elementOfNothing(p, t, j); !why.empty())
      return happened + ", and earlier " + why;
    if (std::string why = staleApiPointer(catalog, t, j); !why.empty()) return happened + ", and earlier " + why;
    const model::Callable &c = p.callable(t.statements[j].callable);
    if (internal(catalog, c))
      return fmt::format("{} after an earlier call of {}, {}, with arguments its own callers may never pass", happened,
                         callName(p, t.statements[j]), catalog.insideOf(c));
  }
  return "";
}

} // namespace

size_t failingStatement(const TestCase &test, const exec::RunResult &result) {
  size_t i = result.statement >= 0 && static_cast<size_t>(result.statement) < test.statements.size()
                 ? static_cast<size_t>(result.statement)
                 : test.statements.size() - 1;
  if (!isCall(test.statements[i].op))
    for (size_t j = test.statements.size(); j-- > 0;)
      if (isCall(test.statements[j].op)) return j;
  return i;
}

bool pairedLength(const testcase::Catalog &catalog, const TestCase &t, size_t j) {
  const model::Program &p = catalog.program();
  for (size_t k = j + 1; k < t.statements.size(); ++k) {
    const Statement &s = t.statements[k];
    if (isCall(s.op)) {
      for (const Argument &a : argumentsOf(p, s))
        if (a.ref == j && a.param && (a.param->role == model::ParamRole::Length || a.param->role == model::ParamRole::End))
          return true;
    } else if (s.op == Op::Aggregate) {
      const auto rec = recordOf(p, s.type);
      const auto fields = rec ? catalog.aggregateFields(*rec) : std::nullopt;
      if (!fields || fields->size() != s.refs.size()) continue;
      for (size_t f = 0; f < fields->size(); ++f)
        if (s.refs[f] == j && p.record(*rec).fields[(*fields)[f]].isLength) return true;
    }
  }
  return false;
}

std::string testsOwnThroughAPointer(const testcase::Catalog &catalog, const TestCase &t, size_t i,
                                    bool onlyApiPointers) {
  const model::Program &p = catalog.program();
  const Statement &call = t.statements[i];
  if (!isCall(call.op)) return "";
  const auto args = argumentsOf(p, call);
  for (size_t k = 0; k < args.size(); ++k) {
    if (!args[k].param || args[k].ref >= t.statements.size()) continue;
    const model::Type &pt = p.type(p.type(args[k].param->type).value);
    if (pt.kind != model::TypeKind::Pointer || !pt.pointee || pt.pointeeConst ||
        p.type(p.type(*pt.pointee).value).kind != model::TypeKind::Pointer)
      continue;
    if (onlyApiPointers && !catalog.apiPointer(*pt.pointee)) continue;
    const Statement &outer = t.statements[args[k].ref];
    if (outer.op != Op::AddressOf || outer.refs.empty() || outer.refs[0] >= t.statements.size()) continue;
    const Statement &inner = t.statements[outer.refs[0]];
    const bool own = inner.op == Op::Array || inner.op == Op::Buffer ||
                     (inner.op == Op::AddressOf && !inner.refs.empty() && inner.refs[0] < t.statements.size() &&
                      !isCall(t.statements[inner.refs[0]].op));
    if (own)
      return fmt::format("gives {} the address of a pointer to the test's own memory as {}, which it frees or "
                         "reallocates: only what malloc returned can be",
                         callName(p, call), paramName(args[k], k));
  }
  return "";
}

std::optional<std::pair<model::RecordId, std::string>> builtRecordAroundOwnMemory(const testcase::Catalog &catalog,
                                                                                  const TestCase &t, size_t i) {
  const model::Program &p = catalog.program();
  for (size_t j : builtValues(t, i)) {
    const Statement &s = t.statements[j];
    const auto rec = s.op == Op::Aggregate ? recordOf(p, s.type) : std::nullopt;
    const auto fields = rec ? catalog.aggregateFields(*rec) : std::nullopt;
    if (!fields || fields->size() != s.refs.size()) continue;
    for (size_t k = 0; k < fields->size(); ++k) {
      const model::Field &f = p.record(*rec).fields[(*fields)[k]];
      if (s.refs[k] >= t.statements.size() || p.type(p.type(f.type).value).kind != model::TypeKind::Pointer) continue;
      const Op v = t.statements[s.refs[k]].op;
      if (v == Op::AddressOf || v == Op::Array || v == Op::Buffer || v == Op::CString) return std::pair(*rec, f.name);
    }
  }
  return std::nullopt;
}

} // namespace claims

using namespace claims;

const char *toString(FailureClass c) {
  switch (c) {
  case FailureClass::Defect: return "defect";
  case FailureClass::Robustness: return "robustness";
  case FailureClass::Misuse: return "misuse";
  }
  return "?";
}

bool internal(const testcase::Catalog &catalog, const model::Callable &c) { return catalog.internalCallable(c); }

Classification classify(const testcase::Catalog &catalog, const TestCase &test, const exec::RunResult &result,
                        const std::vector<exec::Observation> &observations, const std::string &output) {
  const model::Program &p = catalog.program();
  if (test.statements.empty()) return {FailureClass::Misuse, "an empty test"};
  // Where it failed: the statement it stopped at, or (past the last one:
  // a destructor at the end) the last call.
  const size_t i = failingStatement(test, result);
  if (!isCall(test.statements[i].op)) return {FailureClass::Misuse, "the test failed while it built a value"};
  if (std::string why = misuse(catalog, test, i, observations); !why.empty()) return {FailureClass::Misuse, why};
  // A failure after the last call (at exit: `free(): double free
  // detected`), whatever objects it shares: an earlier call that was misuse
  // by its own arguments (state.c's free_text(text) of the test's array,
  // then next_id()) is its likelier cause than the last call.
  // So is an earlier call of an internal function with the test's
  // arguments (zstd's ZDICT_addEntropyTablesFromBuffer_advanced given
  // sample sizes beyond its buffer, then ZDICT_getDictHeaderSize).
  if (result.statement < 0 || static_cast<size_t>(result.statement) >= test.statements.size())
    if (std::string why = earlierMisuse(catalog, test, i, "it failed after the test's last call"); !why.empty())
      return {FailureClass::Misuse, why};
  // glibc found the heap corrupted (`malloc(): corrupted top size`): any
  // earlier call may have written past a block, whatever objects it
  // shares with the call that noticed; an earlier misuse, or a call of an
  // internal function with arguments of the test's, is the likelier cause
  // (json-c's static json_object_new(type, 13, ...), then
  // json_object_new_double_s() aborts in malloc).
  if (heapCorruption(output))
    if (std::string why = earlierMisuse(catalog, test, i, "glibc found the heap corrupted"); !why.empty())
      return {FailureClass::Misuse, why};
  // An earlier call given the address of a variable of the test's as a
  // `void *` it reads, and writes, as an object of its own: it wrote over
  // the test's stack, and a failure anywhere after it may be that (bzip2's
  // BZ2_bzread(&file, ...), the address of a FILE * as its BZFILE *, then
  // BZ2_bzopen crashed on a pointer of the test's it had overwritten).
  for (size_t j = 0; j < i; ++j)
    if (std::string why = ownObjectThroughVoid(p, test, j); !why.empty())
      return {FailureClass::Misuse, "it failed in " + callName(p, test.statements[i]) + " after an earlier call " + why};
  // A free or realloc of what malloc never returned, where the failing
  // call was given, through a pointer to a pointer, the address of the
  // test's own object (giflib's GifAddExtensionBlock(&count, &blocks, ...)
  // with blocks pointing at the test's ExtensionBlock: it reallocs
  // *blocks, which only malloc's memory can be), or a struct the test
  // built by hand around its own memory (libogg's oggpack_buffer with
  // .buffer = &byte, which oggpack_write reallocates).
  // (In the harness the test's bytes are on the heap: freed by the
  // callee, they are freed again when the test ends, a double free.)
  if (output.find("free(): invalid pointer") != std::string::npos ||
      output.find("realloc(): invalid pointer") != std::string::npos ||
      output.find("munmap_chunk(): invalid pointer") != std::string::npos ||
      output.find("not malloc()-ed") != std::string::npos || output.find("double free") != std::string::npos)
    for (const std::string &why : {testsOwnThroughAPointer(catalog, test, i, false), ownMemoryInABuiltRecord(catalog, test, i)})
      if (!why.empty()) return {FailureClass::Misuse, why};
  // A delete of what `new` never made: glibc's word on it, or a crash in
  // the destructors after the test's last statement.
  if (p.language == "c++" && (output.find("free(): invalid") != std::string::npos || output.find("double free") != std::string::npos ||
                    output.find("not malloc()-ed") != std::string::npos || result.statement < 0))
    if (std::string why = ownObjectGivenAway(catalog, test, i); !why.empty()) return {FailureClass::Misuse, why};
  if (std::string why = robustness(catalog, test, i, observations); !why.empty())
    return {FailureClass::Robustness, why};
  const std::string where = callName(p, test.statements[i]);
  switch (result.outcome) {
  case exec::Outcome::Timeout: return {FailureClass::Robustness, where + " does not return within the time limit"};
  case exec::Outcome::OutOfMemory: return {FailureClass::Robustness, where + " runs out of memory"};
  case exec::Outcome::Crash:
    if (exec::stoppedAtFileLimit(result))
      return {FailureClass::Robustness, where + " writes a file past the sandbox's size limit"};
    break;
  case exec::Outcome::Exit:
    return {FailureClass::Robustness, fmt::format("{} ends the process (exit({}))", where, result.exitCode)};
  default: break;
  }
  return {FailureClass::Defect, where + " fails through the public API with plain values and objects the API made"};
}

} // namespace mosaic::stages
