// Test cases: variable types and the wire encoding.
#include "mosaic/testcase/TestCase.h"

#include "mosaic/abi/TestWire.h"

#include <cstring>

namespace mosaic::testcase {

static_assert(static_cast<int>(Op::Primitive) == MOSAIC_OP_PRIMITIVE && static_cast<int>(Op::Callback) == MOSAIC_OP_CALLBACK &&
                  static_cast<int>(Op::EndOf) == MOSAIC_OP_END_OF && static_cast<int>(Op::Subclass) == MOSAIC_OP_SUBCLASS &&
                  static_cast<int>(Op::MethodCall) == MOSAIC_OP_METHOD_CALL && static_cast<int>(Op::File) == MOSAIC_OP_FILE,
              "Op must mirror enum mosaic_op");

std::optional<model::TypeId> callResultVariable(const model::Program &p, model::CallableId id) {
  const model::Callable &c = p.callable(id);
  if (c.kind == model::CallableKind::Constructor) return p.record(*c.parent).type;
  const model::Type &r = p.type(c.result);
  if (r.kind == model::TypeKind::Void || r.kind == model::TypeKind::Unsupported) return std::nullopt;
  if (r.kind == model::TypeKind::Reference) {
    if (p.type(*r.pointee).kind == model::TypeKind::Unsupported) return std::nullopt;
    return r.id;
  }
  const model::Type &v = p.type(r.value);
  if (v.kind == model::TypeKind::Record && !p.record(*v.recordId).complete) return std::nullopt;
  return r.value;
}

bool copies(const model::Program &p, const Statement &s) {
  if (s.op != Op::Construct || s.refs.size() != 1) return false;
  const model::Callable &c = p.callable(s.callable);
  return c.isCopyConstructor || c.isMoveConstructor;
}

std::optional<model::TypeId> variableType(const model::Program &p, const TestCase &t, size_t i) {
  const Statement &s = t.statements.at(i);
  switch (s.op) {
  case Op::Construct:
  case Op::Call:
  case Op::MethodCall:
    return callResultVariable(p, s.callable);
  case Op::FieldSet:
    return std::nullopt;
  default:
    return s.type;
  }
}

std::size_t endOffset(const TestCase &t, size_t index) {
  const Statement &s = t.statements.at(index);
  if (s.refs.empty() || s.refs[0] >= t.statements.size()) return 0;
  const Statement &bytes = t.statements[s.refs[0]];
  return bytes.op == Op::Buffer || bytes.op == Op::CString ? bytes.bytes.size() : 0;
}

size_t dropStatements(TestCase &t, const std::function<bool(const TestCase &, size_t)> &drop) {
  size_t removed = 0;
  for (size_t i = 0; i < t.statements.size();) {
    if (!drop(t, i)) {
      ++i;
      continue;
    }
    t = withoutStatement(t, i); // statement i is now the next one
    ++removed;
  }
  return removed;
}

TestCase withoutStatement(const TestCase &t, size_t index) {
  std::vector<bool> gone(t.statements.size(), false);
  gone.at(index) = true;
  for (size_t i = index + 1; i < t.statements.size(); ++i)
    for (Ref r : t.statements[i].refs)
      if (r != kNoRef && r < t.statements.size() && gone[r]) gone[i] = true;
  std::vector<Ref> renumber(t.statements.size(), kNoRef);
  TestCase out;
  for (size_t i = 0; i < t.statements.size(); ++i) {
    if (gone[i]) continue;
    renumber[i] = static_cast<Ref>(out.statements.size());
    Statement s = t.statements[i];
    for (Ref &r : s.refs)
      if (r != kNoRef) r = renumber[r];
    out.statements.push_back(std::move(s));
  }
  return out;
}

TestCase withAlias(const TestCase &t, size_t index, Ref replacement) {
  TestCase out;
  for (size_t i = 0; i < t.statements.size(); ++i) {
    if (i == index) continue;
    Statement s = t.statements[i];
    for (Ref &r : s.refs) {
      if (r == kNoRef) continue;
      if (r == index) r = replacement;
      if (r > index) --r;
    }
    out.statements.push_back(std::move(s));
  }
  return out;
}

std::uint64_t bitsOf(double value) {
  std::uint64_t b;
  std::memcpy(&b, &value, sizeof b);
  return b;
}

double doubleOf(std::uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

namespace {

void put32(std::vector<std::uint8_t> &out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void put64(std::vector<std::uint8_t> &out, std::uint64_t v) {
  put32(out, static_cast<std::uint32_t>(v));
  put32(out, static_cast<std::uint32_t>(v >> 32));
}
void putRefs(std::vector<std::uint8_t> &out, const std::vector<Ref> &refs) {
  put32(out, static_cast<std::uint32_t>(refs.size()));
  for (Ref r : refs) put32(out, r);
}

struct Reader {
  const std::vector<std::uint8_t> &bytes;
  size_t at = 0;
  bool bad = false;
  std::uint32_t u32() {
    if (bytes.size() - at < 4) {
      bad = true;
      return 0;
    }
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(bytes[at + i]) << (8 * i);
    at += 4;
    return v;
  }
  std::uint64_t u64() {
    const std::uint64_t lo = u32();
    return lo | static_cast<std::uint64_t>(u32()) << 32;
  }
  std::vector<Ref> refs() {
    const std::uint32_t n = u32();
    if (n > MOSAIC_WIRE_MAX_REFS) bad = true;
    std::vector<Ref> out;
    for (std::uint32_t i = 0; i < n && !bad; ++i) out.push_back(u32());
    return out;
  }
};

} // namespace

std::vector<std::uint8_t> encode(const TestCase &t) {
  std::vector<std::uint8_t> out;
  out.push_back(MOSAIC_WIRE_MAGIC & 0xff);
  out.push_back(MOSAIC_WIRE_MAGIC >> 8);
  out.push_back(MOSAIC_WIRE_VERSION);
  out.push_back(0);
  put32(out, static_cast<std::uint32_t>(t.statements.size()));
  for (const Statement &s : t.statements) {
    out.push_back(static_cast<std::uint8_t>(s.op));
    switch (s.op) {
    case Op::Primitive:
      put32(out, s.type);
      put64(out, s.bits);
      break;
    case Op::CString:
    case Op::StdString:
    case Op::Buffer:
    case Op::File:
      put32(out, s.type);
      put32(out, static_cast<std::uint32_t>(s.bytes.size()));
      out.insert(out.end(), s.bytes.begin(), s.bytes.end());
      break;
    case Op::Null:
      put32(out, s.type);
      break;
    case Op::Aggregate:
    case Op::Array:
    case Op::Subclass:
      put32(out, s.type);
      putRefs(out, s.refs);
      break;
    case Op::AddressOf:
      put32(out, s.type);
      put32(out, s.refs.at(0));
      break;
    case Op::Construct:
    case Op::Call:
    case Op::MethodCall:
      put32(out, s.callable);
      putRefs(out, s.refs);
      break;
    case Op::FieldSet:
      put32(out, s.type);
      put32(out, s.field);
      put32(out, s.refs.at(0));
      put32(out, s.refs.at(1));
      break;
    case Op::Callback:
      put32(out, s.type);
      put32(out, s.refs.empty() ? kNoRef : s.refs[0]);
      break;
    case Op::EndOf:
      put32(out, s.type);
      put32(out, s.refs.at(0));
      put32(out, static_cast<std::uint32_t>(endOffset(t, static_cast<size_t>(&s - t.statements.data()))));
      break;
    }
  }
  return out;
}

Expected<TestCase> decode(const std::vector<std::uint8_t> &bytes) {
  if (bytes.size() < 8 || (bytes[0] | bytes[1] << 8) != MOSAIC_WIRE_MAGIC || bytes[2] != MOSAIC_WIRE_VERSION)
    return Error::input("not an encoded mosaic test case (magic or version)");
  Reader r{bytes, 4};
  const std::uint32_t count = r.u32();
  TestCase t;
  for (std::uint32_t i = 0; i < count && !r.bad; ++i) {
    if (r.at >= bytes.size()) return Error::input("test case truncated at statement " + std::to_string(i));
    Statement s;
    s.op = static_cast<Op>(bytes[r.at++]);
    switch (s.op) {
    case Op::Primitive:
      s.type = r.u32();
      s.bits = r.u64();
      break;
    case Op::CString:
    case Op::StdString:
    case Op::Buffer:
    case Op::File: {
      s.type = r.u32();
      const std::uint32_t n = r.u32();
      if (bytes.size() - r.at < n) return Error::input("test case truncated in statement " + std::to_string(i));
      s.bytes.assign(bytes.begin() + r.at, bytes.begin() + r.at + n);
      r.at += n;
      break;
    }
    case Op::Null:
      s.type = r.u32();
      break;
    case Op::Aggregate:
    case Op::Array:
    case Op::Subclass:
      s.type = r.u32();
      s.refs = r.refs();
      break;
    case Op::AddressOf:
      s.type = r.u32();
      s.refs = {r.u32()};
      break;
    case Op::Construct:
    case Op::Call:
    case Op::MethodCall:
      s.callable = r.u32();
      s.refs = r.refs();
      break;
    case Op::FieldSet:
      s.type = r.u32();
      s.field = r.u32();
      s.refs = {r.u32(), r.u32()};
      break;
    case Op::Callback: {
      s.type = r.u32();
      const Ref ref = r.u32();
      if (ref != kNoRef) s.refs = {ref};
      break;
    }
    case Op::EndOf:
      s.type = r.u32();
      s.refs = {r.u32()};
      (void)r.u32(); // the offset follows from the statement it refers to
      break;
    default:
      return Error::input("unknown op " + std::to_string(static_cast<int>(s.op)) + " in statement " + std::to_string(i));
    }
    t.statements.push_back(std::move(s));
  }
  if (r.bad) return Error::input("malformed test case");
  return t;
}

} // namespace mosaic::testcase
