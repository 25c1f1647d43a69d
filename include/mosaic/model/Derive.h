// Facts derived from a built model: factories and the target selection.
#pragma once

#include "mosaic/model/Program.h"
#include "mosaic/support/Expected.h"

#include <optional>
#include <string>
#include <string_view>

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

/// A name that says "this starts a lifetime in memory the caller has": one
/// of its words (identifierWords) starts or ends with init (mp_init_size,
/// deflateInit2_, lua's luaL_buffinit), case-insensitive. Ours.
bool isInitialiserName(const std::string &name);
/// Whether one word of a name is such a word (`init`, `Init2`,
/// `buffinit`), case-insensitive.
bool isInitialiserWord(std::string_view word);

/// The kind a handle parameter's name may give: Hungarian style, "it8" for
/// `hIT8` (lcms2's header: `cmsIT8GetSheetType(cmsHANDLE hIT8)`), else the
/// name itself, lower-case ("it8" for its definition's `it8`); "" for a
/// name of less than two letters. A kind only when function names repeat
/// it (namesKind).
std::string handleKind(const std::string &paramName);
/// Whether a function's name (its identifierWords, case-insensitive) has
/// `kind` as a word: cmsIT8Alloc has "it8", cmsDictDup has not.
bool namesKind(const std::string &functionName, const std::string &kind);
/// The kind of handle that parameter `paramName` of `functionName` takes,
/// among the handles of one type that the functions `makerNames` make:
/// the parameter's own (handleKind) when the function's name repeats it,
/// or when it is Hungarian (hProfile) and a maker's name has it; else, where the makers' names share their first words and differ in
/// the next, followed by more (lcms2's cmsHANDLE: cms, then it8, dict or
/// md5, then alloc), the function's word after the shared ones when a
/// maker's is the same (`cmsMD5add(cmsHANDLE Handle, ...)`: "md5"); ""
/// when neither says. Ours.
std::string handleKindOf(const std::string &functionName, const std::string &paramName,
                         const std::vector<std::string> &makerNames);
/// The same with the makers as callables of `program`.
std::string handleKindOf(const Program &program, const std::string &functionName, const std::string &paramName,
                         const std::vector<CallableId> &makers);

/// Whether one word of a name is `default` or `defaults`, case-insensitive:
/// the word of a setter of defaults (defaultsFilled), and of the functions a
/// header is read for (analysis/CompletingHeaders.h).
bool isDefaultsWord(std::string_view word);

/// The record a function fills with the library's defaults: a function of
/// one parameter, a non-const pointer to a complete record, with a word
/// `default` or `defaults` in its name (yajl_set_default_alloc_funcs(
/// yajl_alloc_funcs *), which an allocator table is made with). nullopt
/// for any other: a setter of one default among others takes more
/// (expat's XML_SetDefaultHandler(parser, handler)). Ours.
std::optional<RecordId> defaultsFilled(const Program &program, const Callable &callable);

/// Whether a record has a field that is a function pointer: a table of
/// callbacks or of allocation functions, which stubs fill poorly (an
/// allocator's stub gives NULL) where the library has a way to fill it.
bool hasFunctionField(const Program &program, RecordId record);

} // namespace mosaic::model
