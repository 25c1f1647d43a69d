// Robustness (Claims.h): a public function given what it does not check,
// as a C or C++ programmer reads the failing call: NULL, a number as a
// file descriptor, one object in two roles, an object of another kind than
// its name says, an index into nothing, an element an unchecked accessor
// takes, a callback of the test's that returns NULL.
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

// One object in two roles of call `i` (cJSON_DetachItemViaPointer(item,
// item): the parent and the child; tinyxml2's doc.InsertEndChild(&doc)): a
// node that is its own child is outside what any such API accepts. ""
// when none.
std::string twoRoles(const testcase::Catalog &catalog, const TestCase &t, size_t i) {
  const model::Program &p = catalog.program();
  const Statement &call = t.statements[i];
  if (!isCall(call.op)) return "";
  const auto args = argumentsOf(p, call);
  // The object behind a pointer or reference parameter of a record type
  // (the receiver: always one), or a pointer only the API makes (hiredis's
  // sdscat(s, s): s may move as it grows, leaving the source behind).
  const auto object = [&](Ref r, const model::Param *param) -> std::optional<Ref> {
    if (r >= t.statements.size() || (param && !recordOf(p, param->type) && !catalog.apiPointer(param->type)))
      return std::nullopt;
    const Statement &v = t.statements[r];
    if (v.op == Op::Null) return std::nullopt;
    return v.op == Op::AddressOf && !v.refs.empty() ? v.refs[0] : r;
  };
  std::vector<std::pair<Ref, std::string>> roles;
  if (call.op == Op::MethodCall && !call.refs.empty())
    if (const auto o = object(call.refs[0], nullptr)) roles.emplace_back(*o, "the object it is called on");
  for (size_t k = 0; k < args.size(); ++k)
    if (const auto o = args[k].param ? object(args[k].ref, args[k].param) : std::nullopt)
      roles.emplace_back(*o, paramName(args[k], k));
  for (size_t a = 0; a < roles.size(); ++a)
    for (size_t b = a + 1; b < roles.size(); ++b)
      if (roles[a].first == roles[b].first)
        return fmt::format("{} given one object as both {} and {}", callName(p, call), roles[a].second,
                           roles[b].second);
  return "";
}

// The number of leading words `a` and `b` share.
size_t sharedWords(const std::vector<std::string> &a, const std::vector<std::string> &b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return n;
}

// An object of one kind given to a function of another (json-c's
// json_object_array_shrink(json_object_new_string("x"), 0): a string where
// an array is expected). Kinds are read off the names of the functions
// that make the record: three or more sharing a prefix (json_object_new_)
// each name one by their next word (string, array, int, ...). The callee
// names one when the word after what it shares with the creator's name
// is such a word (json_object_|array_shrink; not json_object_|get_string
// or json_object_|to_json_string, which take any kind). "" when none.
std::string kindMismatch(const model::Program &p, const TestCase &t, size_t i) {
  const Statement &call = t.statements[i];
  if (call.op != Op::Call) return "";
  const std::vector<std::string> callee = words(p.callable(call.callable).name);
  const auto args = argumentsOf(p, call);
  for (size_t k = 0; k < args.size(); ++k) {
    if (args[k].ref >= i || !args[k].param) continue;
    const Statement &made = t.statements[args[k].ref];
    const auto record = recordOf(p, args[k].param->type);
    if (made.op != Op::Call || !record || recordOf(p, p.callable(made.callable).result) != record) continue;
    const std::vector<std::string> creator = words(p.callable(made.callable).name);
    // The record's creators: functions that return one and take none.
    std::vector<std::vector<std::string>> creators;
    for (const model::Callable &c : p.callables) {
      if (c.kind != model::CallableKind::Function || recordOf(p, c.result) != record) continue;
      if (std::none_of(c.params.begin(), c.params.end(),
                       [&](const model::Param &q) { return recordOf(p, q.type) == record; }))
        creators.push_back(words(c.name));
    }
    // The longest prefix of the creator's name that three creators share,
    // and the kinds they name after it.
    for (size_t prefix = creator.size() - 1; prefix > 0; --prefix) {
      std::set<std::string> kinds;
      size_t sharing = 0;
      for (const auto &c : creators)
        if (c.size() > prefix && sharedWords(c, creator) >= prefix) {
          ++sharing;
          kinds.insert(c[prefix]);
        }
      if (sharing < 3) continue; // ours: two could be a pair (new, new_ex) rather than kinds
      const size_t at = sharedWords(callee, creator);
      if (kinds.size() < 2 || at >= callee.size() || at > prefix || !kinds.count(callee[at]) ||
          callee[at] == creator[prefix] ||
          std::find(callee.begin(), callee.end(), creator[prefix]) != callee.end())
        break;
      return fmt::format("{} given as {} a {} made by {} (a {}, where the function is for a {})", callName(p, call),
                         paramName(args[k], k), typeName(p, args[k].param->type), callName(p, made), creator[prefix],
                         callee[at]);
    }
  }
  return "";
}

// Whether a parameter's name says it is an index (re2's GetRE2(int
// regexpid), an index, idx, pos or nth).
bool indexName(const std::string &name) {
  const std::string n = lowercase(name);
  if (n == "valid" || n == "invalid" || n == "void") return false;
  for (const char *end : {"id", "index", "idx", "pos", "position", "nth"})
    if (n.size() >= std::strlen(end) && n.compare(n.size() - std::strlen(end), std::string::npos, end) == 0)
      return true;
  return false;
}

// An index into an object nothing was put into: made by a constructor or
// a creator given numbers at most, and given to no call before this one
// but calls that only read it (re2's `FilteredRE2 f(0); f.GetRE2(0)`, and
// `f.GetRE2(f.NumRegexps())`): no index is valid there, and the API need
// not check one. "" when not.
std::string indexIntoNothing(const model::Program &p, const TestCase &t, size_t i) {
  const Statement &call = t.statements[i];
  if (!isCall(call.op) || call.refs.empty()) return "";
  const Ref object = call.refs[0];
  if (object >= i) return "";
  const Statement &made = t.statements[object];
  if (made.op != Op::Construct && made.op != Op::Call) return "";
  // Made from numbers alone (re2's FilteredRE2(int min_atom_len)): settings,
  // not contents.
  for (Ref r : made.refs)
    if (r >= t.statements.size() || t.statements[r].op != Op::Primitive) return "";
  const model::Callable &maker = p.callable(made.callable);
  const auto record = made.op == Op::Construct ? maker.parent : recordOf(p, maker.result);
  if (!record) return "";
  for (size_t j = object + 1; j < i; ++j) {
    const Statement &u = t.statements[j];
    if (isCall(u.op) && std::find(u.refs.begin(), u.refs.end(), object) != u.refs.end() && !onlyReads(p, u, object))
      return "";
    if (u.op == Op::AddressOf && std::find(u.refs.begin(), u.refs.end(), object) != u.refs.end()) return "";
  }
  const auto args = argumentsOf(p, call);
  for (size_t k = call.op == Op::MethodCall ? 0 : 1; k < args.size(); ++k) {
    if (!args[k].param || args[k].ref >= t.statements.size() || !indexName(args[k].param->name)) continue;
    const Statement &v = t.statements[args[k].ref];
    // A literal, or a number a call returned (its value does not matter:
    // none is an index of nothing).
    const model::Type &ty = p.type(p.type(isCall(v.op) ? p.callable(v.callable).result : v.type).value);
    if ((v.op != Op::Primitive && !isCall(v.op)) || ty.kind != model::TypeKind::Integer) continue;
    const std::string value = isCall(v.op) ? "(the result of " + callName(p, v) + ")"
                              : ty.isSigned ? std::to_string(static_cast<std::int64_t>(v.bits))
                                            : std::to_string(v.bits);
    return fmt::format("{} given {} {} into a {} nothing was put into (made by {})", callName(p, call),
                       args[k].param->name, value, p.record(*record).name, callName(p, made));
  }
  return "";
}

// A number as a file descriptor, in the failing call or one that made its
// arguments.
std::string numberAsADescriptor(const CallView &view) {
  const auto &[catalog, p, t, i, call, args, obs, inCone] = view;
  // A number as a file descriptor, in the failing call or one that made
  // its arguments: no descriptor the test opened (giflib's
  // DGifOpenFileHandle(-1, &error), whose fdopen fails and is not checked).
  for (size_t j : cone(t, i)) {
    const Statement &u = t.statements[j];
    if (!isCall(u.op)) continue;
    const auto uargs = argumentsOf(p, u);
    for (size_t k = 0; k < uargs.size(); ++k)
      if (uargs[k].param && uargs[k].ref < t.statements.size() && t.statements[uargs[k].ref].op == Op::Primitive &&
          catalog.fileDescriptor(*uargs[k].param))
        return fmt::format("{} given {} as {}, no file descriptor the test opened", callName(p, u),
                           static_cast<std::int64_t>(t.statements[uargs[k].ref].bits), paramName(uargs[k], k));
  }
  return "";
}

// NULL given to the failing call: as an argument, as what an earlier call
// returned or left in a variable, in a pointer made from a NULL, or as the
// object of a method.
std::string nullGiven(const CallView &view) {
  const auto &[catalog, p, t, i, call, args, obs, inCone] = view;
  for (size_t k = 0; k < args.size(); ++k) {
    const Argument &a = args[k];
    if (a.ref >= t.statements.size()) continue;
    const Statement &v = t.statements[a.ref];
    if (v.op == Op::Null) return fmt::format("{} given NULL as {}", callName(p, call), paramName(a, k));
    if (isCall(v.op) && nullAtRunTime(obs, a.ref))
      return fmt::format("{} given NULL as {} (the result of {})", callName(p, call), paramName(a, k), callName(p, v));
    if (const auto nulled = nulledThrough(p, t, obs, a.ref, i))
      return nulled->observed
                 ? fmt::format("{} given NULL as {} (what {} left in it)", callName(p, call), paramName(a, k),
                               callName(p, t.statements[nulled->by]))
                 : fmt::format("{} given as {} what {} left in it, which the run did not observe (it may be NULL)",
                               callName(p, call), paramName(a, k), callName(p, t.statements[nulled->by]));
  }
  // A pointer a call returned after it was given NULL for the object it
  // reads (libzip's zip_file_get_error(NULL) returns &file->error, a few
  // bytes past NULL, which zip_error_init then writes): not NULL itself,
  // but made from one.
  for (size_t k = 0; k < args.size(); ++k) {
    if (args[k].ref >= t.statements.size()) continue;
    const Statement &v = t.statements[args[k].ref];
    if (v.op != Op::Call || p.type(p.type(p.callable(v.callable).result).value).kind != model::TypeKind::Pointer) continue;
    const auto vargs = argumentsOf(p, v);
    for (size_t m = 0; m < vargs.size(); ++m)
      if (vargs[m].param && vargs[m].ref < t.statements.size() && pointerToRecord(p, vargs[m].param->type) &&
          nullValue(t, obs, vargs[m].ref))
        return fmt::format("{} given as {} the result of {}, which was given NULL as {}", callName(p, call),
                           paramName(args[k], k), callName(p, v), paramName(vargs[m], m));
  }
  if (call.op == Op::MethodCall && !call.refs.empty() && call.refs[0] < t.statements.size() &&
      t.statements[call.refs[0]].op == Op::Null)
    return fmt::format("{} called on a null object", callName(p, call));
  return "";
}

// An element taken by an accessor that checks nothing.
std::string uncheckedElement(const CallView &view) {
  const auto &[catalog, p, t, i, call, args, obs, inCone] = view;
  // An element taken by an accessor that checks nothing (operator[] given
  // an index, front(), back()), in the failing call or what made its
  // arguments: its precondition is the caller's to keep, as with
  // std::vector (taglib's `List<String> l; l.prepend(s); l[1].size()`).
  for (size_t j : cone(t, i))
    if (uncheckedAccessor(p, t.statements[j])) {
      const Statement &u = t.statements[j];
      std::string index;
      if (u.refs.size() > 1 && u.refs[1] < t.statements.size() && t.statements[u.refs[1]].op == Op::Primitive)
        index = " " + std::to_string(t.statements[u.refs[1]].bits);
      return fmt::format("takes an element{} through {}, which checks no bound: a caller keeps within the size",
                         index, callName(p, u));
    }
  return "";
}

// An earlier call on the same objects that gave one object two roles.
std::string twoRolesEarlier(const CallView &view) {
  const auto &[catalog, p, t, i, call, args, obs, inCone] = view;
  const auto objects = objectCone(catalog, t, i);
  // An earlier call on the same objects that gave one object two roles
  // (cJSON_AddItemReferenceToArray(array, array), then printing the array
  // recurses for ever). Not through a number it returned: claims_ratio(r, r)
  // with r = claims_init_copy(d, d) divides by a zero any call could pass.
  for (size_t j = 0; j < i; ++j) {
    const Statement &u = t.statements[j];
    const auto same = [&](Ref r) { return oneOf(t, objects, r); };
    if (!isCall(u.op) || std::none_of(u.refs.begin(), u.refs.end(), same)) continue;
    if (std::string why = twoRoles(catalog, t, j); !why.empty())
      return "an earlier call on the same object gave it two roles: " + why;
  }
  return "";
}

// An object the failing call uses, made with NULL for a pointer or a
// callback it keeps.
std::string madeWithNull(const CallView &view) {
  const auto &[catalog, p, t, i, call, args, obs, inCone] = view;
  // An object the failing call uses, constructed with NULL for a pointer
  // (pugixml's xml_writer_file(nullptr), whose write() then hands fwrite
  // a null FILE *; or a call's null result), or made by a creator given NULL for a callback it
  // keeps (json-c's lh_table_new(1, free_fn, NULL, equal_fn), whose
  // lookups then call the null hash function): the null pointer was given
  // to the API, where the object was made. (Other null pointers a C
  // creator takes are often documented defaults: yajl_gen_alloc(NULL).)
  for (size_t j : cone(t, i)) {
    const Statement &made = t.statements[j];
    if (j == i || (made.op != Op::Construct && made.op != Op::Call)) continue;
    const auto margs = argumentsOf(p, made);
    for (size_t k = 0; k < margs.size(); ++k) {
      // NULL itself, or a call's null result (muParserX's
      // TokenPtr<IValue>(fun.AsIValue()), which returns NULL for a function).
      if (margs[k].ref >= t.statements.size() || !nullValue(t, obs, margs[k].ref)) continue;
      if (made.op == Op::Construct || (callbackArgument(p, margs[k]) && t.statements[margs[k].ref].op == Op::Null))
        return fmt::format("{} on an object made with NULL as {} ({}{})", callName(p, call), paramName(margs[k], k),
                           callName(p, made),
                           isCall(t.statements[margs[k].ref].op)
                               ? "; NULL was the result of " + callName(p, t.statements[margs[k].ref])
                               : std::string());
    }
  }
  return "";
}

// A callback of the test's that returns NULL where the library may need a
// pointer.
std::string nullCallback(const CallView &view) {
  const auto &[catalog, p, t, i, call, args, obs, inCone] = view;
  // A callback of the test's that returns NULL, where the library may need
  // a pointer (cmark's cmark_mem whose calloc returns NULL: cmark's own
  // allocator never does, it aborts first). A stub returns no pointer but
  // NULL, so whatever the library does with it is the test's choice; also
  // one given to an earlier call on the same objects (muParserX's
  // reader.AddValueReader(&stub), then reader.Clone() clones the stub).
  for (size_t j : coneWithEarlierCalls(catalog, t, i)) {
    const Statement &stub = t.statements[j];
    // A stub subclass's pure virtual that returns a pointer returns null
    // (jsoncpp's writeString(factory, v) with a StreamWriter::Factory stub
    // whose newStreamWriter() returns nullptr).
    if (stub.op == Op::Subclass)
      if (const auto rec = recordOf(p, stub.type))
        for (const model::PureVirtual &v : p.record(*rec).pureVirtuals) {
          const model::TypeKind k = p.type(p.type(v.result).value).kind;
          if (k == model::TypeKind::Pointer || k == model::TypeKind::UniquePtr || k == model::TypeKind::SharedPtr)
            return fmt::format("{} with a stub {} of the test's whose {}() returns nullptr", callName(p, call),
                               p.record(*rec).name, v.name);
        }
    if (stub.op != Op::Callback || !p.type(stub.type).signature) continue;
    const model::TypeKind result = p.type(p.type(p.type(stub.type).signature->result).value).kind;
    if (result != model::TypeKind::Pointer || (!stub.refs.empty() && t.statements[stub.refs[0]].op != Op::Null))
      continue;
    std::string where;
    for (size_t h : inCone)
      if (const Statement &holder = t.statements[h];
          holder.op == Op::Aggregate && std::find(holder.refs.begin(), holder.refs.end(), j) != holder.refs.end())
        if (const auto rec = recordOf(p, holder.type))
          if (const auto fields = catalog.aggregateFields(*rec)) {
            const auto at = static_cast<size_t>(std::find(holder.refs.begin(), holder.refs.end(), j) - holder.refs.begin());
            if (at < fields->size())
              where = fmt::format(" as the {} of a {}", p.record(*rec).fields[(*fields)[at]].name, typeName(p, holder.type));
          }
    return fmt::format("{} with a callback of the test's{} that returns NULL", callName(p, call), where);
  }
  return "";
}

// A null pointer inside a value the test built for the call.
std::string nullInsideAValue(const CallView &view) {
  const auto &[catalog, p, t, i, call, args, obs, inCone] = view;
  for (size_t j : builtValues(t, i)) {
    const Statement &v = t.statements[j];
    // Also a call's null result (claims_get_content(NULL) put into the array).
    if (nullValue(t, obs, j) && std::find(call.refs.begin(), call.refs.end(), j) == call.refs.end()) {
      // A null inside a struct or array the test filled for it.
      for (size_t h = j + 1; h < i; ++h) {
        const Statement &holder = t.statements[h];
        if ((holder.op == Op::Aggregate || holder.op == Op::Array) &&
            std::find(holder.refs.begin(), holder.refs.end(), j) != holder.refs.end()) {
          std::string field;
          bool internalPointer = false;
          const auto rec = recordOf(p, holder.type);
          if (holder.op == Op::Aggregate && rec)
            if (auto fields = catalog.aggregateFields(*rec)) {
              const auto at = std::find(holder.refs.begin(), holder.refs.end(), j) - holder.refs.begin();
              if (static_cast<size_t>(at) < fields->size()) {
                const model::Field &f = p.record(*rec).fields[(*fields)[at]];
                field = f.name;
                // The API's own pointer (z_stream's state), left null for
                // it to fill: no claim.
                const auto to = recordOf(p, f.type);
                internalPointer = to && catalog.internalType(*to);
              }
            }
          if (internalPointer) break;
          return fmt::format("{} given a {} whose {} is NULL{}", callName(p, call), typeName(p, holder.type),
                             field.empty() ? "element" : "field " + field, resultOf(p, v));
        }
      }
    }
    // An enumeration value none of its enumerators has.
    const model::Type &ty = p.type(p.type(v.type).value);
    if (v.op == Op::Primitive && ty.kind == model::TypeKind::Enum && ty.enumId) {
      const model::Enum &e = p.enums.at(*ty.enumId);
      const auto value = static_cast<std::int64_t>(v.bits);
      const bool named = std::any_of(e.enumerators.begin(), e.enumerators.end(),
                                     [&](const model::Enumerator &n) { return n.value == value; });
      if (!named && !e.enumerators.empty())
        return fmt::format("{} given {} as a {}, which none of its enumerators is", callName(p, call), value, e.name);
    }
  }
  return "";
}

} // namespace

std::string robustness(const testcase::Catalog &catalog, const TestCase &t, size_t i,
                       const std::vector<exec::Observation> &obs) {
  const model::Program &p = catalog.program();
  const Statement &call = t.statements[i];
  if (!isCall(call.op)) return "";
  const CallView view{catalog, p, t, i, call, argumentsOf(p, call), obs, cone(t, i)};
  for (const auto rule : {numberAsADescriptor, nullGiven})
    if (std::string why = rule(view); !why.empty()) return why;
  if (std::string why = twoRoles(catalog, t, i); !why.empty()) return why;
  if (std::string why = kindMismatch(p, t, i); !why.empty()) return why;
  if (std::string why = indexIntoNothing(p, t, i); !why.empty()) return why;
  for (const auto rule : {uncheckedElement, twoRolesEarlier, madeWithNull, nullCallback, nullInsideAValue})
    if (std::string why = rule(view); !why.empty()) return why;
  return "";
}

} // namespace claims

} // namespace mosaic::stages
