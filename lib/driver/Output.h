// Where mosaic writes: checked before the search, so that a path it cannot
// write is a usage error at once, not an exception after minutes of work.
#pragma once

#include "mosaic/support/Expected.h"

#include <string>

namespace mosaic::driver {

/// Makes `dir` (with its parents) and checks that mosaic may write the
/// suite of `unit` there: a folder it can write into, where every file it
/// would write (CMakeLists.txt, <stem>_test*.cpp, <stem>_failing_test*.cpp,
/// <stem>_wrapper.c/.cpp) is absent or its own (generatedByMosaic). A
/// Usage error naming the path and the problem otherwise: `-o .` in a
/// project never overwrites the project's CMakeLists.txt.
Expected<bool> prepareOutputFolder(const std::string &dir, const std::string &unit);

/// Whether a file can be written at `path` (a --json statistics file): not
/// a folder, in a folder that exists and can be written. Nothing is left
/// behind by the check. A Usage error otherwise.
Expected<bool> checkWritableFile(const std::string &path, const std::string &flag);

} // namespace mosaic::driver
