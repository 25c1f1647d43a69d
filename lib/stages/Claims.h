// The reading that Classify's rules share (internal to lib/stages): a
// failing test's calls, arguments, values and objects as a C or C++
// programmer reads them, and the misuse and robustness rules classify()
// asks in turn. Classify.h is the interface; these are its parts, split by
// concern over the Classify*.cpp files.
#pragma once

#include "mosaic/stages/Classify.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mosaic::stages::claims {

using testcase::isCall;
using testcase::Op;
using testcase::Ref;
using testcase::Statement;
using testcase::TestCase;

// ---- Reading a test (ClassifyReading.cpp) ----

// A call's arguments (its receiver excluded) and the parameter each fills.
struct Argument {
  Ref ref;
  const model::Param *param; // null for an extra argument of a variadic call
};

std::vector<Argument> argumentsOf(const model::Program &p, const Statement &s);

// How messages name call `s`: "ns::f()".
std::string callName(const model::Program &p, const Statement &s);

// " (the result of f())" when `v` is a call, "" otherwise: how a message
// names where a null it quotes came from.
std::string resultOf(const model::Program &p, const Statement &v);

// How messages name argument `a`, the `index`-th: its parameter's name, or
// "argument N" (1-based) when it has none.
std::string paramName(const Argument &a, size_t index);

// Statement `i` and every statement it refers to, directly or not: what
// the test did to make what it gave statement `i`.
std::set<size_t> cone(const TestCase &t, size_t i);

// The cone of statement `i` without what made the numbers in it: a call
// that returned a scalar (an integer, a character, a bool, an enumerator,
// a floating value) stands for its value alone, not for the objects it took.
std::set<size_t> objectCone(const testcase::Catalog &catalog, const TestCase &t, size_t i);

// Whether argument `a` is for a callback parameter (a function pointer or
// a std::function).
bool callbackArgument(const model::Program &p, const Argument &a);

// Whether statement `r` is one of `objects` or the address of one
// (`mp_int *a = &x; ... mp_int *op = &x;` are two statements for one object).
bool oneOf(const TestCase &t, const std::set<size_t> &objects, Ref r);

// The cone of call `i`, and that of each earlier call on one of its objects
// (objectCone): what the test gave the objects the failing call works on
// (libogg's oggpack_adv(&b, -943) before oggpack_read(&b, 0); muParserX's
// reader.AddValueReader(&stub) before reader.Clone()).
std::set<size_t> coneWithEarlierCalls(const testcase::Catalog &catalog, const TestCase &t, size_t i);

// The values the test built and handed to call `i`: its arguments, and
// what they hold through addresses, aggregates and arrays, without going
// into calls (whose results the API made).
std::vector<size_t> builtValues(const TestCase &t, size_t i);

// Whether statement `r` is value `j` or holds it: its address, an array
// of it, a struct the test filled with its address, at any depth (refs
// point backwards, so this ends).
bool holdsValue(const TestCase &t, Ref r, size_t j);

// Whether a field of record `r` is a data pointer.
bool hasPointerField(const model::Program &p, const model::Record &r);

// Whether statement `j`'s result was a null pointer when the test ran.
bool nullAtRunTime(const std::vector<exec::Observation> &obs, size_t j);

// The last call before statement `i` that was given variable `v`'s address
// and left it NULL (utf8proc_map(str, 0, &dst, ...) sets dst to NULL on an
// error), as the observations of what calls wrote say; none when none did.
// A pointer variable whose last writer's effect was not observed (the run
// alone did not repeat the failure in time) counts, unobserved: it may be
// NULL (libonig's onigenc_get_right_adjust_char_head_with_prev(enc, start,
// start, &start) leaves no character before the start), and a test that
// passes it on makes no claim on plain values.
struct Nulled {
  size_t by = 0;
  bool observed = true;
};

std::optional<Nulled> nulledThrough(const model::Program &p, const TestCase &t,
                                    const std::vector<exec::Observation> &obs, Ref v, size_t i);

// Whether `type` is a pointer to a record (an object a callee reads).
bool pointerToRecord(const model::Program &p, model::TypeId type);

// Whether statement `j` is a null pointer: a literal NULL, or a call
// whose result was null when the test ran.
bool nullValue(const TestCase &t, const std::vector<exec::Observation> &obs, size_t j);

// How statement `j`'s result said it failed, when it did by the plainest
// conventions: a negative status (mp_init_size's MP_VAL, deflateInit's
// Z_STREAM_ERROR), false, or a null pointer; "" when it did not or was not
// observed.
std::string failedResult(const std::vector<exec::Observation> &obs, size_t j);

// A type as the unit spells it.
std::string typeName(const model::Program &p, model::TypeId t);

// The record a statement's variable is, or points to.
std::optional<model::RecordId> recordOf(const model::Program &p, model::TypeId id);

// Whether `id` points to a wide character type (wchar_t, char16_t,
// char32_t), which the model keeps as integers: a wide string's elements.
bool wideCharPointer(const model::Program &p, model::TypeId id);

// How many elements a buffer, string (with its NUL) or array statement
// holds; SIZE_MAX for any other statement.
size_t bytesOf(const Statement &s);

// The integer or character statement `r` is the address of (`&byte`), if it is one.
const Statement *addressedPrimitive(const TestCase &t, Ref r);

// How many elements the value of statement `r` points at: a buffer's or an
// array's, or 1 for the address of a single variable (`&byte`).
size_t elementsAt(const TestCase &t, Ref r);

// The bytes, in memory order (little-endian), of what statement `r`
// points at when that is scalars: an array of them, or the address of one
// (`&value`); nullopt otherwise.
std::optional<std::string> scalarBytes(const model::Program &p, const TestCase &t, Ref r);

// Whether a parameter's name says it is a length: a word ending in len,
// length, size or count (libtommath's `outlen`, `buflen`, `bufsize`), or
// the word capacity or avail.
bool lengthName(const std::string &name);

// Whether a parameter is an in-out length: a non-const pointer to an
// integer named like a length (zlib's `uLongf *destLen`, `size_t *size`).
bool inOutLength(const model::Program &p, const model::Param &param);

// A name's words (identifierWords), lower-case.
std::vector<std::string> words(const std::string &name);

// Call `i` of a failing test as the rules of the Classify*.cpp files read
// it: argumentMisuse, misuse and robustness each make one and ask their
// rules in turn, the first that speaks giving the claim.
struct CallView {
  const testcase::Catalog &catalog;
  const model::Program &p;
  const TestCase &t;
  size_t i;
  const Statement &call;
  std::vector<Argument> args;                // argumentsOf(p, call)
  const std::vector<exec::Observation> &obs; // what the run observed (none for argumentMisuse)
  std::set<size_t> inCone;                   // cone(t, i)
};

// ---- Ownership (ClassifyOwnership.cpp) ----

// Whether `callable` lends a pointer into something it was given rather
// than handing one over, by the naming C APIs follow: a getter, peek,
// find or lookup (cJSON_GetStringValue, json_object_get_string) returns
// memory its argument owns; one that also names a copy, a duplicate or an
// allocation hands it over, and so does one whose words (past the API's
// prefix) a release function of the API repeats (yajl_get_error's string,
// which yajl_free_error frees).
bool lendsItsResult(const model::Program &p, const model::Callable &callable);

// Whether `callable` takes over a buffer it is given, by its name: a word
// own, adopt, steal or take (pugixml's load_buffer_inplace_own).
bool takesOver(const model::Callable &callable);

// What statement `s` releases, when it is a call of a release function
// (testcase::releasedParam): the object, an index into the test.
std::optional<Ref> releasedBy(const model::Program &p, const Statement &s);

// The object statement `v` is a part of, when it is one: the result of a
// call that took an object of its own record type and names no copy,
// duplicate or detach (cJSON_AddStringToObject(object, ...) returns the
// item it added, which `object` owns now; cJSON_GetArrayItem(array, 0)
// one it holds). An index into the test, or nullopt.
std::optional<Ref> ownerOf(const model::Program &p, const TestCase &t, Ref v);

// Ownership gone wrong, up to statement `i`, as a C programmer reads the
// calls: an item given to a second owner (adoptedArgument) while the first
// still holds it (given earlier to another container, or to the same one;
// or a part of an object already, ownerOf: cJSON_GetArrayItem(a, 0) added
// to b); an object made a part of itself (given to its own part:
// cJSON_InsertItemInArray(cJSON_AddObjectToObject(o, "k"), 0, o)); a
// detach, remove or replace of an item its parent does not hold, or of
// what holds the parent; an item released by the test while what it was
// given to, or what it is a part of, still holds it (cJSON_Delete of what
// cJSON_AddNullToObject(o, "k") returned, then o used); an item, or a
// reference to one (referentOf), used after what held it, or what it
// refers to, was released. Each holder then frees or walks it as its own:
// the crash that follows is the test's doing, when the failing call works
// on one of the objects concerned (`relevant`, given them and what holds
// each, at any depth). "" when there is none, else what happened.
std::string sharedOwnership(const model::Program &p, const TestCase &t, size_t i,
                            const std::function<bool(const std::set<size_t> &)> &relevant);

// ---- Misuse by a call's own arguments (ClassifyArguments.cpp) ----

// The functions named like an initialiser (testcase::isInitialiserName)
// with a non-const pointer parameter to `record` anywhere in their list,
// and those that fill one with the library's defaults
// (model::defaultsFilled), callable or not (Catalog::initialisers: the
// callable ones).
std::vector<model::CallableId> initialisersAnywhere(const model::Program &p, model::RecordId record);

// Why call `i`, on an iterator, uses one no C++ caller may: a
// default-constructed (singular) one, or one a call returned that the test
// never compared with anything (an end() iterator, or begin() of an empty
// container: jsoncpp's Value(0u).begin().key()); "" when neither.
std::string singularIterator(const model::Program &p, const TestCase &t, size_t i);

// Call `i` given the address of a variable of the test's as a `void *`
// parameter (no role, or user data) that it reads as an object of its own
// (its argument `only`, or any): "F() the address of a T as p (void *),
// which it reads as an object of its own"; "" when none.
std::string ownObjectThroughVoid(const model::Program &p, const TestCase &t, size_t i,
                                 std::optional<size_t> only = std::nullopt);

// Misuse (Classify.h's class (c)) by call `i`'s own arguments: a length beyond its buffer, bytes with no
// NUL as a string, a release of what the API did not allocate, the test's
// own object as the callee's `void *`; "" when none.
std::string argumentMisuse(const testcase::Catalog &catalog, const TestCase &t, size_t i);

// ---- Misuse through the test's objects (ClassifyObjects.cpp; robustness: ClassifyRobustness.cpp) ----

// An element taken from a container nothing was put into, by an accessor
// whose precondition is that there is one (front, back, first, last, top,
// peek, or operator[] given an index; not at(), which checks), in the
// failing call or what made its arguments (taglib's
// `List<String> a; String s(a.back());`, as std::list::back() of an empty
// list). "" when none.
std::string elementOfNothing(const model::Program &p, const TestCase &t, size_t i);

// A pointer only the API makes (Catalog::apiPointer: hiredis's sds) used by
// statement `i` after an earlier call replaced it, returning one of its
// type in its place (sdscat(s, t) may move s as it grows: the idiom is
// `s = sdscat(s, t)`), or after a function named like a release was given
// it, alone or in an array (sdsfreesplitres(tokens, n)). "" when none.
std::string staleApiPointer(const testcase::Catalog &catalog, const TestCase &t, size_t i);

// Why failing call `i` (or what made its arguments) is misuse, Classify.h's
// class (c), by every rule of ClassifyArguments.cpp and this file's; ""
// when it is not.
std::string misuse(const testcase::Catalog &catalog, const TestCase &t, size_t i,
                   const std::vector<exec::Observation> &obs);

// Whether call `u` takes the object of statement `object` only to read
// it: a const method of it, or a function whose parameters reach it only
// through pointers or references to const (re2's NumRegexps(), json-c's
// json_object_get_type()).
bool onlyReads(const model::Program &p, const Statement &u, Ref object);

// Why failing call `i` is robustness, Classify.h's class (b): a public
// function given what it does not check (a null pointer, a number as a file
// descriptor, a null an earlier call returned or left); "" when it is not.
std::string robustness(const testcase::Catalog &catalog, const TestCase &t, size_t i,
                       const std::vector<exec::Observation> &obs);

// Whether method call `u` takes an element by an accessor that checks
// nothing (elementOfNothing).
bool uncheckedAccessor(const model::Program &p, const Statement &u);

// ---- Asked by the reports' rules too (Classify.cpp) ----

// The statement a failing run stopped at, or the last call of the test.
size_t failingStatement(const TestCase &test, const exec::RunResult &result);

// Whether integer statement `j` is a buffer's length (or end) to some call
// or aggregate: it follows its buffer.
bool pairedLength(const testcase::Catalog &catalog, const TestCase &t, size_t j);

// The first argument of call `i` that is the address of a pointer to an
// object of the test's own (a variable, an array or an aggregate; not a
// call's result, not NULL), given to a `T **` parameter, described; "" when
// none.
// `onlyApiPointers`: only where the pointer pointed to is one only the
// API makes (Catalog::apiPointer: libplist's plist_from_xml(xml, n,
// plist_t *plist) given &p with p the address of the test's variable),
// which is misuse whatever the failure.
std::string testsOwnThroughAPointer(const testcase::Catalog &catalog, const TestCase &t, size_t i,
                                    bool onlyApiPointers);

// A struct the test built field by field for call `i`, one of whose
// pointer fields holds the test's own memory (a variable's address, an
// array, bytes, a string): its record and that field's name, or nullopt.
std::optional<std::pair<model::RecordId, std::string>> builtRecordAroundOwnMemory(const testcase::Catalog &catalog,
                                                                                  const TestCase &t, size_t i);

} // namespace mosaic::stages::claims
