// GoogleTest assertions on what a run observed: a result, what a pointer
// or reference argument points to, or one field of either.
#include "BodyParts.h"

#include "mosaic/testcase/Printer.h"

#include <cmath>
#include <set>

namespace mosaic::emit {

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
    // Nor asserted on (libplist's parse_date(str, &tm) filled tm.__tm_gmtoff).
    if (rec.inSystemHeader && reservedFieldName(rec.fields[o.field].name)) return std::nullopt;
    subject = pointer.empty() ? subject + "." + rec.fields[o.field].name : pointer + "->" + rec.fields[o.field].name;
    type = p_.type(rec.fields[o.field].type).value;
  }
  subject = macroArgument(subject);
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
    // float (32 bits) to within 4 ULPs as a float; long double (over 64 bits)
    // as a double; double to within 4 ULPs (GoogleTest's own tolerance).
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

std::vector<Line> BodyWriter::assertions(const SuiteTest &st, size_t index) {
  std::vector<Line> out;
  // One variable passed as several arguments (`f(item, item, item)`) is
  // observed once per argument: its assertions are written once, and an
  // assertion verification dropped (through the observation its line was
  // written from) is dropped for every observation that writes it, or the
  // next copy would take its place round after round (cJSON's
  // ReplaceItemViaPointer(item, item, other): 20 rounds, never settled).
  std::vector<std::pair<std::string, int>> candidates;
  std::set<std::string> dropped, written;
  for (size_t k = 0; k < st.observations.size(); ++k) {
    const exec::Observation &o = st.observations[k];
    if (o.statement != index) continue;
    auto a = assertion(st.test, index, o);
    if (!a) continue;
    if (k < st.dropped.size() && st.dropped[k]) dropped.insert(*a);
    else candidates.emplace_back(std::move(*a), static_cast<int>(k));
  }
  for (auto &[text, k] : candidates)
    if (!dropped.count(text) && written.insert(text).second) out.push_back({std::move(text), k});
  return out;
}

} // namespace mosaic::emit
