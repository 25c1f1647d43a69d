// Harness generation: statements that make values, variable accessors,
// observers, deleters and callback stubs.
#include "Writer.h"

namespace mosaic::harness {

using model::TypeKind;

namespace {

// The value types of the model (what variables hold), in id order.
std::vector<const model::Type *> valueTypes(const model::Program &p) {
  std::vector<const model::Type *> out;
  for (const model::Type &t : p.types)
    if (t.value == t.id && t.kind != TypeKind::Unsupported && t.kind != TypeKind::Reference) out.push_back(&t);
  return out;
}

std::string openBuilder(const char *name) {
  return std::string("static int ") + name + "(mosaic_ctx *ctx, const mosaic_stmt *s) {\n";
}

} // namespace

void Writer::emitBuilders() {
  emitPrimitive();
  emitStrings();
  emitFiles();
  emitNull();
  emitAggregate();
  emitAddressOf();
  emitEndOf();
  emitArray();
  emitFieldSet();
  emitCallbacks();
  emitSubclasses();
}

void Writer::emitPrimitive() {
  builders_ << openBuilder("__mosaic_make_primitive") << "  double d;\n  memcpy(&d, &s->bits, sizeof d);\n"
            << "  switch (s->type) {\n";
  for (const model::Type *ty : valueTypes(p_)) {
    if (!catalog_.isScalar(ty->id) || !catalog_.buildable(ty->id)) continue;
    const std::string T = t(ty->id);
    std::string value = "(" + T + ")(int64_t)s->bits";
    if (ty->kind == TypeKind::Floating) value = "(" + T + ")d";
    if (ty->kind == TypeKind::Bool) value = "s->bits != 0";
    if (ty->kind == TypeKind::Floating) { // floats stay concrete in a concolic run
      builders_ << "  case " << ty->id << ": *(" << T << " *)__mosaic_define(ctx, " << ty->id << ", sizeof(" << T
                << ")) = " << value << "; return MOSAIC_STMT_OK;\n";
      continue;
    }
    builders_ << "  case " << ty->id << ": {\n    " << T << " *v = (" << T << " *)__mosaic_define(ctx, " << ty->id
              << ", sizeof(" << T << "));\n    *v = " << value
              << ";\n    MOSAIC_SYM_INPUT(ctx, v, sizeof *v, MOSAIC_SYM_IN_PRIMITIVE);\n    return MOSAIC_STMT_OK;\n  }\n";
  }
  builders_ << "  }\n  " << invalid() << "\n}\n\n";
}

void Writer::emitStrings() {
  builders_ << openBuilder("__mosaic_make_cstring") << "  char *b;\n  switch (s->type) {\n";
  for (const model::Type *ty : valueTypes(p_)) {
    if (!catalog_.isCharPointer(ty->id)) continue;
    const std::string T = t(ty->id);
    // Zeroed past the bytes: the terminator, and a symbolic harness's slack.
    builders_ << "  case " << ty->id << ":\n    b = (char *)__mosaic_alloc(ctx, s->len + 1 + MOSAIC_CSTRING_SLACK);\n"
              << "    memcpy(b, s->bytes, s->len);\n"
              << "    MOSAIC_SYM_INPUT(ctx, b, s->len + MOSAIC_CSTRING_SLACK, MOSAIC_SYM_IN_BYTES);\n"
              << "    *(" << T << " *)__mosaic_define(ctx, " << ty->id << ", sizeof(" << T << ")) = (" << T << ")b;\n"
              << "    return MOSAIC_STMT_OK;\n";
  }
  builders_ << "  }\n  (void)b;\n  " << invalid() << "\n}\n\n";

  builders_ << openBuilder("__mosaic_make_buffer") << "  void *b;\n  switch (s->type) {\n";
  for (const model::Type *ty : valueTypes(p_)) {
    if (ty->kind != TypeKind::Pointer) continue;
    const std::string T = t(ty->id);
    builders_ << "  case " << ty->id << ":\n    b = __mosaic_alloc(ctx, s->len ? s->len : 1);\n"
              << "    memcpy(b, s->bytes, s->len);\n    MOSAIC_SYM_INPUT(ctx, b, s->len, MOSAIC_SYM_IN_BYTES);\n"
              << "    *(" << T << " *)__mosaic_define(ctx, " << ty->id << ", sizeof(" << T << ")) = (" << T << ")b;\n"
              << "    return MOSAIC_STMT_OK;\n";
  }
  builders_ << "  }\n  (void)b;\n  " << invalid() << "\n}\n\n";

  builders_ << openBuilder("__mosaic_make_std_string");
  if (cxx_) {
    builders_ << "  switch (s->type) {\n";
    for (const model::Type *ty : valueTypes(p_)) {
      if (ty->kind == TypeKind::String) {
        // The string's own bytes are the input bytes (concolic execution):
        // the constructor copies them in libstdc++, which no pass sees, so
        // they are marked where they landed. Reads through the unit's
        // inlined operator[], data() or iterators are then symbolic, and
        // through libstdc++'s out-of-line copies, compare and find, which
        // the pass and the runtime model (instrument/Symbolic.cpp).
        builders_ << "  case " << ty->id << ": {\n    " << t(ty->id) << " *v = new " << t(ty->id)
                  << "((const char *)s->bytes, s->len);\n"
                  << "    MOSAIC_SYM_INPUT(ctx, &(*v)[0], s->len, MOSAIC_SYM_IN_BYTES);\n"
                  << "    __mosaic_adopt(ctx, " << ty->id << ", v, " << deleter(ty->id)
                  << ");\n    return MOSAIC_STMT_OK;\n  }\n";
      } else if (ty->kind == TypeKind::InputStream) {
        builders_ << "  case " << ty->id << ":\n    __mosaic_adopt(ctx, " << ty->id
                  << ", static_cast<" << t(ty->id) << " *>(new std::istringstream(std::string((const char *)s->bytes, s->len))), "
                  << deleter(ty->id) << ");\n    return MOSAIC_STMT_OK;\n";
      } else if (ty->kind == TypeKind::OutputStream) {
        builders_ << "  case " << ty->id << ":\n    __mosaic_adopt(ctx, " << ty->id << ", static_cast<" << t(ty->id)
                  << " *>(new std::ostringstream()), " << deleter(ty->id) << ");\n    return MOSAIC_STMT_OK;\n";
      } else if (ty->kind == TypeKind::StringView) {
        builders_ << "  case " << ty->id << ": {\n    char *b = (char *)__mosaic_alloc(ctx, s->len + 1);\n"
                  << "    memcpy(b, s->bytes, s->len);\n    MOSAIC_SYM_INPUT(ctx, b, s->len, MOSAIC_SYM_IN_BYTES);\n"
                  << "    __mosaic_adopt(ctx, " << ty->id << ", new " << t(ty->id)
                  << "(b, s->len), " << deleter(ty->id) << ");\n    return MOSAIC_STMT_OK;\n  }\n";
      }
    }
    builders_ << "  }\n";
  } else {
    builders_ << "  (void)ctx;\n  (void)s;\n";
  }
  builders_ << "  " << invalid() << "\n}\n\n";
}

// The C library's streams over a temporary file holding the statement's
// bytes (Op::File; runtime/harness.c's __mosaic_temp_file).
void Writer::emitFiles() {
  builders_ << openBuilder("__mosaic_make_file") << "  void *f;\n  switch (s->type) {\n";
  for (const model::Type *ty : valueTypes(p_)) {
    const std::string T = t(ty->id);
    if (catalog_.descriptorType(ty->id) && catalog_.buildable(ty->id)) {
      builders_ << "  case " << ty->id << ": {\n    const int fd = __mosaic_temp_fd(s->bytes, s->len);\n"
                << "    if (fd < 0) break;\n    *(" << T << " *)__mosaic_define(ctx, " << ty->id << ", sizeof(" << T
                << ")) = (" << T << ")fd;\n    return MOSAIC_STMT_OK;\n  }\n";
      continue;
    }
    if (!catalog_.fileStream(ty->id)) continue;
    builders_ << "  case " << ty->id << ":\n    f = __mosaic_temp_file(s->bytes, s->len);\n"
              << "    if (!f) break;\n"
              << "    *(" << T << " *)__mosaic_define(ctx, " << ty->id << ", sizeof(" << T << ")) = (" << T << ")f;\n"
              << "    return MOSAIC_STMT_OK;\n";
  }
  builders_ << "  }\n  (void)f;\n  " << invalid() << "\n}\n\n";
}

void Writer::emitNull() {
  builders_ << openBuilder("__mosaic_make_null") << "  switch (s->type) {\n";
  for (const model::Type *ty : valueTypes(p_)) {
    if (ty->kind == TypeKind::Pointer || ty->kind == TypeKind::FunctionPointer) {
      builders_ << "  case " << ty->id << ": __mosaic_define(ctx, " << ty->id << ", sizeof(" << t(ty->id)
                << ")); return MOSAIC_STMT_OK;\n";
    } else if (cxx_ && catalog_.buildable(ty->id) &&
               (ty->kind == TypeKind::UniquePtr || ty->kind == TypeKind::SharedPtr ||
                ty->kind == TypeKind::Optional || ty->kind == TypeKind::StdFunction)) {
      builders_ << "  case " << ty->id << ": __mosaic_adopt(ctx, " << ty->id << ", new " << t(ty->id) << "(), "
                << deleter(ty->id) << "); return MOSAIC_STMT_OK;\n";
    }
  }
  builders_ << "  }\n  " << invalid() << "\n}\n\n";
}

void Writer::emitAggregate() {
  builders_ << openBuilder("__mosaic_make_aggregate") << "  switch (s->type) {\n";
  for (const model::Type *ty : valueTypes(p_)) {
    if (ty->kind != TypeKind::Record) continue;
    const model::Record &r = p_.record(*ty->recordId);
    if (!r.complete) continue;
    const auto fields = catalog_.aggregateFields(r.id);
    const std::string T = t(ty->id);
    if (!cxx_) {
      builders_ << "  case " << ty->id << ": {\n    " << T << " *p = (" << T << " *)__mosaic_define(ctx, " << ty->id
                << ", sizeof(" << T << "));\n    if (s->nrefs == 0) return MOSAIC_STMT_OK;\n";
      if (!fields) {
        builders_ << "    " << invalid() << "\n  }\n";
        continue;
      }
      builders_ << "    if (s->nrefs != " << fields->size() << ") " << invalid() << "\n";
      for (size_t k = 0; k < fields->size(); ++k) {
        const model::Field &f = r.fields[(*fields)[k]];
        const model::TypeId fv = p_.type(f.type).value;
        builders_ << "    {\n      " << t(fv) << " *f = " << ref(fv) << "(ctx, s->refs[" << k << "]);\n      if (!f) "
                  << invalid() << "\n";
        if (f.bitWidth) builders_ << "      p->" << f.name << " = *f;\n    }\n";
        else builders_ << "      memcpy(&p->" << f.name << ", f, sizeof p->" << f.name << ");\n    }\n";
      }
      builders_ << "    return MOSAIC_STMT_OK;\n  }\n";
      continue;
    }
    if (!r.aggregate || !r.bases.empty() || r.abstract) continue;
    builders_ << "  case " << ty->id << ": {\n";
    // Zero-initialised only where a default constructor is not deleted
    // (Catalog::zeroInitialisable): `new T()` would not compile.
    if (catalog_.zeroInitialisable(r.id))
      builders_ << "    if (s->nrefs == 0) {\n      __mosaic_adopt(ctx, " << ty->id << ", new " << T << "(), "
                << deleter(ty->id) << ");\n      return MOSAIC_STMT_OK;\n    }\n";
    if (!fields) {
      builders_ << "    " << invalid() << "\n  }\n";
      continue;
    }
    builders_ << "    if (s->nrefs != " << fields->size() << ") " << invalid() << "\n";
    std::string init;
    for (size_t k = 0; k < fields->size(); ++k) {
      const model::TypeId fv = p_.type(r.fields[(*fields)[k]].type).value;
      builders_ << "    " << t(fv) << " *f" << k << " = " << ref(fv) << "(ctx, s->refs[" << k << "]);\n    if (!f" << k
                << ") " << invalid() << "\n";
      init += (k ? ", *f" : "*f") + std::to_string(k);
    }
    builders_ << "    __mosaic_adopt(ctx, " << ty->id << ", new " << T << "{" << init << "}, " << deleter(ty->id)
              << ");\n    return MOSAIC_STMT_OK;\n  }\n";
  }
  builders_ << "  }\n  " << invalid() << "\n}\n\n";
}

void Writer::emitAddressOf() {
  builders_ << openBuilder("__mosaic_make_address_of") << "  void *o;\n  switch (s->type) {\n";
  for (const model::Type *ty : valueTypes(p_)) {
    if (ty->kind != TypeKind::Pointer) continue;
    const model::TypeId pointee = p_.type(*ty->pointee).value;
    const bool toVoid = p_.type(pointee).kind == TypeKind::Void;
    if (!toVoid && (!catalog_.buildable(pointee) || p_.type(pointee).kind == TypeKind::FunctionPointer)) continue;
    std::string object;
    if (toVoid) {
      needObject_ = true;
      object = "__mosaic_object(ctx, s->refs[0])";
    } else {
      object = "(void *)" + ref(pointee) + "(ctx, s->refs[0])";
    }
    builders_ << "  case " << ty->id << ":\n    o = " << object << ";\n    if (!o) " << invalid() << "\n    *("
              << t(ty->id) << " *)__mosaic_define(ctx, " << ty->id << ", sizeof(" << t(ty->id) << ")) = (" << t(ty->id)
              << ")o;\n    return MOSAIC_STMT_OK;\n";
  }
  builders_ << "  }\n  (void)o;\n  " << invalid() << "\n}\n\n";
}

// The end of a (begin, end) pair: the begin pointer's value plus the offset
// in bytes, for the types of the unit's End parameters.
void Writer::emitEndOf() {
  std::set<model::TypeId> ends;
  for (const model::Callable &c : p_.callables)
    for (const model::Param &param : c.params)
      if (param.role == model::ParamRole::End) ends.insert(p_.type(param.type).value);
  builders_ << openBuilder("__mosaic_make_end_of") << "  const void *o;\n  switch (s->type) {\n";
  if (!ends.empty()) needObject_ = true;
  for (model::TypeId id : ends)
    builders_ << "  case " << id << ":\n    o = __mosaic_object(ctx, s->refs[0]);\n    if (!o) " << invalid() << "\n    *("
              << t(id) << " *)__mosaic_define(ctx, " << id << ", sizeof(" << t(id) << ")) = (" << t(id)
              << ")(*(const char *const *)o + s->bits);\n    return MOSAIC_STMT_OK;\n";
  builders_ << "  }\n  (void)o;\n  " << invalid() << "\n}\n\n";
}

void Writer::emitArray() {
  builders_ << openBuilder("__mosaic_make_array") << "  uint32_t i;\n  switch (s->type) {\n";
  for (const model::Type *ty : valueTypes(p_)) {
    const bool pointer = ty->kind == TypeKind::Pointer;
    if (!pointer && ty->kind != TypeKind::Array) continue;
    const model::TypeId e = p_.type(pointer ? *ty->pointee : *ty->element).value;
    if (p_.type(e).kind == TypeKind::Void || !catalog_.buildable(e)) continue;
    if (!(pointer ? catalog_.pointedArrayElement(e) : catalog_.arrayElement(e))) continue;
    // A C++ class is copied into place by its copy constructor, not bytewise.
    const bool constructed = !catalog_.arrayElement(e);
    const std::string E = t(e), T = t(ty->id);
    builders_ << "  case " << ty->id << ": {\n";
    if (pointer) {
      builders_ << "    " << E << " *a = (" << E << " *)__mosaic_alloc(ctx, sizeof(" << E << ") * (s->nrefs ? s->nrefs : 1));\n";
    } else {
      builders_ << "    " << E << " *a = (" << E << " *)__mosaic_define(ctx, " << ty->id << ", sizeof(" << T << "));\n"
                << "    if (s->nrefs > " << ty->length << ") " << invalid() << "\n";
    }
    builders_ << "    for (i = 0; i < s->nrefs; ++i) {\n      " << E << " *e = " << ref(e) << "(ctx, s->refs[i]);\n"
              << "      if (!e) " << invalid() << "\n      "
              << (constructed ? "new (&a[i]) " + E + "(*e);" : std::string("memcpy(&a[i], e, sizeof *e);")) << "\n    }\n";
    if (pointer)
      builders_ << "    *(" << T << " *)__mosaic_define(ctx, " << ty->id << ", sizeof(" << T << ")) = (" << T << ")a;\n";
    builders_ << "    return MOSAIC_STMT_OK;\n  }\n";
  }
  builders_ << "  }\n  (void)i;\n  " << invalid() << "\n}\n\n";
}

void Writer::emitFieldSet() {
  builders_ << openBuilder("__mosaic_field_set") << "  switch (s->type) {\n";
  for (const model::Type *ty : valueTypes(p_)) {
    if (ty->kind != TypeKind::Record || !p_.record(*ty->recordId).complete) continue;
    const model::Record &r = p_.record(*ty->recordId);
    std::ostringstream cases;
    for (size_t k = 0; k < r.fields.size(); ++k) {
      const model::Field &f = r.fields[k];
      const model::Type &ft = p_.type(f.type);
      if (f.isStatic || f.access != model::Access::Public || f.name.empty() || ft.isConst ||
          ft.kind == TypeKind::Reference || !catalog_.buildable(ft.value) || (cxx_ && ft.kind == TypeKind::Array))
        continue;
      cases << "    case " << k << ": {\n      " << t(ft.value) << " *v = " << ref(ft.value) << "(ctx, s->refs[1]);\n"
            << "      if (!v) " << invalid() << "\n";
      if (cxx_ || f.bitWidth) cases << "      self->" << f.name << " = *v;\n";
      else cases << "      memcpy(&self->" << f.name << ", v, sizeof self->" << f.name << ");\n";
      cases << "      return MOSAIC_STMT_OK;\n    }\n";
    }
    if (cases.str().empty()) continue;
    builders_ << "  case " << ty->id << ": {\n    " << t(ty->id) << " *self = " << ref(ty->id) << "(ctx, s->refs[0]);\n"
              << "    if (!self) " << invalid() << "\n    switch (s->field) {\n"
              << cases.str() << "    }\n    " << invalid() << "\n  }\n";
  }
  builders_ << "  }\n  " << invalid() << "\n}\n\n";
}

void Writer::emitCallbacks() {
  std::ostringstream cases;
  for (const model::Type *ty : valueTypes(p_)) {
    if ((ty->kind != TypeKind::FunctionPointer && ty->kind != TypeKind::StdFunction) || !catalog_.buildable(ty->id)) continue;
    if (ty->kind == TypeKind::StdFunction && !cxx_) continue;
    const model::Signature &sig = *ty->signature;
    const model::Type &result = p_.type(sig.result);
    if (result.kind == TypeKind::Reference) continue;
    const bool isVoid = result.kind == TypeKind::Void;
    const std::string stub = "__mosaic_stub_" + std::to_string(ty->id);
    // The stub: returns the test's value for this callback type, else zero.
    helpers_ << "static " << (isVoid ? std::string("void") : t(sig.result)) << " " << stub << "(";
    for (size_t i = 0; i < sig.params.size(); ++i) helpers_ << (i ? ", " : "") << t(sig.params[i]) << " a" << i;
    if (sig.params.empty() && !cxx_) helpers_ << "void";
    helpers_ << ") {\n  mosaic_ctx *ctx = __mosaic_context();\n";
    if (!isVoid) helpers_ << "  void *v = __mosaic_callback_value(ctx, " << ty->id << ");\n";
    for (size_t i = 0; i < sig.params.size(); ++i) helpers_ << "  (void)a" << i << ";\n";
    helpers_ << "  __mosaic_callback_called(ctx, " << ty->id << ");\n";
    if (!isVoid) {
      const model::TypeId rv = result.value;
      if (trivial(rv)) {
        helpers_ << "  {\n    " << t(rv) << " r;\n    if (v) memcpy(&r, v, sizeof r);\n    else memset(&r, 0, sizeof r);\n"
                 << "    return r;\n  }\n";
      } else {
        helpers_ << "  return v ? *(" << t(rv) << " *)v : " << t(rv) << "();\n";
      }
    }
    helpers_ << "}\n\n";
    cases << "  case " << ty->id << ":\n";
    if (ty->kind == TypeKind::FunctionPointer)
      cases << "    *(" << t(ty->id) << " *)__mosaic_define(ctx, " << ty->id << ", sizeof(" << t(ty->id) << ")) = &" << stub
            << ";\n";
    else
      cases << "    __mosaic_adopt(ctx, " << ty->id << ", new " << t(ty->id) << "(&" << stub << "), " << deleter(ty->id)
            << ");\n";
    cases << "    if (s->nrefs == 1) __mosaic_set_callback_value(ctx, " << ty->id << ", s->refs[0]);\n"
          << "    return MOSAIC_STMT_OK;\n";
  }
  builders_ << openBuilder("__mosaic_make_callback") << "  switch (s->type) {\n" << cases.str() << "  }\n  " << invalid()
            << "\n}\n\n";
}

// Accessors, observers and deleters that the code above asked for.
void Writer::emitHelpers() {
  std::ostringstream o;
  // A variable's object: the referent for a reference variable.
  auto address = [&](model::TypeId var) {
    if (p_.type(var).kind == TypeKind::Reference) return std::string("*(void **)s");
    return std::string("s");
  };
  for (model::TypeId v : refs_) {
    const std::string T = t(v);
    o << "static " << T << " *__mosaic_ref_" << v << "(mosaic_ctx *ctx, uint32_t ref) {\n"
      << "  const uint32_t type = __mosaic_var_type(ctx, ref);\n  void *s = __mosaic_var(ctx, ref, type);\n"
      << "  if (!s) return 0;\n  switch (type) {\n";
    for (const auto &[var, how] : catalog_.fitting(v)) {
      const model::Type &vt = p_.type(var);
      if (vt.kind != TypeKind::Reference && vt.value != vt.id) continue;
      const std::string V = t(vt.value);
      o << "  case " << var << ": ";
      if (how == testcase::Passing::Deref)
        o << "if (!*(" << V << " *)(" << address(var) << ")) __mosaic_null_object(ctx);\n    return (" << T << " *)*("
          << V << " *)(" << address(var) << ");\n";
      else o << "return (" << T << " *)(" << V << " *)(" << address(var) << ");\n";
    }
    o << "  }\n  return 0;\n}\n\n";
  }
  for (model::TypeId v : ptrs_) {
    const std::string T = t(v);
    o << "static " << T << " __mosaic_ptr_" << v << "(mosaic_ctx *ctx, uint32_t ref, int *ok) {\n"
      << "  const uint32_t type = __mosaic_var_type(ctx, ref);\n  void *s = __mosaic_var(ctx, ref, type);\n"
      << "  *ok = s != 0;\n  if (!s) return (" << T << ")0;\n  switch (type) {\n";
    for (const auto &[var, how] : catalog_.fitting(v)) {
      const model::Type &vt = p_.type(var);
      if (vt.kind != TypeKind::Reference && vt.value != vt.id) continue;
      (void)how;
      o << "  case " << var << ": return (" << T << ")*(" << t(vt.value) << " *)(" << address(var) << ");\n";
    }
    o << "  }\n  *ok = 0;\n  return (" << T << ")0;\n}\n\n";
  }
  if (needObject_) {
    o << "static void *__mosaic_object(mosaic_ctx *ctx, uint32_t ref) {\n"
      << "  const uint32_t type = __mosaic_var_type(ctx, ref);\n  void *s = __mosaic_var(ctx, ref, type);\n"
      << "  if (!s) return 0;\n  switch (type) {\n";
    for (model::TypeId r : references_) o << "  case " << r << ": return *(void **)s;\n";
    o << "  }\n  return s;\n}\n\n";
  }
  for (model::TypeId v : deleters_)
    o << "static void __mosaic_delete_" << v << "(void *p) { delete (" << t(v) << " *)p; }\n";
  if (!deleters_.empty()) o << "\n";
  for (model::TypeId v : observers_) {
    const model::Type &ty = p_.type(v);
    o << "static void __mosaic_observe_" << v << "(mosaic_ctx *ctx, unsigned target, const " << t(v) << " *v) {\n";
    auto scalar = [&](const model::Type &st, const std::string &expr, int field) {
      std::ostringstream x;
      switch (st.kind) {
      case TypeKind::Bool: x << "__mosaic_obs_bool(ctx, target, " << field << ", " << expr << " ? 1 : 0);"; break;
      case TypeKind::Floating: x << "__mosaic_obs_float(ctx, target, " << field << ", (double)" << expr << ");"; break;
      case TypeKind::Integer:
        if (!st.isSigned) {
          x << "__mosaic_obs_uint(ctx, target, " << field << ", (uint64_t)" << expr << ");";
          break;
        }
        [[fallthrough]];
      case TypeKind::Char:
      case TypeKind::Enum: x << "__mosaic_obs_int(ctx, target, " << field << ", (int64_t)" << expr << ");"; break;
      case TypeKind::Pointer:
        if (catalog_.isCharPointer(st.id)) x << "__mosaic_obs_string(ctx, target, " << field << ", (const char *)" << expr << ");";
        else x << "__mosaic_obs_null(ctx, target, " << field << ", (const void *)" << expr << ");";
        break;
      case TypeKind::String:
      case TypeKind::StringView:
        x << "__mosaic_obs_bytes(ctx, target, " << field << ", " << expr << ".data(), " << expr << ".size());";
        break;
      default: break;
      }
      return x.str();
    };
    if (ty.kind == TypeKind::Record) {
      const model::Record &r = p_.record(*ty.recordId);
      for (size_t k = 0; k < r.fields.size(); ++k) {
        const model::Field &f = r.fields[k];
        if (f.isStatic || f.access != model::Access::Public || f.name.empty()) continue;
        const model::Type &ft = p_.type(p_.type(f.type).value);
        std::string line = scalar(ft, "v->" + f.name, static_cast<int>(k));
        if (line.empty() && ft.kind == TypeKind::Array && ft.element && p_.type(*ft.element).kind == TypeKind::Char)
          line = "{ size_t n = 0; while (n < sizeof v->" + f.name + " && v->" + f.name +
                 "[n]) ++n; __mosaic_obs_bytes(ctx, target, " + std::to_string(k) + ", v->" + f.name + ", n); }";
        if (!line.empty()) o << "  " << line << "\n";
        if (r.tag == model::RecordTag::Union) break;
      }
    } else {
      o << "  " << scalar(ty, "(*v)", -1) << "\n";
    }
    o << "  (void)ctx;\n  (void)target;\n  (void)v;\n}\n\n";
  }
  helpers_ << o.str();
}

} // namespace mosaic::harness
