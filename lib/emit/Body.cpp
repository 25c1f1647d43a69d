// One test case as C++ statements and GoogleTest assertions.
#include "Body.h"

#include "mosaic/model/Derive.h"
#include "mosaic/support/Text.h"
#include "mosaic/testcase/Printer.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>

namespace mosaic::emit {

using model::TypeKind;
using testcase::Op;
using testcase::Ref;
using testcase::Statement;
using testcase::TestCase;

namespace {

// C and C++ keywords and the names a test file declares or includes: never
// a variable's name.
const char *const kReserved[] = {
    "alignas", "alignof", "and", "asm", "auto", "bool", "break", "case", "catch", "char", "class", "const",
    "constexpr", "continue", "default", "delete", "do", "double", "else", "enum", "explicit", "export", "extern",
    "false", "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new",
    "noexcept", "not", "nullptr", "operator", "or", "private", "protected", "public", "register", "return", "short",
    "signed", "sizeof", "static", "struct", "switch", "template", "this", "throw", "true", "try", "typedef",
    "typeid", "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "while", "xor", "std",
    "testing", "main", "free", "malloc", "printf", "string", "NULL", "errno", "assert", "EOF", "stdin", "stdout",
    "stderr", "abs", "div", "exit", "index", "time", "signal", "y0", "y1", "j0", "j1", "log", "exp"};

bool isCall(Op op) { return op == Op::Call || op == Op::MethodCall || op == Op::Construct; }

// "1 byte", "12 bytes".
std::string byteCount(size_t n) { return std::to_string(n) + (n == 1 ? " byte" : " bytes"); }

// The first statement before `end` that takes the address of statement i.
std::optional<size_t> addressTakenAt(const TestCase &t, size_t i, size_t end) {
  for (size_t j = i + 1; j < end; ++j)
    if (t.statements[j].op == Op::AddressOf && t.statements[j].refs.at(0) == i) return j;
  return std::nullopt;
}

// The last component of a qualified name, without template arguments.
std::string simpleName(std::string name) {
  if (auto lt = name.find('<'); lt != std::string::npos) name = name.substr(0, lt);
  if (auto colons = name.rfind("::"); colons != std::string::npos) name = name.substr(colons + 2);
  return name;
}

std::string identifier(const std::string &raw) {
  std::string out;
  for (char c : raw) out.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  while (!out.empty() && out.back() == '_') out.pop_back();
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "v" + out;
  return out;
}

// "XMLDocument" -> "xmlDocument", "Stack" -> "stack", "cJSON" -> "cJSON",
// "XML_ParserStruct" -> "xml_ParserStruct".
std::string lowerCamel(const std::string &name) {
  std::string out = name;
  size_t upper = 0;
  while (upper < out.size() && std::isupper(static_cast<unsigned char>(out[upper]))) ++upper;
  if (upper == 0) return out;
  // The last capital of a run starts the next word, unless no letter follows.
  const bool wordFollows = upper < out.size() && std::isalpha(static_cast<unsigned char>(out[upper]));
  const size_t n = upper == 1 || !wordFollows ? upper : upper - 1;
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(out[i])));
  return out;
}

const char *binaryOperators[] = {"==", "!=", "<", "<=", ">", ">="};

std::string operatorWord(const std::string &spelling) {
  static const std::map<std::string, std::string> words{{"==", "Equals"},    {"!=", "NotEquals"}, {"<", "Less"},
                                                        {"<=", "LessEqual"}, {">", "Greater"},    {">=", "GreaterEqual"},
                                                        {"[]", "Subscript"}, {"()", "Call"}};
  auto it = words.find(spelling);
  return it == words.end() ? "Operator" : it->second;
}

} // namespace

std::string trampolineName(const model::Callable &c) { return "mosaic_" + identifier(simpleName(c.qualifiedName)) + "_" + std::to_string(c.id); }

std::string stubClassName(const model::Program &program, model::RecordId record) {
  const std::string simple = simpleName(program.record(record).name);
  // In the test's own style: `xml_tree_walker` -> `StubXmlTreeWalker`.
  std::string camel;
  bool upper = true;
  for (char c : identifier(simple)) {
    if (c == '_') {
      upper = true;
      continue;
    }
    camel.push_back(upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c);
    upper = false;
  }
  bool shared = false, taken = false; // another class of that name; a class of the unit named so
  for (const model::Record &r : program.records) {
    if (r.id != record && simpleName(r.name) == simple) shared = true;
    if (simpleName(r.name) == "Stub" + camel) taken = true;
  }
  const std::string name = (taken ? "MosaicStub" : "Stub") + camel;
  return shared ? name + "_" + std::to_string(record) : name;
}

bool needsTrampoline(const model::Callable &c) {
  if (c.parent || c.kind != model::CallableKind::Function) return false;
  if (c.internalLinkage) return true;
  // The test includes the unit's own project headers: a function of the
  // unit they do not declare is out of its reach otherwise.
  return c.origin == model::Origin::Unit && !c.declaredInHeader;
}

BodyWriter::BodyWriter(const model::Program &program, const testcase::Catalog &catalog, const WriteOptions &options)
    : p_(program), catalog_(catalog), options_(options), cxx_(program.language == "c++") {
  for (const char *r : kReserved) reserved_.insert(r);
  for (const model::Callable &c : p_.callables) reserved_.insert(simpleName(c.qualifiedName));
  for (const model::Record &r : p_.records) reserved_.insert(simpleName(r.name));
  for (const model::Enum &e : p_.enums) {
    reserved_.insert(simpleName(e.name));
    for (const model::Enumerator &en : e.enumerators) reserved_.insert(en.name);
  }
  for (const model::Type &t : p_.types)
    for (const std::string &a : t.aliases) reserved_.insert(simpleName(a));
  std::map<std::string, int> names;
  for (const model::Callable &c : p_.callables) ++names[c.qualifiedName];
  for (const auto &[name, count] : names)
    if (count > 1) overloaded_.insert(name);
}

bool BodyWriter::nameable(model::TypeId id) const {
  const model::Type &t = p_.type(p_.type(id).value);
  if (t.kind == TypeKind::Record) return p_.record(*t.recordId).location.file != p_.unit;
  if (t.kind == TypeKind::Enum) return p_.enums.at(*t.enumId).location.file != p_.unit;
  return true;
}

bool BodyWriter::catchable(const std::string &ty) const {
  if (ty.empty() || ty == "unknown" || ty.find_first_of("( ") != std::string::npos) return false;
  if (ty.rfind("std::", 0) == 0) return true; // <stdexcept>, <new>, <typeinfo> come with gtest.h
  if (ty.find("::") == std::string::npos && ty.find('<') == std::string::npos &&
      std::all_of(ty.begin(), ty.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)); }))
    return true; // int, long, char, bool, double, ...
  return std::any_of(p_.records.begin(), p_.records.end(), [&](const model::Record &r) {
    return r.name == ty && r.complete && r.location.file != p_.unit;
  });
}

bool BodyWriter::pointable(model::TypeId id) const {
  const model::Type &t = p_.type(p_.type(id).value);
  return t.kind == TypeKind::Record && p_.record(*t.recordId).declaredOutsideUnit;
}

std::optional<std::string> BodyWriter::spell(model::TypeId id) const {
  const model::Type &t = p_.type(id);
  if (t.kind == TypeKind::Unsupported) return std::nullopt;
  if ((t.kind == TypeKind::Pointer) && t.pointee) {
    const model::Type &pointee = p_.type(p_.type(*t.pointee).value);
    if (!nameable(pointee.id) && !pointable(pointee.id))
      return std::string(t.pointeeConst ? "const void *" : "void *");
    if (pointee.kind == TypeKind::Pointer && pointee.pointee && !nameable(*pointee.pointee) &&
        !pointable(*pointee.pointee))
      return std::nullopt;
  }
  if (t.kind == TypeKind::Enum && !nameable(id)) return std::string("int");
  if (!nameable(id)) return std::nullopt;
  if ((options_.canonicalSpelling || t.spelledInUnit) && t.kind != TypeKind::Record && !t.canonical.empty() &&
      t.canonical.find("(unnamed") == std::string::npos && t.canonical.find("(anonymous") == std::string::npos)
    return t.canonical;
  return t.spelling;
}

std::optional<std::string> BodyWriter::declare(model::TypeId type, const std::string &name) const {
  auto s = spell(type);
  if (!s) return std::nullopt;
  if (s->find('(') != std::string::npos || s->find('[') != std::string::npos)
    return "std::type_identity_t<" + *s + "> " + name;
  if (!s->empty() && (s->back() == '*' || s->back() == '&')) return *s + name;
  return *s + " " + name;
}

std::string BodyWriter::literal(model::TypeId id, std::uint64_t bits) const {
  const model::Type &t = p_.type(p_.type(id).value);
  switch (t.kind) {
  case TypeKind::Bool: return bits ? "true" : "false";
  case TypeKind::Char: {
    const auto c = static_cast<unsigned char>(bits);
    if (c >= 32 && c < 127 && c != '\'' && c != '\\') return std::string("'") + static_cast<char>(c) + "'";
    if (c == '\'') return "'\\''";
    if (c == '\\') return "'\\\\'";
    if (c == 0) return "'\\0'";
    if (c == '\n') return "'\\n'";
    char buf[16];
    std::snprintf(buf, sizeof buf, "'\\x%02x'", c);
    return buf;
  }
  case TypeKind::Floating: {
    const double d = testcase::doubleOf(bits);
    if (std::isnan(d)) return "std::numeric_limits<double>::quiet_NaN()";
    if (std::isinf(d)) return d > 0 ? "std::numeric_limits<double>::infinity()" : "-std::numeric_limits<double>::infinity()";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", d);
    std::string s = buf;
    // The shortest form that reads back as the same double.
    for (int precision = 1; precision < 17; ++precision) {
      std::snprintf(buf, sizeof buf, "%.*g", precision, d);
      if (std::strtod(buf, nullptr) == d) {
        s = buf;
        break;
      }
    }
    if (s.find_first_of(".en") == std::string::npos) s += ".0";
    return t.bits == 32 ? s + "f" : s;
  }
  case TypeKind::Enum: {
    const model::Enum &e = p_.enums.at(*t.enumId);
    if (nameable(t.id)) {
      for (const model::Enumerator &en : e.enumerators)
        if (en.value == static_cast<std::int64_t>(bits)) return en.name; // qualified as a test spells it
      return "static_cast<" + e.name + ">(" + std::to_string(static_cast<std::int64_t>(bits)) + ")";
    }
    return std::to_string(static_cast<std::int64_t>(bits));
  }
  default: {
    const unsigned width = t.bits ? t.bits : 64;
    if (width < 64) {
      const std::uint64_t mask = (std::uint64_t{1} << width) - 1;
      bits &= mask;
      if (t.isSigned && ((bits >> (width - 1)) & 1)) bits |= ~mask;
    }
    if (t.isSigned) {
      const auto v = static_cast<std::int64_t>(bits);
      if (v == INT64_MIN) return "(-9223372036854775807LL - 1)";
      const bool big = v > 2147483647LL || v < -2147483647LL;
      return std::to_string(v) + (big ? "LL" : "");
    }
    return std::to_string(bits) + (bits > 4294967295ULL ? "ULL" : "u");
  }
  }
}

std::string BodyWriter::expr(Ref r) const {
  if (r >= names_.size()) return "/*?*/";
  return heap_[r] ? "(*" + names_[r] + ")" : names_[r];
}

std::string BodyWriter::identifierFor(const TestCase &t, size_t i) const {
  const Statement &s = t.statements[i];
  auto typeName = [&](model::TypeId id) -> std::string {
    const model::Type &ty = p_.type(p_.type(id).value);
    const model::Type *base = &ty;
    if (ty.kind == TypeKind::Pointer && ty.pointee) base = &p_.type(p_.type(*ty.pointee).value);
    if (base->kind == TypeKind::Record) {
      std::string n = lowerCamel(simpleName(p_.record(*base->recordId).name));
      if (reserved_.count(n)) {
        n = lowercase(n);
        if (reserved_.count(n)) n = "a" + n;
      }
      return n;
    }
    switch (base->kind) {
    case TypeKind::String:
    case TypeKind::StringView: return "text";
    case TypeKind::InputStream: return "input";
    case TypeKind::OutputStream: return "output";
    case TypeKind::Bool: return "flag";
    case TypeKind::Char: return "character";
    case TypeKind::Floating:
    case TypeKind::Integer:
    case TypeKind::Enum: return "value";
    default: return "value";
    }
  };
  if (s.op == Op::Call || s.op == Op::MethodCall) {
    auto rv = catalog_.resultVariable(s.callable);
    if (!rv) return "result";
    const model::Type &ty = p_.type(p_.type(*rv).value);
    if (catalog_.isScalar(ty.id) || ty.kind == TypeKind::String || ty.kind == TypeKind::StringView ||
        catalog_.isCharPointer(ty.id))
      return "result";
    return typeName(*rv);
  }
  // An object whose address is what gets passed: named after where it goes.
  if (s.op == Op::Aggregate || s.op == Op::Construct)
    if (auto j = addressTakenAt(t, i, t.statements.size())) {
      const model::Type &rt = p_.type(p_.type(s.op == Op::Construct ? p_.record(*p_.callable(s.callable).parent).type : s.type).value);
      const std::string suffix = rt.kind == TypeKind::Record ? simpleName(p_.record(*rt.recordId).name) : "value";
      return identifierFor(t, *j) + "_" + suffix;
    }
  if (s.op == Op::Construct) return typeName(p_.record(*p_.callable(s.callable).parent).type);
  // A value: the name of the parameter (or field) it is first passed as.
  for (size_t j = i + 1; j < t.statements.size(); ++j) {
    const Statement &u = t.statements[j];
    for (size_t k = 0; k < u.refs.size(); ++k) {
      if (u.refs[k] != i) continue;
      if (isCall(u.op)) {
        const model::Callable &c = p_.callable(u.callable);
        const size_t offset = u.op == Op::MethodCall ? 1 : 0;
        if (k >= offset && k - offset < c.params.size() && !c.params[k - offset].name.empty())
          return c.params[k - offset].name;
      } else if (u.op == Op::Aggregate) {
        const model::Record &r = p_.record(*p_.type(p_.type(u.type).value).recordId);
        const auto fields = catalog_.aggregateFields(r.id);
        if (fields && k < fields->size()) return r.fields[(*fields)[k]].name;
      }
    }
  }
  if (s.op == Op::CString) return "text";
  if (s.op == Op::Buffer || s.op == Op::Array) return "buffer";
  return typeName(s.type);
}

std::string BodyWriter::argument(const TestCase &t, Ref ref, model::TypeId param, bool move) {
  const auto vt = testcase::variableType(p_, t, ref);
  const std::string e = expr(ref);
  if (!vt) return e;
  const auto how = catalog_.fits(*vt, param);
  if (!how) return e;
  switch (*how) {
  case testcase::Passing::Same:
  case testcase::Passing::Derived: return move && !inlined_[ref] ? "std::move(" + e + ")" : e;
  case testcase::Passing::Deref: return "*" + e;
  case testcase::Passing::Pointer: {
    const model::Type &pt = p_.type(p_.type(param).value);
    if (pt.pointee && p_.type(p_.type(*pt.pointee).value).kind == TypeKind::Void) return e;
    if (inlined_[ref] && t.statements[ref].op == Op::Null) return e;
    if (spell(*vt) == spell(pt.id)) return e;
    // T * to const T * converts implicitly: no cast to read past.
    const model::Type &from = p_.type(p_.type(*vt).value);
    if (from.kind == TypeKind::Pointer && from.pointee && pt.pointee &&
        p_.type(*from.pointee).value == p_.type(*pt.pointee).value && (pt.pointeeConst || !from.pointeeConst))
      return e;
    auto s = spell(pt.id);
    return s ? "(" + *s + ")" + e : e;
  }
  }
  return e;
}

// Whether value `i` is passed to a non-const lvalue reference (pugixml's
// `size_t &out_length`): a literal cannot bind there, a variable must.
bool BodyWriter::bindsMutableReference(const TestCase &t, Ref i) const {
  for (const Statement &u : t.statements) {
    if (!isCall(u.op)) continue;
    const model::Callable &c = p_.callable(u.callable);
    const size_t offset = u.op == Op::MethodCall ? 1 : 0;
    for (size_t k = offset; k < u.refs.size() && k - offset < c.params.size(); ++k) {
      if (u.refs[k] != i) continue;
      const model::Type &p = p_.type(c.params[k - offset].type);
      if (p.kind == TypeKind::Reference && !p.pointeeConst && !p.isRvalue) return true;
    }
  }
  return false;
}

std::string BodyWriter::callExpression(const TestCase &t, size_t i, std::set<model::CallableId> &trampolines) {
  const Statement &s = t.statements[i];
  const model::Callable &c = p_.callable(s.callable);
  const size_t offset = s.op == Op::MethodCall ? 1 : 0;
  std::vector<std::string> args;
  for (size_t k = 0; k < c.params.size() && k + offset < s.refs.size(); ++k) {
    std::string arg = argument(t, s.refs[k + offset], c.params[k].type, model::passedByMove(p_, c.params[k].type));
    // A literal picks no overload by itself (nullptr, 5ULL): it is cast to
    // the parameter's type.
    if (cxx_ && inlined_[s.refs[k + offset]] && overloaded_.count(c.qualifiedName) &&
        (t.statements[s.refs[k + offset]].op == Op::Null || t.statements[s.refs[k + offset]].op == Op::Primitive))
      if (auto type = spell(c.params[k].type)) arg = "static_cast<" + *type + ">(" + arg + ")";
    args.push_back(std::move(arg));
  }
  std::string joined;
  for (size_t k = 0; k < args.size(); ++k) joined += (k ? ", " : "") + args[k];
  if (s.op == Op::Construct) return joined;
  if (s.op == Op::MethodCall) {
    const Ref r = s.refs.at(0);
    const auto vt = testcase::variableType(p_, t, r);
    const bool pointer = heap_[r] || (vt && p_.type(p_.type(*vt).value).kind == TypeKind::Pointer);
    std::string receiver = heap_[r] ? names_[r] : expr(r);
    // A pointer to const the unit handed out, used for a non-const method:
    // the harness casts the const away, and so does the test.
    if (const model::Type *vtt = vt ? &p_.type(p_.type(*vt).value) : nullptr;
        !c.isConst && !heap_[r] && vtt && vtt->kind == TypeKind::Pointer && vtt->pointeeConst && vtt->pointee)
      if (auto object = spell(p_.type(*vtt->pointee).value)) receiver = "const_cast<" + *object + " *>(" + receiver + ")";
    // A const method beside a non-const twin: through a const view, or the
    // call would pick the twin (harness/CodegenCalls.cpp does the same).
    if (c.hasNonConstTwin && c.parent)
      if (auto object = spell(p_.record(*c.parent).type))
        receiver = "static_cast<const " + *object + (pointer ? " *>(" : " &>(") + receiver + ")";
    const std::string self = pointer ? "(*" + receiver + ")" : receiver;
    if (c.kind == model::CallableKind::Operator) {
      for (const char *op : binaryOperators)
        if (c.operatorSpelling == op && args.size() == 1) return self + " " + op + " " + args[0];
      if (c.operatorSpelling == "[]" && args.size() == 1) return self + "[" + args[0] + "]";
      if (c.operatorSpelling == "()") return self + "(" + joined + ")";
    }
    return receiver + (pointer ? "->" : ".") + model::memberName(p_, c) + "(" + joined + ")";
  }
  if (c.kind == model::CallableKind::Operator && args.size() == 2)
    for (const char *op : binaryOperators)
      if (c.operatorSpelling == op) return args[0] + " " + op + " " + args[1];
  if (needsTrampoline(c)) {
    trampolines.insert(c.id);
    return trampolineName(c) + "(" + joined + ")";
  }
  return c.qualifiedName + "(" + joined + ")";
}

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
      return (c >= 32 && c < 127) || c == '\n' || c == '\t' || c == '\r';
    });
    const bool text = !s.bytes.empty() && readable * 4 >= static_cast<std::ptrdiff_t>(s.bytes.size()) * 3;
    const bool plainChar = pointee.kind == TypeKind::Char;
    if (text && (plainChar || pointee.kind == TypeKind::Void))
      return pointerTo("char " + arrayName + "[] = " + testcase::quote(s.bytes) + ";" +
                       (addressTaken ? "" : " // " + byteCount(s.bytes.size())));
    std::string elements;
    for (size_t k = 0; k < s.bytes.size(); ++k) {
      char buf[12];
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

std::optional<std::string> BodyWriter::assertion(const TestCase &t, size_t i, const exec::Observation &o) {
  const Statement &s = t.statements[i];
  std::string subject;
  // When the subject is a pointer dereferenced, the pointer: a field then
  // reads `item->next`, not `(*item).next`.
  std::string pointer;
  model::TypeId type = 0;
  if (o.target == MOSAIC_OBS_RESULT) {
    if (s.op == Op::Construct) {
      type = p_.record(*p_.callable(s.callable).parent).type;
    } else {
      auto rv = catalog_.resultVariable(s.callable);
      if (!rv) return std::nullopt;
      type = p_.type(*rv).value;
    }
    subject = names_[i];
    if (heap_[i]) pointer = names_[i], subject = "(*" + pointer + ")";
  } else if (o.target >= MOSAIC_OBS_ARG0 && isCall(s.op)) {
    const size_t k = o.target - MOSAIC_OBS_ARG0;
    const model::Callable &c = p_.callable(s.callable);
    const size_t offset = s.op == Op::MethodCall ? 1 : 0;
    if (k >= c.params.size() || k + offset >= s.refs.size()) return std::nullopt;
    const Ref r = s.refs[k + offset];
    if (inlined_[r]) return std::nullopt;
    const model::Type &declared = p_.type(c.params[k].type);
    if (!declared.pointee) return std::nullopt;
    type = p_.type(*declared.pointee).value;
    const Statement &arg = t.statements[r];
    const auto argType = testcase::variableType(p_, t, r);
    const auto passing = argType ? catalog_.fits(*argType, c.params[k].type) : std::nullopt;
    if (declared.kind == TypeKind::Reference && passing != testcase::Passing::Deref) {
      // The variable itself is bound (a `char *&` given `dest`): it is what
      // the callee changed, whatever it was made from.
      subject = expr(r);
    } else if (arg.op == Op::AddressOf) {
      const Ref target = arg.refs.at(0);
      if (heap_[target]) pointer = names_[target];
      subject = expr(target);
    } else if (arg.op == Op::Buffer || arg.op == Op::Array || arg.op == Op::CString) {
      return std::nullopt;
    } else if (declared.kind == TypeKind::Reference) {
      subject = expr(r);
    } else {
      pointer = expr(r);
      subject = "(*" + pointer + ")";
    }
  } else {
    return std::nullopt;
  }
  // A type the test cannot name is held as `void *`: nothing to reach
  // through it (expat's XML_ParserStruct, private to xmlparse.c).
  if (!nameable(type)) return std::nullopt;
  if (o.field >= 0) {
    const model::Type &rt = p_.type(type);
    if (rt.kind != TypeKind::Record) return std::nullopt;
    const model::Record &rec = p_.record(*rt.recordId);
    if (static_cast<size_t>(o.field) >= rec.fields.size()) return std::nullopt;
    subject = pointer.empty() ? subject + "." + rec.fields[o.field].name : pointer + "->" + rec.fields[o.field].name;
    type = p_.type(rec.fields[o.field].type).value;
  }
  const model::Type &ty = p_.type(type);
  switch (o.kind) {
  case MOSAIC_OBS_INT:
  case MOSAIC_OBS_UINT:
    if (!catalog_.isScalar(type)) return std::nullopt;
    return "EXPECT_EQ(" + subject + ", " + literal(type, static_cast<std::uint64_t>(o.integer)) + ");";
  case MOSAIC_OBS_BOOL: return std::string(o.integer ? "EXPECT_TRUE(" : "EXPECT_FALSE(") + subject + ");";
  case MOSAIC_OBS_FLOAT: {
    if (std::isnan(o.floating)) return "EXPECT_TRUE(std::isnan(" + subject + "));";
    const std::string value = literal(type, testcase::bitsOf(o.floating));
    if (std::isinf(o.floating)) return "EXPECT_EQ(" + subject + ", " + value + ");";
    if (ty.bits == 32) return "EXPECT_FLOAT_EQ(" + subject + ", " + value + ");";
    if (ty.bits > 64) return "EXPECT_DOUBLE_EQ(static_cast<double>(" + subject + "), " + value + ");";
    return "EXPECT_DOUBLE_EQ(" + subject + ", " + value + ");";
  }
  case MOSAIC_OBS_NULL:
    if (ty.kind != TypeKind::Pointer) return std::nullopt;
    return std::string(o.integer ? "EXPECT_EQ(" : "EXPECT_NE(") + subject + ", nullptr);";
  case MOSAIC_OBS_STRING: {
    if (o.bytes.size() >= MOSAIC_OBS_MAX_STRING) return std::nullopt; // cut short: not the whole value
    if (ty.kind == TypeKind::String || ty.kind == TypeKind::StringView) {
      if (o.bytes.find('\0') != std::string::npos)
        return "EXPECT_EQ(" + subject + ", std::string(" + testcase::quote(o.bytes) + ", " + std::to_string(o.bytes.size()) + "));";
      return "EXPECT_EQ(" + subject + ", " + testcase::quote(o.bytes) + ");";
    }
    if (o.bytes.find('\0') != std::string::npos) return std::nullopt;
    // A char array filled to its end has no NUL of its own: compare what the
    // harness read (up to the array's size), never past it.
    if (ty.kind == TypeKind::Array && o.bytes.size() >= ty.length)
      return "EXPECT_EQ(std::string_view(" + subject + ", sizeof " + subject + "), " + testcase::quote(o.bytes) + ");";
    return "EXPECT_STREQ(" + subject + ", " + testcase::quote(o.bytes) + ");";
  }
  default: return std::nullopt;
  }
}

std::string BodyWriter::testName(const SuiteTest &st, bool failing) const {
  const TestCase &t = st.test;
  int last = -1;
  const int end = std::min(st.threwAt >= 0 ? st.threwAt : static_cast<int>(t.statements.size()) - 1,
                           static_cast<int>(std::min(st.appendedFrom, t.statements.size())) - 1);
  for (int i = std::min(end, static_cast<int>(t.statements.size()) - 1); i >= 0; --i)
    if (isCall(t.statements[i].op)) {
      last = i;
      break;
    }
  std::string name = "Test";
  if (last >= 0) {
    const model::Callable &c = p_.callable(t.statements[last].callable);
    if (c.kind == model::CallableKind::Operator) name = operatorWord(c.operatorSpelling);
    else if (c.kind == model::CallableKind::Constructor) name = simpleName(p_.record(*c.parent).name) + "_Constructor";
    else name = identifier(simpleName(c.qualifiedName));
    if (c.parent && c.kind != model::CallableKind::Constructor) name = identifier(simpleName(p_.record(*c.parent).name)) + "_" + name;
  }
  if (failing) {
    switch (st.result.outcome) {
    case exec::Outcome::Crash: return name + "_Crashes";
    case exec::Outcome::Abort: return name + "_Aborts";
    case exec::Outcome::Timeout: return name + "_Hangs";
    case exec::Outcome::Exit: return name + "_Exits";
    case exec::Outcome::Sanitizer: return name + "_SanitizerReport";
    case exec::Outcome::OutOfMemory: return name + "_RunsOutOfMemory";
    default: return name + "_Fails";
    }
  }
  if (st.threwAt >= 0) return name + "_Throws";
  for (const exec::Observation &o : st.observations) {
    if (static_cast<int>(o.statement) != last || o.target != MOSAIC_OBS_RESULT || o.field != -1) continue;
    switch (o.kind) {
    case MOSAIC_OBS_NULL: return name + (o.integer ? "_ReturnsNull" : "_ReturnsObject");
    case MOSAIC_OBS_BOOL: return name + (o.integer ? "_ReturnsTrue" : "_ReturnsFalse");
    case MOSAIC_OBS_INT:
    case MOSAIC_OBS_UINT:
      if (o.integer >= -999 && o.integer <= 9999)
        return name + "_Returns" + (o.integer < 0 ? "Minus" + std::to_string(-o.integer) : std::to_string(o.integer));
      return name + "_ReturnsValue";
    case MOSAIC_OBS_STRING: return name + (o.bytes.empty() ? "_ReturnsEmptyString" : "_ReturnsString");
    default: break;
    }
  }
  return name;
}

std::vector<Line> BodyWriter::assertions(const SuiteTest &st, size_t index) {
  std::vector<Line> out;
  for (size_t k = 0; k < st.observations.size(); ++k) {
    const exec::Observation &o = st.observations[k];
    if (o.statement != index || (k < st.dropped.size() && st.dropped[k])) continue;
    if (auto a = assertion(st.test, index, o)) out.push_back({*a, static_cast<int>(k)});
  }
  return out;
}

Body BodyWriter::write(const SuiteTest &st, bool withAssertions) {
  Body body;
  const TestCase &t = st.test;
  const size_t n = st.threwAt >= 0 ? std::min(t.statements.size(), static_cast<size_t>(st.threwAt) + 1) : t.statements.size();
  names_.assign(n, "");
  heap_.assign(n, false);
  inlined_.assign(n, false);
  inspector_.assign(n, false);
  uses_.assign(n, 0);
  body.name = testName(st, !withAssertions);
  for (size_t i = 0; i < n; ++i)
    for (Ref r : t.statements[i].refs)
      if (r != testcase::kNoRef && r < n) ++uses_[r];
  // Results asserted on are used too.
  if (withAssertions)
    for (size_t k = 0; k < st.observations.size(); ++k)
      if (st.observations[k].statement < n && st.observations[k].target == MOSAIC_OBS_RESULT &&
          !(k < st.dropped.size() && st.dropped[k]))
        ++uses_[st.observations[k].statement];

  // Names, and which values are written in place.
  std::set<std::string> taken;
  for (size_t i = 0; i < n; ++i) {
    const Statement &s = t.statements[i];
    if (s.op == Op::Construct) heap_[i] = !p_.record(*p_.callable(s.callable).parent).publicDestructor;
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
    // An array built only to fill an array member is written inside the
    // aggregate.
    if (s.op == Op::Array && uses_[i] == 1)
      for (size_t j = i + 1; j < n; ++j)
        if (t.statements[j].op == Op::Aggregate &&
            std::find(t.statements[j].refs.begin(), t.statements[j].refs.end(), static_cast<Ref>(i)) != t.statements[j].refs.end()) {
          inlined_[i] = true;
          std::string elements;
          for (size_t e = 0; e < s.refs.size(); ++e) elements += (e ? ", " : "") + expr(s.refs[e]);
          names_[i] = "{" + elements + "}";
        }
    if (inlined_[i]) continue;
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
    if (inlineIt) {
      inlined_[i] = true;
      if (s.op == Op::Primitive) names_[i] = literal(s.type, s.bits);
      else if (s.op == Op::Null) names_[i] = "nullptr";
      else names_[i] = testcase::quote(s.bytes);
      continue;
    }
    if (i >= st.appendedFrom && s.op == Op::MethodCall && uses_[i] <= 1) {
      // An inspector: its call is the subject of its assertion.
      inspector_[i] = true;
      names_[i] = callExpression(t, i, body.trampolines);
      continue;
    }
    if ((s.op == Op::Call || s.op == Op::MethodCall) && (uses_[i] == 0 || !catalog_.resultVariable(s.callable)))
      continue; // a call whose result nobody reads declares nothing
    std::string base = identifier(identifierFor(t, i));
    if (reserved_.count(base)) base += "_";
    std::string name = base;
    for (int k = 2; taken.count(name); ++k) name = base + std::to_string(k);
    taken.insert(name);
    names_[i] = name;
  }

  for (size_t i = 0; i < n; ++i) {
    if (inlined_[i]) continue;
    const Statement &s = t.statements[i];
    if (static_cast<int>(i) == st.threwAt && isCall(s.op)) {
      std::string call = callExpression(t, i, body.trampolines);
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
      body.unwritable = why.empty() ? "statement " + std::to_string(i) + " cannot be written" : why;
      return body;
    }
    body.lines.push_back({*line, -1});
    if (withAssertions)
      for (Line &a : assertions(st, i)) body.lines.push_back(std::move(a));
  }
  for (const Statement &s : t.statements)
    if (s.op == Op::Subclass) {
      const model::RecordId r = *p_.type(p_.type(s.type).value).recordId;
      if (!stubDefinition(r)) body.unwritable = "a pure virtual of " + p_.record(r).name + " has a type only its unit can name";
      body.stubs.insert(r);
    }
  for (model::CallableId c : body.trampolines) {
    const model::Callable &callable = p_.callable(c);
    for (const model::Param &param : callable.params)
      if (!spell(param.type)) body.unwritable = "a parameter of " + callable.name + " has a type only its unit can name";
    if (!spell(callable.result)) body.unwritable = "the result of " + callable.name + " has a type only its unit can name";
  }
  return body;
}

} // namespace mosaic::emit
