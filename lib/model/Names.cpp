// The stable names of the model's enums, shared by JSON and summaries.
#include "mosaic/model/Program.h"

#include <array>
#include <cstdio>
#include <utility>

namespace mosaic::model {

namespace {
constexpr std::array kTypeKindNames = {
    std::pair{TypeKind::Void, "void"},
    std::pair{TypeKind::Bool, "bool"},
    std::pair{TypeKind::Char, "char"},
    std::pair{TypeKind::Integer, "integer"},
    std::pair{TypeKind::Floating, "floating"},
    std::pair{TypeKind::Enum, "enum"},
    std::pair{TypeKind::Pointer, "pointer"},
    std::pair{TypeKind::Reference, "reference"},
    std::pair{TypeKind::Array, "array"},
    std::pair{TypeKind::Record, "record"},
    std::pair{TypeKind::String, "string"},
    std::pair{TypeKind::StringView, "string_view"},
    std::pair{TypeKind::InputStream, "istream"},
    std::pair{TypeKind::OutputStream, "ostream"},
    std::pair{TypeKind::Vector, "vector"},
    std::pair{TypeKind::StdArray, "std_array"},
    std::pair{TypeKind::Map, "map"},
    std::pair{TypeKind::UnorderedMap, "unordered_map"},
    std::pair{TypeKind::UniquePtr, "unique_ptr"},
    std::pair{TypeKind::SharedPtr, "shared_ptr"},
    std::pair{TypeKind::Optional, "optional"},
    std::pair{TypeKind::Pair, "pair"},
    std::pair{TypeKind::Tuple, "tuple"},
    std::pair{TypeKind::FunctionPointer, "function_pointer"},
    std::pair{TypeKind::StdFunction, "std_function"},
    std::pair{TypeKind::Unsupported, "unsupported"},
};
} // namespace

const char *toString(TypeKind kind) {
  for (auto [k, n] : kTypeKindNames)
    if (k == kind) return n;
  return "?";
}

std::optional<TypeKind> typeKindFromString(const std::string &name) {
  for (auto [k, n] : kTypeKindNames)
    if (name == n) return k;
  return std::nullopt;
}

const char *toString(Origin o) {
  switch (o) {
  case Origin::Unit: return "unit";
  case Origin::Header: return "header";
  case Origin::External: return "external";
  }
  return "?";
}

const char *toString(Access a) {
  switch (a) {
  case Access::Public: return "public";
  case Access::Protected: return "protected";
  case Access::Private: return "private";
  }
  return "?";
}

const char *toString(RecordTag t) {
  switch (t) {
  case RecordTag::Struct: return "struct";
  case RecordTag::Class: return "class";
  case RecordTag::Union: return "union";
  }
  return "?";
}

const char *toString(CallableKind k) {
  switch (k) {
  case CallableKind::Function: return "function";
  case CallableKind::Constructor: return "constructor";
  case CallableKind::Method: return "method";
  case CallableKind::StaticMethod: return "static_method";
  case CallableKind::Operator: return "operator";
  }
  return "?";
}

const char *toString(ParamRole r) {
  switch (r) {
  case ParamRole::None: return "none";
  case ParamRole::CString: return "c_string";
  case ParamRole::Buffer: return "buffer";
  case ParamRole::Length: return "length";
  case ParamRole::Out: return "out";
  case ParamRole::UserData: return "user_data";
  case ParamRole::Callback: return "callback";
  case ParamRole::End: return "end";
  }
  return "?";
}

std::string memberName(const Program &program, const Callable &member) {
  if (!member.parent) return member.name;
  const std::string prefix = program.record(*member.parent).name + "::";
  if (member.qualifiedName.rfind(prefix, 0) == 0) return member.qualifiedName.substr(prefix.size());
  return member.name;
}

std::string calleeName(const Callable &function) {
  return function.macroShadowed ? "(" + function.qualifiedName + ")" : function.qualifiedName;
}

} // namespace mosaic::model

namespace mosaic::model {

std::string integerLiteralKey(std::int64_t value) { return "i:" + std::to_string(value); }

std::string floatLiteralKey(double value) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "f:%.17g", value);
  return buf;
}

std::string stringLiteralKey(const std::string &bytes) { return "s:" + bytes; }

} // namespace mosaic::model
