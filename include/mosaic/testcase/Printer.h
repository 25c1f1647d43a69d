// A test case as readable C/C++ statements, for reports (crashes found by
// `mosaic run`). The GoogleTest writer is lib/emit.
#pragma once

#include "mosaic/model/Program.h"
#include "mosaic/testcase/TestCase.h"

#include <string>

namespace mosaic::testcase {

/// One line per statement, variables named v0, v1, ...; `indent` prefixes
/// every line.
std::string toCode(const model::Program &program, const TestCase &test, const std::string &indent = "  ");

/// A C/C++ literal for a string's bytes: escapes quotes, backslashes and
/// non-printable bytes (as octal, which never runs into a following digit).
std::string quote(const std::string &bytes);

} // namespace mosaic::testcase
