// A test case: a sequence of statements over typed variables (as in
// EvoSuite and Pynguin). Statement i defines variable i; statements refer
// only to earlier variables. Types and callables are ids of the unit's
// program model. The wire form is abi/TestWire.h.
#pragma once

#include "mosaic/model/Program.h"
#include "mosaic/support/Expected.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mosaic::testcase {

/// The index of the statement that defined a variable.
using Ref = std::uint32_t;

/// Mirrors enum mosaic_op of abi/TestWire.h (checked there by a static_assert).
enum class Op : std::uint8_t {
  Primitive = 1, ///< bool, char, integer, floating, enum: `bits`
  CString = 2,   ///< char pointer to a NUL-terminated copy of `bytes`
  StdString = 3, ///< std::string / std::string_view / std::istream from `bytes`; empty std::ostream
  Buffer = 4,    ///< T * to a heap copy of exactly `bytes`
  Null = 5,      ///< null pointer, empty smart pointer or optional
  Aggregate = 6, ///< struct or union from field values `refs` (none: zeroed)
  AddressOf = 7, ///< pointer to variable refs[0]
  Array = 8,     ///< T[n] or T * to a heap T[n] from elements `refs`
  Construct = 9, ///< constructor `callable` with arguments `refs`
  Call = 10,     ///< function or static method `callable` with arguments `refs`
  MethodCall = 11, ///< method `callable` on receiver refs[0] with arguments refs[1..]
  FieldSet = 12, ///< refs[0].field(`field`) = refs[1]
  Callback = 13, ///< a stub of function type `type` returning refs[0] (or a zero value)
  EndOf = 14,    ///< pointer one past the bytes of refs[0] (a Buffer or string): endOffset() bytes on
  Subclass = 15, ///< an object of a stub subclass of abstract class `type`; its pure virtuals return the values
                 ///< `refs` (one per Catalog::stubResults, or none) and value-initialised results otherwise
  File = 16,     ///< a temporary file holding `bytes`, at its start: the C library's `FILE *` to it, or a
                 ///< descriptor (`int`, Catalog::fileDescriptor parameters) from MOSAIC_TEMP_FD_BASE up
};

/// Whether `op` calls something: a function, a method or a constructor.
inline bool isCall(Op op) { return op == Op::Call || op == Op::MethodCall || op == Op::Construct; }

struct Statement {
  Op op = Op::Primitive;
  model::TypeId type = 0;         ///< the variable's type (all but calls and FieldSet)
  model::CallableId callable = 0; ///< Construct, Call, MethodCall
  std::vector<Ref> refs;
  std::uint32_t field = 0;        ///< FieldSet: index into the record's fields
  std::uint64_t bits = 0;         ///< Primitive: the integer, or the bits of a double
  std::string bytes;              ///< CString, StdString, Buffer, File
  bool operator==(const Statement &) const = default;
};

struct TestCase {
  std::vector<Statement> statements;
  bool operator==(const TestCase &) const = default;
};

/// EndOf statement `index`: how many bytes past its pointer it points (the
/// length of the Buffer or string it refers to; 0 for any other variable).
std::size_t endOffset(const TestCase &test, size_t index);

/// "No variable": Callback without a return value.
inline constexpr Ref kNoRef = 0xffffffffu;

/// The model type of the variable statement `index` defines, or nullopt when
/// it defines none (a void call, a field assignment).
std::optional<model::TypeId> variableType(const model::Program &program, const TestCase &test, size_t index);

/// The type of the variable a call of `callable` defines: the record for a
/// constructor, a reference result as it is, any other result as its value
/// type; nullopt for void and for results mosaic cannot hold. (The harness
/// holds them the same way: Catalog::resultVariable is this.)
std::optional<model::TypeId> callResultVariable(const model::Program &program, model::CallableId callable);

/// Whether statement `s` copies or moves one value into a new object (a
/// copy or move constructor given it): the same object, as far as what it
/// holds goes.
bool copies(const model::Program &program, const Statement &s);

/// `test` without statement `index` and every statement that depends on it
/// (directly or not); the remaining references renumbered.
TestCase withoutStatement(const TestCase &test, size_t index);

/// Removes, first to last, each statement `drop(test, i)` holds for, with
/// what depends on it (withoutStatement); how many it removed that way.
size_t dropStatements(TestCase &test, const std::function<bool(const TestCase &, size_t)> &drop);

/// `test` without statement `index`, every use of it reading `replacement`
/// (an earlier variable of a type that fits) instead; references renumbered.
/// Minimisation uses it to drop a copy: `Door b(a); b.open()` becomes `a.open()`.
TestCase withAlias(const TestCase &test, size_t index, Ref replacement);

/// The wire encoding (abi/TestWire.h).
std::vector<std::uint8_t> encode(const TestCase &test);
Expected<TestCase> decode(const std::vector<std::uint8_t> &bytes);

/// Primitive payloads.
std::uint64_t bitsOf(double value);
double doubleOf(std::uint64_t bits);

} // namespace mosaic::testcase
