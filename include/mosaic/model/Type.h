// Types of the program model: what a generated test must build or observe.
//
// Plain data, no Clang types. Every type a callable or field mentions is one
// entry in Program::types, referred to by its TypeId. Types are resolved
// through typedefs and aliases: `kind` describes the canonical type, while
// `spelling` keeps the name as the code wrote it (`cJSON_bool`, `std::string`)
// because that is what a readable generated test should say.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mosaic::model {

/// Index into Program::types.
using TypeId = std::uint32_t;
/// Index into Program::records.
using RecordId = std::uint32_t;
/// Index into Program::enums.
using EnumId = std::uint32_t;
/// Index into Program::callables.
using CallableId = std::uint32_t;

enum class TypeKind {
  Void,
  Bool,
  Char,           ///< plain `char` (signed or not per target); `signed/unsigned char` are Integer
  Integer,        ///< every other integer type, with its width and signedness
  Floating,       ///< float, double, long double
  Enum,
  Pointer,        ///< object pointer (`pointee`); function pointers are FunctionPointer
  Reference,      ///< lvalue or rvalue reference (`pointee`, `isRvalue`)
  Array,          ///< fixed-size C array `T[N]`
  Record,         ///< struct, union or class that is not a modelled std type
  String,         ///< std::string
  StringView,     ///< std::string_view
  InputStream,    ///< std::istream: a test gives a std::istringstream over bytes
  OutputStream,   ///< std::ostream: a test gives an empty std::ostringstream
  Vector,         ///< std::vector<T>
  StdArray,       ///< std::array<T, N>
  Map,            ///< std::map<K, V>
  UnorderedMap,   ///< std::unordered_map<K, V>
  UniquePtr,      ///< std::unique_ptr<T>
  SharedPtr,      ///< std::shared_ptr<T>
  Optional,       ///< std::optional<T>
  Pair,           ///< std::pair<A, B>
  Tuple,          ///< std::tuple<Ts...>
  FunctionPointer,///< pointer to a free function, a callback (`signature`)
  StdFunction,    ///< std::function<R(Ps...)>, a callback (`signature`)
  Unsupported,    ///< a type mosaic cannot build or observe yet (`unsupportedReason`)
};

/// The signature of a callback type (FunctionPointer, StdFunction).
struct Signature {
  TypeId result = 0;
  std::vector<TypeId> params;
  bool variadic = false;
  bool operator==(const Signature &) const = default;
};

struct Type {
  TypeId id = 0;
  TypeKind kind = TypeKind::Unsupported;
  std::string spelling;   ///< as written, fully qualified, valid in C++ test code
  std::string canonical;  ///< the canonical type after all typedefs and aliases
  /// C units only: how C++ test code spells the type when that is not
  /// `spelling` ("" when it is). A struct or union defined inside another
  /// is named at file scope in C (C11 6.2.1p4: lua's `struct NodeKey`, in
  /// `union Node`) and in its enclosing class in C++ (`struct Node::NodeKey`);
  /// `spelling` stays C for the harness and the wrapper, compiled as C.
  std::string cxxSpelling;
  /// Typedef and alias names passed through from `spelling` to `canonical`,
  /// outermost first (`myint2` -> `myint` -> `int` gives {"myint2", "myint"}).
  std::vector<std::string> aliases;
  /// `spelling` names a typedef the unit's source file declares (expat's
  /// `KEY` in xmlparse.c): code outside the unit spells `canonical`.
  bool spelledInUnit = false;
  bool isConst = false;   ///< top-level const (e.g. a `const int` field)
  /// The type a variable holding a value of this type has: references and
  /// top-level const removed (`const std::string &` -> `std::string`). The
  /// id itself for types without either.
  TypeId value = 0;

  // Scalars.
  unsigned bits = 0;      ///< Bool, Char, Integer, Floating, Enum: width in bits
  bool isSigned = false;  ///< Char, Integer, Enum (of its underlying type)

  // Enum.
  std::optional<EnumId> enumId;

  // Pointer, Reference: the referenced type, and whether it is const.
  std::optional<TypeId> pointee;
  bool pointeeConst = false;
  bool isRvalue = false;  ///< Reference: `T&&`

  // Array, StdArray: element type and length; Vector, Optional, smart
  // pointers: `element` is the value type.
  std::optional<TypeId> element;
  std::uint64_t length = 0;

  // Map, UnorderedMap: key -> element; Pair, Tuple: the element types.
  std::optional<TypeId> key;
  std::vector<TypeId> elements;

  // Record.
  std::optional<RecordId> recordId;

  // FunctionPointer, StdFunction.
  std::optional<Signature> signature;

  // Unsupported.
  std::string unsupportedReason;
};

/// The stable lower-case name of a kind, used in JSON and summaries.
const char *toString(TypeKind kind);
/// Inverse of toString; nullopt for an unknown name.
std::optional<TypeKind> typeKindFromString(const std::string &name);

/// True for types a test cannot spell or build at all.
inline bool isUnsupported(const Type &t) { return t.kind == TypeKind::Unsupported; }

} // namespace mosaic::model
