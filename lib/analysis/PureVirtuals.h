// What a stub subclass of an abstract C++ class must override, and whether
// a test can derive one at all (model::Record::pureVirtuals, notSubclassable).
#pragma once

#include "TypeMapper.h"

namespace clang {
class CXXRecordDecl;
}

namespace mosaic::analysis {

/// Fills `record.pureVirtuals` with every pure virtual member function whose
/// final overrider in `decl` is still pure (its own, or a base's that nothing
/// between overrides), one per name and signature, in Clang's (deterministic)
/// order of the final overrider map; and `record.notSubclassable` with why no
/// subclass can be written, if so. `decl` must be an abstract, complete class
/// whose implicit members are declared.
void collectPureVirtuals(TypeMapper &types, const clang::CXXRecordDecl *decl, model::Record &record);

} // namespace mosaic::analysis
