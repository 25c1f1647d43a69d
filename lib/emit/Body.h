// Writing one test case as C++ statements (internal to lib/emit): variable
// names, literals, arguments, assertions. BodyWriter's members are defined
// by concern: Body.cpp (set-up, write), BodyTypes.cpp (spelling types and
// literals), BodyNames.cpp (names), BodyExpressions.cpp (values and calls),
// BodyStatements.cpp (statements), BodyAssertions.cpp (assertions) and
// Subclass.cpp (stub subclasses); BodyParts.h holds what they share.
#pragma once

#include "mosaic/emit/Suite.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mosaic::emit {

/// Names of the functions a test reaches through the wrapper translation
/// unit (static functions, functions in an anonymous namespace, functions
/// the unit's main header does not declare).
std::string trampolineName(const model::Callable &c);
/// Whether a test calls `c` through the wrapper.
bool needsTrampoline(const model::Callable &c);
/// The trampoline of variadic `c` for calls whose extra arguments are of
/// `kinds` (Catalog::varargKind letters, abi/Format.h): C cannot pass `...`
/// on, so each shape of call has its own, with fixed parameters
/// (`mosaic_report_3_vis` for `report(fmt, 1, "x")`).
std::string variadicTrampolineName(const model::Callable &c, const std::string &kinds);
/// A C or C++ keyword or alternative token (`not`): a C parameter so
/// named goes unnamed in the test's declaration of its trampoline.
bool cxxKeyword(const std::string &word);
/// The type of a trampoline's parameter for an extra argument of `kind`,
/// as the callee reads it after the default argument promotions.
std::string varargParameterType(char kind);

/// The name of the stub subclass of abstract class `record` that tests
/// derive (`StubEventHandler`; Op::Subclass).
std::string stubClassName(const model::Program &program, model::RecordId record);

/// The member of that stub that holds what its pure virtual `index` (into
/// Record::pureVirtuals) returns: `accept_result`, `accept_result2` for a
/// second overload.
std::string stubResultName(const model::Program &program, model::RecordId record, size_t index);

/// A written line and what it belongs to (-1: the test's own statements).
struct Line {
  std::string text;
  int observation = -1;
};

/// The body of one test: its lines, or why it cannot be written.
struct Body {
  std::vector<Line> lines;
  std::string unwritable;
  std::string name;  ///< a readable name (callable and what it shows), not yet unique
  std::set<model::CallableId> trampolines;
  /// Variadic functions reached through the wrapper, with the kinds of the
  /// extra arguments of each shape of call (variadicTrampolineName).
  std::set<std::pair<model::CallableId, std::string>> variadicTrampolines;
  std::set<model::RecordId> stubs; ///< abstract classes whose stub subclass the test uses
  bool files = false;              ///< the test opens a temporary file (Op::File): temporaryFileHelpers()
};

/// The helpers a test file defines when a test gives a stream or a
/// descriptor of a temporary file holding some bytes (Op::File), and their
/// lines (after the includes, in an anonymous namespace).
inline constexpr const char *kTemporaryFile = "TemporaryFileWith";
inline constexpr const char *kTemporaryDescriptor = "TemporaryDescriptorWith";
std::vector<std::string> temporaryFileHelpers();

class BodyWriter {
public:
  BodyWriter(const model::Program &program, const testcase::Catalog &catalog, const WriteOptions &options);

  /// `assertions`: write the regression assertions (passing suite).
  Body write(const SuiteTest &test, bool assertions);

  /// A type as the test spells it: `void *` for a pointer to a type only the
  /// unit's source can name; nullopt when it cannot be spelled at all.
  std::optional<std::string> spell(model::TypeId type) const;
  /// Whether a class from `from` up to (not including) `declaring`, along
  /// the public bases, declares a member named `name`: one that hides
  /// `declaring`'s from a call on a `from` (taglib's PropertyMap::insert).
  bool hidesMember(model::RecordId from, model::RecordId declaring, const std::string &name) const;
  /// The test's spelling of `type` when it stands in for one only the unit
  /// names (spell: `void *`, `const void *`, a reference to one, or a
  /// callback spelled from such parts), which the wrapper casts back to the
  /// unit's own; nullopt when the test spells it as the unit does.
  std::optional<std::string> opaqueSpelling(model::TypeId type) const;
  /// opaqueSpelling when it is a pointer itself (`void *`, `const void *`),
  /// not a reference to one or a callback.
  std::optional<std::string> opaquePointer(model::TypeId type) const;
  /// A declaration of `name` with type `type` ("int x", "cJSON *item").
  std::optional<std::string> declare(model::TypeId type, const std::string &name) const;
  std::string literal(model::TypeId type, std::uint64_t bits) const;
  /// The definition of the stub subclass of abstract class `record`, one
  /// line each: every pure virtual overridden to do nothing and return a
  /// value-initialised result, as the harness did (harness/CodegenSubclass).
  /// nullopt when a type of some pure virtual cannot be spelled exactly here.
  std::optional<std::vector<std::string>> stubDefinition(model::RecordId record) const;

  /// Whether a test can name the exception type the harness reported
  /// (`YAML::ParserException`, `std::out_of_range`, `int`): a standard type,
  /// a one-word fundamental type, or a complete class of the model defined
  /// outside the unit file. A class thrown by another file of the project
  /// that no header of the unit declares is not (yaml-cpp's simplekey.cpp
  /// never includes exceptions.h).
  bool catchable(const std::string &exceptionType) const;

private:
  /// Byte buffers written as the harness had them (heap, exact length):
  /// set by write() for a failing test a sanitizer reported.
  bool exactBuffers_ = false;
  // Body.cpp: the phases of write().
  void resetVariables(size_t n);
  void countUses(const SuiteTest &st, size_t n, bool withAssertions);
  void nameValues(const SuiteTest &st, size_t n, std::set<model::CallableId> &trampolines);
  void inlineIntoAggregate(const SuiteTest &st, size_t index, size_t n);
  std::optional<std::string> charArrayText(const testcase::TestCase &t, const testcase::Statement &array,
                                           model::TypeId element, size_t length) const;
  bool literalInPlace(const SuiteTest &st, size_t index, size_t n) const;
  std::string uniqueName(const testcase::TestCase &t, size_t index, std::set<std::string> &taken) const;
  bool writeStatements(const SuiteTest &st, size_t n, bool withAssertions, Body &body);
  void writeThrowingCall(const SuiteTest &st, size_t index, bool withAssertions, Body &body);
  void requireStubs(const testcase::TestCase &t, Body &body) const;
  void requireTrampolines(Body &body) const;
  // BodyTypes.cpp
  bool nameable(model::TypeId type) const;
  /// A record the unit defines and a header declares: incomplete in a test,
  /// but pointers to it are spelled by name (expat's XML_Parser).
  bool pointable(model::TypeId type) const;
  // BodyNames.cpp
  std::string identifierFor(const testcase::TestCase &t, size_t index) const;
  std::string testName(const SuiteTest &st, bool failing) const;
  /// The enumerator `call`'s enum result has for `value`, as a word of a
  /// test's name (`YajlTokError`); "" when the result is no enum or no
  /// enumerator has the value.
  std::string enumeratorWord(const testcase::Statement &call, std::int64_t value) const;
  // BodyExpressions.cpp
  bool bindsMutableReference(const testcase::TestCase &t, testcase::Ref i) const;
  std::string argument(const testcase::TestCase &t, testcase::Ref ref, model::TypeId param, bool move);
  std::string expr(testcase::Ref ref) const;
  std::string callExpression(const testcase::TestCase &t, size_t index, std::set<model::CallableId> &trampolines);
  // BodyStatements.cpp
  /// One statement being written, and what its writers share.
  struct StatementSite {
    const testcase::TestCase &t;
    size_t i;                      ///< its index in t
    const testcase::Statement &s;  ///< t.statements[i]
    const std::string &name;       ///< its variable's name
    std::string &why;              ///< why it cannot be written, when it cannot
    bool addressTaken;             ///< a char array written as its bytes plus a pointer to them
    std::string arrayName;         ///< the array's name: `name`, or `name_bytes` when addressTaken
  };
  std::optional<std::string> statement(const testcase::TestCase &t, size_t index, std::set<model::CallableId> &trampolines,
                                       std::string &why);
  std::optional<std::string> declareVariable(const StatementSite &at, model::TypeId type) const;
  std::optional<std::string> pointerTo(const StatementSite &at, const std::string &array) const;
  std::optional<std::string> primitiveStatement(const StatementSite &at) const;
  std::optional<std::string> cStringStatement(const StatementSite &at) const;
  std::optional<std::string> stdStringStatement(const StatementSite &at) const;
  std::optional<std::string> bufferStatement(const StatementSite &at) const;
  std::optional<std::string> fileStatement(const StatementSite &at) const;
  std::optional<std::string> nullStatement(const StatementSite &at) const;
  std::optional<std::string> aggregateStatement(const StatementSite &at);
  std::optional<std::string> arrayFieldValue(const StatementSite &at, const model::Field &field, testcase::Ref ref);
  std::optional<std::string> addressOfStatement(const StatementSite &at) const;
  std::optional<std::string> arrayStatement(const StatementSite &at);
  std::optional<std::string> constructStatement(const StatementSite &at, std::set<model::CallableId> &trampolines);
  std::optional<std::string> callStatement(const StatementSite &at, std::set<model::CallableId> &trampolines);
  std::optional<std::string> fieldSetStatement(const StatementSite &at) const;
  std::optional<std::string> subclassStatement(const StatementSite &at) const;
  std::optional<std::string> endOfStatement(const StatementSite &at) const;
  std::optional<std::string> callbackStatement(const StatementSite &at) const;
  // BodyAssertions.cpp
  std::vector<Line> assertions(const SuiteTest &st, size_t index);
  std::optional<std::string> assertion(const testcase::TestCase &t, size_t index, const exec::Observation &o);

  const model::Program &p_;
  const testcase::Catalog &catalog_;
  WriteOptions options_;
  const bool cxx_;
  /// WriteOptions::throughWrapper, for a C unit: no project header is in
  /// sight of the test.
  const bool throughWrapper_;
  /// Body::variadicTrampolines of the test being written.
  std::set<std::pair<model::CallableId, std::string>> variadicTrampolines_;
  std::set<std::string> reserved_;
  std::set<std::string> overloaded_; ///< callables sharing their qualified name
  // Per test.
  std::vector<std::string> names_;
  std::vector<bool> heap_;     ///< the variable is a pointer to an object made with new
  std::vector<bool> inlined_;  ///< the value is written where it is used
  std::vector<bool> inspector_;///< an appended getter: written inside its assertion
  std::vector<size_t> uses_;
};

} // namespace mosaic::emit
