// Statements appended to a finished test before it is observed and written:
// inspectors (const getters whose results become assertions on the
// objects' final state) and releases (the unit's own destroyer called on
// what the API handed back). Each is kept only if the extended test still
// runs cleanly (stages::extend checks by re-executing).
#pragma once

#include "mosaic/model/Program.h"
#include "mosaic/testcase/Catalog.h"
#include "mosaic/testcase/TestCase.h"

#include <vector>

namespace mosaic::testcase {

/// Calls of public, const, parameterless methods returning a value the
/// harness observes (Catalog::observable) on each object the
/// test built or called methods on, at most `perObject` per object and
/// `total` in all, in declaration order. EvoSuite's inspector assertions.
std::vector<testcase::Statement> inspectors(const model::Program &program, const testcase::Catalog &catalog,
                                            const testcase::TestCase &test, size_t perObject = 6, size_t total = 12);

/// For a C unit: calls that release what the test's calls returned, in
/// reverse order of creation. A result is released when
///   - it is a pointer to non-const data;
///   - for a record, the call that returned it took no pointer to the same
///     record (it is then not a part of an argument, such as a child of a
///     tree);
///   - no later call takes it as a non-const pointer (which may take
///     ownership, such as adding an item to a container);
///   - the unit has a destroyer for it: a one-parameter function named like
///     one (free, delete, destroy, release, dispose, unref, dealloc) taking
///     that pointer type, or else `void *`.
/// Empty for C++ units: their objects release themselves.
std::vector<testcase::Statement> releases(const model::Program &program, const testcase::Catalog &catalog,
                                          const testcase::TestCase &test);

} // namespace mosaic::testcase
