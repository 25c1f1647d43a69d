// Parameter roles and the write analysis behind out-parameters.
#include "ParamRoles.h"

#include "mosaic/support/Text.h"

#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <algorithm>
#include <cctype>
#include <string_view>

namespace mosaic::analysis {

namespace {

// C library functions that write through a pointer argument, by argument
// index (C17 7.21-7.24, POSIX.1-2017). `kFromHere` marks "this index and every
// later variadic argument" (the scanf family).
constexpr unsigned kFromHere = 0x100;
struct KnownWriter {
  std::string_view name;
  unsigned index;
};
constexpr KnownWriter kKnownWriters[] = {
    {"memcpy", 0},   {"memmove", 0},  {"memset", 0},   {"memccpy", 0},  {"strcpy", 0},    {"strncpy", 0},
    {"stpcpy", 0},   {"stpncpy", 0},  {"strcat", 0},   {"strncat", 0},  {"strxfrm", 0},   {"sprintf", 0},
    {"snprintf", 0}, {"vsprintf", 0}, {"vsnprintf", 0},{"fgets", 0},    {"fread", 0},     {"bzero", 0},
    {"explicit_bzero", 0}, {"wmemcpy", 0}, {"wmemset", 0}, {"wcscpy", 0}, {"mbstowcs", 0}, {"wcstombs", 0},
    {"strftime", 0}, {"qsort", 0},    {"time", 0},     {"gettimeofday", 0}, {"pipe", 0},
    {"read", 1},     {"pread", 1},    {"recv", 1},     {"stat", 1},     {"fstat", 1},     {"lstat", 1},
    {"localtime_r", 1}, {"gmtime_r", 1}, {"strtol", 1}, {"strtoul", 1}, {"strtoll", 1},  {"strtoull", 1},
    {"strtod", 1},   {"strtof", 1},   {"strtold", 1},  {"frexp", 1},    {"modf", 1},      {"getline", 0},
    {"getline", 1},  {"getdelim", 0}, {"getdelim", 1}, {"remquo", 2},
    {"sscanf", 2 | kFromHere}, {"fscanf", 2 | kFromHere}, {"scanf", 1 | kFromHere},
};

bool knownWriter(const clang::FunctionDecl *fn, unsigned index) {
  const clang::IdentifierInfo *id = fn->getIdentifier();
  if (!id) return false;
  const std::string_view name = id->getName();
  return std::any_of(std::begin(kKnownWriters), std::end(kKnownWriters), [&](const KnownWriter &w) {
    if (w.name != name) return false;
    return (w.index & kFromHere) ? index >= (w.index & ~kFromHere) : index == w.index;
  });
}

bool isWritablePointerOrRef(clang::QualType t) {
  if (t->isPointerType() || t->isReferenceType())
    return !t->getPointeeType().isConstQualified() && !t->getPointeeType()->isFunctionType();
  return false;
}

// Walks one body, collecting direct writes and pass-ons per parameter.
class BodyScan : public clang::RecursiveASTVisitor<BodyScan> {
public:
  BodyScan(const clang::FunctionDecl *fn, std::vector<bool> &direct, std::vector<bool> &read,
           std::vector<std::vector<std::pair<const clang::FunctionDecl *, unsigned>>> &passedTo)
      : direct_(direct), read_(read), passedTo_(passedTo) {
    for (unsigned i = 0; i < fn->getNumParams(); ++i) index_[fn->getParamDecl(i)] = i;
  }

  bool VisitVarDecl(clang::VarDecl *v) {
    if (v->getType()->isPointerType() && v->hasInit())
      if (auto i = pointerRoot(v->getInit())) alias_[v] = *i;
    return true;
  }

  bool VisitBinaryOperator(clang::BinaryOperator *b) {
    if (!b->isAssignmentOp()) return true;
    if (auto i = lvalueRoot(b->getLHS())) {
      direct_[*i] = true;
      if (b->isCompoundAssignmentOp()) read_[*i] = true; // `p->x += d` reads p->x
    }
    // `q = p + 4` makes q an alias of p from here on (flow-insensitive).
    if (b->getOpcode() == clang::BO_Assign)
      if (const auto *dre = llvm::dyn_cast<clang::DeclRefExpr>(b->getLHS()->IgnoreParenImpCasts()))
        if (const auto *v = llvm::dyn_cast<clang::VarDecl>(dre->getDecl());
            v && !llvm::isa<clang::ParmVarDecl>(v) && v->getType()->isPointerType())
          if (auto i = pointerRoot(b->getRHS())) alias_[v] = *i;
    return true;
  }

  bool VisitImplicitCastExpr(clang::ImplicitCastExpr *c) {
    if (c->getCastKind() == clang::CK_LValueToRValue)
      if (auto i = lvalueRoot(c->getSubExpr())) read_[*i] = true;
    return true;
  }

  bool VisitUnaryOperator(clang::UnaryOperator *u) {
    if (u->isIncrementDecrementOp())
      if (auto i = lvalueRoot(u->getSubExpr())) direct_[*i] = read_[*i] = true;
    return true;
  }

  bool VisitCallExpr(clang::CallExpr *call) {
    const clang::FunctionDecl *callee = call->getDirectCallee();
    unsigned first = 0;
    if (const auto *op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(call)) {
      // A member operator's object is argument 0.
      if (const auto *m = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(callee); m && !m->isStatic()) {
        if (auto i = objectRoot(op->getArg(0))) (m->isConst() ? read_ : direct_)[*i] = true;
        first = 1;
      }
    } else if (const auto *mc = llvm::dyn_cast<clang::CXXMemberCallExpr>(call)) {
      const clang::CXXMethodDecl *m = mc->getMethodDecl();
      if (m && !m->isStatic())
        if (auto i = objectRoot(mc->getImplicitObjectArgument())) (m->isConst() ? read_ : direct_)[*i] = true;
    }
    if (!callee) return true;
    for (unsigned a = first; a < call->getNumArgs(); ++a) {
      const unsigned p = a - first;
      std::optional<unsigned> root = passedRoot(call->getArg(a));
      if (!root) continue;
      if (knownWriter(callee, p)) { // a destination: written, not read
        direct_[*root] = true;
        continue;
      }
      read_[*root] = true; // the callee may read it: conservative
      const bool variadicTail = p >= callee->getNumParams();
      if (!variadicTail && isWritablePointerOrRef(callee->getParamDecl(p)->getType()))
        passedTo_[*root].push_back({callee, p});
    }
    return true;
  }

private:
  std::optional<unsigned> paramIndex(const clang::Expr *e) const {
    const auto *dre = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
    if (!dre) return std::nullopt;
    if (auto it = index_.find(dre->getDecl()); it != index_.end()) return it->second;
    if (const auto *v = llvm::dyn_cast<clang::VarDecl>(dre->getDecl()))
      if (auto it = alias_.find(v); it != alias_.end()) return it->second;
    return std::nullopt;
  }

  // The parameter a pointer-valued expression points into: `p`, `p + 3`,
  // `p++`, `(char *)p`, or a pointer loaded from memory the parameter reaches
  // (`p->next`).
  std::optional<unsigned> pointerRoot(const clang::Expr *e) const {
    e = e->IgnoreParenCasts();
    if (auto i = paramIndex(e)) return i;
    if (const auto *b = llvm::dyn_cast<clang::BinaryOperator>(e); b && b->isAdditiveOp())
      return b->getLHS()->getType()->isPointerType() ? pointerRoot(b->getLHS()) : pointerRoot(b->getRHS());
    if (const auto *u = llvm::dyn_cast<clang::UnaryOperator>(e)) {
      if (u->isIncrementDecrementOp()) return pointerRoot(u->getSubExpr());
      if (u->getOpcode() == clang::UO_AddrOf) return lvalueRoot(u->getSubExpr());
    }
    if (e->isGLValue()) return lvalueRoot(e);
    return std::nullopt;
  }

  // The parameter whose pointee an lvalue lies in: `*p`, `p[i]`, `p->f`,
  // `p->a.b`, or a reference parameter `r` / `r.f`.
  std::optional<unsigned> lvalueRoot(const clang::Expr *e) const {
    e = e->IgnoreParenImpCasts();
    if (const auto *m = llvm::dyn_cast<clang::MemberExpr>(e))
      return m->isArrow() ? pointerRoot(m->getBase()) : lvalueRoot(m->getBase());
    if (const auto *s = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) return pointerRoot(s->getBase());
    if (const auto *u = llvm::dyn_cast<clang::UnaryOperator>(e); u && u->getOpcode() == clang::UO_Deref)
      return pointerRoot(u->getSubExpr());
    if (const auto *dre = llvm::dyn_cast<clang::DeclRefExpr>(e))
      if (dre->getDecl()->getType()->isReferenceType()) return paramIndex(dre);
    if (const auto *op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(e);
        op && op->getOperator() == clang::OO_Subscript && op->getNumArgs() > 0)
      return objectRoot(op->getArg(0));
    return std::nullopt;
  }

  // The object of a member call: `p->f()` (a pointer) or `r.f()` (an lvalue).
  std::optional<unsigned> objectRoot(const clang::Expr *obj) const {
    if (!obj) return std::nullopt;
    return obj->getType()->isPointerType() ? pointerRoot(obj) : lvalueRoot(obj);
  }

  // What an argument hands the callee: a pointer into a parameter, or a
  // parameter (or its part) bound to a reference.
  std::optional<unsigned> passedRoot(const clang::Expr *arg) const {
    if (arg->getType()->isPointerType()) return pointerRoot(arg);
    return lvalueRoot(arg);
  }

  std::vector<bool> &direct_;
  std::vector<bool> &read_;
  std::vector<std::vector<std::pair<const clang::FunctionDecl *, unsigned>>> &passedTo_;
  std::map<const clang::Decl *, unsigned> index_;
  std::map<const clang::VarDecl *, unsigned> alias_;
};

} // namespace

const WriteAnalysis::Facts &WriteAnalysis::factsOf(const clang::FunctionDecl *fn) {
  fn = fn->getCanonicalDecl();
  if (auto it = facts_.find(fn); it != facts_.end()) return it->second;
  Facts f;
  f.direct.assign(fn->getNumParams(), false);
  f.read.assign(fn->getNumParams(), true);
  f.passedTo.resize(fn->getNumParams());
  const clang::FunctionDecl *def = fn->getDefinition();
  if (def && def->hasBody() && def->getNumParams() == fn->getNumParams()) {
    f.read.assign(fn->getNumParams(), false);
    BodyScan scan(def, f.direct, f.read, f.passedTo);
    scan.TraverseStmt(def->getBody());
  } else {
    for (unsigned i = 0; i < fn->getNumParams(); ++i) f.direct[i] = knownWriter(fn, i);
  }
  return facts_.emplace(fn, std::move(f)).first->second;
}

bool WriteAnalysis::writesThrough(const clang::FunctionDecl *fn, unsigned index) {
  fn = fn->getCanonicalDecl();
  if (inProgress_.count(fn)) return false;
  const Facts &f = factsOf(fn);
  if (index >= f.direct.size()) return false;
  if (f.direct[index]) return true;
  inProgress_.insert(fn);
  bool result = false;
  for (const auto &[callee, arg] : f.passedTo[index])
    if (writesThrough(callee, arg)) { result = true; break; }
  inProgress_.erase(fn);
  return result;
}

bool WriteAnalysis::readsThrough(const clang::FunctionDecl *fn, unsigned index) {
  const Facts &f = factsOf(fn);
  return index >= f.read.size() || f.read[index];
}

bool looksLikeLength(const std::string &raw) {
  const std::string n = lowercase(raw);
  static constexpr std::string_view kExact[] = {"n",   "len",   "length", "size",   "sz",     "count",  "cnt",  "num",
                                                "nmemb", "cap", "capacity", "max", "nbytes", "nitems", "bytes",
                                                "nchars", "nelem", "nelems"};
  static constexpr std::string_view kSuffixes[] = {"len",  "length", "size",  "_sz",     "count",
                                                   "cnt",  "_n",     "bytes", "capacity"};
  if (std::find(std::begin(kExact), std::end(kExact), n) != std::end(kExact)) return true;
  for (std::string_view s : kSuffixes)
    if (n.size() > s.size() && n.compare(n.size() - s.size(), s.size(), s) == 0) return true;
  return n.rfind("num_", 0) == 0 || n.rfind("n_", 0) == 0;
}

void pairFields(model::Record &record, const model::Program &program) {
  auto &fields = record.fields;
  auto bufferLike = [&](const model::Field &f) {
    const model::Type &t = program.type(f.type);
    if (f.isStatic || f.access != model::Access::Public || t.kind != model::TypeKind::Pointer || !t.pointee) return false;
    const model::TypeKind k = program.type(program.type(*t.pointee).value).kind;
    return k == model::TypeKind::Char || k == model::TypeKind::Integer || k == model::TypeKind::Void ||
           k == model::TypeKind::Floating || k == model::TypeKind::Bool;
  };
  auto lengthLike = [&](const model::Field &f) {
    if (f.isStatic || f.access != model::Access::Public || f.bitWidth ||
        program.type(program.type(f.type).value).kind != model::TypeKind::Integer)
      return false;
    const auto words = identifierWords(f.name);
    return looksLikeLength(f.name) || std::find(words.begin(), words.end(), "avail") != words.end();
  };
  // What a name says once the words of its kind are taken off.
  auto rest = [](const std::string &name, std::initializer_list<std::string_view> kind) {
    std::vector<std::string> out;
    for (const std::string &w : identifierWords(name))
      if (std::find(kind.begin(), kind.end(), w) == kind.end()) out.push_back(w);
    return out;
  };
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].pairedWith || !bufferLike(fields[i])) continue;
    const auto ptrRest = rest(fields[i].name, {"ptr", "p", "buf", "buffer", "data", "next", "start", "begin", "base",
                                                "bytes", "mem", "block"});
    for (size_t j = 0; j < fields.size(); ++j) {
      if (j == i || fields[j].pairedWith || !lengthLike(fields[j])) continue;
      const auto lenRest = rest(fields[j].name, {"len", "length", "size", "sz", "count", "cnt", "n", "num", "nbytes",
                                                 "bytes", "avail", "cap", "capacity", "nmemb", "nitems", "nelem"});
      if (!((j == i + 1) || (!ptrRest.empty() && ptrRest == lenRest))) continue;
      fields[i].pairedWith = static_cast<unsigned>(j);
      fields[j].pairedWith = static_cast<unsigned>(i);
      fields[j].isLength = true;
      break;
    }
  }
}

bool looksLikeEnd(const std::string &raw) {
  const std::string n = lowercase(raw);
  // Ragel's `pe` and expat's `lim` among them.
  static constexpr std::string_view kExact[] = {"end", "endp", "end_ptr", "lim", "limit", "pe", "eptr", "stop", "last", "eob"};
  if (std::find(std::begin(kExact), std::end(kExact), n) != std::end(kExact)) return true;
  // A word of its own at the start (jsoncpp's Reader::parse(const char
  // *beginDoc, const char *endDoc, ...), `end_of_input`), so not `endian`.
  if (raw.size() > 3 && raw.compare(0, 3, "end") == 0 &&
      (raw[3] == '_' || std::isupper(static_cast<unsigned char>(raw[3]))))
    return true;
  // A word of its own at the end of the name (`entityTextEnd`, `buf_end`,
  // expat's `fromLim`), so not `legend` or `append`.
  static constexpr std::string_view kSuffixes[] = {"End", "_end", "Lim", "_lim", "Limit", "_limit", "Last", "_last"};
  for (std::string_view s : kSuffixes)
    if (raw.size() > s.size() && raw.compare(raw.size() - s.size(), s.size(), s) == 0) return true;
  return false;
}

namespace {

bool looksLikeIndex(const std::string &name) {
  static constexpr std::string_view kIndexNames[] = {"i",     "j",    "k",   "idx", "index", "pos", "offset",
                                                     "start", "begin", "end", "from", "to",  "flags", "which"};
  return std::find(std::begin(kIndexNames), std::end(kIndexNames), name) != std::end(kIndexNames);
}

// Which way a buffer's bytes go, by its name (flowOfPointer) or its
// length's (flowOfLength): C APIs name the two buffers of a copy or a codec
// src/dst, source/dest, in/out, input/output.
enum class Flow { None, Input, Output };

Flow flowOfWord(const std::string &w) {
  if (w == "in" || w == "input" || w == "src" || w == "source") return Flow::Input;
  if (w == "out" || w == "output" || w == "dst" || w == "dest" || w == "destination") return Flow::Output;
  return Flow::None;
}

Flow flowOfPointer(const std::string &name) { return flowOfWord(foldedIdentifier(name)); }

// `inputSize`, `src_len`, `maxOutputSize`, `dstCapacity`: a flow word, then
// a word of a length, after an optional "max".
Flow flowOfLength(const std::string &name) {
  std::string n = foldedIdentifier(name);
  if (n.starts_with("max")) n.erase(0, 3);
  for (std::string_view w : {"size", "len", "length", "capacity", "count", "sz"})
    if (n.size() > w.size() && n.ends_with(w)) return flowOfWord(n.substr(0, n.size() - w.size()));
  return Flow::None;
}

bool isSizeAlias(const model::Type &t) {
  return std::any_of(t.aliases.begin(), t.aliases.end(), [](const std::string &a) {
    return a == "size_t" || a == "ssize_t" || a == "std::size_t" || a == "socklen_t";
  });
}

// Whether a length's name says nothing of what it measures (`n`, `count`,
// `num_elements`), unlike `srcSize` or `nPoints`.
bool genericLength(const std::string &name) {
  std::string n;
  for (char ch : name)
    if (ch != '_') n.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
  for (std::string_view w : {"n", "count", "cnt", "num", "len", "length", "size", "sz", "nmemb", "nelem", "nelems",
                             "nitems", "numelements", "elements", "items"})
    if (n == w) return true;
  return false;
}

} // namespace

void assignParamRoles(const clang::FunctionDecl &fn, model::Callable &c, const model::Program &program,
                      WriteAnalysis &writes) {
  auto &params = c.params;
  auto typeOf = [&](size_t i) -> const model::Type & { return program.type(params[i].type); };
  auto isObjectPointer = [&](size_t i) { return typeOf(i).kind == model::TypeKind::Pointer; };
  auto isLength = [&](size_t i) {
    const model::Type &t = typeOf(i);
    if (t.kind != model::TypeKind::Integer) return false;
    if (looksLikeLength(params[i].name)) return true;
    return isSizeAlias(t) && !looksLikeIndex(params[i].name);
  };
  auto pointeeKind = [&](size_t i) { return program.type(*typeOf(i).pointee).kind; };

  for (size_t i = 0; i < params.size(); ++i) {
    const model::Type &t = typeOf(i);
    if (t.kind == model::TypeKind::Pointer || t.kind == model::TypeKind::Reference)
      params[i].written = !t.pointeeConst && writes.writesThrough(&fn, static_cast<unsigned>(i));
    if (t.kind == model::TypeKind::FunctionPointer || t.kind == model::TypeKind::StdFunction)
      params[i].role = model::ParamRole::Callback;
    if (t.kind == model::TypeKind::Reference && program.type(*t.pointee).kind == model::TypeKind::StdFunction)
      params[i].role = model::ParamRole::Callback;
  }
  // (begin, end) pairs of byte pointers: the end right after the begin,
  // named so (expat's `const char *ptr, const char *end`), of the same
  // byte type and no less const.
  auto isBytePointer = [&](size_t i) {
    if (typeOf(i).kind != model::TypeKind::Pointer) return false;
    const model::Type &e = program.type(program.type(*typeOf(i).pointee).value);
    return e.kind == model::TypeKind::Char || (e.kind == model::TypeKind::Integer && e.bits == 8);
  };
  for (size_t i = 0; i + 1 < params.size(); ++i) {
    const size_t end = i + 1;
    if (!isBytePointer(i) || !isBytePointer(end) || !looksLikeEnd(params[end].name) || looksLikeEnd(params[i].name))
      continue;
    if (program.type(*typeOf(i).pointee).value != program.type(*typeOf(end).pointee).value) continue;
    if (typeOf(i).pointeeConst && !typeOf(end).pointeeConst) continue;
    params[i].role = model::ParamRole::Buffer;
    params[end].role = model::ParamRole::End;
    params[i].pairedWith = static_cast<unsigned>(end);
    params[end].pairedWith = static_cast<unsigned>(i);
    ++i;
  }
  // Two buffers, then their two lengths in the same order (LZ4's
  // `src, dst, srcSize, dstCapacity`): the adjacent rule below would pair
  // dst with srcSize.
  for (size_t i = 0; i + 3 < params.size(); ++i) {
    const size_t a = i, b = i + 1, na = i + 2, nb = i + 3;
    if (!isBytePointer(a) || !isBytePointer(b) || !isLength(na) || !isLength(nb)) continue;
    if (params[a].role != model::ParamRole::None || params[b].role != model::ParamRole::None) continue;
    params[a].role = params[b].role = model::ParamRole::Buffer;
    params[na].role = params[nb].role = model::ParamRole::Length;
    params[a].pairedWith = static_cast<unsigned>(na);
    params[na].pairedWith = static_cast<unsigned>(a);
    params[b].pairedWith = static_cast<unsigned>(nb);
    params[nb].pairedWith = static_cast<unsigned>(b);
    i += 3;
  }
  // A length named after its pointer (LZ4's deprecated `LZ4_compress(src,
  // dest, srcSize)`: srcSize is src's, whatever sits between; the rule
  // below would pair dest with it and leave src a C string): its name is
  // the pointer's followed by a word of a length (Size, Len, _len,
  // Length, Capacity, Count).
  for (size_t len = 0; len < params.size(); ++len) {
    if (params[len].role != model::ParamRole::None || !isLength(len)) continue;
    const std::string &ln = params[len].name;
    for (size_t ptr = 0; ptr < params.size(); ++ptr) {
      const std::string &pn = params[ptr].name;
      if (ptr == len || params[ptr].role != model::ParamRole::None || !isObjectPointer(ptr) || pn.empty() ||
          ln.size() <= pn.size() || ln.compare(0, pn.size(), pn) != 0)
        continue;
      std::string rest = ln.substr(pn.size());
      if (rest.front() == '_') rest.erase(0, 1);
      for (char &ch : rest) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (rest != "size" && rest != "len" && rest != "length" && rest != "capacity" && rest != "count" && rest != "sz")
        continue;
      params[ptr].role = model::ParamRole::Buffer;
      params[len].role = model::ParamRole::Length;
      params[ptr].pairedWith = static_cast<unsigned>(len);
      params[len].pairedWith = static_cast<unsigned>(ptr);
      break;
    }
  }
  // A length named for its pointer's role (LZ4's deprecated
  // LZ4_compress_continue(stream, source, dest, inputSize): inputSize is
  // source's, though dest sits next to it): an input's length goes with the
  // one pointer named as an input, an output's with the one named as an
  // output (flowRole).
  for (size_t len = 0; len < params.size(); ++len) {
    if (params[len].role != model::ParamRole::None || !isLength(len)) continue;
    const Flow want = flowOfLength(params[len].name);
    if (want == Flow::None) continue;
    std::optional<size_t> only;
    size_t found = 0;
    for (size_t ptr = 0; ptr < params.size(); ++ptr)
      if (ptr != len && params[ptr].role == model::ParamRole::None && isObjectPointer(ptr) &&
          flowOfPointer(params[ptr].name) == want)
        ++found, only = ptr;
    if (found != 1) continue;
    params[*only].role = model::ParamRole::Buffer;
    params[len].role = model::ParamRole::Length;
    params[*only].pairedWith = static_cast<unsigned>(len);
    params[len].pairedWith = static_cast<unsigned>(*only);
  }
  // (pointer, length) pairs: the length right after the pointer, or right
  // before it when its name says so.
  for (size_t i = 0; i + 1 < params.size(); ++i) {
    if (params[i].role != model::ParamRole::None || params[i + 1].role != model::ParamRole::None) continue;
    size_t ptr = i, len = i + 1;
    if (!(isObjectPointer(ptr) && isLength(len))) {
      std::swap(ptr, len);
      if (!(isObjectPointer(ptr) && typeOf(len).kind == model::TypeKind::Integer && looksLikeLength(params[len].name)))
        continue;
    }
    params[ptr].role = model::ParamRole::Buffer;
    params[len].role = model::ParamRole::Length;
    params[ptr].pairedWith = static_cast<unsigned>(len);
    params[len].pairedWith = static_cast<unsigned>(ptr);
    ++i;
  }
  // Arrays that share one length (libsquish's ComputeWeightedCovariance(
  // int n, Vec3 const *points, float const *weights); BLAS's `n, x, y`): a
  // length of a name that says no pointer's (n, count, size, ...), paired
  // with an array of elements rather than bytes, is also the length of each
  // other pointer without a role to numbers or to the first's elements.
  // Each is a Buffer paired with that length; the length stays paired with
  // the first. (Ours: an array made longer than the callee reads is
  // harmless; one made shorter is a read past it that no caller makes.)
  auto elementOf = [&](size_t i) { return program.type(*typeOf(i).pointee).value; };
  auto numeric = [&](size_t i) {
    const model::Type &e = program.type(elementOf(i));
    return e.kind == model::TypeKind::Floating || e.kind == model::TypeKind::Bool ||
           (e.kind == model::TypeKind::Integer && e.bits > 8);
  };
  for (size_t len = 0; len < params.size(); ++len) {
    if (params[len].role != model::ParamRole::Length || !params[len].pairedWith || !genericLength(params[len].name))
      continue;
    const size_t first = *params[len].pairedWith;
    if (params[first].role != model::ParamRole::Buffer || isBytePointer(first)) continue;
    for (size_t q = 0; q < params.size(); ++q) {
      if (params[q].role != model::ParamRole::None || !isObjectPointer(q) || isBytePointer(q)) continue;
      if (!numeric(q) && elementOf(q) != elementOf(first)) continue;
      params[q].role = model::ParamRole::Buffer;
      params[q].pairedWith = static_cast<unsigned>(len);
    }
  }
  for (size_t i = 0; i < params.size(); ++i) {
    model::Param &p = params[i];
    if (p.role != model::ParamRole::None) continue;
    const model::Type &t = typeOf(i);
    if (t.kind == model::TypeKind::Pointer && pointeeKind(i) == model::TypeKind::Char)
      p.role = model::ParamRole::CString;
    else if (t.kind == model::TypeKind::Pointer && pointeeKind(i) == model::TypeKind::Void)
      p.role = model::ParamRole::UserData;
    else if (p.written && (program.type(*t.pointee).kind != model::TypeKind::Record ||
                           !writes.readsThrough(&fn, static_cast<unsigned>(i))))
      // A record the callee also reads is an object it works on, not a
      // result it hands back: `written` says it changes, the role stays None.
      p.role = model::ParamRole::Out;
  }
}

} // namespace mosaic::analysis
