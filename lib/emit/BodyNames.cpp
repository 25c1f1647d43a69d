// Names in a test: of its variables (after the parameter a value goes to,
// or its type), of the test itself (the callable it ends with and what it
// shows), of the wrapper's trampolines and of stub subclasses.
#include "BodyParts.h"

#include "mosaic/abi/Format.h"
#include "mosaic/support/Text.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace mosaic::emit {

namespace {

// C and C++20 keywords and alternative tokens (C code names parameters
// `not`, `new`, `class`: libonig's regcomp.c).
const char *const kKeywords[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
    "char", "char8_t", "char16_t", "char32_t", "class", "co_await", "co_return", "co_yield", "compl", "concept",
    "const", "const_cast", "consteval", "constexpr", "constinit", "continue", "decltype", "default", "delete", "do",
    "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend",
    "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr",
    "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast", "requires",
    "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template",
    "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using",
    "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq"};

// Names a test file declares or includes: never a variable's name either.
const char *const kDeclared[] = {"std",    "testing", "main",  "free",  "malloc", "printf", "string", "NULL",
                                 "errno",  "assert",  "EOF",   "stdin", "stdout", "stderr", "abs",    "div",
                                 "exit",   "index",   "time",  "signal", "y0",    "y1",     "j0",     "j1",
                                 "log",    "exp"};

// "XMLDocument" -> "xmlDocument", "Stack" -> "stack", "cJSON" -> "cJSON",
// "XML_ParserStruct" -> "xml_ParserStruct".
std::string lowerCamel(const std::string &name) {
  std::string out = name;
  size_t upper = 0;
  while (upper < out.size() && std::isupper(static_cast<unsigned char>(out[upper]))) ++upper;
  if (upper == 0) return out;
  // The last capital of a run starts the next word, unless no letter follows.
  const bool wordFollows = upper < out.size() && std::isalpha(static_cast<unsigned char>(out[upper]));
  const size_t n = upper == 1 || !wordFollows ? upper : upper - 1;
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(out[i])));
  return out;
}

// The word a test name uses for an overloaded operator (`==` -> "Equals").
std::string operatorWord(const std::string &spelling) {
  static const std::map<std::string, std::string> words{{"==", "Equals"},    {"!=", "NotEquals"}, {"<", "Less"},
                                                        {"<=", "LessEqual"}, {">", "Greater"},    {">=", "GreaterEqual"},
                                                        {"[]", "Subscript"}, {"()", "Call"}};
  auto it = words.find(spelling);
  return it == words.end() ? "Operator" : it->second;
}

} // namespace

std::string simpleName(std::string name) {
  if (auto lt = name.find('<'); lt != std::string::npos) name = name.substr(0, lt);
  if (auto colons = name.rfind("::"); colons != std::string::npos) name = name.substr(colons + 2);
  return name;
}

std::string identifier(const std::string &raw) {
  std::string out;
  for (char c : raw) out.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  while (!out.empty() && out.back() == '_') out.pop_back();
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "v" + out;
  return out;
}

std::set<std::string> reservedNames(const model::Program &program) {
  std::set<std::string> reserved;
  for (const char *r : kKeywords) reserved.insert(r);
  for (const char *r : kDeclared) reserved.insert(r);
  for (const model::Callable &c : program.callables) reserved.insert(simpleName(c.qualifiedName));
  for (const model::Record &r : program.records) reserved.insert(simpleName(r.name));
  for (const model::Enum &e : program.enums) {
    reserved.insert(simpleName(e.name));
    for (const model::Enumerator &en : e.enumerators) reserved.insert(en.name);
  }
  for (const model::Type &t : program.types)
    for (const std::string &a : t.aliases) reserved.insert(simpleName(a));
  return reserved;
}

std::string trampolineName(const model::Callable &c) { return "mosaic_" + identifier(simpleName(c.qualifiedName)) + "_" + std::to_string(c.id); }

bool cxxKeyword(const std::string &word) {
  return std::find(std::begin(kKeywords), std::end(kKeywords), word) != std::end(kKeywords);
}

std::string variadicTrampolineName(const model::Callable &c, const std::string &kinds) {
  return trampolineName(c) + "_v" + kinds;
}

std::string varargParameterType(char kind) {
  switch (kind) {
  case MOSAIC_VARARG_INT: return "int";
  case MOSAIC_VARARG_LONG: return "long long";
  case MOSAIC_VARARG_DOUBLE: return "double";
  case MOSAIC_VARARG_STRING: return "const char *";
  default: return "const void *"; // any object pointer converts to it, const or not
  }
}

std::string stubClassName(const model::Program &program, model::RecordId record) {
  const std::string simple = simpleName(program.record(record).name);
  // In the test's own style: `xml_tree_walker` -> `StubXmlTreeWalker`.
  std::string camel;
  bool upper = true;
  for (char c : identifier(simple)) {
    if (c == '_') {
      upper = true;
      continue;
    }
    camel.push_back(upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c);
    upper = false;
  }
  bool shared = false, taken = false; // another class of that name; a class of the unit named so
  for (const model::Record &r : program.records) {
    if (r.id != record && simpleName(r.name) == simple) shared = true;
    if (simpleName(r.name) == "Stub" + camel) taken = true;
  }
  const std::string name = (taken ? "MosaicStub" : "Stub") + camel;
  return shared ? name + "_" + std::to_string(record) : name;
}

bool needsTrampoline(const model::Callable &c) {
  if (c.parent || c.kind != model::CallableKind::Function) return false;
  if (c.internalLinkage) return true;
  // The test includes the unit's own project headers: a function of the
  // unit they do not declare is out of its reach otherwise.
  return c.origin == model::Origin::Unit && !c.declaredInHeader;
}

std::string BodyWriter::identifierFor(const TestCase &t, size_t i) const {
  const Statement &s = t.statements[i];
  auto typeName = [&](model::TypeId id) -> std::string {
    const model::Type &ty = p_.type(p_.type(id).value);
    const model::Type *base = &ty;
    if (ty.kind == TypeKind::Pointer && ty.pointee) base = &p_.type(p_.type(*ty.pointee).value);
    if (base->kind == TypeKind::Record) {
      std::string n = lowerCamel(simpleName(p_.record(*base->recordId).name));
      if (reserved_.count(n)) {
        n = lowercase(n);
        if (reserved_.count(n)) n = "a" + n;
      }
      return n;
    }
    switch (base->kind) {
    case TypeKind::String:
    case TypeKind::StringView: return "text";
    case TypeKind::InputStream: return "input";
    case TypeKind::OutputStream: return "output";
    case TypeKind::Bool: return "flag";
    case TypeKind::Char: return "character";
    case TypeKind::Floating:
    case TypeKind::Integer:
    case TypeKind::Enum: return "value";
    default: return "value";
    }
  };
  if (s.op == Op::Call || s.op == Op::MethodCall) {
    auto rv = catalog_.resultVariable(s.callable);
    if (!rv) return "result";
    const model::Type &ty = p_.type(p_.type(*rv).value);
    if (catalog_.isScalar(ty.id) || ty.kind == TypeKind::String || ty.kind == TypeKind::StringView ||
        catalog_.isCharPointer(ty.id))
      return "result";
    return typeName(*rv);
  }
  // An object whose address is what gets passed: named after where it goes.
  if (s.op == Op::Aggregate || s.op == Op::Construct)
    if (auto j = addressTakenAt(t, i, t.statements.size())) {
      const model::Type &rt = p_.type(p_.type(s.op == Op::Construct ? p_.record(*p_.callable(s.callable).parent).type : s.type).value);
      const std::string suffix = rt.kind == TypeKind::Record ? simpleName(p_.record(*rt.recordId).name) : "value";
      return identifierFor(t, *j) + "_" + suffix;
    }
  if (s.op == Op::Construct) return typeName(p_.record(*p_.callable(s.callable).parent).type);
  // A value: the name of the parameter (or field) it is first passed as.
  for (size_t j = i + 1; j < t.statements.size(); ++j) {
    const Statement &u = t.statements[j];
    for (size_t k = 0; k < u.refs.size(); ++k) {
      if (u.refs[k] != i) continue;
      if (isCall(u.op)) {
        const model::Callable &c = p_.callable(u.callable);
        const size_t offset = u.op == Op::MethodCall ? 1 : 0;
        if (k >= offset && k - offset < c.params.size() && !c.params[k - offset].name.empty())
          return c.params[k - offset].name;
      } else if (u.op == Op::Aggregate) {
        const model::Record &r = p_.record(*p_.type(p_.type(u.type).value).recordId);
        const auto fields = catalog_.aggregateFields(r.id);
        if (fields && k < fields->size()) return r.fields[(*fields)[k]].name;
      }
    }
  }
  if (s.op == Op::CString) return "text";
  if (s.op == Op::Buffer || s.op == Op::Array) return "buffer";
  if (s.op == Op::File) return "file";
  return typeName(s.type);
}

std::string BodyWriter::enumeratorWord(const Statement &call, std::int64_t value) const {
  const model::Type &t = p_.type(p_.type(p_.callable(call.callable).result).value);
  if (t.kind != TypeKind::Enum || !t.enumId) return "";
  for (const model::Enumerator &en : p_.enums.at(*t.enumId).enumerators) {
    if (en.value != value) continue;
    // Each part between underscores capitalised, the rest of a part in
    // capitals lowered: `ns::Status::not_found` -> `NotFound`, SCAN_OPEN
    // -> `ScanOpen`, `kOk` -> `KOk`.
    const std::string last = en.name.substr(en.name.rfind(':') == std::string::npos ? 0 : en.name.rfind(':') + 1);
    std::string word;
    for (size_t start = 0; start <= last.size();) {
      const size_t end = std::min(last.find('_', start), last.size());
      std::string part = last.substr(start, end - start);
      if (std::none_of(part.begin(), part.end(), [](unsigned char c) { return std::islower(c); }))
        for (char &c : part) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (!part.empty()) part[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(part[0])));
      word += part;
      start = end + 1;
    }
    return word;
  }
  return "";
}

std::string BodyWriter::testName(const SuiteTest &st, bool failing) const {
  const TestCase &t = st.test;
  int last = -1;
  int end = std::min(st.threwAt >= 0 ? st.threwAt : static_cast<int>(t.statements.size()) - 1,
                     static_cast<int>(std::min(st.appendedFrom, t.statements.size())) - 1);
  // A failing test is named for the call that failed.
  if (failing && st.result.statement >= 0) end = std::min(end, st.result.statement);
  for (int i = std::min(end, static_cast<int>(t.statements.size()) - 1); i >= 0; --i)
    if (isCall(t.statements[i].op)) {
      last = i;
      break;
    }
  std::string name = "Test";
  if (last >= 0) {
    const model::Callable &c = p_.callable(t.statements[last].callable);
    if (c.kind == model::CallableKind::Operator) name = operatorWord(c.operatorSpelling);
    else if (c.kind == model::CallableKind::Constructor) name = simpleName(p_.record(*c.parent).name) + "_Constructor";
    else name = identifier(simpleName(c.qualifiedName));
    if (c.parent && c.kind != model::CallableKind::Constructor) name = identifier(simpleName(p_.record(*c.parent).name)) + "_" + name;
  }
  if (failing) {
    switch (st.result.outcome) {
    case exec::Outcome::Crash: return name + (exec::stoppedAtFileLimit(st.result) ? "_WritesPastTheFileLimit" : "_Crashes");
    case exec::Outcome::Abort: return name + "_Aborts";
    case exec::Outcome::Timeout: return name + "_Hangs";
    case exec::Outcome::Exit: return name + "_Exits";
    case exec::Outcome::Sanitizer: return name + "_SanitizerReport";
    case exec::Outcome::OutOfMemory: return name + "_RunsOutOfMemory";
    default: return name + (st.threwAt >= 0 ? "_Throws" : "_Fails"); // an uncaught exception's EXPECT_THROW
    }
  }
  if (st.threwAt >= 0) return name + "_Throws";
  for (const exec::Observation &o : st.observations) {
    if (static_cast<int>(o.statement) != last || o.target != MOSAIC_OBS_RESULT || o.field != -1) continue;
    switch (o.kind) {
    case MOSAIC_OBS_NULL: return name + (o.integer ? "_ReturnsNull" : "_ReturnsObject");
    case MOSAIC_OBS_BOOL: return name + (o.integer ? "_ReturnsTrue" : "_ReturnsFalse");
    case MOSAIC_OBS_INT:
    case MOSAIC_OBS_UINT:
      // An enumerator names the test by its name (yajl_tok_error:
      // `_ReturnsYajlTokError`), as the assertion spells it.
      if (const std::string e = enumeratorWord(t.statements[last], o.integer); !e.empty()) return name + "_Returns" + e;
      // A value of up to four digits names the test (ours: short enough to
      // read in a name, `_Returns404`); a longer one says only that it is one.
      if (o.integer >= -999 && o.integer <= 9999)
        return name + "_Returns" + (o.integer < 0 ? "Minus" + std::to_string(-o.integer) : std::to_string(o.integer));
      return name + "_ReturnsValue";
    case MOSAIC_OBS_STRING: return name + (o.bytes.empty() ? "_ReturnsEmptyString" : "_ReturnsString");
    default: break;
    }
  }
  return name;
}

} // namespace mosaic::emit
