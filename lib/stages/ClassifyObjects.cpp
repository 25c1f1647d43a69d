// Misuse and robustness through a test's objects (Claims.h): an object used
// after it was handed on or emptied, a stale pointer into the API's memory,
// an object of another kind, an index into nothing; then robustness, a
// public function given what it does not check.
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

// `inCone` (the cone of call `i`) and, again and again, the arguments of
// each earlier call that takes one of them to change it (not only to read
// it, onlyReads): what such a call may have kept inside it.
std::set<size_t> handedOn(const model::Program &p, const TestCase &t, size_t i, std::set<size_t> inCone) {
  const auto inside = [&](Ref r) { return oneOf(t, inCone, r); };
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t j = 0; j < i; ++j) {
      const Statement &u = t.statements[j];
      if ((u.op != Op::Call && u.op != Op::MethodCall) ||
          std::none_of(u.refs.begin(), u.refs.end(), [&](Ref r) { return inside(r) && !onlyReads(p, u, r); }))
        continue;
      for (Ref r : u.refs)
        if (r < t.statements.size() && !inside(r))
          for (size_t k : cone(t, r)) grew |= inCone.insert(k).second;
    }
  }
  return inCone;
}

// Whether object `object` holds nothing at statement `at`: made by a
// constructor or a creator given numbers at most, or copied from such an
// object, and given to no call since but calls that only read it (taglib's
// `List<String> a; List<String> b(a);`). The call that made it, or
// nullopt.
std::optional<size_t> emptyAt(const model::Program &p, const TestCase &t, Ref object, size_t at, int depth = 0) {
  if (object >= at || depth > 8) return std::nullopt; // ours: a chain of copies this long is no test's
  const Statement &made = t.statements[object];
  if (made.op != Op::Construct && made.op != Op::Call) return std::nullopt;
  std::optional<size_t> from;
  if (testcase::copies(p, made)) {
    from = emptyAt(p, t, made.refs[0], object, depth + 1);
    if (!from) return std::nullopt;
  } else {
    for (Ref r : made.refs)
      if (r >= t.statements.size() || t.statements[r].op != Op::Primitive) return std::nullopt;
    const model::Callable &maker = p.callable(made.callable);
    if (!(made.op == Op::Construct ? maker.parent : recordOf(p, maker.result))) return std::nullopt;
  }
  for (size_t j = object + 1; j < at; ++j) {
    const Statement &u = t.statements[j];
    if (testcase::copies(p, u)) continue;
    if (isCall(u.op) && std::find(u.refs.begin(), u.refs.end(), object) != u.refs.end() && !onlyReads(p, u, object))
      return std::nullopt;
    if (u.op == Op::AddressOf && std::find(u.refs.begin(), u.refs.end(), object) != u.refs.end()) return std::nullopt;
  }
  return from ? from : std::optional<size_t>(object);
}

// An element taken from a container nothing was put into, by an accessor
// whose precondition is that there is one (front, back, first, last, top,
// peek, or operator[] given an index; not at(), which checks), in the
// failing call or what made its arguments (taglib's
// `List<String> a; String s(a.back());`, as std::list::back() of an empty
// list). "" when none.
// Whether method call `u` takes an element by an accessor that checks
// nothing (elementOfNothing).
bool uncheckedAccessor(const model::Program &p, const Statement &u) {
  if (u.op != Op::MethodCall || u.refs.empty()) return false;
  const model::Callable &c = p.callable(u.callable);
  const std::string name = lowercase(c.name);
  if (c.params.empty())
    return name == "front" || name == "back" || name == "first" || name == "last" || name == "top" || name == "peek";
  return c.name == "operator[]" && c.params.size() == 1 &&
         p.type(p.type(c.params[0].type).value).kind == model::TypeKind::Integer;
}

// The word an initialiser's name gives its kind by: what its init word
// starts with (libogg's oggpack_readinit: "read"), or the word before it
// (BZ2_bzDecompressInit: "decompress"; inflateInit_: "inflate").
std::string initialisedKind(const std::string &name) {
  const std::vector<std::string> w = words(name);
  for (size_t k = 0; k < w.size(); ++k) {
    if (!testcase::isInitialiserWord(w[k])) continue;
    if (w[k].size() > 4 && w[k].ends_with("init")) return w[k].substr(0, w[k].size() - 4);
    if (k > 0) return w[k - 1];
  }
  return "";
}

// An object one initialiser set up given to a function of another of its
// type's initialisers' kinds (bzip2's BZ2_bzDecompressInit(&s) then
// BZ2_bzCompressEnd(&s) or BZ2_bzCompress(&s); zlib's inflateInit then
// deflate): each kind keeps its own state in the object. "" when none.
std::string otherKindsObject(const testcase::Catalog &catalog, const TestCase &t, size_t i) {
  const model::Program &p = catalog.program();
  const Statement &call = t.statements[i];
  if (!isCall(call.op)) return "";
  const std::vector<std::string> callee = words(p.callable(call.callable).name);
  // A word of the callee's is the kind, or starts with it (oggpack_writeclear: "write").
  const auto has = [&](const std::string &kind) {
    return std::any_of(callee.begin(), callee.end(), [&](const std::string &w) { return w.starts_with(kind); });
  };
  // The object behind an argument: the aggregate an address points at.
  const auto objectOf = [&](Ref r) -> std::optional<Ref> {
    if (r >= t.statements.size()) return std::nullopt;
    const Statement &v = t.statements[r];
    if (v.op == Op::AddressOf && !v.refs.empty() && v.refs[0] < t.statements.size() &&
        t.statements[v.refs[0]].op == Op::Aggregate)
      return v.refs[0];
    return std::nullopt;
  };
  for (Ref r : call.refs) {
    const auto x = objectOf(r);
    if (!x) continue;
    const auto rec = recordOf(p, t.statements[*x].type);
    if (!rec) continue;
    for (size_t j = *x + 1; j < i; ++j) {
      const Statement &u = t.statements[j];
      if (!isCall(u.op) || !testcase::isInitialiserName(p.callable(u.callable).name)) continue;
      if (std::none_of(u.refs.begin(), u.refs.end(), [&](Ref a) { return objectOf(a) == x; })) continue;
      const std::string kind = initialisedKind(p.callable(u.callable).name);
      if (kind.empty() || has(kind)) continue;
      for (model::CallableId other : catalog.initialisers(*rec)) {
        const std::string otherKind = initialisedKind(p.callable(other).name);
        if (!otherKind.empty() && otherKind != kind && has(otherKind))
          return fmt::format("gives {} a {} that {} set up: {}() sets up what it takes", callName(p, call),
                             p.record(*rec).name, callName(p, u), p.callable(other).qualifiedName);
      }
    }
  }
  return "";
}

// A handle of the API's own (Catalog::apiPointer: lcms2's `typedef void
// *cmsHANDLE`, shared by its dictionaries, IT8 sheets and MD5 contexts)
// given to a function for one kind (cmsIT8GetSheetType(cmsHANDLE hIT8):
// the parameter's name and the function's say IT8) that a function of
// another made (cmsDictDup's), when a function of that kind makes such
// handles (cmsIT8Alloc). "" when none.
std::string otherKindsHandle(const testcase::Catalog &catalog, const TestCase &t, size_t i) {
  const model::Program &p = catalog.program();
  const Statement &call = t.statements[i];
  if (!isCall(call.op)) return "";
  const auto args = argumentsOf(p, call);
  for (size_t k = 0; k < args.size(); ++k) {
    if (!args[k].param || args[k].ref >= i || !catalog.apiPointer(args[k].param->type)) continue;
    const Statement &made = t.statements[args[k].ref];
    if (made.op != Op::Call) continue;
    const auto &makers = catalog.returning(args[k].param->type);
    const std::string kind = model::handleKindOf(p, p.callable(call.callable).name, args[k].param->name, makers);
    if (kind.empty() || model::namesKind(p.callable(made.callable).name, kind)) continue;
    for (model::CallableId c : makers) {
      if (model::namesKind(p.callable(c).name, kind))
        return fmt::format("gives {} as {} a {} that {} made, where it takes one of the kind {}() makes", callName(p, call),
                           paramName(args[k], k), typeName(p, args[k].param->type), callName(p, made),
                           p.callable(c).qualifiedName);
    }
  }
  return "";
}

// (b): why call `i` is robustness; "" when it is not.
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

} // namespace

std::string elementOfNothing(const model::Program &p, const TestCase &t, size_t i) {
  for (size_t j : cone(t, i)) {
    const Statement &u = t.statements[j];
    if (!uncheckedAccessor(p, u)) continue;
    const auto made = emptyAt(p, t, u.refs[0], j);
    if (!made) continue;
    const auto rec = testcase::variableType(p, t, u.refs[0]);
    const auto record = rec ? recordOf(p, *rec) : std::nullopt;
    return fmt::format("{} takes an element of a {} nothing was put into (made by {})", callName(p, u),
                       record ? p.record(*record).name : std::string("container"), callName(p, t.statements[*made]));
  }
  return "";
}

std::string staleApiPointer(const testcase::Catalog &catalog, const TestCase &t, size_t i) {
  const model::Program &p = catalog.program();
  const Statement &use = t.statements[i];
  if (!isCall(use.op)) return "";
  for (Ref x : use.refs) {
    if (x >= i) continue;
    const auto vt = testcase::variableType(p, t, x);
    if (!vt || !catalog.apiPointer(*vt)) continue;
    for (size_t j = x + 1; j < i; ++j) {
      const Statement &u = t.statements[j];
      if (!isCall(u.op)) continue;
      const model::Callable &c = p.callable(u.callable);
      const bool given = std::find(u.refs.begin(), u.refs.end(), x) != u.refs.end();
      bool inArray = false;
      for (Ref r : u.refs)
        if (r < t.statements.size() && t.statements[r].op == Op::Array &&
            std::find(t.statements[r].refs.begin(), t.statements[r].refs.end(), x) != t.statements[r].refs.end())
          inArray = true;
      if ((given || inArray) && testcase::isDestroyerName(c.name))
        return fmt::format("{} uses a {} that {} released before", callName(p, use), p.type(p.type(*vt).value).spelling,
                           callName(p, u));
      if (given && p.type(c.result).value == p.type(*vt).value)
        return fmt::format("{} uses a {} that {} replaced, returning the one to use in its place (`s = {}(s, ...)`)",
                           callName(p, use), p.type(p.type(*vt).value).spelling, callName(p, u), c.name);
    }
  }
  return "";
}

std::string misuse(const testcase::Catalog &catalog, const TestCase &t, size_t i,
                   const std::vector<exec::Observation> &obs) {
  const model::Program &p = catalog.program();
  const Statement &call = t.statements[i];
  const auto inCone = cone(t, i);
  if (std::string why = singularIterator(p, t, i); !why.empty()) return why;
  if (std::string why = elementOfNothing(p, t, i); !why.empty()) return why;
  if (std::string why = otherKindsObject(catalog, t, i); !why.empty()) return why;
  if (std::string why = otherKindsHandle(catalog, t, i); !why.empty()) return why;
  if (std::string why = testsOwnThroughAPointer(catalog, t, i, true); !why.empty()) return why;
  for (size_t j : inCone)
    if (std::string why = staleApiPointer(catalog, t, j); !why.empty()) return why;
  // An internal function: the failing call first, then what made its arguments.
  if (isCall(call.op) && internal(catalog, p.callable(call.callable)))
    return fmt::format("calls {}, {}, with arguments its own callers may never pass", callName(p, call),
                       catalog.insideOf(p.callable(call.callable)));
  for (size_t j : inCone)
    if (j != i && isCall(t.statements[j].op) && internal(catalog, p.callable(t.statements[j].callable)))
      return fmt::format("its arguments come from {}, {}", callName(p, t.statements[j]),
                         catalog.insideOf(p.callable(t.statements[j].callable)));
  // A function its library tells callers not to use (LZ4_decompress_fast:
  // "deprecated and unsafe", it trusts its input): no claim against it.
  if (isCall(call.op))
    if (const auto &message = p.callable(call.callable).deprecated)
      return fmt::format("calls {}, which its library declares deprecated{}", callName(p, call),
                         message->empty() ? std::string() : fmt::format(" (\"{}\")", *message));
  // An object owned twice, by two containers or by a container and the
  // test, and the failing call on one of them (or what it was handed on
  // into, handedOn).
  if (isCall(call.op)) {
    const auto reach = handedOn(p, t, i, inCone);
    const std::string shared = sharedOwnership(p, t, i, [&](const std::set<size_t> &objects) {
      return std::any_of(objects.begin(), objects.end(), [&](size_t o) { return oneOf(t, reach, o); });
    });
    if (!shared.empty()) return shared;
  }
  for (size_t j = 0; j < i; ++j) {
    const Statement &u = t.statements[j];
    // On the same objects: it takes one the failing call depends on, or
    // the address of one.
    const auto same = [&](Ref r) { return oneOf(t, inCone, r); };
    if (!isCall(u.op) || std::none_of(u.refs.begin(), u.refs.end(), same)) continue;
    // An earlier internal call on the same objects (expat's
    // externalParEntProcessor(parser, s, end, &next) with a buffer not the
    // parser's, then XML_GetCurrentLineNumber(parser) reads past it): it
    // left them in a state no public path makes.
    if (internal(catalog, p.callable(u.callable)))
      return fmt::format("an earlier call of {}, {}, on the same object", callName(p, u),
                         catalog.insideOf(p.callable(u.callable)));
    // An earlier call of a variadic function without a format on the same
    // objects (yajl_gen_config(g, yajl_gen_print_callback) with no callback
    // after it): it read its extras by a contract the test cannot know.
    if (p.callable(u.callable).variadic && !p.callable(u.callable).formatParam)
      return fmt::format("an earlier call of the variadic {} on the same object read extra arguments by a contract "
                         "(a count, a terminator, their types) the test may not have kept",
                         callName(p, u));
    // An earlier call on the same objects that was misuse by its own
    // arguments (libtommath's mp_export(a, ...) given the mp_int itself as
    // the buffer to write, then mp_to_unsigned_bin_n(a, ...) reads the
    // digits pointer it overwrote): what follows is its consequence.
    if (std::string why = argumentMisuse(catalog, t, j); !why.empty())
      return fmt::format("an earlier call on the same object was misuse: {}", why);
    // Or given it as another kind's (libogg's oggpack_readinit(&b, buf, n),
    // then oggpack_writeclear(&b) frees the test's buf, then oggpack_read1).
    if (std::string why = otherKindsObject(catalog, t, j); !why.empty())
      return fmt::format("an earlier call on the same object was misuse: {}", why);
  }
  // An earlier call of a release function internal to the unit itself, on
  // no object the failing call takes: what it freed may be what the
  // library's state still points to, which only its own callers know when
  // to free (mxml's static _mxml_destructor(global) frees the per-thread
  // data that the public mxml_error() then reads).
  for (size_t j = 0; j < i; ++j)
    if (const Statement &u = t.statements[j];
        isCall(u.op) && catalog.internalToUnit(p.callable(u.callable)) && releasedBy(p, u))
      return fmt::format("follows {}, a release internal to the unit, which may free what the library still holds",
                         callName(p, u));
  // An object the test moved from before this call, or a call it depends
  // on, used it (yaml-cpp's memory_holder h2(std::move(h));
  // h.create_node(), or memory_holder h3(h) after the move, then
  // h3.create_node()): a moved-from object is valid but unspecified, and
  // only assigning or destroying it is safe.
  for (size_t k : inCone) {
    const Statement &user = t.statements[k];
    if (!isCall(user.op)) continue;
    for (Ref used : user.refs)
      for (size_t j = used + 1; used < t.statements.size() && j < k; ++j) {
        const Statement &u = t.statements[j];
        if (!isCall(u.op)) continue;
        for (const Argument &a : argumentsOf(p, u))
          if (a.ref == used && a.param && p.type(a.param->type).kind == model::TypeKind::Reference &&
              p.type(a.param->type).isRvalue)
            return k == i ? fmt::format("uses an object after moving it into {}", callName(p, u))
                          : fmt::format("uses an object made by {} from one the test had moved into {}",
                                        callName(p, user), callName(p, u));
      }
  }
  // An object of a type only the unit's inside deals in, built by the test
  // and handed to a public function inside another value (zlib's
  // z_stream with a `state` of its own making).
  for (size_t j : builtValues(t, i)) {
    const Statement &s = t.statements[j];
    if (s.op != Op::Aggregate && s.op != Op::Buffer && s.op != Op::Array) continue;
    const auto rec = recordOf(p, s.type);
    if (!rec || !catalog.internalType(*rec)) continue;
    if (std::find(call.refs.begin(), call.refs.end(), j) != call.refs.end()) continue; // passed itself: said below
    return fmt::format("gives {} a {} of the test's own making inside its arguments, a type only the unit's "
                       "internal functions deal in",
                       callName(p, call), p.record(*rec).name);
  }
  // An object of a type the API makes, built by the test; or one the test
  // zeroed for an initialiser that then failed. Among the values the call
  // depends on, and those an earlier call put into one of them
  // (claims_buffer_init(&d, &b) keeps d in b, then claims_buffer_peek(&b)).
  for (size_t j : handedOn(p, t, i, inCone)) {
    const Statement &s = t.statements[j];
    // An array of zeroed ones (lua's `luaL_Buffer B[1] = {}`) is one too.
    const bool zeroedArray =
        s.op == Op::Array && std::all_of(s.refs.begin(), s.refs.end(), [&](Ref e) {
          return e < t.statements.size() && t.statements[e].op == Op::Aggregate && t.statements[e].refs.empty();
        });
    if (s.op != Op::Aggregate && !zeroedArray) continue;
    const auto record = recordOf(p, s.type);
    const model::Type &ty = p.type(p.type(s.type).value);
    if (!record || (s.op == Op::Aggregate && ty.kind != model::TypeKind::Record)) continue;
    const std::string &spelled = s.op == Op::Aggregate ? ty.spelling : p.type(p.record(*record).type).spelling;
    const std::string &maker = catalog.madeByApi(*record);
    const std::vector<model::CallableId> &inits = catalog.initialisers(*record);
    // Initialisers a test cannot call count too (internal ones: the
    // factory never calls them, but a zeroed one given first to anything
    // else was never initialised all the same).
    const std::vector<model::CallableId> later = initialisersAnywhere(p, *record);
    if (maker.empty() && inits.empty() && later.empty()) continue;
    if (s.op == Op::Aggregate && !s.refs.empty()) {
      if (maker.empty()) continue;
      return fmt::format("builds a {} field by field, a type the API makes itself ({})", spelled, maker);
    }
    // Zeroed: only an initialiser may be the first to get it (by value, by
    // address, or in an array); given first to anything else (claims.c's
    // claims_free_text(doc, text), then claims_length(doc) reads the NULL
    // text), it was never initialised.
    // It, or a value holding it: its address, an array of it, a struct
    // the test filled with its address (claims_buffer b = {.doc = &d}),
    // at any depth (refs point backwards, so this ends).
    const auto holds = [&](Ref r) { return holdsValue(t, r, j); };
    for (size_t k = j + 1; k <= i; ++k) {
      const Statement &u = t.statements[k];
      if (!isCall(u.op) || std::none_of(u.refs.begin(), u.refs.end(), holds)) continue;
      // An initialiser sets up the object it writes (Catalog::
      // initialisedParam), not one it reads: mp_init_copy(a, b) leaves b,
      // its const source, as zeroed as it was.
      const auto uargs = argumentsOf(p, u);
      const size_t written = catalog.initialisedParam(u.callable, *record);
      const bool initialises = (std::find(inits.begin(), inits.end(), u.callable) != inits.end() ||
                                std::find(later.begin(), later.end(), u.callable) != later.end()) &&
                               u.op != Op::MethodCall && written < uargs.size() && holds(uargs[written].ref);
      if (!maker.empty() && (k == i || !initialises))
        return fmt::format("gives {} a {} it never initialised (the API makes one: {})", callName(p, call), spelled,
                           maker);
      if (maker.empty() && !later.empty() && !initialises)
        return fmt::format("gives {} a {} it never initialised ({} initialises one)", callName(p, call), spelled,
                           p.callable(later.front()).qualifiedName);
      // Its initialiser said it failed (libtommath's mp_init_size(a, -1)
      // returns MP_VAL and leaves a's digits NULL), and the test went on.
      if (initialises && k < i)
        if (const std::string failed = failedResult(obs, k); !failed.empty())
          return fmt::format("gives {} a {} whose initialiser {} failed (it returned {})", callName(p, call),
                             spelled, callName(p, u), failed);
      break;
    }
  }
  return argumentMisuse(catalog, t, i);
}

bool onlyReads(const model::Program &p, const Statement &u, Ref object) {
  const model::Callable &c = p.callable(u.callable);
  if (u.op == Op::MethodCall && !u.refs.empty() && u.refs[0] == object && !c.isConst) return false;
  for (const Argument &a : argumentsOf(p, u)) {
    if (a.ref != object) continue;
    if (!a.param) return false;
    const model::Type &ty = p.type(p.type(a.param->type).value);
    const bool viaConst = (ty.kind == model::TypeKind::Pointer || ty.kind == model::TypeKind::Reference) &&
                          ty.pointeeConst && !ty.isRvalue;
    if (!viaConst) return false;
  }
  return true;
}

std::string robustness(const testcase::Catalog &catalog, const TestCase &t, size_t i,
                       const std::vector<exec::Observation> &obs) {
  const model::Program &p = catalog.program();
  const Statement &call = t.statements[i];
  if (!isCall(call.op)) return "";
  const auto args = argumentsOf(p, call);
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
  if (std::string why = twoRoles(catalog, t, i); !why.empty()) return why;
  if (std::string why = kindMismatch(p, t, i); !why.empty()) return why;
  if (std::string why = indexIntoNothing(p, t, i); !why.empty()) return why;
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
  // An earlier call on the same objects that gave one object two roles
  // (cJSON_AddItemReferenceToArray(array, array), then printing the array
  // recurses for ever). Not through a number it returned: claims_ratio(r, r)
  // with r = claims_init_copy(d, d) divides by a zero any call could pass.
  const auto inCone = cone(t, i);
  const auto objects = objectCone(catalog, t, i);
  for (size_t j = 0; j < i; ++j) {
    const Statement &u = t.statements[j];
    const auto same = [&](Ref r) { return oneOf(t, objects, r); };
    if (!isCall(u.op) || std::none_of(u.refs.begin(), u.refs.end(), same)) continue;
    if (std::string why = twoRoles(catalog, t, j); !why.empty())
      return "an earlier call on the same object gave it two roles: " + why;
  }
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

} // namespace claims

} // namespace mosaic::stages
