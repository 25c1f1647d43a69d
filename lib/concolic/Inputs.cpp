// Putting a model's bytes back into a test (Inputs.h).
#include "mosaic/concolic/Inputs.h"

#include "mosaic/abi/Symbolic.h"

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

} // namespace

std::size_t applyAnswer(const model::Program &program, testcase::TestCase &test, const solver::SymbolicTrace &trace,
                        const solver::Answer &answer) {
  std::size_t changed = 0;
  std::vector<bool> touched(test.statements.size(), false);
  for (const auto &[index, value] : answer.bytes) {
    if (index >= trace.inputs.size()) continue;
    const solver::InputByte &in = trace.inputs[index];
    if (in.statement >= test.statements.size()) continue;
    testcase::Statement &s = test.statements[in.statement];
    if (in.kind == MOSAIC_SYM_IN_PRIMITIVE && s.op == testcase::Op::Primitive && in.offset < 8) {
      const std::uint64_t shift = 8ull * in.offset;
      const std::uint64_t before = s.bits;
      s.bits = (s.bits & ~(0xffull << shift)) | (std::uint64_t{value} << shift);
      changed += s.bits != before;
      touched[in.statement] = true;
    } else if (in.kind == MOSAIC_SYM_IN_BYTES && in.offset < s.bytes.size() &&
               (s.op == testcase::Op::CString || s.op == testcase::Op::Buffer || s.op == testcase::Op::StdString)) {
      changed += static_cast<unsigned char>(s.bytes[in.offset]) != value;
      s.bytes[in.offset] = static_cast<char>(value);
    }
  }
  for (std::size_t i = 0; i < test.statements.size(); ++i)
    if (touched[i]) test.statements[i].bits = normalised(program.type(test.statements[i].type), test.statements[i].bits);
  return changed;
}

} // namespace mosaic::concolic
