// Harness generation: one function per callable, and the dispatcher.
#include "Writer.h"

#include "mosaic/model/Derive.h"
#include "mosaic/testcase/Lifetime.h"

namespace mosaic::harness {

using model::CallableKind;
using model::TypeKind;

// Declares and fetches argument i into `decls`/`code`; returns the
// expression that passes it.
std::string Writer::argument(const model::Callable &c, size_t i, size_t offset, std::ostringstream &decls,
                             std::ostringstream &code) {
  const model::Param &param = c.params[i];
  const model::Type &declared = p_.type(param.type);
  const model::TypeId v = declared.value;
  const model::Type &value = p_.type(v);
  const std::string a = "a" + std::to_string(i);
  const std::string r = "s->refs[" + std::to_string(i + offset) + "]";
  // A pointer by value is converted as it is read (null, derived to base,
  // to void *); a non-const reference to a pointer (`char_t *&`) binds to
  // the test's variable itself, so that what the callee stores there is what
  // the next statements see, as in the written test.
  const bool boundPointer = declared.kind == TypeKind::Reference && !declared.isRvalue && !declared.pointeeConst;
  if (value.kind == TypeKind::Pointer && !boundPointer) {
    decls << "  " << t(v) << " " << a << ";\n";
    code << "  " << a << " = " << ptr(v) << "(ctx, " << r << ", &ok);\n  if (!ok) " << invalid() << "\n";
    return a;
  }
  decls << "  " << t(v) << " *" << a << ";\n";
  code << "  " << a << " = " << ref(v) << "(ctx, " << r << ");\n  if (!" << a << ") " << invalid() << "\n";
  if (!cxx_) return "*" + a;
  if (model::passedByMove(p_, param.type)) return "std::move(*" + a + ")";
  return "*" + a;
}

// The function that performs a call of `c` (__mosaic_call_<id>): fetches
// its receiver and arguments, calls, keeps the result, observes.
void Writer::emitCall(const model::Callable &c) {
  const bool member = hasReceiver(c);
  const size_t expected = c.params.size() + (member ? 1 : 0);
  std::ostringstream decls, code;
  decls << "  int ok = 1;\n";
  const std::string self = member ? receiver(c, decls, code) : "";
  std::vector<std::string> args;
  for (size_t i = 0; i < c.params.size(); ++i) args.push_back(argument(c, i, member ? 1 : 0, decls, code));
  const std::string call = callExpression(c, self, args);
  std::ostringstream perform;
  const std::optional<model::TypeId> out = performCall(c, call, decls, perform);
  const std::string observe = observations(c, out);
  calls_ << callFunction(c, expected, decls.str(), code.str(), perform.str(), observe);
  emittedCalls_.push_back(c.id);
}

// Whether `c` is called on an object: a method or member operator, whose
// receiver is the statement's first reference.
bool Writer::hasReceiver(const model::Callable &c) {
  return c.parent && (c.kind == CallableKind::Method || c.kind == CallableKind::Operator);
}

// Declares and fetches the receiver `self` into `decls`/`code`; returns the
// prefix that calls a member on it.
std::string Writer::receiver(const model::Callable &c, std::ostringstream &decls, std::ostringstream &code) {
  const model::TypeId rt = p_.record(*c.parent).type;
  decls << "  " << t(rt) << " *self;\n";
  code << "  self = " << ref(rt) << "(ctx, s->refs[0]);\n  if (!self) " << invalid() << "\n";
  // A const method beside a non-const twin is reached through a const view.
  return c.hasNonConstTwin ? "static_cast<const " + t(rt) + " *>(self)->" : "self->";
}

// The call of `c` with `args`: a new-expression for a constructor, a member
// call through `self` for a method, else by qualified name.
std::string Writer::callExpression(const model::Callable &c, const std::string &self, const std::vector<std::string> &args) {
  if (c.globalObject) return "(&" + c.qualifiedName + ")";
  std::string call;
  if (c.kind == CallableKind::Constructor) call = "new " + t(p_.record(*c.parent).type) + "(";
  else if (hasReceiver(c)) call = self + model::memberName(p_, c) + "(";
  else call = model::calleeName(c) + "(";
  for (size_t i = 0; i < args.size(); ++i) call += (i ? ", " : "") + args[i];
  call += ")";
  return call;
}

// Perform, and hold the result in the statement's variable: writes `call`
// into `perform` (and, in C, the result's declarations into `decls`);
// returns the value type `out` points to, nullopt when there is no `out`.
std::optional<model::TypeId> Writer::performCall(const model::Callable &c, const std::string &call,
                                                 std::ostringstream &decls, std::ostringstream &perform) {
  const std::optional<model::TypeId> var = catalog_.resultVariable(c.id);
  if (c.kind == CallableKind::Constructor) {
    const model::TypeId rt = p_.record(*c.parent).type;
    perform << "    " << t(rt) << " *out = " << call << ";\n"
            << "    __mosaic_adopt(ctx, " << rt << ", out, " << deleter(rt) << ");\n";
    return rt;
  }
  if (!var) {
    perform << "    " << (p_.type(c.result).kind == TypeKind::Void ? "" : "(void)") << call << ";\n";
    return std::nullopt;
  }
  if (p_.type(*var).kind == TypeKind::Reference) {
    const model::TypeId rv = p_.type(*var).value;
    references_.insert(*var);
    perform << "    " << t(rv) << " *out = (" << t(rv) << " *)&(" << call << ");\n"
            << "    *(void **)__mosaic_define(ctx, " << *var << ", sizeof(void *)) = (void *)out;\n";
    return rv;
  }
  if (trivial(*var)) {
    if (cxx_) {
      perform << "    " << t(*var) << " *out = (" << t(*var) << " *)__mosaic_define(ctx, " << *var << ", sizeof(" << t(*var)
              << "));\n    *out = " << call << ";\n";
    } else {
      decls << "  " << t(*var) << " r;\n  " << t(*var) << " *out;\n";
      perform << "  r = " << call << ";\n  out = (" << t(*var) << " *)__mosaic_define(ctx, " << *var
              << ", sizeof r);\n  memcpy(out, &r, sizeof r);\n";
    }
    const TypeKind k = p_.type(*var).kind;
    if (k == TypeKind::Integer || k == TypeKind::Char || k == TypeKind::Bool || k == TypeKind::Enum)
      perform << "    MOSAIC_SYM_INPUT(ctx, out, sizeof *out, MOSAIC_SYM_IN_RESULT);\n";
    return *var;
  }
  perform << "    " << t(*var) << " *out = new " << t(*var) << "(" << call << ");\n"
          << "    __mosaic_adopt(ctx, " << *var << ", out, " << deleter(*var) << ");\n";
  return *var;
}

// What is worth asserting on afterwards: the result (the variable `out`,
// when there is one, pointing to a value of type *out), and what the callee
// wrote through its pointer and reference parameters, but not the one it
// releases (cmark_node_free(node) writes node->next before freeing it: its
// bytes afterwards are the allocator's). "" when nothing is.
std::string Writer::observations(const model::Callable &c, std::optional<model::TypeId> out) {
  std::ostringstream observe;
  const std::string outVar = "out";
  if (out && observable(*out)) observe << "    " << observer(*out) << "(ctx, MOSAIC_OBS_RESULT, " << outVar << ");\n";
  const std::optional<size_t> released = testcase::releasedParam(p_, c);
  for (size_t i = 0; i < c.params.size(); ++i) {
    const model::Param &param = c.params[i];
    const model::Type &declared = p_.type(param.type);
    if (!param.written || !declared.pointee || declared.pointeeConst || released == i) continue;
    const model::TypeId pointee = p_.type(*declared.pointee).value;
    if (!observable(pointee)) continue;
    const std::string a = "a" + std::to_string(i);
    if (declared.kind == TypeKind::Pointer)
      observe << "    if (" << a << ") " << observer(pointee) << "(ctx, MOSAIC_OBS_ARG0 + " << i << ", " << a << ");\n";
    else
      observe << "    " << observer(pointee) << "(ctx, MOSAIC_OBS_ARG0 + " << i << ", " << a << ");\n";
  }
  return observe.str();
}

// The whole function __mosaic_call_<id>: its declarations, the check of its
// `expected` references, the fetching code, then the call and observations,
// guarded by a try when C++ exceptions are on.
std::string Writer::callFunction(const model::Callable &c, size_t expected, const std::string &decls,
                                 const std::string &code, const std::string &perform, const std::string &observe) const {
  std::ostringstream body;
  body << "/* " << c.signature << " */\n"
       << "static int __mosaic_call_" << c.id << "(mosaic_ctx *ctx, const mosaic_stmt *s) {\n"
       << decls << "  (void)ok;\n"
       << "  if (s->nrefs != " << expected << ") " << invalid() << "\n"
       << code;
  const bool guard = cxx_ && options_.exceptions;
  if (guard) body << "  try {\n";
  else if (cxx_) body << "  {\n";
  body << perform;
  if (!observe.empty()) {
    body << "    if (MOSAIC_OBSERVE_BEGIN(ctx)) {\n" << observe << "    }\n    __mosaic_observe_end(ctx);\n";
  }
  if (guard) {
    body << "  } catch (const std::exception &e) {\n"
         << "    return __mosaic_threw(ctx, __mosaic_demangle(typeid(e).name()).c_str(), e.what());\n"
         << "  } catch (...) {\n    return __mosaic_threw(ctx, __mosaic_exception_type().c_str(), \"\");\n  }\n";
  } else if (cxx_) {
    body << "  }\n";
  }
  body << "  return MOSAIC_STMT_OK;\n}\n\n";
  return body.str();
}

void Writer::emitDispatcher() {
  dispatch_ << "int __mosaic_unit_exec(mosaic_ctx *ctx, const mosaic_stmt *s, uint32_t index) {\n"
            << "  (void)index;\n  switch (s->op) {\n"
            << "  case MOSAIC_OP_PRIMITIVE: return __mosaic_make_primitive(ctx, s);\n"
            << "  case MOSAIC_OP_CSTRING: return __mosaic_make_cstring(ctx, s);\n"
            << "  case MOSAIC_OP_STD_STRING: return __mosaic_make_std_string(ctx, s);\n"
            << "  case MOSAIC_OP_BUFFER: return __mosaic_make_buffer(ctx, s);\n"
            << "  case MOSAIC_OP_FILE: return __mosaic_make_file(ctx, s);\n"
            << "  case MOSAIC_OP_NULL_VALUE: return __mosaic_make_null(ctx, s);\n"
            << "  case MOSAIC_OP_AGGREGATE: return __mosaic_make_aggregate(ctx, s);\n"
            << "  case MOSAIC_OP_ADDRESS_OF: return __mosaic_make_address_of(ctx, s);\n"
            << "  case MOSAIC_OP_END_OF: return __mosaic_make_end_of(ctx, s);\n"
            << "  case MOSAIC_OP_ARRAY: return __mosaic_make_array(ctx, s);\n"
            << "  case MOSAIC_OP_FIELD_SET: return __mosaic_field_set(ctx, s);\n"
            << "  case MOSAIC_OP_CALLBACK: return __mosaic_make_callback(ctx, s);\n"
            << "  case MOSAIC_OP_SUBCLASS: return __mosaic_make_subclass(ctx, s);\n"
            << "  case MOSAIC_OP_CONSTRUCT:\n  case MOSAIC_OP_CALL:\n  case MOSAIC_OP_METHOD_CALL:\n"
            << "    switch (s->callable) {\n";
  for (model::CallableId id : emittedCalls_) {
    const model::Callable &c = p_.callable(id);
    const char *op = c.kind == CallableKind::Constructor ? "MOSAIC_OP_CONSTRUCT"
                     : (c.parent && (c.kind == CallableKind::Method || c.kind == CallableKind::Operator))
                         ? "MOSAIC_OP_METHOD_CALL"
                         : "MOSAIC_OP_CALL";
    dispatch_ << "    case " << id << ": return s->op == " << op << " ? __mosaic_call_" << id << "(ctx, s) : MOSAIC_STMT_INVALID;\n";
  }
  dispatch_ << "    }\n    return MOSAIC_STMT_INVALID;\n  }\n  return MOSAIC_STMT_INVALID;\n}\n";
}

} // namespace mosaic::harness
