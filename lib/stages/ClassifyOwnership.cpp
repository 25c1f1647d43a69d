// Who owns what in a failing test (Claims.h): results a callee lends or
// hands over, what releases an object, an item's owner and a reference's
// referent, as a C or C++ programmer reads an API's names and types.
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

// The first argument of statement `v` that an earlier call made, an
// object of `record`. An index into the test, or nullopt.
std::optional<Ref> argumentOfRecord(const model::Program &p, const TestCase &t, Ref v, model::RecordId record) {
  for (Ref r : t.statements[v].refs)
    if (r < v && isCall(t.statements[r].op))
      if (const auto type = testcase::variableType(p, t, r); type && recordOf(p, *type) == record) return r;
  return std::nullopt;
}

// The argument a C function takes into an object of its own record type,
// which then owns it: a name that adds (add, insert, append, prepend, push,
// replace, attach, adopt) and names no reference, copy or duplicate, a
// first parameter that is a non-const pointer to a record (the container),
// and a later one to the same record, the last such (the item:
// cJSON_AddItemToArray(array, item); cJSON_ReplaceItemViaPointer(parent,
// item, replacement) takes `replacement`). Its index, or nullopt.
std::optional<size_t> adoptedArgument(const model::Program &p, const Statement &s) {
  if (s.op != Op::Call) return std::nullopt;
  const model::Callable &c = p.callable(s.callable);
  bool adds = false;
  for (const std::string &word : words(c.name)) {
    if (word == "add" || word == "insert" || word == "append" || word == "prepend" || word == "push" ||
        word == "replace" || word == "attach" || word == "adopt")
      adds = true;
    if (word == "reference" || word == "ref" || word == "copy" || word == "dup" || word == "duplicate" ||
        word == "clone" || word == "detach" || word == "remove")
      return std::nullopt;
  }
  const auto recordPointer = [&](const model::Param &param) -> std::optional<model::RecordId> {
    const model::Type &t = p.type(p.type(param.type).value);
    if (t.kind != model::TypeKind::Pointer || t.pointeeConst) return std::nullopt;
    return recordOf(p, param.type);
  };
  if (!adds || c.params.size() < 2) return std::nullopt;
  const auto container = recordPointer(c.params[0]);
  if (!container) return std::nullopt;
  for (size_t k = c.params.size(); k-- > 1;)
    if (recordPointer(c.params[k]) == container) return k;
  return std::nullopt;
}

// Whether a call between `from` and `to` (exclusive) takes `item` out of
// what holds it (a detach, remove or take given the item itself:
// cJSON_DetachItemViaPointer(parent, item)), so that it may go elsewhere.
bool detachedBetween(const model::Program &p, const TestCase &t, Ref item, size_t from, size_t to) {
  for (size_t j = from + 1; j < to; ++j) {
    const Statement &u = t.statements[j];
    if (!isCall(u.op) || std::find(u.refs.begin(), u.refs.end(), item) == u.refs.end()) continue;
    for (const std::string &word : words(p.callable(u.callable).name))
      if (word == "detach" || word == "remove" || word == "take" || word == "steal") return true;
  }
  return false;
}

// The object a call's result refers to without owning it: a call whose
// name says reference (cJSON_CreateObjectReference(child)) given an object
// of the result's own record type. An index into the test, or nullopt.
std::optional<Ref> referentOf(const model::Program &p, const TestCase &t, Ref v) {
  const Statement &made = t.statements[v];
  if (made.op != Op::Call) return std::nullopt;
  const model::Callable &c = p.callable(made.callable);
  const auto ws = words(c.name);
  if (std::find(ws.begin(), ws.end(), "reference") == ws.end()) return std::nullopt;
  const auto record = recordOf(p, c.result);
  if (!record) return std::nullopt;
  return argumentOfRecord(p, t, v, *record);
}

} // namespace

bool lendsItsResult(const model::Program &p, const model::Callable &callable) {
  if (callable.globalObject) return true; // the library's own object
  const std::vector<std::string> own = words(callable.name);
  bool lends = false;
  for (const std::string &word : own) {
    if (word == "get" || word == "peek" || word == "find" || word == "lookup" || word == "borrow") lends = true;
    if (word == "copy" || word == "dup" || word == "strdup" || word == "new" || word == "alloc" || word == "create" ||
        word == "detach" || word == "take" || word == "steal" || word == "release")
      return false;
  }
  if (!lends || callable.params.empty()) return false;
  for (const model::Callable &r : p.callables) {
    if (!testcase::releasedParam(p, r)) continue;
    // Past the words the two names start with (the API's prefix: yajl;
    // cJSON's c, json).
    const std::vector<std::string> theirs = words(r.name);
    size_t prefix = 0;
    while (prefix < theirs.size() && prefix < own.size() && theirs[prefix] == own[prefix]) ++prefix;
    for (size_t k = prefix; k < theirs.size(); ++k)
      if (!testcase::isDestroyerName(theirs[k]) && std::find(own.begin() + prefix, own.end(), theirs[k]) != own.end())
        return false;
  }
  return true;
}

bool takesOver(const model::Callable &callable) {
  for (const std::string &word : words(callable.name))
    if (word == "own" || word == "adopt" || word == "steal" || word == "take") return true;
  return false;
}

std::optional<Ref> releasedBy(const model::Program &p, const Statement &s) {
  if (!isCall(s.op)) return std::nullopt;
  const auto gone = testcase::releasedParam(p, p.callable(s.callable));
  const auto args = argumentsOf(p, s);
  if (!gone || *gone >= args.size()) return std::nullopt;
  return args[*gone].ref;
}

std::optional<Ref> ownerOf(const model::Program &p, const TestCase &t, Ref v) {
  const Statement &made = t.statements[v];
  if (made.op != Op::Call && made.op != Op::MethodCall) return std::nullopt;
  const model::Callable &c = p.callable(made.callable);
  // A maker given the parent of what it makes, whatever its name (mxml's
  // mxmlNewElement(parent, name), libxml2's xmlNewChild(parent, ...)): the
  // parent holds the new node, and releasing it releases the node.
  if (const auto part = recordOf(p, c.result); part && made.op == Op::Call)
    for (const Argument &a : argumentsOf(p, made)) {
      if (!a.param || a.ref >= v || !isCall(t.statements[a.ref].op)) continue;
      const auto words_ = words(a.param->name);
      const auto type = testcase::variableType(p, t, a.ref);
      if (std::find(words_.begin(), words_.end(), "parent") != words_.end() && type && recordOf(p, *type) == part)
        return a.ref;
    }
  for (const std::string &word : words(c.name))
    if (word == "copy" || word == "dup" || word == "duplicate" || word == "clone" || word == "new" ||
        word == "create" || word == "alloc" || word == "detach" || word == "take" || word == "steal" ||
        word == "parse" || word == "read" || word == "load")
      return std::nullopt;
  const auto part = recordOf(p, c.result);
  if (!part) return std::nullopt;
  return argumentOfRecord(p, t, v, *part);
}

std::string sharedOwnership(const model::Program &p, const TestCase &t, size_t i,
                            const std::function<bool(const std::set<size_t> &)> &relevant) {
  struct Adoption {
    size_t at;
    Ref item, container;
  };
  std::vector<Adoption> adoptions;
  // Whether a call between `from` and `to` (exclusive) released `x`.
  const auto releasedBetween = [&](Ref x, size_t from, size_t to) {
    for (size_t j = from + 1; j < to; ++j)
      if (releasedBy(p, t.statements[j]) == x) return true;
    return false;
  };
  // What held `x` at statement `at`, and since when: its last adoption not
  // undone by a detach since, else the object it is a part of.
  const auto heldBy = [&](Ref x, size_t at) -> std::optional<std::pair<Ref, size_t>> {
    for (auto a = adoptions.rbegin(); a != adoptions.rend(); ++a)
      if (a->item == x) {
        if (detachedBetween(p, t, x, a->at, at)) return std::nullopt;
        return std::pair{a->container, a->at};
      }
    if (const auto owner = ownerOf(p, t, x); owner && !detachedBetween(p, t, x, x, at)) return std::pair{*owner, x};
    return std::nullopt;
  };
  // ... and still holds it: nothing once that holder was released (what
  // follows is argumentMisuse's).
  const auto holder = [&](Ref x, size_t at) -> std::optional<std::pair<Ref, size_t>> {
    const auto h = heldBy(x, at);
    if (h && releasedBetween(h->first, h->second, at)) return std::nullopt;
    return h;
  };
  // `x` and what holds it, at any depth (chains of at most 64: ours).
  const auto withHolders = [&](Ref x, size_t at) {
    std::vector<Ref> chain{x};
    for (int depth = 0; depth < 64; ++depth) {
      const auto h = heldBy(chain.back(), at);
      if (!h || std::find(chain.begin(), chain.end(), h->first) != chain.end()) break;
      chain.push_back(h->first);
    }
    return chain;
  };
  const auto holds = [&](Ref x, Ref y, size_t at) {
    const auto chain = withHolders(y, at);
    return std::find(chain.begin() + 1, chain.end(), x) != chain.end();
  };
  // The objects concerned: each, what holds it, and what a reference among
  // them refers to (cJSON_ReplaceItemInArray(ref, 0, ref) of a reference
  // to o breaks o).
  const auto concerned = [&](std::initializer_list<Ref> objects, size_t at) {
    std::set<size_t> all;
    for (Ref o : objects)
      for (Ref h : withHolders(o, at)) {
        all.insert(h);
        if (const auto r = referentOf(p, t, h))
          for (Ref rh : withHolders(*r, at)) all.insert(rh);
      }
    return relevant(all);
  };
  for (size_t j = 0; j <= i && j < t.statements.size(); ++j) {
    const Statement &u = t.statements[j];
    if (!isCall(u.op)) continue;
    const auto uargs = argumentsOf(p, u);
    const auto valid = [&](size_t k) { return k < uargs.size() && uargs[k].ref < t.statements.size(); };
    for (size_t k = 0; k < uargs.size(); ++k) {
      if (!valid(k)) continue;
      const Ref x = uargs[k].ref;
      // An item used after what held it, at any depth, was released.
      const auto chain = withHolders(x, j);
      for (size_t h = 1; h < chain.size(); ++h)
        if (releasedBetween(chain[h], chain[h - 1] < chain[h] ? chain[h] : chain[h - 1], j) &&
            concerned({x}, j))
          return fmt::format("{} uses an object released with what held it (made by {})", callName(p, u),
                             callName(p, t.statements[chain[h]]));
      // A reference used after what it refers to was released.
      if (const auto r = referentOf(p, t, x))
        for (Ref h : withHolders(*r, j))
          if (releasedBetween(h, std::max(h, x), j) && concerned({x, *r}, j))
            return fmt::format("{} uses a reference ({}) to an object released since", callName(p, u),
                               callName(p, t.statements[x]));
    }
    const auto adopted = adoptedArgument(p, u);
    if (adopted && valid(*adopted) && valid(0)) {
      const Adoption now{j, uargs[*adopted].ref, uargs[0].ref};
      if ((now.item == now.container || holds(now.item, now.container, j)) && concerned({now.item, now.container}, j))
        return fmt::format("{} makes an object a part of itself: it gives it to one of its own parts",
                           callName(p, u));
      if (const auto before = holder(now.item, j); before && concerned({now.item, now.container, before->first}, j)) {
        if (before->second == now.item)
          return fmt::format("{} gives an object a second owner: it is a part of what {} was given", callName(p, u),
                             callName(p, t.statements[now.item]));
        return fmt::format("{} gives an object a second owner: {} had given it to {}", callName(p, u),
                           callName(p, t.statements[before->second]),
                           before->first == now.container ? "the same one" : "another");
      }
      adoptions.push_back(now);
    }
    // A detach, remove or replace given an item its parent does not hold
    // (it is held by nothing, or by another), or what holds the parent
    // (cJSON_DetachItemViaPointer(part, whole)).
    bool takesOut = false;
    for (const std::string &word : words(p.callable(u.callable).name))
      takesOut |= word == "detach" || word == "remove" || word == "replace";
    if (takesOut && valid(0) && u.op == Op::Call && p.callable(u.callable).params.size() == uargs.size()) {
      const auto parentRecord = recordOf(p, p.callable(u.callable).params[0].type);
      for (size_t k = 1; parentRecord && k < uargs.size(); ++k) {
        if (!valid(k) || adopted == k || recordOf(p, p.callable(u.callable).params[k].type) != parentRecord) continue;
        const Ref parent = uargs[0].ref, item = uargs[k].ref;
        if (item == parent || !concerned({parent, item}, j)) continue;
        if (holds(item, parent, j))
          return fmt::format("{} takes out of an object what holds that object", callName(p, u));
        if (!holds(parent, item, j))
          return fmt::format("{} takes out of an object an item it does not hold", callName(p, u));
      }
    }
    const auto gone = releasedBy(p, u);
    if (!gone || *gone >= t.statements.size()) continue;
    if (const auto h = holder(*gone, j); h && concerned({*gone, h->first}, j)) {
      if (h->second == *gone)
        return fmt::format("{} releases a part of the object {} was given, which still holds it", callName(p, u),
                           callName(p, t.statements[*gone]));
      return fmt::format("{} releases an object that {} had given to another, which still holds it", callName(p, u),
                         callName(p, t.statements[h->second]));
    }
  }
  return "";
}

} // namespace claims

} // namespace mosaic::stages
