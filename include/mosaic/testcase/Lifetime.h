// What a C API releases: a test must not use a value after handing it to
// the function that frees it. `XML_ParserFree(p); XML_SetUserData(p, p);`
// writes into freed memory: no crash where the search runs it, a corrupted
// heap for every test after it in the suite's process, and a "failure" that
// is the test's own doing, not the library's.
#pragma once

#include "mosaic/model/Derive.h"
#include "mosaic/model/Program.h"
#include "mosaic/testcase/TestCase.h"

#include <optional>
#include <string>
#include <string_view>

namespace mosaic::testcase {

/// A name that says "this ends a lifetime": it contains free, delete,
/// destroy, release, dispose, unref or dealloc (case-insensitive). C has no
/// other way to say so; ours.
bool isDestroyerName(const std::string &name);

/// Initialiser names (model/Derive.h), which the front end also reads.
using model::isInitialiserName;
using model::isInitialiserWord;

/// A free function of one pointer parameter (not to a function) with such
/// a name (cJSON_Delete, XML_ParserFree, cJSON_free's void *), or the close
/// function of what an open function returns (gzclose of gzopen's gzFile:
/// same prefix, "open" / "close", the opener's result type): what it is
/// given is gone after the call. The one definition of a destroyer: the
/// search drops early releases by it, and the writer appends releases with it.
bool releasesItsArgument(const model::Program &program, const model::Callable &callable);

/// The parameter a function with a destroyer's name releases: the one of
/// releasesItsArgument, or the second of two pointers, the first being
/// what the memory belongs to (yajl_free_error(handle, str), an allocator's
/// free(ctx, ptr)). Only to judge what a failing test gave it.
std::optional<size_t> releasedParam(const model::Program &program, const model::Callable &callable);

/// Removes each call that releases a variable a later statement still uses
/// (use after free, double free), with whatever depends on its result.
/// Returns the number of calls removed.
size_t dropEarlyReleases(TestCase &test, const model::Program &program);

} // namespace mosaic::testcase
