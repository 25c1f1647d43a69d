// Misuse by a call's own arguments (Claims.h): what a C or C++ programmer
// would not pass (a buffer shorter than its length, an unterminated string,
// a singular iterator, the test's own object as the library's handle).
#include "Claims.h"

#include "mosaic/abi/Trace.h"
#include "mosaic/support/Text.h"
#include "mosaic/testcase/Lifetime.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstring>
#include <fmt/format.h>
#include <functional>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

namespace mosaic::stages {

namespace claims {

namespace {

// Whether `id` points to C strings (`const char *const *`, `char **`).
bool pointsToCStrings(const testcase::Catalog &catalog, model::TypeId id) {
  const model::Program &p = catalog.program();
  const model::Type &t = p.type(p.type(id).value);
  return t.kind == model::TypeKind::Pointer && t.pointee && catalog.isCharPointer(*t.pointee);
}

// Whether statement `v` is bytes with no NUL (a Buffer, or an Array of
// integer elements none of which is 0).
bool unterminated(const TestCase &t, const Statement &v) {
  if (v.op == Op::Buffer) return v.bytes.find('\0') == std::string::npos;
  return v.op == Op::Array && !v.refs.empty() && std::none_of(v.refs.begin(), v.refs.end(), [&](Ref e) {
           return e < t.statements.size() && t.statements[e].op == Op::Primitive && t.statements[e].bits == 0;
         });
}

// Why aggregate `s` of record `r` (fields `fields`) is a tagged union the
// test built inconsistently: an enumeration field (msgpack_object's `type`)
// names the member its union field (`via`) holds by the API's convention
// (MSGPACK_OBJECT_ARRAY holds `array`), but the test set the union through
// its first member (the only one an aggregate can: `boolean`), which the
// tag does not name. "" when consistent, zeroed, or no enumerator names a
// member (no convention to go by).
std::string taggedUnionMismatch(const testcase::Catalog &catalog, const TestCase &t, const Statement &s,
                                const model::Record &r, const std::vector<size_t> &fields) {
  const model::Program &p = catalog.program();
  for (size_t ti = 0; ti < fields.size(); ++ti) {
    const model::Type &tagType = p.type(p.type(r.fields[fields[ti]].type).value);
    if (tagType.kind != model::TypeKind::Enum || !tagType.enumId || s.refs[ti] >= t.statements.size()) continue;
    const Statement &tag = t.statements[s.refs[ti]];
    if (tag.op != Op::Primitive) continue;
    const model::Enum &e = p.enums.at(*tagType.enumId);
    for (size_t ui = 0; ui < fields.size(); ++ui) {
      const auto urec = recordOf(p, r.fields[fields[ui]].type);
      if (!urec || p.type(p.type(r.fields[fields[ui]].type).value).kind != model::TypeKind::Record) continue;
      const model::Record &u = p.record(*urec);
      const auto ufields = catalog.aggregateFields(*urec);
      if (u.tag != model::RecordTag::Union || !ufields || ufields->empty() || s.refs[ui] >= t.statements.size())
        continue;
      const Statement &held = t.statements[s.refs[ui]];
      if (held.op != Op::Aggregate || held.refs.empty()) continue;
      const auto names = [&](const model::Enumerator &n, const std::string &member) {
        const auto w = words(n.name);
        return std::find(w.begin(), w.end(), lowercase(member)) != w.end();
      };
      const bool convention = std::any_of(e.enumerators.begin(), e.enumerators.end(), [&](const model::Enumerator &n) {
        return std::any_of(u.fields.begin(), u.fields.end(), [&](const model::Field &f) { return names(n, f.name); });
      });
      const std::string &member = u.fields[ufields->front()].name;
      const auto value = static_cast<std::int64_t>(tag.bits);
      const auto it = std::find_if(e.enumerators.begin(), e.enumerators.end(),
                                   [&](const model::Enumerator &n) { return n.value == value; });
      if (!convention || it == e.enumerators.end() || names(*it, member)) continue;
      return fmt::format("a {} built by hand whose {} ({}) does not name the member of its {} the test set ({})",
                         r.name, r.fields[fields[ti]].name, it->name, r.fields[fields[ui]].name, member);
    }
  }
  return "";
}

// Whether `id` is `void *` (or `const void *`).
bool voidPointer(const model::Program &p, model::TypeId id) {
  const model::Type &t = p.type(p.type(id).value);
  return t.kind == model::TypeKind::Pointer && t.pointee && p.type(*t.pointee).kind == model::TypeKind::Void;
}

// Whether `c` takes an integer no other buffer claims that may be a
// length (unnamed, or named like one: LZ4_compress_fast_extState(state,
// src, dst, srcSize, dstCapacity, acceleration) has none left for
// `state`) or, with `inOut`, a length through a pointer (inOutLength).
bool takesALength(const model::Program &p, const model::Callable &c, bool inOut) {
  return std::any_of(c.params.begin(), c.params.end(), [&](const model::Param &q) {
    const bool free = (q.role != model::ParamRole::Length || !q.pairedWith) && (q.name.empty() || lengthName(q.name));
    return (free && p.type(p.type(q.type).value).kind == model::TypeKind::Integer) || (inOut && inOutLength(p, q));
  });
}

// Whether `c` makes a `void *` handle: it returns one and takes no integer
// (a size would make it an allocator, cJSON_malloc).
bool makesVoidHandle(const model::Program &p, const model::Callable &c) {
  return voidPointer(p, c.result) && !takesALength(p, c, false);
}

// A public function of the unit that makes `void *` handles (jansson's
// json_object_iter), or nullptr.
const model::Callable *voidHandleMaker(const testcase::Catalog &catalog) {
  for (const model::Callable &c : catalog.program().callables)
    if (c.declaredInHeader && !internal(catalog, c) && makesVoidHandle(catalog.program(), c)) return &c;
  return nullptr;
}

// Whether record `r` is an iterator: its name ends in `iterator`, any case
// (jsoncpp's ValueIteratorBase is not one by name, its ValueIterator is;
// the base's name has the word inside: `...IteratorBase`, also taken).
bool iteratorRecord(const model::Program &p, model::RecordId r) {
  std::string name = lowercase(p.record(r).name);
  if (const size_t colon = name.rfind(':'); colon != std::string::npos) name = name.substr(colon + 1);
  return name.find("iterator") != std::string::npos;
}

} // namespace

std::vector<model::CallableId> initialisersAnywhere(const model::Program &p, model::RecordId record) {
  std::vector<model::CallableId> out;
  for (const model::Callable &c : p.callables) {
    if (model::defaultsFilled(p, c) == record) {
      out.push_back(c.id);
      continue;
    }
    if (c.kind != model::CallableKind::Function || !testcase::isInitialiserName(c.name)) continue;
    for (const model::Param &param : c.params) {
      const model::Type &t = p.type(p.type(param.type).value);
      if (t.kind == model::TypeKind::Pointer && !t.pointeeConst && t.pointee && recordOf(p, param.type) == record) {
        out.push_back(c.id);
        break;
      }
    }
  }
  return out;
}

std::string singularIterator(const model::Program &p, const TestCase &t, size_t i) {
  const Statement &call = t.statements[i];
  if (call.op != Op::MethodCall || call.refs.empty() || call.refs[0] >= i) return "";
  const model::Callable &c = p.callable(call.callable);
  if (c.name == "operator=" || c.name == "operator==" || c.name == "operator!=") return "";
  Ref it = call.refs[0];
  const auto vt = testcase::variableType(p, t, it);
  const auto rec = vt ? recordOf(p, *vt) : std::nullopt;
  if (!rec || !iteratorRecord(p, *rec)) return "";
  // Through copies to the iterator they copy (each one the same iterator).
  std::set<Ref> same{it};
  while (testcase::copies(p, t.statements[it]) && t.statements[it].refs[0] < it)
    same.insert(it = t.statements[it].refs[0]);
  const Statement &made = t.statements[it];
  if (made.op == Op::Construct && made.refs.empty())
    return fmt::format("calls {} on a default-constructed {}, a singular iterator (only assigning to it is valid)",
                       callName(p, call), p.record(*rec).name);
  if (!isCall(made.op) || made.op == Op::Construct) return "";
  for (size_t j = it + 1; j < i; ++j) {
    const Statement &u = t.statements[j];
    if (!testcase::copies(p, u) && std::any_of(u.refs.begin(), u.refs.end(), [&](Ref r) { return same.count(r) > 0; }))
      return "";
  }
  return fmt::format("calls {} on the iterator {} returned, never compared with an end", callName(p, call),
                     callName(p, made));
}

std::string ownObjectThroughVoid(const model::Program &p, const TestCase &t, size_t i,
                                 std::optional<size_t> only) {
  const Statement &call = t.statements[i];
  if (!isCall(call.op)) return "";
  const auto args = argumentsOf(p, call);
  for (size_t k = 0; k < args.size(); ++k) {
    if (only && k != *only) continue;
    const Argument &a = args[k];
    if (!a.param || a.ref >= t.statements.size() || t.statements[a.ref].op != Op::AddressOf) continue;
    const model::Type &pt = p.type(a.param->type);
    if (pt.kind == model::TypeKind::Pointer && pt.pointee && p.type(*pt.pointee).kind == model::TypeKind::Void &&
        (a.param->role == model::ParamRole::None || a.param->role == model::ParamRole::UserData))
      return fmt::format("{} the address of a {} as {} (void *), which it reads as an object of its own",
                         callName(p, call), typeName(p, t.statements[t.statements[a.ref].refs[0]].type), paramName(a, k));
  }
  return "";
}

namespace {

// Misuse in what the test built for the call: a struct whose length field
// is beyond its buffer field, or one only the C library makes.
std::string builtStructMisuse(const CallView &view) {
  const auto &[catalog, p, t, i, call, args, obs, inCone] = view;
  // A struct whose length field is beyond its buffer field (z_stream's
  // avail_in beyond next_in): no callee can check that either.
  for (size_t j : builtValues(t, i)) {
    const Statement &s = t.statements[j];
    const auto rec = s.op == Op::Aggregate ? recordOf(p, s.type) : std::nullopt;
    // The C library's own handles, which only it makes (fopen, opendir):
    // a zeroed FILE is no stream (libconfig's Config::read(&file)).
    if (rec) {
      const model::Record &h = p.record(*rec);
      if (h.inSystemHeader && (h.name == "FILE" || h.name == "_IO_FILE" || h.name == "DIR" || h.name == "__dirstream"))
        return fmt::format("gives {} a {} the test built by hand: only the C library makes one ({})",
                           callName(p, call), h.name, h.name == "DIR" || h.name == "__dirstream" ? "opendir" : "fopen");
    }
    const auto fields = rec ? catalog.aggregateFields(*rec) : std::nullopt;
    if (!fields || fields->size() != s.refs.size()) continue;
    const model::Record &r = p.record(*rec);
    if (std::string why = taggedUnionMismatch(catalog, t, s, r, *fields); !why.empty())
      return fmt::format("gives {} {}", callName(p, call), why);
    for (size_t k = 0; k < fields->size(); ++k) {
      const model::Field &f = r.fields[(*fields)[k]];
      if (!f.pairedWith || f.isLength) continue;
      const auto at = std::find(fields->begin(), fields->end(), *f.pairedWith);
      if (at == fields->end()) continue;
      const Statement &buffer = t.statements[s.refs[k]], &length = t.statements[s.refs[at - fields->begin()]];
      const size_t have = bytesOf(buffer);
      if (length.op == Op::Primitive && have != SIZE_MAX && length.bits > have)
        return fmt::format("gives {} a {} whose {} ({}) is beyond its {} ({})", callName(p, call), r.name,
                           r.fields[*f.pairedWith].name, length.bits, f.name, have);
      if (length.op == Op::Primitive && length.bits > 0 && buffer.op == Op::Null)
        return fmt::format("gives {} a {} whose {} is NULL with a {} of {}", callName(p, call), r.name, f.name,
                           r.fields[*f.pairedWith].name, length.bits);
    }
  }
  return "";
}

// Misuse by the call's arguments taken together: an array released twice
// over, the test's bytes as the API's own pointer, NULL where it is
// declared never to be, a file or handle of another kind, fewer elements
// than a declared array, a variadic call without a format.
std::string wholeCallMisuse(const CallView &view) {
  const auto &[catalog, p, t, i, call, args, obs, inCone] = view;
  const model::Callable &c = p.callable(call.callable);
  // A release given an array that holds one object twice (hiredis's
  // sdsfreesplitres({s, s}, 2) frees s twice).
  if (testcase::isDestroyerName(c.name))
    for (size_t a = 0; a < args.size(); ++a) {
      if (args[a].ref >= t.statements.size() || t.statements[args[a].ref].op != Op::Array) continue;
      std::vector<Ref> elements = t.statements[args[a].ref].refs;
      std::erase_if(elements, [&](Ref r) { return r >= t.statements.size() || t.statements[r].op == Op::Null; });
      std::sort(elements.begin(), elements.end());
      if (std::adjacent_find(elements.begin(), elements.end()) != elements.end())
        return fmt::format("gives {} an array holding one object twice as {}, and it releases each", callName(p, call),
                           paramName(args[a], a));
    }
  // The test's own bytes as a pointer only the API makes (hiredis's
  // sdscat(s, t) given a char array as the sds s: sdslen reads a header
  // before its first byte).
  for (size_t a = 0; a < args.size(); ++a) {
    if (!args[a].param || args[a].ref >= t.statements.size() || !catalog.apiPointer(args[a].param->type)) continue;
    const Statement &v = t.statements[args[a].ref];
    if (v.op != Op::CString && v.op != Op::Buffer && v.op != Op::Array) continue;
    const std::vector<model::CallableId> &makers = catalog.returning(args[a].param->type);
    return fmt::format("gives {} {} bytes of the test's own as {}, a {} only the API makes ({}())", callName(p, call),
                       bytesOf(v), paramName(args[a], a), p.type(p.type(args[a].param->type).value).spelling,
                       makers.empty() ? std::string("its functions") : p.callable(makers.front()).qualifiedName);
  }
  // NULL where the declaration says never (libzip's `zip_file_t
  // *_Nonnull`, glibc's `__nonnull ((1))`); given to the call that made an
  // argument (zip_error_init of what zip_file_get_error(NULL) returned),
  // it is that earlier call's misuse (misuse: earlier calls on the object).
  for (size_t a = 0; a < args.size(); ++a)
    if (args[a].ref < t.statements.size() && t.statements[args[a].ref].op == Op::Null && args[a].param &&
        args[a].param->nonnull)
      return fmt::format("gives {} NULL as {}, which it declares never NULL", callName(p, call), paramName(args[a], a));
  // A temporary file where the callee wants something else it converts to
  // (bzip2's BZ2_bzRead given a FILE * as its BZFILE *, a handle of its
  // own that BZ2_bzReadOpen makes; Catalog::standsFor).
  for (size_t a = 0; a < args.size(); ++a) {
    if (!args[a].param || args[a].ref >= t.statements.size()) continue;
    const Statement &v = t.statements[args[a].ref];
    if (v.op == Op::File && !catalog.standsFor(v, args[a].param, args[a].param->type))
      return fmt::format("gives {} a temporary file's {} as {}, a {}", callName(p, call), p.type(v.type).spelling,
                         paramName(args[a], a), p.type(args[a].param->type).spelling);
    // And the other way: a handle of the API's own (a typedef of a void
    // pointer: bzip2's BZFILE *) where a plain `void *` means something
    // else (records.c's records_sink(void *file), a FILE *, given its reader).
    const auto vt = testcase::variableType(p, t, args[a].ref);
    if (vt && catalog.plainVoidPointer(args[a].param->type) && catalog.voidHandle(*vt))
      return fmt::format("gives {} the API's {} as {}, a {} meant for something else", callName(p, call),
                         p.type(*vt).spelling, paramName(args[a], a), p.type(args[a].param->type).spelling);
  }
  // Fewer elements than a parameter declared as an array states (libmd's
  // SHA256Transform(uint32_t state[8], const uint8_t data[64]) given the
  // address of one uint32_t).
  for (size_t a = 0; a < args.size(); ++a) {
    if (!args[a].param || !args[a].param->declaredLength || args[a].ref == testcase::kNoRef) continue;
    const size_t have = elementsAt(t, args[a].ref);
    if (have != SIZE_MAX && have < *args[a].param->declaredLength)
      return fmt::format("gives {} {} element(s) as {}, which it declares as an array of {}", callName(p, call), have,
                         paramName(args[a], a), *args[a].param->declaredLength);
  }
  // A variadic function without a format reads its extras by a contract
  // the test cannot know (a count, a terminator, their types).
  if (c.variadic && !c.formatParam)
    return fmt::format("calls the variadic {} with {} extra argument(s), which its contract (a count, a terminator, "
                       "their types) may not allow",
                       callName(p, call), args.size() > c.params.size() ? args.size() - c.params.size() : 0);
  return "";
}

// Argument `k` against the lengths around it: a length beyond its buffer,
// beyond the bytes right after it, a size times a count beyond the buffer,
// an in-out length that says the buffer holds more than it does.
std::string lengthMisuse(const CallView &view, size_t k) {
  const auto &[catalog, p, t, i, call, args, obs, inCone] = view;
  const model::Callable &c = p.callable(call.callable);
  const Argument &a = args[k];
  const Statement &v = t.statements[a.ref];
  // A length beyond its buffer: no callee can check that.
  if (a.param->role == model::ParamRole::Buffer && a.param->pairedWith && *a.param->pairedWith < args.size() &&
      c.params[*a.param->pairedWith].role == model::ParamRole::Length) {
    const Statement &len = t.statements[args[*a.param->pairedWith].ref];
    const size_t have = elementsAt(t, a.ref);
    if (len.op == Op::Primitive && have != SIZE_MAX && len.bits > have)
      return fmt::format("passes {} as {}, beyond the {} of {}", len.bits, paramName(args[*a.param->pairedWith], *a.param->pairedWith),
                         have, paramName(a, k));
  }
  // A length beyond the bytes right after it, which it may describe
  // whatever it was paired with: nettle's `(dst, length, src)`, where
  // length is src's (base64_encode_update(ctx, dst, 52, src) with 3
  // bytes of src reads past them), and `(buffer, length, data)`. Not a
  // C string after it (snprintf's `(buf, n, fmt)`: n is buf's).
  if (a.param->role == model::ParamRole::Length && v.op == Op::Primitive && k + 1 < args.size() &&
      args[k + 1].param && !args[k + 1].param->pairedWith && args[k + 1].ref < t.statements.size() &&
      args[k + 1].param->role != model::ParamRole::CString &&
      (!a.param->pairedWith || *a.param->pairedWith != k + 1)) {
    const model::Type &next = p.type(p.type(args[k + 1].param->type).value);
    const model::Type *element = next.kind == model::TypeKind::Pointer && next.pointee
                                     ? &p.type(p.type(*next.pointee).value)
                                     : nullptr;
    const bool bytes = element && (element->kind == model::TypeKind::Char || element->kind == model::TypeKind::Void ||
                                   (element->kind == model::TypeKind::Integer && element->bits == 8));
    const size_t have = elementsAt(t, args[k + 1].ref);
    if (bytes && have != SIZE_MAX && v.bits > have)
      return fmt::format("passes {} as {}, beyond the {} of {}, which it may describe", v.bits, paramName(a, k), have,
                         paramName(args[k + 1], k + 1));
  }
  // A buffer followed by an element size and a count whose product is
  // beyond it (fwrite's contract: zlib's gzfwrite(buf, 5, 4294963745, f)
  // with 5 bytes).
  if (k + 2 < args.size() && args[k + 1].param && args[k + 2].param && args[k + 1].ref < t.statements.size() &&
      args[k + 2].ref < t.statements.size()) {
    const Statement &size = t.statements[args[k + 1].ref], &count = t.statements[args[k + 2].ref];
    const auto named = [](const model::Param &param, std::initializer_list<const char *> words) {
      const std::string n = lowercase(param.name);
      return std::any_of(words.begin(), words.end(), [&](const char *w) { return n.find(w) != std::string::npos; });
    };
    const size_t have = elementsAt(t, a.ref);
    if (size.op == Op::Primitive && count.op == Op::Primitive && have != SIZE_MAX &&
        (v.op == Op::Buffer || v.op == Op::Array || v.op == Op::CString) &&
        named(*args[k + 1].param, {"size"}) && named(*args[k + 2].param, {"nitems", "nmemb", "count", "num"})) {
      const unsigned __int128 want = static_cast<unsigned __int128>(size.bits) * count.bits;
      if (want > have)
        return fmt::format("passes {} × {} as {} and {}, beyond the {} of {}", size.bits, count.bits,
                           paramName(args[k + 1], k + 1), paramName(args[k + 2], k + 2), have, paramName(a, k));
    }
  }
  // A buffer followed by an in-out length that says it holds more than
  // it does (`compress(&byte, &destLen)` with destLen 1416).
  if (k + 1 < args.size() && args[k + 1].param && inOutLength(p, *args[k + 1].param) &&
      args[k + 1].ref < t.statements.size())
    if (const Statement *len = addressedPrimitive(t, args[k + 1].ref)) {
      const size_t have = elementsAt(t, a.ref);
      if (have != SIZE_MAX && len->bits > have)
        return fmt::format("passes {} through {}, beyond the {} of {}", len->bits, paramName(args[k + 1], k + 1),
                           have, paramName(a, k));
    }
  return "";
}

// Argument `k` where the callee reads a C string (or a wide one): bytes
// with no NUL, or a pointer one past a buffer's end.
std::string stringMisuse(const CallView &view, size_t k) {
  const auto &[catalog, p, t, i, call, args, obs, inCone] = view;
  const Argument &a = args[k];
  const Statement &v = t.statements[a.ref];
  // Bytes with no NUL where the callee reads a C string (or a wide one:
  // pugixml's save_file(const wchar_t *path) given {1, 1}).
  const bool cString = a.param->role == model::ParamRole::CString ||
                       (a.param->role == model::ParamRole::None &&
                        (catalog.isCharPointer(a.param->type) || wideCharPointer(p, a.param->type)));
  // A pointer one past a buffer's last byte where the callee reads a
  // string (pugixml's xpath_variable_set::set(name) given the end of 4
  // bytes): only an end parameter may take one.
  if (cString && v.op == Op::EndOf)
    return fmt::format("gives {} a pointer one past the end of a buffer as the string {}", callName(p, call),
                       paramName(a, k));
  if (cString && unterminated(t, v))
    return wideCharPointer(p, a.param->type)
               ? fmt::format("gives {} {} wide characters with no NUL as the wide string {}", callName(p, call),
                             bytesOf(v), paramName(a, k))
               : fmt::format("gives {} {} bytes with no NUL as the C string {}", callName(p, call), bytesOf(v),
                             paramName(a, k));
  return "";
}

// Argument `k`, not declared as an array, where the callee reads up to a
// terminator: an array of C strings one of which has no NUL, or bytes with
// no NUL where the callee takes signed or unsigned chars with no length
// anywhere (utf8proc_NFKC_Casefold(const uint8_t *str)): it reads up to a
// terminator, or a block of a size of its own, and either way the test's
// bytes are no such thing. (A parameter declared as an array states its
// size, claims_mix's `block[8]`: wholeCallMisuse's declared-length rule.)
std::string unterminatedMisuse(const CallView &view, size_t k) {
  const auto &[catalog, p, t, i, call, args, obs, inCone] = view;
  const model::Callable &c = p.callable(call.callable);
  const Argument &a = args[k];
  const Statement &v = t.statements[a.ref];
  const model::Type &declared = p.type(p.type(a.param->type).value);
  const model::Type &pointed = declared.kind == model::TypeKind::Pointer && declared.pointee
                                   ? p.type(p.type(*declared.pointee).value)
                                   : declared;
  if (declared.kind == model::TypeKind::Pointer && pointed.kind == model::TypeKind::Integer && pointed.bits == 8 &&
      a.param->role == model::ParamRole::None && !takesALength(p, c, true)) {
    if (unterminated(t, v))
      return fmt::format("gives {} {} bytes with no NUL as {}, which no length goes with", callName(p, call),
                         bytesOf(v), paramName(a, k));
    // Nor a pointer one past a buffer's last byte, where nothing is
    // (libonig's onigenc_strlen_null(enc, p) given the end of 28 bytes).
    if (v.op == Op::EndOf)
      return fmt::format("gives {} a pointer one past the end of a buffer as {}, which no length goes with",
                         callName(p, call), paramName(a, k));
  }
  // An array of C strings one of which has no NUL (cJSON_CreateStringArray
  // given {buffer of 1 byte, "\n"}).
  if (pointsToCStrings(catalog, a.param->type) && v.op == Op::Array)
    for (size_t e = 0; e < v.refs.size(); ++e)
      if (v.refs[e] < t.statements.size() && unterminated(t, t.statements[v.refs[e]]))
        return fmt::format("gives {} an array whose element {} is {} bytes with no NUL, as the C strings {}",
                           callName(p, call), e, bytesOf(t.statements[v.refs[e]]), paramName(a, k));
  return "";
}

// Argument `k` released, or used, against who owns it: a release of what
// the API did not allocate or already released, a part of an object
// released with it, memory the callee takes over or an accessor lent.
std::string ownershipMisuse(const CallView &view, size_t k) {
  const auto &[catalog, p, t, i, call, args, obs, inCone] = view;
  const model::Callable &c = p.callable(call.callable);
  const Argument &a = args[k];
  const Statement &v = t.statements[a.ref];
  const bool handMade = v.op == Op::AddressOf || v.op == Op::Aggregate || v.op == Op::Array || v.op == Op::Buffer ||
                        v.op == Op::CString;
  // A release of memory the API did not allocate.
  if (testcase::releasedParam(p, c) == k && handMade)
    return fmt::format("gives {} a {} the API did not allocate", callName(p, call), typeName(p, v.type));
  // What an earlier call already released, released again (yajl_free_error
  // of the same string twice) or used (json_object_get(o) after
  // json_object_free_userdata(x, o) freed o).
  // (An initialiser may take it again: mp_init(&a) after mp_clear(&a).)
  const bool initialiser = testcase::isInitialiserName(c.name);
  for (size_t j = 0; j < i && v.op != Op::Null && !initialiser; ++j)
    if (releasedBy(p, t.statements[j]) == a.ref)
      return fmt::format("gives {} what {} already released", callName(p, call), callName(p, t.statements[j]));
  // A part released with its owner, then used or released again
  // (cJSON_Delete(object); cJSON_Delete(item) of the item
  // cJSON_AddStringToObject(object, ...) returned); or an owner released
  // after the test released a part of it, which it still holds.
  if (const auto owner = ownerOf(p, t, a.ref))
    for (size_t j = *owner + 1; j < i; ++j)
      if (releasedBy(p, t.statements[j]) == owner)
        return fmt::format("gives {} what {} returned, a part of the object {} released with it",
                           callName(p, call), callName(p, v), callName(p, t.statements[j]));
  if (testcase::releasedParam(p, c) == k)
    for (size_t j = 0; j < i; ++j)
      if (const auto part = releasedBy(p, t.statements[j]); part && ownerOf(p, t, *part) == a.ref)
        return fmt::format("releases with {} an object whose part (from {}) {} already released",
                           callName(p, call), callName(p, t.statements[*part]), callName(p, t.statements[j]));
  // Memory of the test's own given to a function that takes the buffer
  // over and frees it later (pugixml's load_buffer_inplace_own; a name
  // with the word own, adopt, steal or take): as a release of it. A
  // string too (claims_adopt(doc, text) with `char text[] = "..."`).
  if ((v.op == Op::Buffer || v.op == Op::Array || v.op == Op::CString) && takesOver(c))
    return fmt::format("gives {} the test's own {} bytes as {}, which it takes over and frees", callName(p, call),
                       bytesOf(v), paramName(a, k));
  // A release of memory an accessor lent (cJSON_free of what
  // cJSON_GetStringValue returned: the item still owns it).
  if (testcase::releasedParam(p, c) == k && isCall(v.op) && lendsItsResult(p, p.callable(v.callable)))
    return fmt::format("gives {} what {} returned, memory that {} lends and its argument still owns",
                       callName(p, call), callName(p, v), callName(p, v));
  return "";
}

// Argument `k` as a `void *`: an object of the test's own the callee reads
// as its own, the test's bytes as an opaque handle, or an object of
// another kind than the handles the API makes.
std::string voidPointerMisuse(const CallView &view, size_t k) {
  const auto &[catalog, p, t, i, call, args, obs, inCone] = view;
  const model::Callable &c = p.callable(call.callable);
  const Argument &a = args[k];
  const Statement &v = t.statements[a.ref];
  // An object of the test's own where the callee reads a `void *` as its own.
  if (std::string why = ownObjectThroughVoid(p, t, i, k); !why.empty()) return "gives " + why;
  // Bytes of the test's own as a `void *` that no length goes with: an
  // opaque handle the API made, not a buffer (jansson's
  // json_object_iter_value(void *iter), whose iter only json_object_iter
  // makes; the front end calls such a parameter user data). A callee
  // with any integer parameter may read it as a buffer of that length
  // (fwrite's buf, size, nitems), so it is left alone.
  const bool handle = voidPointer(p, a.param->type) &&
                      (a.param->role == model::ParamRole::None || a.param->role == model::ParamRole::UserData);
  if (handle && (v.op == Op::Buffer || v.op == Op::Array || v.op == Op::CString) && !takesALength(p, c, false))
    return fmt::format("gives {} {} bytes of the test's own as {} (void *), with no length: a handle only the API "
                       "makes",
                       callName(p, call), bytesOf(v), paramName(a, k));
  // An object the API made, of a type of its own, as the `void *` of an
  // API that makes `void *` handles itself (jansson's
  // json_object_iter_value(json_copy(j)), whose iter json_object_iter
  // makes): the callee reads it as the other kind.
  if (handle && isCall(v.op) && !voidPointer(p, p.callable(v.callable).result))
    if (const model::Callable *maker = voidHandleMaker(catalog))
      return fmt::format("gives {} what {} returned ({}) as {} (void *), a handle of the kind {}() makes",
                         callName(p, call), callName(p, v), typeName(p, p.callable(v.callable).result),
                         paramName(a, k), maker->name);
  return "";
}

} // namespace

std::string argumentMisuse(const testcase::Catalog &catalog, const TestCase &t, size_t i) {
  const model::Program &p = catalog.program();
  const Statement &call = t.statements[i];
  if (!isCall(call.op)) return "";
  static const std::vector<exec::Observation> none;
  const CallView view{catalog, p, t, i, call, argumentsOf(p, call), none, cone(t, i)};
  for (const auto rule : {builtStructMisuse, wholeCallMisuse})
    if (std::string why = rule(view); !why.empty()) return why;
  for (size_t k = 0; k < view.args.size(); ++k) {
    const Argument &a = view.args[k];
    if (!a.param || a.ref >= t.statements.size()) continue;
    for (const auto rule : {lengthMisuse, stringMisuse})
      if (std::string why = rule(view, k); !why.empty()) return why;
    if (a.param->declaredLength) continue; // unterminatedMisuse's note
    for (const auto rule : {unterminatedMisuse, ownershipMisuse, voidPointerMisuse})
      if (std::string why = rule(view, k); !why.empty()) return why;
  }
  return "";
}

} // namespace claims

} // namespace mosaic::stages
