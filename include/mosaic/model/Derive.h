// Facts derived from a built model: factories and the target selection.
#pragma once

#include "mosaic/model/Program.h"
#include "mosaic/support/Expected.h"

#include <string>

namespace mosaic::model {

/// Fills Record::factories: every callable other than a constructor whose
/// result is T, T* or a std::unique_ptr / std::shared_ptr of T (const or not).
/// Idempotent.
void deriveFactories(Program &program);

/// Whether a skipped declaration is the unit's own concern: in the unit file
/// or its main header, or a member of a record the unit owns. The others come
/// from headers the unit merely includes.
bool concernsUnit(const Program &program, const Skipped &skipped);

/// Completes Type::value of references (a reference's value type is that of
/// its pointee, which a recursive type may not have had yet when the
/// reference was made). Idempotent.
void resolveValueTypes(Program &program);

/// Whether an argument for a parameter of type `param` is handed over with
/// std::move: an rvalue reference, or a value of a move-only type (a record
/// without a copy constructor, a std::unique_ptr). The harness calls so and
/// the written test spells it so; the argument's state is unspecified after.
bool passedByMove(const Program &program, TypeId param);

/// What the user asked to test. Both empty: everything the unit owns.
struct Selection {
  std::string function;  ///< --function: a name or qualified name (all overloads)
  std::string className; ///< --class: a record name, qualified or not; a template name selects every instantiation
};

/// Sets program.targets from `selection`. Without one, the targets are the
/// callables defined in the unit or its main header, plus the public members
/// of the records it owns. Fails with a Usage error, listing the closest names, when the name
/// matches nothing. Returns the number of targets.
Expected<size_t> selectTargets(Program &program, const Selection &selection);

} // namespace mosaic::model
