// The program model: everything the later stages know about a unit.
//
// Built by the front end (lib/analysis) from one translation unit, consumed by
// the harness, the search and the test writer. Plain data, serialisable to
// JSON (model/Json.h); nothing here depends on Clang.
#pragma once

#include "mosaic/model/Type.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mosaic::model {

/// A span of source lines, 1-based and inclusive.
struct SourceRange {
  std::string file; ///< absolute path
  unsigned beginLine = 0;
  unsigned endLine = 0;
  bool operator==(const SourceRange &) const = default;
};

/// Where a callable's code lives, relative to the unit under test.
enum class Origin {
  Unit,     ///< defined in the unit's own source file
  Header,   ///< defined in a (non-system) header, e.g. inline or an implicit member
  External, ///< only declared here: defined in another translation unit
};

enum class Access { Public, Protected, Private };

struct Enumerator {
  std::string name;
  std::int64_t value = 0;
  bool operator==(const Enumerator &) const = default;
};

struct Enum {
  EnumId id = 0;
  std::string name;          ///< qualified name, as a test would spell it
  bool scoped = false;       ///< `enum class`
  TypeId underlying = 0;
  std::vector<Enumerator> enumerators;
  SourceRange location;
};

struct Field {
  std::string name;
  TypeId type = 0;
  Access access = Access::Public;
  unsigned bitWidth = 0;     ///< 0 when not a bit-field
  bool isStatic = false;     ///< static data member
  /// A (pointer, length) pair of fields, as a caller fills them (zlib's
  /// z_stream: next_in with avail_in): the index of the other field. A test
  /// fills the pair consistently: the length is the pointed buffer's.
  std::optional<unsigned> pairedWith;
  bool isLength = false;     ///< the length half of such a pair
};

enum class RecordTag { Struct, Class, Union };

/// A pure virtual member function that a concrete subclass of an abstract
/// class must override: the class's own, or a base's that nothing between
/// overrides. A test derives a stub subclass from these (Op::Subclass).
struct PureVirtual {
  std::string name;          ///< unqualified (`OnNull`, `operator()`)
  TypeId result = 0;
  std::vector<TypeId> params;
  bool isConst = false;
  bool isNoexcept = false;
  std::string refQualifier;  ///< "", "&" or "&&"
  bool operator==(const PureVirtual &) const = default;
};

/// A struct, union or class, with how a test can obtain one.
struct Record {
  RecordId id = 0;
  std::string name;          ///< qualified name, as a test would spell it (`ns::Stack<int>`)
  TypeId type = 0;           ///< the record's own (unqualified) type
  RecordTag tag = RecordTag::Struct;
  bool complete = true;      ///< false for an opaque (declared-only) type
  bool isCxx = false;        ///< declared in C++ (a CXXRecordDecl)
  bool inSystemHeader = false;
  /// Some declaration of it is outside the unit file (a header declares
  /// `struct xml_node_struct;` that pugixml.cpp defines): a test can name
  /// pointers to it even when only the unit defines it.
  bool declaredOutsideUnit = false;
  /// True when the unit itself owns it: defined in the unit file or its main
  /// header, or one of its members is defined in the unit. Its members are
  /// targets by default (see Program::targets).
  bool ownedByUnit = false;
  /// Can be written as `T{a, b, c}` with the public fields in order
  /// (a C struct or union, or a C++ aggregate).
  bool aggregate = false;
  bool abstract = false;
  /// For an abstract C++ class: what a stub subclass overrides, and why
  /// none can be written (empty when one can: a constructor without
  /// arguments that a subclass reaches, a destructor that is not private,
  /// not final, no pure virtual conversion operator).
  std::vector<PureVirtual> pureVirtuals;
  std::string notSubclassable;
  bool polymorphic = false;
  bool defaultConstructible = false;
  bool copyConstructible = false;
  bool moveConstructible = false;
  bool publicDestructor = true;
  /// For an instantiation of a class template: the template's name and the
  /// arguments as written (`Stack` with {"int"}).
  std::string templateName;
  std::vector<std::string> templateArgs;
  std::vector<RecordId> bases;         ///< public base classes
  std::vector<Field> fields;           ///< in declaration order, all access levels
  std::vector<CallableId> constructors;///< public, callable constructors
  std::vector<CallableId> methods;     ///< public methods and operators
  /// Callables (not constructors) returning T, T*, or a smart pointer to T.
  std::vector<CallableId> factories;
  SourceRange location;
};

enum class CallableKind {
  Function,     ///< free function, possibly in a namespace, possibly `static`
  Constructor,
  Method,       ///< non-static member function
  StaticMethod,
  Operator,     ///< member or free operator worth calling: == != < <= > >= [] ()
};

/// What a parameter means for input generation (beyond its type).
enum class ParamRole {
  None,
  CString,   ///< `char *` / `const char *` read as a NUL-terminated string
  Buffer,    ///< pointer half of a (pointer, length) pair: `buffer` + `pairedWith`
  Length,    ///< length half of a (pointer, length) pair
  Out,       ///< non-const pointer or reference the callee writes through
  UserData,  ///< `void *` passed through to callbacks or stored
  Callback,  ///< function pointer or std::function
  End,       ///< end half of a (begin, end) pair of byte pointers: one past the begin's buffer
};

struct Param {
  std::string name;          ///< as declared; empty when unnamed
  TypeId type = 0;
  ParamRole role = ParamRole::None;
  /// Buffer <-> Length, or Buffer <-> End: the index of the other half of
  /// the pair.
  std::optional<unsigned> pairedWith;
  /// The callee writes through this pointer or reference (Out always; a
  /// Buffer when it is an output buffer).
  bool written = false;
  bool hasDefault = false;   ///< has a default argument
  /// The bound of a parameter declared as an array (libmd's
  /// `SHA256Transform(uint32_t state[8], const uint8_t data[64])`): the
  /// pointer it decays to must reach that many elements, by the contract
  /// the declaration states (C11 6.7.6.3's `[static 8]` makes it binding).
  std::optional<std::uint64_t> declaredLength;
  /// Declared never NULL: a `_Nonnull` pointer (libzip's `zip_file_t
  /// *_Nonnull`), or `__attribute__((nonnull))` on it or on its function
  /// (glibc's `__nonnull ((1))`). NULL there is the caller's fault.
  bool nonnull = false;
};

/// Literals a function compares against or uses: seeds for input values.
struct Constants {
  std::vector<std::int64_t> integers;  ///< integer literals and folded integer constants
  std::vector<double> floats;
  std::vector<std::int64_t> chars;     ///< character literals, by value
  std::vector<std::string> strings;    ///< narrow string literals (bytes), deduplicated
  bool empty() const { return integers.empty() && floats.empty() && chars.empty() && strings.empty(); }
};

/// How a literal is named across files, for counting the files that hold
/// it (Program::literalDocuments): "i:42" (integers and characters by
/// value), "f:0.5", "s:" + bytes.
std::string integerLiteralKey(std::int64_t value);
std::string floatLiteralKey(double value);
std::string stringLiteralKey(const std::string &bytes);

/// In how many of the project's other source files each of the unit's
/// literals appears: the document frequencies of GRT's constant mining
/// (TF-IDF over the project's files, search/Grt.h).
struct LiteralDocuments {
  std::uint32_t files = 0;                     ///< source files lexed besides the unit
  std::map<std::string, std::uint32_t> holding; ///< literal key -> files holding it (absent: none)
};

struct Callable {
  CallableId id = 0;
  CallableKind kind = CallableKind::Function;
  std::string name;          ///< unqualified (`push`, `operator==`, `Stack`)
  std::string qualifiedName; ///< how a test names it (`ns::Stack<int>::push`)
  /// Unique among callables: qualified name with parameter types and
  /// qualifiers, e.g. `ns::Stack<int>::push(const int &)`.
  std::string signature;
  /// Its symbols in the object code (mangled for C++; a constructor or a
  /// destructor has one per variant): how the unit's description, which
  /// names functions as the IR does, finds it.
  std::vector<std::string> linkageNames;
  std::optional<RecordId> parent;  ///< the class of a constructor or member
  TypeId result = 0;          ///< return type (void for constructors)
  std::vector<Param> params;
  Origin origin = Origin::Unit;
  bool internalLinkage = false; ///< `static` or in an anonymous namespace: reach through a wrapper TU
  /// Declared in the unit's main header (Program::mainHeader): part of the
  /// unit's interface (an inline function there belongs to the unit).
  bool declaredInMainHeader = false;
  /// Declared in a project header of the unit's (the main header, or any
  /// other one the unit includes, which a test includes too: expat.h for
  /// xmlparse.c), so a test calls it by name. Other functions of the unit
  /// are reached through the wrapper TU like static ones.
  bool declaredInHeader = false;
  /// Not part of the project's interface though a header may declare it:
  /// hidden visibility (lua's LUAI_FUNC, or -fvisibility=hidden without an
  /// export attribute: not exported from the project's shared library), or
  /// declared only in project headers whose names say so (json-c's
  /// json_object_private.h, zstd's zstd_internal.h: a word private,
  /// internal, int or impl), or documented as Doxygen's `\internal`
  /// (libexif's exif_array_set_byte_order). A failure reached only through
  /// it is misuse.
  bool internalApi = false;
  bool cLinkage = false;        ///< C function or `extern "C"`
  bool isConst = false;         ///< const member function
  /// A const member function whose class also declares a non-const one of
  /// the same name and parameter types (`node *get(k) const` beside
  /// `node &get(k)`): called on a non-const object, the non-const one is
  /// chosen, so a call of this one goes through a const view of the object.
  bool hasNonConstTwin = false;
  /// A function-like macro of its name is defined at the end of the unit
  /// (libconfig.h defines `config_set_default_format(C, F)` as an
  /// assignment beside the function): a call is written `(name)(args)`,
  /// which the preprocessor leaves alone, so the function runs, as in the
  /// harness, and a null argument does not become `nullptr->member`.
  bool macroShadowed = false;
  /// A function-like macro of the API over a function (analysis/ApiMacros.h:
  /// zlib's inflateInit over inflateInit_): that function's qualified name.
  /// Called by the macro's name, with the parameters it passes on; what runs
  /// is the function (its linkage names).
  std::string macroOf;
  /// Stands for the address of a global object of the API (analysis/
  /// GlobalObjects.h: nettle's `&nettle_sha256`, a `const struct
  /// nettle_hash`): no parameters, its result a pointer to the object, no
  /// call made (the harness and the tests write `&name`); never a target.
  bool globalObject = false;
  /// Declared deprecated (`__attribute__((deprecated("use X instead")))`,
  /// `[[deprecated]]`): the attribute's message, empty without one (LZ4's
  /// LZ4_decompress_fast, "deprecated and unsafe"). A failure in a call of
  /// it is no defect the library would accept (Classify: misuse).
  std::optional<std::string> deprecated;
  bool isVirtual = false;
  bool isNoexcept = false;
  /// Takes `...` after its parameters: a call may pass extra arguments of
  /// the types Catalog::varargTypes lists (the harness calls it through
  /// libffi; a free function only).
  bool variadic = false;
  /// Its name finds other functions in its scope (private ones included):
  /// a written call casts its arguments to the parameter types.
  bool overloaded = false;
  /// A variadic function's format parameter (an index into params), from
  /// `__attribute__((format(printf|scanf, ...)))` or, without one, a last
  /// fixed parameter that is a char pointer named like `fmt` or `format`:
  /// its extras must fit the format (abi/Format.h), or the call is the
  /// caller's undefined behaviour and not performed.
  std::optional<size_t> formatParam;
  bool scanfFormat = false; ///< the format is scanf's (no conversion a test can feed)
  bool isInline = false;
  bool isImplicit = false;      ///< compiler-declared (e.g. implicit copy constructor)
  bool isExplicit = false;      ///< explicit constructor
  bool isTemplateInstance = false; ///< instantiation of a function template
  std::string operatorSpelling;    ///< Operator: `==`, `[]`, ...
  /// Constructor: copy / move / default, for "how to obtain one".
  bool isDefaultConstructor = false;
  bool isCopyConstructor = false;
  bool isMoveConstructor = false;
  SourceRange location;          ///< of the definition when there is one
  Constants constants;
};

/// Something the front end saw and cannot (yet) offer to a generated test.
struct Skipped {
  std::string name;   ///< qualified name or signature
  std::string what;   ///< "function", "method", "constructor", "class", ...
  std::string reason; ///< one line a user can act on
  SourceRange location; ///< of the definition when there is one
  std::optional<RecordId> parent; ///< the class of a skipped member
};

/// A macro directive of the unit file that comes before one of its project
/// includes: the configuration its headers were read under (zstd's
/// `#define ZSTD_STATIC_LINKING_ONLY` before `#include "zstd.h"` declares
/// the advanced API). A test repeats it at the same place among its
/// includes, so that it sees the declarations the harness saw.
struct ConfigMacro {
  std::string definition;   ///< "NAME", "NAME body" or "NAME(a) body"; for an #undef, "NAME"
  bool undef = false;
  size_t beforeInclude = 0; ///< the index in Program::unitIncludes of the include it precedes
};

/// The model of one unit.
struct Program {
  /// Version of the JSON format written by model/Json.h; bump on any change
  /// of meaning.
  static constexpr int kFormatVersion = 13;

  std::string unit;              ///< absolute path of the unit's source file
  /// The unit's own header, when it includes one: same name, header
  /// extension (tinyxml2.h for tinyxml2.cpp). What it declares is the unit's
  /// interface, so its records and inline functions belong to the unit.
  std::string mainHeader;
  std::string language;          ///< "c" or "c++"
  std::vector<std::string> compileCommand; ///< the arguments the unit was parsed with
  std::string directory;         ///< the working directory of that command
  std::string compileDatabase;   ///< the compile_commands.json it came from
  std::vector<std::string> notes;///< what the front end adjusted (dropped flags, fallbacks)

  std::vector<Type> types;
  std::vector<Record> records;
  std::vector<Enum> enums;
  std::vector<Callable> callables;
  std::vector<Skipped> skipped;
  /// The unit's mutable variables of static storage that a test can save
  /// and restore as bytes (defined in the unit file, at file or namespace
  /// scope, not const, trivially copyable), as the unit's own code spells
  /// them. A test process runs many tests; these are what one test can
  /// leave behind for the next (installed hooks, an error pointer, a counter).
  std::vector<std::string> state;
  /// Macros the unit file defines and leaves defined at its end. Code that
  /// includes the unit's source (the harness, the suite's wrapper) undefines
  /// them after it: they are private to the unit, and one named like a field
  /// or a type would rewrite the code that follows.
  std::vector<std::string> unitMacros;
  /// The project's headers (not system ones) the unit file includes itself
  /// at file scope, in order, as canonical paths. A test includes them all,
  /// in this order: a header may need the ones before it (expat's xmltok.h
  /// needs FASTCALL from internal.h), and the unit's types and callees are
  /// declared in them (json-c's struct json_object, in json_object_private.h).
  std::vector<std::string> unitIncludes;
  /// The unit file's macro directives before its last project include, in
  /// order (ConfigMacro).
  std::vector<ConfigMacro> configuration;
  /// Project headers the unit does not include that define what it only
  /// declares (analysis/CompletingHeaders.h: yaml-cpp's node/impl.h for
  /// node.cpp), canonical, in the order they were found. The unit was parsed
  /// with each as `-include` (it is in compileCommand, so the harness and the
  /// suite's unit library see it too); a test includes them after
  /// unitIncludes.
  std::vector<std::string> completingHeaders;
  /// Project headers the unit includes that a test cannot include, as
  /// canonical paths: ones that define variables or functions of external
  /// linkage (zlib's trees.h defines its code tables: they would be defined
  /// twice, beside the unit), and ones that use a type or value the unit
  /// file declares before including them (zlib's crc32.h and the unit's
  /// `z_word_t` typedef). Not even as the unit's main header.
  std::vector<std::string> excludedHeaders;
  /// Blocks of project headers that a macro the unit file defines switches
  /// on, where the header's definitions are (a single-header library:
  /// tiny_obj_loader.h's `#ifdef TINYOBJLOADER_IMPLEMENTATION`). Tests
  /// include the header without the macro: what is declared in these
  /// blocks only the unit and its wrapper can name, as if in the unit file.
  std::vector<SourceRange> unitBlocks;
  /// Whether `at` lies in the unit file or in one of its unitBlocks.
  bool inUnitCode(const SourceRange &at) const;
  /// Inputs the project's own code gives the unit: string literals of its
  /// other source files that call the unit (analysis/ProjectSamples.h),
  /// best first. Seeds for strings and buffers beside the unit's literals.
  std::vector<std::string> samples;
  LiteralDocuments literalDocuments;
  /// The callables the user asked to test (--function, --class, or by default
  /// every callable the unit owns). Others are helpers: they build arguments.
  std::vector<CallableId> targets;

  const Type &type(TypeId id) const { return types.at(id); }
  const Record &record(RecordId id) const { return records.at(id); }
  const Callable &callable(CallableId id) const { return callables.at(id); }
};

const char *toString(Origin o);
const char *toString(Access a);
const char *toString(RecordTag t);
const char *toString(CallableKind k);
const char *toString(ParamRole r);

/// The name to call a member by on an object: its qualified name without
/// its class (`push`, `get<int>`, `operator==`); the plain name otherwise.
std::string memberName(const Program &program, const Callable &member);

/// How a free function's call names it: its qualified name, in parentheses
/// when a macro of that name hides it (Callable::macroShadowed).
std::string calleeName(const Callable &function);

} // namespace mosaic::model
