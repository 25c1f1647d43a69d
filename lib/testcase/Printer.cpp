// Test cases as code.
#include "mosaic/testcase/Printer.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace mosaic::testcase {

using model::TypeKind;

std::string quote(const std::string &bytes) {
  std::string out = "\"";
  for (unsigned char c : bytes) {
    // "??/" and friends are trigraphs where a strict -std= enables them.
    if (c == '?' && out.back() == '?') {
      out += "\\?";
      continue;
    }
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    case '\r': out += "\\r"; break;
    default:
      if (c >= 32 && c < 127) {
        out.push_back(static_cast<char>(c));
      } else {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\%03o", c);
        out += buf;
      }
    }
  }
  return out + "\"";
}

namespace {

std::string var(Ref r) { return "v" + std::to_string(r); }

std::string literal(const model::Program &p, const model::Type &t, std::uint64_t bits) {
  switch (t.kind) {
  case TypeKind::Bool: return bits ? "true" : "false";
  case TypeKind::Char: {
    const char c = static_cast<char>(bits);
    if (c >= 32 && c < 127 && c != '\'' && c != '\\') return std::string("'") + c + "'";
    return "(char)" + std::to_string(static_cast<int>(static_cast<signed char>(c)));
  }
  case TypeKind::Floating: {
    const double d = doubleOf(bits);
    if (std::isnan(d)) return "NAN";
    if (std::isinf(d)) return d > 0 ? "INFINITY" : "-INFINITY";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", d);
    return buf;
  }
  case TypeKind::Enum: {
    const model::Enum &e = p.enums.at(*t.enumId);
    for (const model::Enumerator &en : e.enumerators)
      if (en.value == static_cast<std::int64_t>(bits)) return en.name;
    return "(" + t.spelling + ")" + std::to_string(static_cast<std::int64_t>(bits));
  }
  default: {
    // The value as the variable holds it: truncated to the type's width.
    const unsigned width = t.bits ? t.bits : 64;
    if (width < 64) {
      const std::uint64_t mask = (std::uint64_t{1} << width) - 1;
      bits &= mask;
      if (t.isSigned && (bits >> (width - 1)) & 1) return std::to_string(static_cast<std::int64_t>(bits | ~mask));
    }
    return t.isSigned ? std::to_string(static_cast<std::int64_t>(bits)) : std::to_string(bits);
  }
  }
}

std::string joinRefs(const std::vector<Ref> &refs, size_t from = 0) {
  std::string out;
  for (size_t i = from; i < refs.size(); ++i) out += (i > from ? ", " : "") + var(refs[i]);
  return out;
}

} // namespace

std::string toCode(const model::Program &p, const TestCase &t, const std::string &indent) {
  std::ostringstream out;
  for (size_t i = 0; i < t.statements.size(); ++i) {
    const Statement &s = t.statements[i];
    const Ref me = static_cast<Ref>(i);
    out << indent;
    auto decl = [&](model::TypeId type) {
      const model::Type &ty = p.type(type);
      if (ty.kind == TypeKind::FunctionPointer || ty.kind == TypeKind::Reference) return "auto " + var(me);
      return ty.spelling + (ty.spelling.back() == '*' ? "" : " ") + var(me);
    };
    switch (s.op) {
    case Op::Primitive: out << decl(s.type) << " = " << literal(p, p.type(s.type), s.bits) << ";"; break;
    case Op::CString:
    case Op::StdString: out << decl(s.type) << " = " << quote(s.bytes) << ";"; break;
    case Op::Buffer:
      out << "unsigned char " << var(me) << "_bytes[] = " << quote(s.bytes) << "; /* " << s.bytes.size() << " bytes */ "
          << decl(s.type) << " = " << var(me) << "_bytes;";
      break;
    case Op::File: out << decl(s.type) << " = /* a temporary file holding */ " << quote(s.bytes) << ";"; break;
    case Op::Null: out << decl(s.type) << " = " << (p.language == "c" ? "NULL" : "nullptr") << ";"; break;
    case Op::Aggregate: out << decl(s.type) << " = {" << joinRefs(s.refs) << "};"; break;
    case Op::AddressOf: out << decl(s.type) << " = &" << var(s.refs.at(0)) << ";"; break;
    case Op::Array: {
      const model::Type &ty = p.type(s.type);
      const model::Type &element = p.type(ty.kind == TypeKind::Array ? *ty.element : *ty.pointee);
      out << element.spelling << " " << var(me) << "[] = {" << joinRefs(s.refs) << "};";
      break;
    }
    case Op::Construct: {
      const model::Callable &c = p.callable(s.callable);
      out << p.record(*c.parent).name << " " << var(me);
      if (!s.refs.empty()) out << "(" << joinRefs(s.refs) << ")";
      out << ";";
      break;
    }
    case Op::Call:
    case Op::MethodCall: {
      const model::Callable &c = p.callable(s.callable);
      const model::Type &result = p.type(c.result);
      if (result.kind != TypeKind::Void) out << decl(c.result) << " = ";
      if (s.op == Op::MethodCall) {
        auto rt = variableType(p, t, s.refs.at(0));
        const bool pointer = rt && p.type(p.type(*rt).value).kind == TypeKind::Pointer;
        out << var(s.refs[0]) << (pointer ? "->" : ".") << c.name << "(" << joinRefs(s.refs, 1) << ");";
      } else {
        out << c.qualifiedName << "(" << joinRefs(s.refs) << ");";
      }
      break;
    }
    case Op::FieldSet: {
      const model::Record &r = p.record(*p.type(s.type).recordId);
      out << var(s.refs.at(0)) << "." << r.fields.at(s.field).name << " = " << var(s.refs.at(1)) << ";";
      break;
    }
    case Op::Callback:
      out << decl(s.type) << " = /* a stub returning " << (s.refs.empty() ? "zero" : var(s.refs[0])) << " */;";
      break;
    case Op::Subclass: out << decl(s.type) << " = /* a stub subclass returning {" << joinRefs(s.refs) << "} */;"; break;
    case Op::EndOf: out << decl(s.type) << " = " << var(s.refs.at(0)) << " + " << endOffset(t, me) << ";"; break;
    }
    out << "\n";
  }
  return out.str();
}

} // namespace mosaic::testcase
