// A solver's answer put back into the test it came from: each input byte
// (abi/Symbolic.h: a statement and an offset in its value) set to the value
// the model gives it (issue 22).
#pragma once

#include "mosaic/model/Program.h"
#include "mosaic/solver/Solver.h"
#include "mosaic/testcase/TestCase.h"

#include <cstddef>
#include <cstdint>

namespace mosaic::concolic {

/// Sets in `test` the bytes `answer` gives new values: a primitive's byte
/// `offset` of its `bits` (then sign- or zero-extended from the type's
/// width, as the harness reads it), a string's or buffer's byte `offset`;
/// a call's constant result the answer changes is replaced, for the
/// statements after the call, by a literal of the new value inserted right
/// after it (the statements after it move one place).
/// Bytes whose statement is not of the kind the trace says (the test
/// changed since it ran) are left alone; a C string with a zero byte ends
/// there. Returns how many bytes changed.
/// Whether statement `s` holds input byte `in` where the trace says it
/// does: a primitive's byte `offset`, a string's or buffer's byte `offset`
/// (false for a call's result, or when the test changed since it ran).
/// A C string's bytes run on past its end, as zeros, for
/// MOSAIC_SYM_CSTRING_SLACK bytes (abi/Symbolic.h).
bool carries(const testcase::Statement &s, const solver::InputByte &in);

/// The value of input byte `in` in `s`, which carries() it: zero in a C
/// string's slack.
std::uint8_t inputByte(const testcase::Statement &s, const solver::InputByte &in);

std::size_t applyAnswer(const model::Program &program, testcase::TestCase &test, const solver::SymbolicTrace &trace,
                        const solver::Answer &answer);

} // namespace mosaic::concolic
