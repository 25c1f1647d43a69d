// Values and calls as C++ expressions: a variable (through `*` when it
// holds an object made with new), an argument converted as the harness
// passed it, a call with its receiver, operator or trampoline.
#include "BodyParts.h"

#include "mosaic/model/Derive.h"

namespace mosaic::emit {

namespace {

// The overloaded operators a test writes between their operands (`a == b`).
const char *binaryOperators[] = {"==", "!=", "<", "<=", ">", ">="};

} // namespace

std::string BodyWriter::expr(Ref r) const {
  if (r >= names_.size()) return "/*?*/";
  return heap_[r] ? "(*" + names_[r] + ")" : names_[r];
}

std::string BodyWriter::argument(const TestCase &t, Ref ref, model::TypeId param, bool move) {
  const auto vt = testcase::variableType(p_, t, ref);
  const std::string e = expr(ref);
  if (!vt) return e;
  const auto how = catalog_.fits(*vt, param);
  if (!how) return e;
  switch (*how) {
  case testcase::Passing::Same:
  case testcase::Passing::Derived: return move && !inlined_[ref] ? "std::move(" + e + ")" : e;
  case testcase::Passing::Deref: return "*" + e;
  case testcase::Passing::Pointer: {
    const model::Type &pt = p_.type(p_.type(param).value);
    if (pt.pointee && p_.type(p_.type(*pt.pointee).value).kind == TypeKind::Void) return e;
    if (inlined_[ref] && t.statements[ref].op == Op::Null) return e;
    if (spell(*vt) == spell(pt.id)) return e;
    // T * to const T * converts implicitly: no cast to read past.
    const model::Type &from = p_.type(p_.type(*vt).value);
    if (from.kind == TypeKind::Pointer && from.pointee && pt.pointee &&
        p_.type(*from.pointee).value == p_.type(*pt.pointee).value && (pt.pointeeConst || !from.pointeeConst))
      return e;
    auto s = spell(pt.id);
    // A variable bound to a non-const lvalue reference (pugixml's
    // swap<xpath_node *>(T &, T &) given a const_iterator) is cast as a
    // reference, as the harness bound it: a cast to the pointer type makes
    // a temporary, which cannot bind there.
    const model::Type &pr = p_.type(param);
    if (s && pr.kind == TypeKind::Reference && !pr.pointeeConst && !pr.isRvalue && !inlined_[ref])
      if (auto r = spell(param)) return "(" + *r + ")" + e;
    return s ? "(" + *s + ")" + e : e;
  }
  }
  return e;
}

// Whether value `i` is passed to a non-const lvalue reference (pugixml's
// `size_t &out_length`): a literal cannot bind there, a variable must.
bool BodyWriter::bindsMutableReference(const TestCase &t, Ref i) const {
  for (const Statement &u : t.statements) {
    if (!isCall(u.op)) continue;
    const model::Callable &c = p_.callable(u.callable);
    const size_t offset = u.op == Op::MethodCall ? 1 : 0;
    for (size_t k = offset; k < u.refs.size() && k - offset < c.params.size(); ++k) {
      if (u.refs[k] != i) continue;
      const model::Type &p = p_.type(c.params[k - offset].type);
      if (p.kind == TypeKind::Reference && !p.pointeeConst && !p.isRvalue) return true;
    }
  }
  return false;
}

std::string BodyWriter::callExpression(const TestCase &t, size_t i, std::set<model::CallableId> &trampolines) {
  const Statement &s = t.statements[i];
  const model::Callable &c = p_.callable(s.callable);
  const size_t offset = s.op == Op::MethodCall ? 1 : 0;
  std::vector<std::string> args;
  for (size_t k = 0; k < c.params.size() && k + offset < s.refs.size(); ++k) {
    const Ref r = s.refs[k + offset];
    const bool moved = model::passedByMove(p_, c.params[k].type);
    std::string arg = argument(t, r, c.params[k].type, moved);
    // A call of an overloaded function resolves as the harness's did: an
    // argument that is not a variable of exactly the parameter's type (a
    // literal picks no overload by itself: nullptr, 5ULL; a temporary
    // std::string would pick `T &&` over `const T &`; an int is as near to
    // long as to double) is cast to the parameter's type.
    if (cxx_ && !moved && (c.overloaded || overloaded_.count(c.qualifiedName))) {
      const auto vt = testcase::variableType(p_, t, r);
      if (inlined_[r] || !vt || p_.type(*vt).value != p_.type(c.params[k].type).value)
        if (auto type = spell(c.params[k].type)) arg = "static_cast<" + *type + ">(" + arg + ")";
    }
    args.push_back(std::move(arg));
  }
  // The extra arguments of a variadic call, each as the type it was passed
  // as: a literal gets its type spelled, or `5` would pass an int where the
  // harness passed a long.
  for (size_t k = c.params.size() + offset; c.variadic && k < s.refs.size(); ++k) {
    const Ref r = s.refs[k];
    std::string arg = expr(r);
    const Op op = t.statements[r].op;
    if (inlined_[r] && (op == Op::Primitive || op == Op::Null))
      if (auto vt = testcase::variableType(p_, t, r))
        if (auto type = spell(*vt)) arg = "static_cast<" + *type + ">(" + arg + ")";
    args.push_back(std::move(arg));
  }
  std::string joined;
  for (size_t k = 0; k < args.size(); ++k) joined += (k ? ", " : "") + args[k];
  if (s.op == Op::Construct) return joined;
  // The kinds of the extra arguments (Catalog::varargKind), which name the
  // trampoline of a variadic function reached through the wrapper.
  std::string kinds;
  for (size_t k = c.params.size() + offset; c.variadic && k < s.refs.size(); ++k)
    if (const auto vt = testcase::variableType(p_, t, s.refs[k])) kinds.push_back(catalog_.varargKind(*vt));
  if (s.op == Op::MethodCall) {
    const Ref r = s.refs.at(0);
    const auto vt = testcase::variableType(p_, t, r);
    const bool pointer = heap_[r] || (vt && p_.type(p_.type(*vt).value).kind == TypeKind::Pointer);
    std::string receiver = heap_[r] ? names_[r] : expr(r);
    // A pointer to const the unit handed out, used for a non-const method:
    // the harness casts the const away, and so does the test.
    if (const model::Type *vtt = vt ? &p_.type(p_.type(*vt).value) : nullptr;
        !c.isConst && !heap_[r] && vtt && vtt->kind == TypeKind::Pointer && vtt->pointeeConst && vtt->pointee)
      if (auto object = spell(p_.type(*vtt->pointee).value)) receiver = "const_cast<" + *object + " *>(" + receiver + ")";
    // A const method beside a non-const twin: through a const view, or the
    // call would pick the twin (harness/CodegenCalls.cpp does the same).
    if (c.hasNonConstTwin && c.parent)
      if (auto object = spell(p_.record(*c.parent).type))
        receiver = "static_cast<const " + *object + (pointer ? " *>(" : " &>(") + receiver + ")";
    const std::string self = pointer ? "(*" + receiver + ")" : receiver;
    if (c.kind == model::CallableKind::Operator) {
      for (const char *op : binaryOperators)
        if (c.operatorSpelling == op && args.size() == 1) return self + " " + op + " " + args[0];
      if (c.operatorSpelling == "[]" && args.size() == 1) return self + "[" + args[0] + "]";
      if (c.operatorSpelling == "()") return self + "(" + joined + ")";
    }
    // A method of a base that the receiver's own class (or one between)
    // hides by a member of the same name (taglib's PropertyMap::insert
    // returns bool, hiding Map<String, StringList>::insert, which returns
    // the map): named through its class, as the harness calls it through a
    // pointer to the base. Not a virtual one: the harness's call dispatches
    // to the override, and so does the test's (a qualified call would not,
    // and would name libplist's pure virtual Node::Clone).
    std::string qualifier;
    if (c.parent && vt && !c.isVirtual) {
      const model::Type &held = p_.type(p_.type(*vt).value);
      const model::Type &object =
          held.kind == TypeKind::Pointer && held.pointee ? p_.type(p_.type(*held.pointee).value) : held;
      if (object.kind == TypeKind::Record && object.recordId && *object.recordId != *c.parent &&
          hidesMember(*object.recordId, *c.parent, c.name))
        if (auto base = spell(p_.record(*c.parent).type)) qualifier = *base + "::";
    }
    return receiver + (pointer ? "->" : ".") + qualifier + model::memberName(p_, c) + "(" + joined + ")";
  }
  if (c.kind == model::CallableKind::Operator && args.size() == 2)
    for (const char *op : binaryOperators)
      if (c.operatorSpelling == op) return args[0] + " " + op + " " + args[1];
  if (c.globalObject && !throughWrapper_) return "&" + c.qualifiedName;
  // With no project header in sight, every function of the project and
  // every global object (whose address the trampoline returns).
  if (needsTrampoline(c) || (throughWrapper_ && !c.parent && c.kind == model::CallableKind::Function)) {
    if (c.variadic) {
      variadicTrampolines_.insert({c.id, kinds});
      return variadicTrampolineName(c, kinds) + "(" + joined + ")";
    }
    trampolines.insert(c.id);
    return trampolineName(c) + "(" + joined + ")";
  }
  return model::calleeName(c) + "(" + joined + ")";
}

} // namespace mosaic::emit

namespace mosaic::emit {

bool BodyWriter::hidesMember(model::RecordId from, model::RecordId declaring, const std::string &name) const {
  std::vector<model::RecordId> todo{from};
  std::set<model::RecordId> seen;
  while (!todo.empty()) {
    const model::RecordId r = todo.back();
    todo.pop_back();
    if (r == declaring || !seen.insert(r).second) continue;
    for (const model::Callable &other : p_.callables)
      if (other.parent == r && other.name == name) return true;
    for (model::RecordId b : p_.record(r).bases) todo.push_back(b);
  }
  return false;
}

} // namespace mosaic::emit
