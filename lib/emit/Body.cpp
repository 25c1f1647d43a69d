// Writing one test case: the BodyWriter's set-up, and write(), which names
// the test's values, decides which are written where they are used, and
// puts its statements, assertions and expected exception in order.
#include "BodyParts.h"

#include "mosaic/testcase/Printer.h"

#include <algorithm>
#include <map>

namespace mosaic::emit {

BodyWriter::BodyWriter(const model::Program &program, const testcase::Catalog &catalog, const WriteOptions &options)
    : p_(program), catalog_(catalog), options_(options), cxx_(program.language == "c++"),
      throughWrapper_(options.throughWrapper && !cxx_), reserved_(reservedNames(program)) {
  if (throughWrapper_) options_.canonicalSpelling = true; // the project's typedefs are out of sight too
  std::map<std::string, int> names;
  for (const model::Callable &c : p_.callables) ++names[c.qualifiedName];
  for (const auto &[name, count] : names)
    if (count > 1) overloaded_.insert(name);
}

// One test's body: its name, its values named or written in place, its
// statements with their assertions, and what the file around it must hold.
Body BodyWriter::write(const SuiteTest &st, bool withAssertions) {
  Body body;
  const TestCase &t = st.test;
  const size_t n = st.threwAt >= 0 ? std::min(t.statements.size(), static_cast<size_t>(st.threwAt) + 1) : t.statements.size();
  resetVariables(n);
  variadicTrampolines_.clear();
  exactBuffers_ = !st.failureClass.empty() && st.result.outcome == exec::Outcome::Sanitizer;
  body.name = testName(st, !withAssertions);
  countUses(st, n, withAssertions);
  nameValues(st, n, body.trampolines);
  const bool written = writeStatements(st, n, withAssertions, body);
  body.variadicTrampolines = std::move(variadicTrampolines_);
  if (!written) return body;
  requireStubs(t, body);
  body.files = std::any_of(t.statements.begin(), t.statements.end(), [](const Statement &s) { return s.op == Op::File; });
  requireTrampolines(body);
  return body;
}

// Forgets the previous test's variables: n of them, none named or used yet.
void BodyWriter::resetVariables(size_t n) {
  names_.assign(n, "");
  heap_.assign(n, false);
  inlined_.assign(n, false);
  inspector_.assign(n, false);
  uses_.assign(n, 0);
}

// Counts how often each of the first n values is read: by a later statement,
// or by an assertion on it.
void BodyWriter::countUses(const SuiteTest &st, size_t n, bool withAssertions) {
  const TestCase &t = st.test;
  for (size_t i = 0; i < n; ++i)
    for (Ref r : t.statements[i].refs)
      if (r != testcase::kNoRef && r < n) ++uses_[r];
  // Results asserted on are used too.
  if (withAssertions)
    for (size_t k = 0; k < st.observations.size(); ++k)
      if (st.observations[k].statement < n && st.observations[k].target == MOSAIC_OBS_RESULT &&
          !(k < st.dropped.size() && st.dropped[k]))
        ++uses_[st.observations[k].statement];
}

// Names each value, or decides it is written in place (a literal, an array
// inside its aggregate, an inspector call inside its assertion).
void BodyWriter::nameValues(const SuiteTest &st, size_t n, std::set<model::CallableId> &trampolines) {
  const TestCase &t = st.test;
  std::set<std::string> taken;
  for (size_t i = 0; i < n; ++i) {
    const Statement &s = t.statements[i];
    if (s.op == Op::Construct) heap_[i] = !p_.record(*p_.callable(s.callable).parent).publicDestructor;
    if (s.op == Op::Array && uses_[i] >= 1) inlineIntoAggregate(st, i, n);
    if (inlined_[i]) continue;
    if (literalInPlace(st, i, n)) {
      inlined_[i] = true;
      if (s.op == Op::Primitive) names_[i] = literal(s.type, s.bits);
      else if (s.op == Op::Null) names_[i] = "nullptr";
      else names_[i] = testcase::quote(s.bytes);
      continue;
    }
    if (i >= st.appendedFrom && s.op == Op::MethodCall && uses_[i] <= 1) {
      // An inspector: its call is the subject of its assertion.
      inspector_[i] = true;
      names_[i] = callExpression(t, i, trampolines);
      continue;
    }
    if ((s.op == Op::Call || s.op == Op::MethodCall) && (uses_[i] == 0 || !catalog_.resultVariable(s.callable)))
      continue; // a call whose result nobody reads declares nothing
    names_[i] = uniqueName(t, i, taken);
  }
}

// An array built only to fill array members is written inside the
// aggregates: marks array i inlined, named by its elements in braces (its
// text, for chars: charArrayText), when every use is an aggregate's array
// member (a variable declared for them would be read by nothing: C cannot
// initialise an array from another). One that fills a pointer member (zlib's
// `unsigned char *next`), or is used otherwise, stays a variable of its own.
void BodyWriter::inlineIntoAggregate(const SuiteTest &st, size_t i, size_t n) {
  const TestCase &t = st.test;
  const Statement &s = t.statements[i];
  for (const exec::Observation &o : st.observations)
    if (o.statement == i) return;
  std::optional<std::string> value;
  for (size_t j = i + 1; j < n; ++j) {
    const Statement &a = t.statements[j];
    for (size_t k = 0; k < a.refs.size(); ++k) {
      if (a.refs[k] != static_cast<Ref>(i)) continue;
      if (a.op != Op::Aggregate) return;
      const model::Type &ty = p_.type(p_.type(a.type).value);
      const auto fields = ty.recordId ? catalog_.aggregateFields(*ty.recordId) : std::nullopt;
      if (!fields || k >= fields->size()) return;
      const model::Field &f = p_.record(*ty.recordId).fields[(*fields)[k]];
      const model::Type &member = p_.type(p_.type(f.type).value);
      if (member.kind != TypeKind::Array || !member.element) return;
      if (value) continue;
      if (auto text = charArrayText(t, s, *member.element, member.length)) {
        value = *text;
        continue;
      }
      // Each element converted as the harness copied it: a `T *` variable
      // fills a `T` element through `*` (zlib's inflate_state codes[]).
      std::string elements;
      for (size_t e = 0; e < s.refs.size(); ++e) elements += (e ? ", " : "") + argument(t, s.refs[e], *member.element, false);
      value = "{" + elements + "}";
    }
  }
  if (!value) return;
  inlined_[i] = true;
  names_[i] = *value;
}

// A char array of `length` elements whose elements (literals) are text
// then zeros, as the string literal that initialises it ("" for all
// zeros); nullopt for anything else, or text that leaves no room for the
// NUL (C++ rejects a literal as long as the array).
std::optional<std::string> BodyWriter::charArrayText(const TestCase &t, const Statement &array, model::TypeId element,
                                                     size_t length) const {
  if (p_.type(p_.type(element).value).kind != TypeKind::Char || array.refs.empty() || array.refs.size() > length)
    return std::nullopt;
  std::string bytes;
  for (Ref r : array.refs) {
    if (r == testcase::kNoRef || !inlined_[r] || t.statements[r].op != Op::Primitive) return std::nullopt;
    bytes += static_cast<char>(t.statements[r].bits & 0xff);
  }
  const size_t end = bytes.find('\0');
  const std::string text = bytes.substr(0, end);
  if (end != std::string::npos && bytes.find_first_not_of('\0', end) != std::string::npos) return std::nullopt;
  if (text.size() >= length) return std::nullopt;
  return testcase::quote(text);
}

// Whether value i, a scalar, null or constant C string, is written as its
// literal where it is used rather than declared.
bool BodyWriter::literalInPlace(const SuiteTest &st, size_t i, size_t n) const {
  const TestCase &t = st.test;
  const Statement &s = t.statements[i];
  bool inlineIt = false;
  // A scalar whose address is never taken reads best as its literal,
  // wherever it is used.
  if (s.op == Op::Primitive && uses_[i] > 1) {
    inlineIt = true;
    for (size_t j = i + 1; j < n && inlineIt; ++j) {
      const Statement &u = t.statements[j];
      if (std::find(u.refs.begin(), u.refs.end(), static_cast<Ref>(i)) == u.refs.end()) continue;
      if (u.op == Op::AddressOf || u.op == Op::FieldSet || (u.op == Op::MethodCall && u.refs[0] == i)) inlineIt = false;
    }
    for (const exec::Observation &o : st.observations)
      if (o.statement == i) inlineIt = false;
  }
  if (!inlineIt && uses_[i] == 1 && (s.op == Op::Primitive || s.op == Op::Null ||
                        (s.op == Op::CString && p_.type(p_.type(s.type).value).pointeeConst))) {
    // Only where it is an argument or an element, not where its address is taken.
    for (size_t j = i + 1; j < n; ++j) {
      const Statement &u = t.statements[j];
      if (std::find(u.refs.begin(), u.refs.end(), static_cast<Ref>(i)) == u.refs.end()) continue;
      inlineIt = (isCall(u.op) && !(u.op == Op::MethodCall && u.refs[0] == i)) || u.op == Op::Aggregate ||
                 u.op == Op::Array || u.op == Op::Callback || u.op == Op::Subclass;
      break;
    }
    if (s.op == Op::Null && p_.type(p_.type(s.type).value).kind != TypeKind::Pointer) inlineIt = false;
  }
  if (inlineIt && bindsMutableReference(t, static_cast<Ref>(i))) inlineIt = false;
  return inlineIt;
}

// A name for value i no keyword, declaration or earlier value of the test
// has taken (`item`, `item2`); takes it.
std::string BodyWriter::uniqueName(const TestCase &t, size_t i, std::set<std::string> &taken) const {
  std::string base = identifier(identifierFor(t, i));
  if (reserved_.count(base)) base += "_";
  std::string name = base;
  for (int k = 2; taken.count(name); ++k) name = base + std::to_string(k);
  taken.insert(name);
  return name;
}

// Writes the first n statements, each followed by its assertions, up to the
// call that threw; false (and body.unwritable) when one cannot be written.
bool BodyWriter::writeStatements(const SuiteTest &st, size_t n, bool withAssertions, Body &body) {
  const TestCase &t = st.test;
  for (size_t i = 0; i < n; ++i) {
    if (inlined_[i]) continue;
    const Statement &s = t.statements[i];
    if (static_cast<int>(i) == st.threwAt && isCall(s.op)) {
      writeThrowingCall(st, i, withAssertions, body);
      break;
    }
    if (inspector_[i]) {
      if (withAssertions)
        for (Line &a : assertions(st, i)) body.lines.push_back(std::move(a));
      continue;
    }
    std::string why;
    auto line = statement(t, i, body.trampolines, why);
    if (!line) {
      if (why.empty() && throughWrapper_) why = "statement " + std::to_string(i) + " builds a value only the project's C headers can name";
      body.unwritable = why.empty() ? "statement " + std::to_string(i) + " cannot be written" : why;
      return false;
    }
    body.lines.push_back({*line, -1});
    if (withAssertions)
      for (Line &a : assertions(st, i)) body.lines.push_back(std::move(a));
  }
  return true;
}

// Writes call i, the one that threw: expecting its exception, by type when
// the test can name it.
void BodyWriter::writeThrowingCall(const SuiteTest &st, size_t i, bool withAssertions, Body &body) {
  const Statement &s = st.test.statements[i];
  std::string call = callExpression(st.test, i, body.trampolines);
  if (s.op == Op::Construct) {
    const std::string type = p_.record(*p_.callable(s.callable).parent).name;
    call = type + "(" + call + ")";
  }
  const std::string &ty = st.exceptionType;
  if (!withAssertions) {
    body.lines.push_back({call + ";", -1});
  } else if (catchable(ty)) {
    body.lines.push_back({"EXPECT_THROW(" + call + ", " + ty + ");", -1});
  } else {
    if (!ty.empty() && ty != "unknown")
      body.lines.push_back({"// Throws " + ty + ", which no header of " + p_.unit.substr(p_.unit.rfind('/') + 1) +
                                " declares.", -1});
    body.lines.push_back({"EXPECT_ANY_THROW(" + call + ");", -1});
  }
}

// Records the stub subclasses the test uses; unwritable when one has a pure
// virtual whose types only its unit can name.
void BodyWriter::requireStubs(const TestCase &t, Body &body) const {
  for (const Statement &s : t.statements)
    if (s.op == Op::Subclass) {
      const model::RecordId r = *p_.type(p_.type(s.type).value).recordId;
      if (!stubDefinition(r)) body.unwritable = "a pure virtual of " + p_.record(r).name + " has a type only its unit can name";
      body.stubs.insert(r);
    }
}

// Unwritable when a callable the test reaches through a trampoline has a
// parameter or result type only its unit can name.
void BodyWriter::requireTrampolines(Body &body) const {
  // Through the wrapper, only the headers (in C) can name the project's
  // types.
  const std::string only = throughWrapper_ ? "has a type only the project's C headers can name"
                                            : "has a type only its unit can name";
  std::set<model::CallableId> reached = body.trampolines;
  for (const auto &[c, kinds] : body.variadicTrampolines) reached.insert(c);
  for (model::CallableId c : reached) {
    const model::Callable &callable = p_.callable(c);
    for (const model::Param &param : callable.params)
      if (!spell(param.type)) body.unwritable = "a parameter of " + callable.name + " " + only;
    if (!spell(callable.result)) body.unwritable = "the result of " + callable.name + " " + only;
  }
}

} // namespace mosaic::emit
