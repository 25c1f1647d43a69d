// Misuse through a test's objects (Claims.h): an object used after it was
// handed on or emptied, a stale pointer into the API's memory, an object
// of another kind, one owned twice, moved from or never initialised, an
// earlier call that left an object in a state no public path makes.
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


} // namespace

bool uncheckedAccessor(const model::Program &p, const Statement &u) {
  if (u.op != Op::MethodCall || u.refs.empty()) return false;
  const model::Callable &c = p.callable(u.callable);
  const std::string name = lowercase(c.name);
  if (c.params.empty())
    return name == "front" || name == "back" || name == "first" || name == "last" || name == "top" || name == "peek";
  return c.name == "operator[]" && c.params.size() == 1 &&
         p.type(p.type(c.params[0].type).value).kind == model::TypeKind::Integer;
}

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

namespace {

// The failing call, or one that made its arguments, of an internal
// function; or the failing call of one its library declares deprecated.
std::string internalOrDeprecated(const CallView &view) {
  const auto &[catalog, p, t, i, call, args, obs, inCone] = view;
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
  return "";
}

// An object owned twice (sharedOwnership) that the failing call works on.
std::string ownedTwice(const CallView &view) {
  const auto &[catalog, p, t, i, call, args, obs, inCone] = view;
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
  return "";
}

// An earlier call on an object the failing call depends on that left it
// in a state no public path makes: internal, variadic without a format,
// misuse by its own arguments, or given it as another kind's.
std::string earlierCallOnTheSameObjects(const CallView &view) {
  const auto &[catalog, p, t, i, call, args, obs, inCone] = view;
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
  return "";
}

// An earlier release internal to the unit, on whatever object.
std::string afterAnInternalRelease(const CallView &view) {
  const auto &[catalog, p, t, i, call, args, obs, inCone] = view;
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
  return "";
}

// An object used after the test moved from it.
std::string movedFromObject(const CallView &view) {
  const auto &[catalog, p, t, i, call, args, obs, inCone] = view;
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
  return "";
}

// A value of a type only the unit's inside deals in, of the test's making.
std::string insideTypeOfTheTests(const CallView &view) {
  const auto &[catalog, p, t, i, call, args, obs, inCone] = view;
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
  return "";
}

// An object of a type the API makes, built or zeroed by the test and never
// initialised, or whose initialiser failed.
std::string uninitialisedObject(const CallView &view) {
  const auto &[catalog, p, t, i, call, args, obs, inCone] = view;
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
  return "";
}

} // namespace

std::string misuse(const testcase::Catalog &catalog, const TestCase &t, size_t i,
                   const std::vector<exec::Observation> &obs) {
  const model::Program &p = catalog.program();
  if (std::string why = singularIterator(p, t, i); !why.empty()) return why;
  if (std::string why = elementOfNothing(p, t, i); !why.empty()) return why;
  if (std::string why = otherKindsObject(catalog, t, i); !why.empty()) return why;
  if (std::string why = otherKindsHandle(catalog, t, i); !why.empty()) return why;
  if (std::string why = testsOwnThroughAPointer(catalog, t, i, true); !why.empty()) return why;
  const CallView view{catalog, p, t, i, t.statements[i], argumentsOf(p, t.statements[i]), obs, cone(t, i)};
  for (size_t j : view.inCone)
    if (std::string why = staleApiPointer(catalog, t, j); !why.empty()) return why;
  for (const auto rule : {internalOrDeprecated, ownedTwice, earlierCallOnTheSameObjects, afterAnInternalRelease,
                          movedFromObject, insideTypeOfTheTests, uninitialisedObject})
    if (std::string why = rule(view); !why.empty()) return why;
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


} // namespace claims

} // namespace mosaic::stages
