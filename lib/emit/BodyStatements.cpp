// One statement of a test as a line of C++: a declaration with its literal,
// string, buffer, aggregate or array, a construction, a call, a field set,
// a stub subclass or a callback lambda.
#include "BodyParts.h"

#include "mosaic/abi/TestWire.h"
#include "mosaic/testcase/Printer.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace mosaic::emit {

namespace {

// "1 byte", "12 bytes".
std::string byteCount(size_t n) { return std::to_string(n) + (n == 1 ? " byte" : " bytes"); }

} // namespace

// One statement as a line: dispatches on its op to the writer of that op.
std::optional<std::string> BodyWriter::statement(const TestCase &t, size_t i, std::set<model::CallableId> &trampolines,
                                                 std::string &why) {
  // A char array whose address is passed (a `char **` parameter) is written
  // as its bytes plus a pointer to them: `&array` would be a pointer to an
  // array, not to a pointer, and the callee may move the pointer.
  // So is one bound to a `char *&` parameter (pugixml's set_value_integer):
  // an array is no pointer variable a reference can bind to.
  const bool addressTaken = addressTakenAt(t, i, names_.size()).has_value() || bindsMutableReference(t, static_cast<Ref>(i));
  const std::string &name = names_[i];
  const StatementSite at{t, i, t.statements[i], name, why, addressTaken, addressTaken ? name + "_bytes" : name};
  switch (at.s.op) {
  case Op::Primitive: return primitiveStatement(at);
  case Op::CString: return cStringStatement(at);
  case Op::StdString: return stdStringStatement(at);
  case Op::Buffer: return bufferStatement(at);
  case Op::File: return fileStatement(at);
  case Op::Null: return nullStatement(at);
  case Op::Aggregate: return aggregateStatement(at);
  case Op::AddressOf: return addressOfStatement(at);
  case Op::Array: return arrayStatement(at);
  case Op::Construct: return constructStatement(at, trampolines);
  case Op::Call:
  case Op::MethodCall: return callStatement(at, trampolines);
  case Op::FieldSet: return fieldSetStatement(at);
  case Op::Subclass: return subclassStatement(at);
  case Op::EndOf: return endOfStatement(at);
  case Op::Callback: return callbackStatement(at);
  }
  return std::nullopt;
}

// The declaration of the statement's variable with type `type`, or nullopt
// and why when the type cannot be named here.
std::optional<std::string> BodyWriter::declareVariable(const StatementSite &at, model::TypeId type) const {
  auto d = declare(type, at.name);
  if (!d)
    at.why = "type " + p_.type(type).spelling +
             (throughWrapper_ ? " is one only the project's C headers can name (they are not C++)" : " cannot be named outside " + p_.unit);
  return d;
}

// `array` as written: alone, or followed by the pointer to its bytes when
// its address is taken.
std::optional<std::string> BodyWriter::pointerTo(const StatementSite &at, const std::string &array) const {
  if (!at.addressTaken) return array;
  auto d = declareVariable(at, at.s.type);
  if (!d) return std::nullopt;
  return array + " " + *d + " = " + at.name + "_bytes;";
}

// A scalar: its declaration and literal.
std::optional<std::string> BodyWriter::primitiveStatement(const StatementSite &at) const {
  const Statement &s = at.s;
  auto d = declareVariable(at, s.type);
  if (!d) return std::nullopt;
  return *d + " = " + literal(s.type, s.bits) + ";";
}

// A C string: a `const char *` to a literal, or a char array of its bytes.
std::optional<std::string> BodyWriter::cStringStatement(const StatementSite &at) const {
  const Statement &s = at.s;
  const model::Type &ty = p_.type(p_.type(s.type).value);
  if (ty.pointeeConst) return "const char *" + at.name + " = " + testcase::quote(s.bytes) + ";";
  return pointerTo(at, "char " + at.arrayName + "[] = " + testcase::quote(s.bytes) + ";");
}

// A std::string or std::string_view, or a string stream (input with the
// bytes, output empty).
std::optional<std::string> BodyWriter::stdStringStatement(const StatementSite &at) const {
  const Statement &s = at.s;
  const std::string &name = at.name;
  const model::Type &ty = p_.type(p_.type(s.type).value);
  if (ty.kind == TypeKind::InputStream) {
    if (s.bytes.find('\0') != std::string::npos)
      return "std::istringstream " + name + "(std::string(" + testcase::quote(s.bytes) + ", " +
             std::to_string(s.bytes.size()) + "));";
    return "std::istringstream " + name + "(" + testcase::quote(s.bytes) + ");";
  }
  if (ty.kind == TypeKind::OutputStream) return "std::ostringstream " + name + ";";
  const std::string type = ty.kind == TypeKind::StringView ? "std::string_view" : "std::string";
  if (s.bytes.find('\0') != std::string::npos)
    return type + " " + name + "(" + testcase::quote(s.bytes) + ", " + std::to_string(s.bytes.size()) + ");";
  return type + " " + name + " = " + testcase::quote(s.bytes) + ";";
}

// A stream or a descriptor of a temporary file holding the bytes, read
// from its start, as the harness made it (runtime/harness.c's
// __mosaic_temp_file and __mosaic_temp_fd).
std::optional<std::string> BodyWriter::fileStatement(const StatementSite &at) const {
  const Statement &s = at.s;
  auto d = declareVariable(at, s.type);
  if (!d) return std::nullopt;
  const char *helper = catalog_.fileStream(s.type) ? kTemporaryFile : kTemporaryDescriptor;
  return *d + " = " + helper + "(" + testcase::quote(s.bytes) + ", " + std::to_string(s.bytes.size()) + ");";
}

std::vector<std::string> temporaryFileHelpers() {
  const std::string base = std::to_string(MOSAIC_TEMP_FD_BASE);
  return {"// A descriptor of a temporary file that holds `size` bytes, at its start, and a",
          "// stream over one: as mosaic gave them, the lowest free descriptor from " + base + ",",
          "// every one of which is closed when a test ends (streams flushed first), so that",
          "// each test starts from " + base + " and a descriptor the code keeps is the same number.",
          std::string("[[maybe_unused]] int ") + kTemporaryDescriptor + "(const char *bytes, size_t size) {",
          "  FILE *file = tmpfile();",
          "  if (file == nullptr) return -1;",
          "  const bool written = fwrite(bytes, 1, size, file) == size && fflush(file) == 0;",
          "  rewind(file);",
          "  const int fd = written ? fcntl(fileno(file), F_DUPFD, " + base + ") : -1;",
          "  fclose(file);",
          "  return fd;",
          "}",
          std::string("[[maybe_unused]] FILE *") + kTemporaryFile + "(const char *bytes, size_t size) {",
          std::string("  const int fd = ") + kTemporaryDescriptor + "(bytes, size);",
          "  return fd < 0 ? nullptr : fdopen(fd, \"w+\");",
          "}",
          "class MosaicTemporaryFiles : public ::testing::EmptyTestEventListener {",
          "  void OnTestEnd(const ::testing::TestInfo &) override {",
          "    fflush(nullptr);",
          "    for (int fd = " + base + "; fd < " + base + " + 1024; ++fd) close(fd);",
          "  }",
          "};",
          "const bool mosaic_temporary_files_closed =",
          "    (::testing::UnitTest::GetInstance()->listeners().Append(new MosaicTemporaryFiles), true);"};
}

// A byte buffer: a char array of its text, or an array of its bytes and a NUL.
std::optional<std::string> BodyWriter::bufferStatement(const StatementSite &at) const {
  const Statement &s = at.s;
  const std::string &arrayName = at.arrayName;
  const bool addressTaken = at.addressTaken;
  const model::Type &ty = p_.type(p_.type(s.type).value);
  const model::Type &pointee = p_.type(p_.type(*ty.pointee).value);
  // Text, when at least three bytes in four read as text (ours): a
  // string literal, its other bytes as octal escapes (always three
  // digits, so none runs into the next character).
  const auto readable = std::count_if(s.bytes.begin(), s.bytes.end(), [](char c) {
    // Printable ASCII (32 to 126), or a newline, tab or carriage return.
    return (c >= 32 && c < 127) || c == '\n' || c == '\t' || c == '\r';
  });
  const bool text = !s.bytes.empty() && readable * 4 >= static_cast<std::ptrdiff_t>(s.bytes.size()) * 3;
  const bool plainChar = pointee.kind == TypeKind::Char;
  const std::string element = plainChar ? "char" : "unsigned char";
  std::string elements;
  for (size_t k = 0; k < s.bytes.size(); ++k) {
    char buf[12]; // '\xNN' or 0xNN and a NUL: at most 7 bytes
    // Plain char may be signed: its elements are char literals, which
    // never narrow ('\x81'), where 0x81 would not compile.
    std::snprintf(buf, sizeof buf, plainChar ? "'\\x%02x'" : "0x%02x", static_cast<unsigned char>(s.bytes[k]));
    elements += (k ? ", " : "") + std::string(buf);
  }
  if (exactBuffers_ && !s.bytes.empty()) {
    // A sanitizer's report in mosaic's run may be about the buffer's very
    // end: as the harness had it, on the heap and exactly as long, no NUL
    // after it (a stack array would be a stack-buffer-overflow, a NUL
    // would hide a read one past).
    auto d = declareVariable(at, s.type);
    if (!d) return std::nullopt;
    return *d + " = new " + element + "[" + std::to_string(s.bytes.size()) + "]{" +
           elements + "}; // " + byteCount(s.bytes.size()) + " on the heap, no NUL: as mosaic ran it";
  }
  if (text && (plainChar || pointee.kind == TypeKind::Void))
    return pointerTo(at, "char " + arrayName + "[] = " + testcase::quote(s.bytes) + ";" +
                             (addressTaken ? "" : " // " + byteCount(s.bytes.size())));
  if (s.bytes.empty()) return pointerTo(at, element + " " + arrayName + "[1] = {};" + (addressTaken ? "" : " // 0 bytes"));
  // Zeroes only (room for the callee to write in): the size says it all.
  if (std::all_of(s.bytes.begin(), s.bytes.end(), [](char c) { return c == 0; }))
    return pointerTo(at, element + " " + arrayName + "[" + std::to_string(s.bytes.size() + 1) + "] = {};" +
                             (addressTaken ? "" : " // " + std::to_string(s.bytes.size()) + " zero bytes"));
  // One NUL past the bytes: a callee that reads it as a string stops
  // there, as it did (by luck of the heap) when mosaic ran it.
  return pointerTo(at, element + " " + arrayName + "[" + std::to_string(s.bytes.size() + 1) + "] = {" + elements +
                           (plainChar ? ", '\\0'};" : ", 0x00};") +
                           (addressTaken ? "" : " // " + byteCount(s.bytes.size()) + " and a NUL"));
}

// A null pointer, or a value-initialised value of another type.
std::optional<std::string> BodyWriter::nullStatement(const StatementSite &at) const {
  const Statement &s = at.s;
  auto d = declareVariable(at, s.type);
  if (!d) return std::nullopt;
  const model::Type &ty = p_.type(p_.type(s.type).value);
  return *d + (ty.kind == TypeKind::Pointer || ty.kind == TypeKind::FunctionPointer ? " = nullptr;" : "{};");
}

// An aggregate: its declaration and designated initialisers, field by field.
std::optional<std::string> BodyWriter::aggregateStatement(const StatementSite &at) {
  const TestCase &t = at.t;
  const Statement &s = at.s;
  auto d = declareVariable(at, s.type);
  if (!d) return std::nullopt;
  const model::Record &r = p_.record(*p_.type(p_.type(s.type).value).recordId);
  if (s.refs.empty()) return *d + " = {};";
  const auto fields = catalog_.aggregateFields(r.id);
  if (!fields || fields->size() != s.refs.size()) {
    at.why = "an aggregate of " + r.name + " without its field list";
    return std::nullopt;
  }
  // A field with a reserved name (reservedFieldName) cannot be named:
  // every field given, in order, is written by position instead, the one
  // form both name sets accept.
  bool positional = false;
  for (size_t k = 0; k < fields->size(); ++k) positional |= reservedFieldName(r.fields[(*fields)[k]].name);
  for (size_t k = 0; positional && k < fields->size(); ++k) positional = (*fields)[k] == k;
  positional = positional && fields->size() == r.fields.size();
  // A union initialised by one member leaves the bytes of its larger
  // members indeterminate (C11 6.7.9p10 and C++'s [dcl.init.aggr] give a
  // value to the member named only): a later read through another member
  // (libconfig's config_value_t set by ival, read as sval) would read the
  // stack's garbage, where the harness's zeroed memory gave zeros. Zeroed
  // first, then the member set, as the harness made it.
  if (r.tag == model::RecordTag::Union && s.refs.size() == 1 && !positional) {
    const model::Field &f = r.fields[(*fields)[0]];
    if (p_.type(p_.type(f.type).value).kind != TypeKind::Array)
      return *d + " = {}; " + at.name + "." + f.name + " = " + argument(t, s.refs[0], f.type, false) + ";";
  }
  std::string init;
  for (size_t k = 0; k < s.refs.size(); ++k) {
    const model::Field &f = r.fields[(*fields)[k]];
    // Converted as for a parameter: a `T *` variable fills a `T` field
    // through `*` (Passing::Deref), as the harness copied it.
    std::string value = argument(t, s.refs[k], f.type, false);
    if (p_.type(p_.type(f.type).value).kind == TypeKind::Array) {
      auto inPlace = arrayFieldValue(at, f, s.refs[k]);
      if (!inPlace) return std::nullopt;
      value = *inPlace;
    }
    init += (k ? ", " : "") + (positional ? "" : "." + f.name + " = ") + value;
  }
  return *d + " = {" + init + "};";
}

// The initialiser of array member `f` from statement `ref`, nullopt and
// why when it is a variable (an array cannot be copied into one).
std::optional<std::string> BodyWriter::arrayFieldValue(const StatementSite &at, const model::Field &f, Ref ref) {
  const TestCase &t = at.t;
  // An array member is initialised in place: from the elements of the
  // array or the characters of the string that were built for it.
  const Statement &a = t.statements[ref];
  if (inlined_[ref]) return expr(ref);
  if (a.op == Op::Array) {
    const model::Type &member = p_.type(p_.type(f.type).value);
    const model::TypeId element = *member.element;
    if (auto text = charArrayText(t, a, element, member.length)) return *text;
    std::string value = "{";
    for (size_t e = 0; e < a.refs.size(); ++e) value += (e ? ", " : "") + argument(t, a.refs[e], element, false);
    value += "}";
    return value;
  }
  if (a.op == Op::CString || a.op == Op::StdString) return testcase::quote(a.bytes);
  at.why = "an array field (" + f.name + ") set from a variable";
  return std::nullopt;
}

// A pointer to an earlier variable (the variable itself when made with new).
std::optional<std::string> BodyWriter::addressOfStatement(const StatementSite &at) const {
  const Statement &s = at.s;
  auto d = declareVariable(at, s.type);
  if (!d) return std::nullopt;
  const Ref target = s.refs.at(0);
  std::string address = heap_[target] ? names_[target] : "&" + names_[target];
  // A variable bound to a call's const reference result (`auto &&top =
  // stack.PeekTop();`) has a pointer-to-const address; the harness passed
  // it where a pointer to non-const is wanted, as this cast does (the
  // object itself is not const).
  const Statement &bound = at.t.statements[target];
  if ((bound.op == Op::Call || bound.op == Op::MethodCall) && !heap_[target])
    if (const auto rv = catalog_.resultVariable(bound.callable)) {
      const model::Type &result = p_.type(*rv);
      const model::Type &wanted = p_.type(p_.type(s.type).value);
      if (result.kind == TypeKind::Reference && result.pointeeConst && wanted.kind == TypeKind::Pointer &&
          !wanted.pointeeConst)
        if (auto spelled = spell(s.type)) address = "const_cast<" + *spelled + ">(" + address + ")";
    }
  return *d + " = " + address + ";";
}

// An array of its elements (one value-initialised element when empty).
std::optional<std::string> BodyWriter::arrayStatement(const StatementSite &at) {
  const TestCase &t = at.t;
  const Statement &s = at.s;
  const model::Type &ty = p_.type(p_.type(s.type).value);
  const model::TypeId element = ty.kind == TypeKind::Array ? *ty.element : *ty.pointee;
  std::string elements;
  for (size_t k = 0; k < s.refs.size(); ++k) elements += (k ? ", " : "") + argument(t, s.refs[k], element, false);
  // Passed as a pointer whose address is taken (`T **`): the elements
  // plus a pointer to them, like the byte buffers above.
  const bool viaPointer = at.addressTaken && ty.kind == TypeKind::Pointer;
  auto d = declare(p_.type(element).value, viaPointer ? at.arrayName : at.name);
  if (!d) {
    at.why = "an array of a type that cannot be named";
    return std::nullopt;
  }
  if (ty.kind == TypeKind::Array && !s.refs.empty()) {
    if (auto text = charArrayText(t, s, element, ty.length)) return *d + "[" + std::to_string(ty.length) + "] = " + *text + ";";
    return *d + "[" + std::to_string(ty.length) + "] = {" + elements + "};";
  }
  const std::string array = *d + (s.refs.empty() ? "[1] = {};" : "[] = {" + elements + "};");
  return viaPointer ? pointerTo(at, array) : array;
}

// A construction: on the stack, or with new when the destructor is not public.
std::optional<std::string> BodyWriter::constructStatement(const StatementSite &at, std::set<model::CallableId> &trampolines) {
  const Statement &s = at.s;
  const std::string &name = at.name;
  const model::Callable &c = p_.callable(s.callable);
  const model::Record &r = p_.record(*c.parent);
  const std::string args = callExpression(at.t, at.i, trampolines);
  if (heap_[at.i]) return r.name + " *" + name + " = new " + r.name + "(" + args + ");";
  if (args.empty()) return r.name + " " + name + ";";
  return r.name + " " + name + "(" + args + ");";
}

// A call of a function or method, its result kept when something reads it.
std::optional<std::string> BodyWriter::callStatement(const StatementSite &at, std::set<model::CallableId> &trampolines) {
  const Statement &s = at.s;
  const std::string call = callExpression(at.t, at.i, trampolines);
  const auto rv = catalog_.resultVariable(s.callable);
  if (!rv || uses_[at.i] == 0) return call + ";";
  if (p_.type(*rv).kind == TypeKind::Reference) return "auto &&" + at.name + " = " + call + ";";
  auto d = declareVariable(at, *rv);
  if (!d) return std::nullopt;
  return *d + " = " + call + ";";
}

// An assignment to a field of an earlier variable.
std::optional<std::string> BodyWriter::fieldSetStatement(const StatementSite &at) const {
  const Statement &s = at.s;
  const model::Record &r = p_.record(*p_.type(p_.type(s.type).value).recordId);
  const Ref target = s.refs.at(0);
  return (heap_[target] ? names_[target] + "->" : names_[target] + ".") + r.fields.at(s.field).name + " = " +
         expr(s.refs.at(1)) + ";";
}

// A stub subclass, defined before the tests (Suite), and the results it returns.
std::optional<std::string> BodyWriter::subclassStatement(const StatementSite &at) const {
  const TestCase &t = at.t;
  const Statement &s = at.s;
  const std::string &name = at.name;
  const model::RecordId r = *p_.type(p_.type(s.type).value).recordId;
  std::string out = stubClassName(p_, r) + " " + name + ";";
  const auto results = catalog_.stubResults(r);
  for (size_t k = 0; k < s.refs.size() && k < results.size(); ++k) {
    const Statement &value = t.statements[s.refs[k]];
    if (value.op == Op::Primitive && value.bits == 0) continue; // the stub's own default
    out += "\n  " + name + "." + stubResultName(p_, r, results[k]) + " = " + expr(s.refs[k]) + ";";
  }
  return out;
}

// One past the bytes the begin pointer holds.
std::optional<std::string> BodyWriter::endOfStatement(const StatementSite &at) const {
  const Statement &s = at.s;
  auto d = declareVariable(at, s.type);
  if (!d) return std::nullopt;
  return *d + " = " + expr(s.refs.at(0)) + " + " + std::to_string(testcase::endOffset(at.t, at.i)) + ";";
}

// A callback: a capture-less lambda returning the chosen value.
std::optional<std::string> BodyWriter::callbackStatement(const StatementSite &at) const {
  const TestCase &t = at.t;
  const Statement &s = at.s;
  const std::string &name = at.name;
  const model::Type &ty = p_.type(p_.type(s.type).value);
  if (!ty.signature || ty.signature->variadic) {
    at.why = "a variadic callback";
    return std::nullopt;
  }
  std::string params;
  for (size_t k = 0; k < ty.signature->params.size(); ++k) {
    auto sp = spell(ty.signature->params[k]);
    if (!sp) {
      at.why = "a callback parameter type that cannot be named";
      return std::nullopt;
    }
    params += (k ? ", " : "") + *sp;
  }
  auto result = spell(ty.signature->result);
  if (!result) {
    at.why = "a callback result type that cannot be named";
    return std::nullopt;
  }
  const bool returnsVoid = p_.type(ty.signature->result).kind == TypeKind::Void;
  // A stub captures nothing (a function pointer cannot): it returns a
  // literal, or a copy kept in a static the lambda reads without capture
  // (json-c once lost a test to "variable 'bpos' cannot be implicitly
  // captured").
  std::string value = "{}", kept;
  if (!s.refs.empty() && s.refs[0] != testcase::kNoRef) {
    const Ref r = s.refs[0];
    if (t.statements[r].op == Op::Primitive) value = literal(t.statements[r].type, t.statements[r].bits);
    else if (inlined_[r]) value = expr(r);
    else {
      value = name + "_result";
      kept = "static const auto " + value + " = " + expr(r) + ";\n  ";
    }
  }
  const std::string body = returnsVoid ? "{}" : "{ return " + value + "; }";
  const std::string lambda = "[](" + params + ") -> " + *result + " " + body;
  if (ty.kind == TypeKind::FunctionPointer) return kept + "auto " + name + " = +" + lambda + ";";
  auto d = declareVariable(at, s.type);
  if (!d) return std::nullopt;
  return kept + *d + " = " + lambda + ";";
}

} // namespace mosaic::emit
