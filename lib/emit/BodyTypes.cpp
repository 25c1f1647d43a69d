// How a test spells types and values: which types it can name (or point
// to, or catch), declarations, and literals that read back as the same
// bits.
#include "BodyParts.h"

#include "mosaic/support/Text.h"
#include "mosaic/testcase/TestCase.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace mosaic::emit {

bool BodyWriter::nameable(model::TypeId id) const {
  const model::Type &t = p_.type(p_.type(id).value);
  // Declared in the unit, or in a source file it includes (lz4hc.c's
  // `#include "lz4.c"`, whose limitedOutput_directive no test can name).
  // Or in a block of a header that the unit's macro switches on
  // (Program::unitBlocks: tinyobjloader's vertex_index_t).
  const auto header = [&](const model::SourceRange &at) {
    return !p_.inUnitCode(at) && !sourceFileName(at.file);
  };
  // With no project header in sight, only what the system's headers
  // define (FILE, through <cstdio>, which GoogleTest includes).
  if (t.kind == TypeKind::Record)
    return throughWrapper_ ? p_.record(*t.recordId).inSystemHeader : header(p_.record(*t.recordId).location);
  if (t.kind == TypeKind::Enum) return !throughWrapper_ && header(p_.enums.at(*t.enumId).location);
  return true;
}

bool BodyWriter::catchable(const std::string &ty) const {
  if (ty.empty() || ty == "unknown" || ty.find_first_of("( ") != std::string::npos) return false;
  if (ty.rfind("std::", 0) == 0) return true; // <stdexcept>, <new>, <typeinfo> come with gtest.h
  if (ty.find("::") == std::string::npos && ty.find('<') == std::string::npos &&
      std::all_of(ty.begin(), ty.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)); }))
    return true; // int, long, char, bool, double, ...
  return std::any_of(p_.records.begin(), p_.records.end(), [&](const model::Record &r) {
    return r.name == ty && r.complete && !p_.inUnitCode(r.location);
  });
}

bool BodyWriter::pointable(model::TypeId id) const {
  const model::Type &t = p_.type(p_.type(id).value);
  return !throughWrapper_ && t.kind == TypeKind::Record && p_.record(*t.recordId).declaredOutsideUnit;
}

std::optional<std::string> BodyWriter::opaqueSpelling(model::TypeId id) const {
  const model::Type &t = p_.type(id);
  const auto spelled = spell(id);
  if (!spelled || *spelled == t.spelling) return std::nullopt;
  if (spelled->starts_with("void *") || spelled->starts_with("const void *") || t.kind == TypeKind::FunctionPointer)
    return spelled;
  return std::nullopt;
}

std::optional<std::string> BodyWriter::opaquePointer(model::TypeId id) const {
  auto spelled = opaqueSpelling(id);
  if (spelled && *spelled != "void *" && *spelled != "const void *") spelled.reset();
  return spelled;
}

std::optional<std::string> BodyWriter::spell(model::TypeId id) const {
  const model::Type &t = p_.type(id);
  if (t.kind == TypeKind::Unsupported) return std::nullopt;
  if ((t.kind == TypeKind::Pointer) && t.pointee) {
    const model::Type &pointee = p_.type(p_.type(*t.pointee).value);
    if (!nameable(pointee.id) && !pointable(pointee.id))
      return std::string(t.pointeeConst ? "const void *" : "void *");
    if (pointee.kind == TypeKind::Pointer && pointee.pointee && !nameable(*pointee.pointee) &&
        !pointable(*pointee.pointee)) {
      // Through the wrapper, which casts it back, a pointer to an opaque
      // pointer is one to a `void *` (libonig's onig_new(OnigRegex *, ...)
      // fills the test's `void *regex`); a test calling by name could not
      // pass it.
      if (!throughWrapper_) return std::nullopt;
      return std::string(pointee.pointeeConst ? "const void *" : "void *") + (t.pointeeConst ? " const *" : "*");
    }
  }
  if (t.kind == TypeKind::Reference && t.pointee && !t.isRvalue &&
      p_.type(*t.pointee).kind == TypeKind::Pointer) {
    // A reference to a pointer only the unit can name (pugixml's
    // swap<xpath_ast_node *>(T &, T &)): the test holds a void * and binds
    // it as one; the wrapper casts it back.
    if (const auto inner = opaquePointer(*t.pointee))
      return *inner + (t.pointeeConst ? " const &" : "&");
  }
  if (t.kind == TypeKind::FunctionPointer && t.signature && !t.signature->variadic) {
    // A callback over a type only the unit names (zstd's cover.c:
    // `int (*)(COVER_ctx_t *, const void *, const void *)`) is spelled from
    // its parts as the test spells them (`void *` for that pointer), like
    // the lambda the test passes; the wrapper casts it back.
    bool differs = false;
    std::string parts;
    for (size_t k = 0; k < t.signature->params.size(); ++k) {
      const auto part = spell(t.signature->params[k]);
      if (!part) return std::nullopt;
      differs |= *part != p_.type(t.signature->params[k]).spelling;
      parts += (k ? ", " : "") + *part;
    }
    const auto result = spell(t.signature->result);
    if (!result) return std::nullopt;
    differs |= *result != p_.type(t.signature->result).spelling;
    if (differs) return *result + " (*)(" + parts + ")";
  }
  if (t.kind == TypeKind::Enum && !nameable(id)) return std::string("int");
  if (!nameable(id)) return std::nullopt;
  if ((options_.canonicalSpelling || t.spelledInUnit) && t.kind != TypeKind::Record && !t.canonical.empty() &&
      t.canonical.find("(unnamed") == std::string::npos && t.canonical.find("(anonymous") == std::string::npos)
    return t.canonical;
  return t.cxxSpelling.empty() ? t.spelling : t.cxxSpelling;
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
    // Printable ASCII (32 to 126) as itself, the rest escaped.
    if (c >= 32 && c < 127 && c != '\'' && c != '\\') return std::string("'") + static_cast<char>(c) + "'";
    if (c == '\'') return "'\\''";
    if (c == '\\') return "'\\\\'";
    if (c == 0) return "'\\0'";
    if (c == '\n') return "'\\n'";
    char buf[16]; // '\xNN' and its NUL: 7 bytes
    std::snprintf(buf, sizeof buf, "'\\x%02x'", c);
    return buf;
  }
  case TypeKind::Floating: {
    const double d = testcase::doubleOf(bits);
    if (std::isnan(d)) return "std::numeric_limits<double>::quiet_NaN()";
    if (std::isinf(d)) return d > 0 ? "std::numeric_limits<double>::infinity()" : "-std::numeric_limits<double>::infinity()";
    // 17 significant digits read back as the same double, whatever it is
    // (IEEE 754 binary64, DBL_DECIMAL_DIG); %.17g needs at most 24 bytes.
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
    return t.bits == 32 ? s + "f" : s; // float
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
    // Bits of the type (0: not known; taken as 64, the widest the bits hold).
    const unsigned width = t.bits ? t.bits : 64;
    if (width < 64) {
      const std::uint64_t mask = (std::uint64_t{1} << width) - 1;
      bits &= mask;
      if (t.isSigned && ((bits >> (width - 1)) & 1)) bits |= ~mask;
    }
    if (t.isSigned) {
      const auto v = static_cast<std::int64_t>(bits);
      // INT64_MIN has no literal of its own: its negation overflows.
      if (v == INT64_MIN) return "(-9223372036854775807LL - 1)";
      // Past INT_MAX (2^31 - 1) a literal is marked long long, as the value is.
      const bool big = v > 2147483647LL || v < -2147483647LL;
      return std::to_string(v) + (big ? "LL" : "");
    }
    // Past UINT_MAX (2^32 - 1): unsigned long long.
    return std::to_string(bits) + (bits > 4294967295ULL ? "ULL" : "u");
  }
  }
}

} // namespace mosaic::emit
