// The API a unit's classes inherit: the public methods of their public
// bases that the unit does not define. EvoSuite tests a class through all
// of its public methods, inherited ones included; a C++ unit that derives
// from a base defined elsewhere is reached the same way: muParserInt.cpp's
// ParserInt overrides ParserBase's hooks and defines its operators as
// private statics, which run only under ParserBase::SetExpr and Eval,
// defined in muParserBase.cpp.
#pragma once

#include "mosaic/model/Program.h"
#include "mosaic/testcase/Catalog.h"

#include <vector>

namespace mosaic::testcase {

/// The methods (non-static, not operators) that the classes of `targets`
/// (the parents of its constructors and methods) inherit from their public
/// bases, transitively, and that are not in `targets`: each public (in
/// Record::methods), callable by a test (Catalog::callable), not the
/// library's inside (Callable::internalApi), and not hidden by a member of
/// the same name declared by the derived class or a class between it and
/// the base (a call `d.f()` would find that one: C++ name hiding). In the
/// order of `targets`' classes, then of the bases, then of each base's
/// methods; each once.
std::vector<model::CallableId> inheritedMethods(const Catalog &catalog, const std::vector<model::CallableId> &targets);

} // namespace mosaic::testcase
