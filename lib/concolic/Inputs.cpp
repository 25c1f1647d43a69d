// Putting a model's bytes back into a test (Inputs.h).
#include "mosaic/concolic/Inputs.h"

#include "mosaic/abi/Symbolic.h"

#include <map>

namespace mosaic::concolic {

namespace {

// `bits` as the harness reads a value of `type`: its low `width` bits, sign-
// or zero-extended (a bool is any non-zero byte).
std::uint64_t normalised(const model::Type &type, std::uint64_t bits) {
  if (type.kind == model::TypeKind::Bool) return bits != 0;
  if (type.bits == 0 || type.bits >= 64) return bits;
  const std::uint64_t mask = (1ull << type.bits) - 1;
  bits &= mask;
  if (type.isSigned && (bits >> (type.bits - 1)) & 1) bits |= ~mask;
  return bits;
}

// `test` with a Primitive of `type` holding `bits` right after statement
// `at`, which every later statement uses instead of `at`'s variable.
void liftAfter(testcase::TestCase &test, std::size_t at, model::TypeId type, std::uint64_t bits) {
  testcase::Statement literal;
  literal.op = testcase::Op::Primitive;
  literal.type = type;
  literal.bits = bits;
  const auto lifted = static_cast<testcase::Ref>(at + 1);
  for (std::size_t i = at + 1; i < test.statements.size(); ++i)
    for (testcase::Ref &r : test.statements[i].refs)
      if (r != testcase::kNoRef && r > at) ++r;
      else if (r == at) r = lifted;
  test.statements.insert(test.statements.begin() + static_cast<std::ptrdiff_t>(at + 1), literal);
}

// The model's new values for constant call results (MOSAIC_SYM_IN_RESULT):
// each such result the model changes becomes a literal of the new value.
std::size_t liftResults(const model::Program &program, testcase::TestCase &test, const solver::SymbolicTrace &trace,
                        const solver::Answer &answer) {
  std::map<std::uint32_t, std::map<std::uint32_t, std::uint8_t>> bytes; // statement -> offset -> value
  for (const solver::InputByte &in : trace.inputs)
    if (in.kind == MOSAIC_SYM_IN_RESULT && in.offset < 8) bytes[in.statement][in.offset] = in.concrete;
  std::map<std::uint32_t, bool> changed;
  for (const auto &[index, value] : answer.bytes) {
    if (index >= trace.inputs.size()) continue;
    const solver::InputByte &in = trace.inputs[index];
    if (in.kind != MOSAIC_SYM_IN_RESULT || in.offset >= 8) continue;
    changed[in.statement] |= bytes[in.statement][in.offset] != value;
    bytes[in.statement][in.offset] = value;
  }
  std::size_t lifted = 0;
  for (auto it = bytes.rbegin(); it != bytes.rend(); ++it) { // the last first: earlier indices stay put
    const std::uint32_t at = it->first;
    if (!changed[at] || at >= test.statements.size()) continue;
    const auto type = testcase::variableType(program, test, at);
    if (!type) continue;
    std::uint64_t bits = 0;
    for (const auto &[offset, value] : it->second) bits |= std::uint64_t{value} << (8 * offset);
    liftAfter(test, at, program.type(*type).value, normalised(program.type(*type), bits));
    ++lifted;
  }
  return lifted;
}

} // namespace

bool carries(const testcase::Statement &s, const solver::InputByte &in) {
  if (in.kind == MOSAIC_SYM_IN_PRIMITIVE) return s.op == testcase::Op::Primitive && in.offset < 8;
  if (in.kind != MOSAIC_SYM_IN_BYTES) return false;
  if (s.op == testcase::Op::CString) return in.offset < s.bytes.size() + MOSAIC_SYM_CSTRING_SLACK;
  return in.offset < s.bytes.size() && (s.op == testcase::Op::Buffer || s.op == testcase::Op::StdString);
}

std::uint8_t inputByte(const testcase::Statement &s, const solver::InputByte &in) {
  if (in.kind == MOSAIC_SYM_IN_PRIMITIVE) return static_cast<std::uint8_t>(s.bits >> (8 * in.offset));
  return in.offset < s.bytes.size() ? static_cast<std::uint8_t>(s.bytes[in.offset]) : 0; // a C string's slack
}

std::size_t applyAnswer(const model::Program &program, testcase::TestCase &test, const solver::SymbolicTrace &trace,
                        const solver::Answer &answer) {
  std::size_t changed = 0;
  std::vector<bool> touched(test.statements.size(), false);
  for (const auto &[index, value] : answer.bytes) {
    if (index >= trace.inputs.size()) continue;
    const solver::InputByte &in = trace.inputs[index];
    if (in.statement >= test.statements.size()) continue;
    testcase::Statement &s = test.statements[in.statement];
    if (!carries(s, in)) continue;
    if (in.kind == MOSAIC_SYM_IN_PRIMITIVE) {
      const std::uint64_t shift = 8ull * in.offset;
      const std::uint64_t before = s.bits;
      s.bits = (s.bits & ~(0xffull << shift)) | (std::uint64_t{value} << shift);
      changed += s.bits != before;
      touched[in.statement] = true;
    } else {
      changed += inputByte(s, in) != value;
      if (in.offset >= s.bytes.size()) {
        if (value == 0) continue; // past the string, as the slack is
        s.bytes.resize(in.offset + 1, '\0');
      }
      s.bytes[in.offset] = static_cast<char>(value);
    }
  }
  for (std::size_t i = 0; i < test.statements.size(); ++i)
    if (touched[i]) test.statements[i].bits = normalised(program.type(test.statements[i].type), test.statements[i].bits);
  // A C string the model ended early (strlen's model lets it put a zero
  // byte in, or left a zero of the slack before bytes it set past it):
  // what follows the zero is nothing the callee sees as the string, and
  // only clutters the written test.
  for (testcase::Statement &s : test.statements)
    if (s.op == testcase::Op::CString)
      if (const auto zero = s.bytes.find('\0'); zero != std::string::npos) s.bytes.resize(zero);
  // Last: it moves the statements after each lifted result.
  return changed + liftResults(program, test, trace, answer);
}

} // namespace mosaic::concolic
