// Harness generation: calls of variadic functions through libffi. A test
// passes a variadic function extra arguments whose number and types the
// search chooses (Catalog::varargTypes); only at run time does the harness
// know them, so it builds the call with ffi_prep_cif_var and ffi_call.
#include "Writer.h"

#include <fmt/format.h>

namespace mosaic::harness {

using model::TypeKind;

// The libffi type of a scalar or pointer passed or returned by value
// (Catalog::ffiPassable's kinds).
std::string Writer::ffiType(model::TypeId id) const {
  const model::Type &t = p_.type(id);
  switch (t.kind) {
  case TypeKind::Void: return "&ffi_type_void";
  case TypeKind::Pointer:
  case TypeKind::FunctionPointer: return "&ffi_type_pointer";
  case TypeKind::Floating: return t.bits == 32 ? "&ffi_type_float" : "&ffi_type_double";
  case TypeKind::Bool: return "&ffi_type_uint8";
  default: {
    const unsigned bits = t.bits == 0 ? 32 : t.bits;
    const bool isSigned = t.kind == TypeKind::Char ? t.isSigned || t.bits == 0 : t.isSigned;
    return fmt::format("&ffi_type_{}int{}", isSigned ? "s" : "u", bits);
  }
  }
}

// The function that reads libffi's result buffer back as the callee's
// result type: __mosaic_ffi_call_<id>(cif, values) calls `c`.
std::string Writer::ffiCaller(const model::Callable &c) {
  const model::Type &r = p_.type(c.result);
  const std::string rt = t(c.result);
  std::string fnType = rt + " (*)(";
  for (size_t i = 0; i < c.params.size(); ++i) fnType += t(c.params[i].type) + ", ";
  fnType += "...)";
  std::ostringstream o;
  o << "static " << rt << " __mosaic_ffi_call_" << c.id << "(ffi_cif *cif, void **values) {\n"
    << "  union { ffi_arg i; double d; float f; void *p; } rv;\n"
    << "  __mosaic_scrub_stack();\n"
    << "  ffi_call(cif, FFI_FN((" << fnType << ")&" << c.qualifiedName << "), &rv, values);\n";
  switch (r.kind) {
  case TypeKind::Void: o << "  (void)rv;\n"; break;
  case TypeKind::Floating: o << "  return (" << rt << ")" << (r.bits == 32 ? "rv.f" : "rv.d") << ";\n"; break;
  case TypeKind::Pointer:
  case TypeKind::FunctionPointer: o << "  return (" << rt << ")rv.p;\n"; break;
  default: o << "  return (" << rt << ")rv.i;\n"; break;
  }
  o << "}\n\n";
  return o.str();
}

// __mosaic_vararg: the libffi type and value of an extra argument, the
// variable `ref` as it is (one of Catalog::varargTypes, whose storage holds
// the value itself). 0 when the variable has none of those types.
//
// __mosaic_scrub_stack: a call that passes fewer extras than the callee
// reads (tally_ints(4) with none) has it read what libffi's frame and the
// callee's register save area hold: leftovers of earlier calls. The stack
// below the caller is filled first with a word fixed when the harness
// process starts (from its PID): the search, inside one server, sees the
// same result for the same test, while observation's run in a freshly
// started server (stages/Observe.cpp) reads another word, so a value that
// comes from arguments never passed is not asserted. (Zeroes in every run
// made such a value look stable; the written test, built apart, reads its
// own leftovers, and verification then removed the whole test.) 16 KiB:
// ours, well beyond libffi's frame, its argument area (MOSAIC_MAX_VARARGS
// words) and a callee's save area (176 bytes in the x86-64 SysV ABI).
void Writer::emitVarargHelper() {
  // 0x9E3779B97F4A7C15: 2^64 / golden ratio, spreads the PID over the word.
  helpers_ << "static unsigned long __mosaic_scrub_word;\n"
           << "__attribute__((constructor)) static void __mosaic_scrub_init(void) {\n"
           << "  __mosaic_scrub_word = 0x9E3779B97F4A7C15ul * (unsigned long)getpid();\n"
           << "}\n"
           << "static __attribute__((noinline)) void __mosaic_scrub_stack(void) {\n"
           << "  volatile unsigned long area[2048];\n"
           << "  for (unsigned k = 0; k < 2048; ++k) area[k] = __mosaic_scrub_word;\n"
           << "}\n\n";
  helpers_ << "static int __mosaic_vararg(mosaic_ctx *ctx, uint32_t ref, ffi_type **type, void **value, char *kind) {\n"
           << "  const uint32_t ty = __mosaic_var_type(ctx, ref);\n"
           << "  switch (ty) {\n";
  for (model::TypeId v : catalog_.varargTypes())
    helpers_ << "  case " << v << ": *type = " << ffiType(v) << "; *kind = '" << catalog_.varargKind(v) << "'; break;\n";
  helpers_ << "  default: return 0;\n  }\n"
           << "  *value = __mosaic_var(ctx, ref, ty);\n  return *value != NULL;\n}\n\n";
}

// A call of variadic `c`: the fixed arguments fetched as for any call, the
// extras by __mosaic_vararg, the call through libffi.
void Writer::emitVariadicCall(const model::Callable &c) {
  if (!usesFfi_) emitVarargHelper();
  usesFfi_ = true;
  const size_t fixed = c.params.size();
  std::ostringstream decls, code;
  decls << "  int ok = 1;\n  uint32_t i;\n  ffi_cif cif;\n"
        << "  ffi_type *types[" << fixed << " + MOSAIC_MAX_VARARGS];\n"
        << "  void *values[" << fixed << " + MOSAIC_MAX_VARARGS];\n"
        << "  char kinds[MOSAIC_MAX_VARARGS + 1] = {0};\n";
  for (size_t i = 0; i < fixed; ++i) {
    const std::string passed = argument(c, i, 0, decls, code);
    // argument() passes a value read through a pointer (`*a1`) or a
    // pointer held by value (`a0`): libffi wants the value's address.
    const std::string address = passed.rfind('*', 0) == 0 ? passed.substr(1) : "&" + passed;
    code << "  types[" << i << "] = " << ffiType(p_.type(c.params[i].type).value) << ";\n"
         << "  values[" << i << "] = (void *)" << address << ";\n";
  }
  code << "  for (i = " << fixed << "; i < s->nrefs; ++i)\n"
       << "    if (!__mosaic_vararg(ctx, s->refs[i], &types[i], &values[i], &kinds[i - " << fixed << "])) " << invalid()
       << "\n";
  if (c.formatParam) {
    // Extras that do not fit the format are the caller's undefined
    // behaviour: not performed (abi/Format.h).
    const std::string format = "a" + std::to_string(*c.formatParam);
    if (c.scanfFormat)
      code << "  if (" << format << " && mosaic_format_kinds(" << format << ", kinds, 0) != 0) " << invalid() << "\n";
    else
      code << "  if (!mosaic_format_fits(" << format << ", kinds, s->nrefs - " << fixed << ")) " << invalid() << "\n";
  }
  code
       << "  if (ffi_prep_cif_var(&cif, FFI_DEFAULT_ABI, " << fixed << ", s->nrefs, " << ffiType(c.result)
       << ", types) != FFI_OK) " << invalid() << "\n";
  helpers_ << ffiCaller(c);
  const std::string call = "__mosaic_ffi_call_" + std::to_string(c.id) + "(&cif, values)";
  std::ostringstream perform;
  const std::optional<model::TypeId> out = performCall(c, call, decls, perform);
  const std::string observe = observations(c, out);
  std::string body = callFunction(c, fixed, decls.str(), code.str(), perform.str(), observe);
  // Any number of extras up to the limit, not exactly `fixed` references.
  const std::string exact = "  if (s->nrefs != " + std::to_string(fixed) + ") ";
  const std::string range = "  if (s->nrefs < " + std::to_string(fixed) + " || s->nrefs > " + std::to_string(fixed) +
                            " + MOSAIC_MAX_VARARGS) ";
  if (const size_t at = body.find(exact); at != std::string::npos) body.replace(at, exact.size(), range);
  calls_ << body;
  emittedCalls_.push_back(c.id);
}

} // namespace mosaic::harness
