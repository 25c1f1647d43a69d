// JSON form of the program model (format version Program::kFormatVersion).
#pragma once

#include "mosaic/model/Program.h"
#include "mosaic/support/Expected.h"

#include <string>

namespace mosaic::model {

/// The model as JSON text, indented for reading.
std::string toJson(const Program &program);

/// Parses what toJson wrote. Fails with an Input error on malformed text or
/// another format version.
Expected<Program> programFromJson(const std::string &text);

} // namespace mosaic::model
