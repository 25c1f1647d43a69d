// One statement of a test as a line of C++: a declaration with its literal,
// string, buffer, aggregate or array, a construction, a call, a field set,
// a stub subclass or a callback lambda.
#include "BodyParts.h"

#include "mosaic/testcase/Printer.h"

#include <algorithm>
#include <cstdio>

namespace mosaic::emit {

using model::TypeKind;
using testcase::Op;
using testcase::Ref;
using testcase::Statement;
using testcase::TestCase;

namespace {

// "1 byte", "12 bytes".
std::string byteCount(size_t n) { return std::to_string(n) + (n == 1 ? " byte" : " bytes"); }

} // namespace

std::optional<std::string> BodyWriter::statement(const TestCase &t, size_t i, std::set<model::CallableId> &trampolines,
                                                 std::string &why) {
  const Statement &s = t.statements[i];
  const std::string &name = names_[i];
  auto decl = [&](model::TypeId type) -> std::optional<std::string> {
    auto d = declare(type, name);
    if (!d) why = "type " + p_.type(type).spelling + " cannot be named outside " + p_.unit;
    return d;
  };
  // A char array whose address is passed (a `char **` parameter) is written
  // as its bytes plus a pointer to them: `&array` would be a pointer to an
  // array, not to a pointer, and the callee may move the pointer.
  // So is one bound to a `char *&` parameter (pugixml's set_value_integer):
  // an array is no pointer variable a reference can bind to.
  const bool addressTaken = addressTakenAt(t, i, names_.size()).has_value() || bindsMutableReference(t, static_cast<Ref>(i));
  auto pointerTo = [&](const std::string &array) -> std::optional<std::string> {
    if (!addressTaken) return array;
    auto d = decl(s.type);
    if (!d) return std::nullopt;
    return array + " " + *d + " = " + name + "_bytes;";
  };
  const std::string arrayName = addressTaken ? name + "_bytes" : name;
  switch (s.op) {
  case Op::Primitive: {
    auto d = decl(s.type);
    if (!d) return std::nullopt;
    return *d + " = " + literal(s.type, s.bits) + ";";
  }
  case Op::CString: {
    const model::Type &ty = p_.type(p_.type(s.type).value);
    if (ty.pointeeConst) return "const char *" + name + " = " + testcase::quote(s.bytes) + ";";
    return pointerTo("char " + arrayName + "[] = " + testcase::quote(s.bytes) + ";");
  }
  case Op::StdString: {
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
  case Op::Buffer: {
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
    if (text && (plainChar || pointee.kind == TypeKind::Void))
      return pointerTo("char " + arrayName + "[] = " + testcase::quote(s.bytes) + ";" +
                       (addressTaken ? "" : " // " + byteCount(s.bytes.size())));
    std::string elements;
    for (size_t k = 0; k < s.bytes.size(); ++k) {
      char buf[12]; // '\xNN' or 0xNN and a NUL: at most 7 bytes
      // Plain char may be signed: its elements are char literals, which
      // never narrow ('\x81'), where 0x81 would not compile.
      std::snprintf(buf, sizeof buf, plainChar ? "'\\x%02x'" : "0x%02x", static_cast<unsigned char>(s.bytes[k]));
      elements += (k ? ", " : "") + std::string(buf);
    }
    const std::string element = plainChar ? "char" : "unsigned char";
    if (s.bytes.empty()) return pointerTo(element + " " + arrayName + "[1] = {};" + (addressTaken ? "" : " // 0 bytes"));
    // One NUL past the bytes: a callee that reads it as a string stops
    // there, as it did (by luck of the heap) when mosaic ran it.
    return pointerTo(element + " " + arrayName + "[" + std::to_string(s.bytes.size() + 1) + "] = {" + elements +
                     (plainChar ? ", '\\0'};" : ", 0x00};") +
                     (addressTaken ? "" : " // " + byteCount(s.bytes.size()) + " and a NUL"));
  }
  case Op::Null: {
    auto d = decl(s.type);
    if (!d) return std::nullopt;
    const model::Type &ty = p_.type(p_.type(s.type).value);
    return *d + (ty.kind == TypeKind::Pointer || ty.kind == TypeKind::FunctionPointer ? " = nullptr;" : "{};");
  }
  case Op::Aggregate: {
    auto d = decl(s.type);
    if (!d) return std::nullopt;
    const model::Record &r = p_.record(*p_.type(p_.type(s.type).value).recordId);
    if (s.refs.empty()) return *d + " = {};";
    const auto fields = catalog_.aggregateFields(r.id);
    if (!fields || fields->size() != s.refs.size()) {
      why = "an aggregate of " + r.name + " without its field list";
      return std::nullopt;
    }
    std::string init;
    for (size_t k = 0; k < s.refs.size(); ++k) {
      const model::Field &f = r.fields[(*fields)[k]];
      // Converted as for a parameter: a `T *` variable fills a `T` field
      // through `*` (Passing::Deref), as the harness copied it.
      std::string value = argument(t, s.refs[k], f.type, false);
      if (p_.type(p_.type(f.type).value).kind == TypeKind::Array) {
        // An array member is initialised in place: from the elements of the
        // array or the characters of the string that were built for it.
        const Statement &a = t.statements[s.refs[k]];
        if (inlined_[s.refs[k]]) {
          value = expr(s.refs[k]);
        } else if (a.op == Op::Array) {
          value = "{";
          const model::TypeId element = *p_.type(p_.type(f.type).value).element;
          for (size_t e = 0; e < a.refs.size(); ++e) value += (e ? ", " : "") + argument(t, a.refs[e], element, false);
          value += "}";
        } else if (a.op == Op::CString || a.op == Op::StdString) {
          value = testcase::quote(a.bytes);
        } else {
          why = "an array field (" + f.name + ") set from a variable";
          return std::nullopt;
        }
      }
      init += (k ? ", " : "") + std::string(".") + f.name + " = " + value;
    }
    return *d + " = {" + init + "};";
  }
  case Op::AddressOf: {
    auto d = decl(s.type);
    if (!d) return std::nullopt;
    const Ref target = s.refs.at(0);
    return *d + " = " + (heap_[target] ? names_[target] : "&" + names_[target]) + ";";
  }
  case Op::Array: {
    const model::Type &ty = p_.type(p_.type(s.type).value);
    const model::TypeId element = ty.kind == TypeKind::Array ? *ty.element : *ty.pointee;
    std::string elements;
    for (size_t k = 0; k < s.refs.size(); ++k) elements += (k ? ", " : "") + argument(t, s.refs[k], element, false);
    // Passed as a pointer whose address is taken (`T **`): the elements
    // plus a pointer to them, like the byte buffers above.
    const bool viaPointer = addressTaken && ty.kind == TypeKind::Pointer;
    auto d = declare(p_.type(element).value, viaPointer ? arrayName : name);
    if (!d) {
      why = "an array of a type that cannot be named";
      return std::nullopt;
    }
    if (ty.kind == TypeKind::Array && !s.refs.empty())
      return *d + "[" + std::to_string(ty.length) + "] = {" + elements + "};";
    const std::string array = *d + (s.refs.empty() ? "[1] = {};" : "[] = {" + elements + "};");
    return viaPointer ? pointerTo(array) : array;
  }
  case Op::Construct: {
    const model::Callable &c = p_.callable(s.callable);
    const model::Record &r = p_.record(*c.parent);
    const std::string args = callExpression(t, i, trampolines);
    if (heap_[i]) return r.name + " *" + name + " = new " + r.name + "(" + args + ");";
    if (args.empty()) return r.name + " " + name + ";";
    return r.name + " " + name + "(" + args + ");";
  }
  case Op::Call:
  case Op::MethodCall: {
    const std::string call = callExpression(t, i, trampolines);
    const auto rv = catalog_.resultVariable(s.callable);
    if (!rv || uses_[i] == 0) return call + ";";
    if (p_.type(*rv).kind == TypeKind::Reference) return "auto &&" + name + " = " + call + ";";
    auto d = decl(*rv);
    if (!d) return std::nullopt;
    return *d + " = " + call + ";";
  }
  case Op::FieldSet: {
    const model::Record &r = p_.record(*p_.type(p_.type(s.type).value).recordId);
    const Ref target = s.refs.at(0);
    return (heap_[target] ? names_[target] + "->" : names_[target] + ".") + r.fields.at(s.field).name + " = " +
           expr(s.refs.at(1)) + ";";
  }
  case Op::Subclass: { // a stub subclass, defined before the tests (Suite), and the results it returns
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
  case Op::EndOf: { // one past the bytes the begin pointer holds
    auto d = decl(s.type);
    if (!d) return std::nullopt;
    return *d + " = " + expr(s.refs.at(0)) + " + " + std::to_string(testcase::endOffset(t, i)) + ";";
  }
  case Op::Callback: {
    const model::Type &ty = p_.type(p_.type(s.type).value);
    if (!ty.signature || ty.signature->variadic) {
      why = "a variadic callback";
      return std::nullopt;
    }
    std::string params;
    for (size_t k = 0; k < ty.signature->params.size(); ++k) {
      auto sp = spell(ty.signature->params[k]);
      if (!sp) {
        why = "a callback parameter type that cannot be named";
        return std::nullopt;
      }
      params += (k ? ", " : "") + *sp;
    }
    auto result = spell(ty.signature->result);
    if (!result) {
      why = "a callback result type that cannot be named";
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
    auto d = decl(s.type);
    if (!d) return std::nullopt;
    return kept + *d + " = " + lambda + ";";
  }
  }
  return std::nullopt;
}

} // namespace mosaic::emit
