// What a test can build and call: the rules the test generator and the
// harness generator share, so that every statement one writes the other
// can perform.
#pragma once

#include "mosaic/model/Program.h"
#include "mosaic/testcase/TestCase.h"

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace mosaic::testcase {

/// How a variable reaches a parameter (see fits()).
enum class Passing {
  Same,      ///< the parameter's value type itself (or a reference to it)
  Derived,   ///< an object of a derived class (C++ upcast)
  Deref,     ///< a pointer to it (or to a derived class): dereferenced
  Pointer,   ///< a pointer converted: adding const, to void *, derived to base
};

/// Functions a harness could not link: the unit declares them, but no
/// object linked with the harness defines them (defined in a file the build
/// does not compile, or inline in a header the front end did not find
/// (analysis/CompletingHeaders.h): yaml-cpp's `YAML::IsNull`, declared in
/// node.h and defined nowhere), and functions whose definitions call such
/// ones. By qualified name and number of
/// parameters, as the linker names them; a name covers its overloads of
/// that arity. A C function's symbol has no parameter list: it is kept
/// with kAnyArity. A destructor (`ns::T::~T`) makes its class unbuildable.
struct Unlinked {
  static constexpr size_t kAnyArity = static_cast<size_t>(-1);
  std::set<std::pair<std::string, size_t>> functions;
  /// Callables whose call the harness generator spelled in a way that does
  /// not compile (an overload set the written call cannot pick from), by
  /// signature, with the compiler's first error: left out, so that one bad
  /// call does not sink the unit (harness/Link.h).
  std::map<std::string, std::string> uncompilable;
  bool contains(const std::string &qualifiedName, size_t arity) const {
    return functions.count({qualifiedName, arity}) != 0 || functions.count({qualifiedName, kAnyArity}) != 0;
  }
  /// The name the linker gives the destructor of the class `type`:
  /// `ns::T<int>` → `ns::T<int>::~T`.
  static std::string destructorOf(const std::string &type);
};

/// Facts derived once from a program model: which types can be built by
/// which statements, which variables fit which parameters, which callables a
/// test can call and why not the others.
class Catalog {
public:
  explicit Catalog(const model::Program &program, Unlinked unlinked = {});

  /// C functions the unit declares (Origin::External) that no object the
  /// harness links defines (Unlinked): the harness and the suite's wrapper
  /// define weak stubs of them, so that the unit's own code that calls them
  /// still links. In declaration order.
  std::vector<model::CallableId> undefinedDeclarations() const;

  const model::Program &program() const { return program_; }

  /// Whether a variable of type `var` can be passed where type `param` is
  /// expected, and how (nullopt: it cannot). Types are compared through
  /// their value types (Type::value).
  std::optional<Passing> fits(model::TypeId var, model::TypeId param) const;

  /// Every type id (value or not) whose variables fit `param`, with how.
  const std::vector<std::pair<model::TypeId, Passing>> &fitting(model::TypeId param) const;

  /// Why a variable of value type `type` cannot be made by any statement;
  /// empty when it can.
  std::string whyNotBuildable(model::TypeId type) const;
  bool buildable(model::TypeId type) const { return whyNotBuildable(type).empty(); }

  /// Why a test cannot call `callable`; empty when it can.
  const std::string &whyNotCallable(model::CallableId callable) const { return notCallable_.at(callable); }
  bool callable(model::CallableId id) const { return callable_.at(id); }

  /// Callables whose result fits `type` (factories, producers of values).
  const std::vector<model::CallableId> &producers(model::TypeId type) const;

  /// Why a test cannot derive a stub subclass of `record` (Op::Subclass:
  /// each pure virtual overridden to return a default value); empty when it
  /// can. Only abstract C++ classes qualify; every type in a pure virtual's
  /// signature must be one a test can spell, and each result one the stub
  /// can default-construct.
  std::string whyNotSubclassable(model::RecordId record) const;
  bool subclassable(model::RecordId record) const { return whyNotSubclassable(record).empty(); }
  /// The pure virtuals of `record` whose result a test sets on its stub
  /// (a scalar, returned by value), as indices into Record::pureVirtuals:
  /// a Subclass statement refers to one value for each, in this order, or to
  /// none (every result value-initialised).
  std::vector<size_t> stubResults(model::RecordId record) const;

  /// Records derived from `record` (directly or not).
  const std::vector<model::RecordId> &derived(model::RecordId record) const;

  /// The fields an Aggregate statement lists for `record`, in order (indices
  /// into Record::fields); nullopt when it can only be zero-initialised
  /// (C++ bases, private, anonymous or unbuildable fields).
  std::optional<std::vector<size_t>> aggregateFields(model::RecordId record) const;
  /// Whether an aggregate of `record` may be made with no fields listed
  /// (zero-initialised, `T x{}`): a C struct, or a C++ class whose default
  /// constructor is not deleted (fmt's `formatter<T>` declares `formatter()
  /// = delete` and is an aggregate before C++20; format_decimal_result's
  /// members have no default constructor).
  bool zeroInitialisable(model::RecordId record) const {
    const model::Record &r = program_.record(record);
    return !r.isCxx || r.defaultConstructible;
  }

  /// Whether elements of `type` can be copied bytewise into an array
  /// (Array statements): scalars, pointers, C structs.
  bool arrayElement(model::TypeId type) const;
  /// Whether elements of `type` can make an array a pointer points to (a
  /// paired buffer's): arrayElement's, and C++ classes a test copies by
  /// their copy constructor (the harness copies them in place).
  bool pointedArrayElement(model::TypeId type) const;

  /// The type of the variable a call to `callable` defines: a reference
  /// result as is, any other result as its value type; nullopt for void and
  /// for results mosaic cannot hold.
  std::optional<model::TypeId> resultVariable(model::CallableId callable) const;

  /// Whether a variable of `var`'s type may be passed as `param`, counting
  /// constness: a pointer or reference to const does not reach a parameter
  /// that may write through it. (fits() ignores constness; the harness casts.)
  bool passable(model::TypeId var, model::TypeId param) const;

  /// Whether statement `s` may stand for `param` (of type `type`) beyond
  /// its type: bytes made as a buffer (Op::Buffer: exactly its bytes, no
  /// NUL after them, as a (pointer, length) pair gets them) are never a C
  /// string, which a callee reads to its NUL, past the buffer (tinyxml2's
  /// Parse(p, 109) then PushText(p): an overflow the sanitizer check takes
  /// out of the suite). A temporary file (Op::File) stands for a FILE *, a
  /// descriptor or a plain `void *` (pugixml's xml_writer_file(void *file)),
  /// never for another type it converts to: bzip2's `typedef void BZFILE`
  /// is a handle of its own, which BZ2_bzReadOpen makes from a FILE *.
  bool standsFor(const Statement &s, const model::Param *param, model::TypeId type) const;
  /// Whether `type` is `void *` (or `const void *`) as spelled: no typedef
  /// of it (bzip2's BZFILE *), which names a handle of the API's.
  bool plainVoidPointer(model::TypeId type) const;
  /// Whether `type` is a pointer to a typedef of void (bzip2's `typedef void
  /// BZFILE`, BZFILE *) or a typedef of a void pointer: a handle the API names.
  bool voidHandle(model::TypeId type) const;

  /// Whether a variable of type `var` is a const view of an object: a
  /// constant, a reference to const or a pointer to const (what a const
  /// accessor hands out). No test calls a non-const method through one.
  bool constView(model::TypeId var) const;

  /// Removes each call of a non-const method whose receiver is a const view
  /// (constView), with whatever depends on it; the harness would cast the
  /// const away, and the written test would have to (modifying what the
  /// unit handed out as read-only). Returns the number of calls removed.
  size_t dropWritesThroughConst(TestCase &test) const;

  /// Whether a variable of type `var` is a constant or a reference to one:
  /// its address is no pointer to non-const (tinyxml2's `PeekTop() const`
  /// result is no XMLNode ** target).
  bool readOnly(model::TypeId var) const;

  /// How the API makes values of `record` itself, when it does: a function
  /// that creates one and hands it out by pointer (a result `T *` with no
  /// `T` among its parameters: a creator, not a getter; for a record with
  /// no fields, a handle, also a method), or one that
  /// releases it (Lifetime.h's destroyer names, or a last word clear, fini,
  /// cleanup or deinit: mp_clear). That function's name; empty when the API
  /// leaves values of it to its callers to fill (bank's account, zlib's
  /// z_stream, option structs). A test never fills such a value field by
  /// field (testcase/TestFactory.h), and a failure on one it did is misuse.
  const std::string &madeByApi(model::RecordId record) const;

  /// Callable functions that initialise a `T` their caller provides,
  /// through a pointer to a non-const one among their parameters, and say
  /// so (testcase::isInitialiserName: mp_init, mp_init_size, deflateInit_,
  /// account_init, and lua's luaL_buffinit(L, &b), which takes it second),
  /// and those that fill one with the library's defaults
  /// (model::defaultsFilled: yajl_set_default_alloc_funcs).
  /// A test makes a `T` as `T x = {}; init(..., &x, ...)`.
  const std::vector<model::CallableId> &initialisers(model::RecordId record) const;
  /// Which parameter of `init`, one of initialisers(record), takes the `T`
  /// (the first that may).
  size_t initialisedParam(model::CallableId init, model::RecordId record) const;

  /// Whether `callable` belongs to the unit's inside rather than its
  /// interface: `static` or in an anonymous namespace, hidden or declared
  /// only in private headers (Callable::internalApi), a function of the unit
  /// file declared in no header, or a member of a class the unit file
  /// defines for itself.
  bool internalCallable(const model::Callable &callable) const;
  /// The part of internalCallable that is the unit's own: `static`, in an
  /// anonymous namespace, of the unit file and in no header, or a member of
  /// a class the unit file defines. The rest (internalApi) is the library's.
  bool internalToUnit(const model::Callable &callable) const;
  /// How an internal callable is internal, in the words failures and the
  /// closest crash attempt print: "internal to the unit" (internalToUnit)
  /// or "internal to the library" (Callable::internalApi).
  const char *insideOf(const model::Callable &callable) const;

  /// Whether only the unit's inside deals in `record`: some callables take
  /// or return it (by pointer, reference or value) and every one of them is
  /// internal (internalCallable): zlib's deflate_state, which public
  /// functions reach only as z_stream's `state`. A test does not fill a
  /// field of a public struct with one of its own making.
  bool internalType(model::RecordId record) const;

  /// A record the unit defines in its own source file (not in a header):
  /// its layout is the unit's business; tests get one from the unit.
  bool isPrivate(model::TypeId type) const;

  /// What is ill-typed in `test`, "" when nothing is: every reference must
  /// point to an earlier variable whose type fits where it is used (a call's
  /// parameter or receiver, an aggregate's field, an array's element, the
  /// pointee of an address taken). The harness copies values bytewise and
  /// would run an ill-typed test; the written test would not compile.
  std::string typeError(const TestCase &test) const;

  /// The types a call of a variadic function may pass as extra arguments
  /// (Callable::variadic): of the program's buildable types, one of each
  /// that C's default argument promotions leave as it is (int, long, long
  /// long and their unsigned forms, double, char pointers, object
  /// pointers), in type order. At most MOSAIC_MAX_VARARGS extras a call.
  const std::vector<model::TypeId> &varargTypes() const { return varargTypes_; }
  bool isVarargType(model::TypeId type) const;
  /// The abi/Format.h kind letter of an extra argument of `type` (one of
  /// varargTypes): 'i', 'l', 'd', 's' or 'p'.
  char varargKind(model::TypeId type) const;

  bool isScalar(model::TypeId type) const;
  /// A plain char pointer (char *, const char *): C strings.
  bool isCharPointer(model::TypeId type) const;
  /// Whether `type` is a pointer to the C library's stream, FILE (a record
  /// FILE or _IO_FILE that a system header declares): a test gives one
  /// over a temporary file holding its bytes (Op::File), or NULL.
  bool fileStream(model::TypeId type) const;
  /// Whether `type` is what a file descriptor is: a signed 32-bit integer
  /// (for fileDescriptor parameters, Op::File makes one).
  bool descriptorType(model::TypeId type) const;
  /// Whether `param` is a file descriptor: an `int` named fd (or ending in
  /// fd: sockfd, infd), or ending in filedes, fildes or FileHandle (giflib's
  /// DGifOpenFileHandle(int GifFileHandle, int *Error)). Descriptors 0, 1 and
  /// 2 are the test runner's own stdio, which differ from one run to the
  /// next (a pipe, a terminal, /dev/null): no test passes them
  /// (callTypeError), the factory gives -1, and mutation leaves it.
  bool fileDescriptor(const model::Param &param) const;
  /// Whether statement `index` of `test` is given to a file descriptor.
  bool descriptorArgument(const TestCase &test, size_t index) const;
  /// Whether `type` is a pointer only the API makes: a typedef of a char
  /// or void pointer (hiredis's `typedef char *sds`, libplist's `typedef
  /// void *plist_t`) that a callable function of the unit returns without
  /// taking one (sdsnew(const char *), sdsempty(), plist_new_array()). An
  /// sds carries the API's header before its first byte, a plist_t is a
  /// node of the API's: the test's bytes are neither, and the factory makes
  /// one only through the functions that return it.
  bool apiPointer(model::TypeId type) const;
  /// The callable functions that return `type` itself (apiPointer's makers
  /// and the functions that return one they were given, sdscat).
  const std::vector<model::CallableId> &returning(model::TypeId type) const;
  /// Whether the harness observes a value of `type` (its value type): a
  /// scalar of at most 64 bits, a pointer (null or not; a C string's text),
  /// std::string and std::string_view, or a complete record with a public,
  /// named scalar or pointer field (its fields). The one rule for what a
  /// test can assert on: the harness generator observes these after calls,
  /// and the extender appends getters only of these (Inspect.h).
  bool observable(model::TypeId type) const;

private:
  std::string computeWhyNotBuildable(model::TypeId type) const;
  std::string reasonNotCallable(const model::Callable &c) const;
  bool derivesFrom(model::RecordId derived, model::RecordId base) const;
  /// Why an object of `record` cannot be destroyed in a linked harness (its
  /// destructor, or one of its bases' or fields', is unlinked); empty when
  /// it can.
  std::string unlinkedDestructor(model::RecordId record, int depth = 0) const;
  // typeError()'s checks, one per op (or group of ops): "" when statement i
  // of `test` is well-typed.
  std::string referenceTypeError(const TestCase &test, size_t i, size_t k, model::TypeId want,
                                 const std::string &where) const;
  std::string callTypeError(const TestCase &test, size_t i) const;
  std::string aggregateTypeError(const TestCase &test, size_t i) const;
  std::string addressOfTypeError(const TestCase &test, size_t i) const;
  std::string arrayTypeError(const TestCase &test, size_t i) const;
  std::string endOfTypeError(const TestCase &test, size_t i) const;
  std::string subclassTypeError(const TestCase &test, size_t i) const;
  std::string fieldSetTypeError(const TestCase &test, size_t i) const;
  std::string laterReferenceError(const TestCase &test, size_t i) const;

  const model::Program &program_;
  Unlinked unlinked_;
  std::vector<bool> callable_;
  std::vector<model::TypeId> varargTypes_;
  std::vector<std::string> notCallable_;
  std::map<model::RecordId, std::vector<model::RecordId>> derived_;
  mutable std::map<model::TypeId, std::vector<std::pair<model::TypeId, Passing>>> fitting_;
  mutable std::map<model::TypeId, std::vector<model::CallableId>> producers_;
  mutable std::map<model::TypeId, bool> apiPointers_; ///< apiPointer, by value type
  mutable std::map<model::TypeId, std::vector<model::CallableId>> returning_; ///< returning, by value type
  mutable std::map<model::TypeId, std::string> notBuildable_;
  mutable std::map<model::RecordId, std::string> madeByApi_;
  mutable std::map<model::RecordId, bool> internalType_;
  mutable std::map<model::RecordId, std::vector<model::CallableId>> initialisers_;
};

} // namespace mosaic::testcase
