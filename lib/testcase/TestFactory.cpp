// Random test generation.
#include "mosaic/testcase/TestFactory.h"

#include "mosaic/support/Text.h"

#include "mosaic/abi/Format.h"
#include "mosaic/abi/TestWire.h"

#include "mosaic/testcase/Lifetime.h"
#include "mosaic/testcase/TextEdits.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace mosaic::testcase {

using model::ParamRole;
using model::TypeKind;

namespace {

// A C++ class a test builds by calling one of its public constructors
// rather than by filling its fields.
bool constructedClass(const model::Record &r) { return r.isCxx && !r.aggregate && !r.constructors.empty(); }

} // namespace

TestFactory::TestFactory(const Catalog &catalog, const ConstantPool &pool, Rng &rng, FactoryOptions options)
    : catalog_(catalog), program_(catalog.program()), pool_(pool), rng_(rng), options_(options) {}

Ref TestFactory::push(TestCase &t, Statement s) {
  t.statements.push_back(std::move(s));
  return static_cast<Ref>(t.statements.size() - 1);
}

model::CallableId TestFactory::pickTarget(const std::vector<model::CallableId> &ids) {
  const std::vector<double> &w = options_.targetWeights;
  auto weight = [&](model::CallableId id) { return id < w.size() ? w[id] : 1.0; };
  if (chooser_) return chooser_->choose(ids, weight, rng_);
  if (w.empty()) return rng_.pick(ids);
  if (const auto k = rng_.weighted(ids.size(), [&](size_t k) { return weight(ids[k]); })) return ids[*k];
  return rng_.pick(ids);
}

TestCase TestFactory::randomTest(const std::vector<model::CallableId> &targets) {
  std::vector<model::CallableId> usable;
  for (model::CallableId c : targets)
    if (catalog_.callable(c)) usable.push_back(c);
  TestCase t;
  if (usable.empty()) return t;
  const size_t length = static_cast<size_t>(rng_.uniform(1, static_cast<std::int64_t>(options_.maxLength) - 1));
  // At most 1000 attempts, as EvoSuite's RandomLengthTestFactory.
  for (int attempt = 0; attempt < 1000 && t.statements.size() < length; ++attempt) appendCall(t, pickTarget(usable));
  dropEarlyReleases(t, program_);
  catalog_.dropWritesThroughConst(t);
  return t;
}

bool TestFactory::appendCall(TestCase &t, model::CallableId id) {
  const size_t before = t.statements.size();
  if (!catalog_.callable(id) || !call(t, id, 0)) {
    t.statements.resize(before);
    return false;
  }
  return true;
}

bool TestFactory::appendCallOn(TestCase &t, model::CallableId id, Ref receiver) {
  const size_t before = t.statements.size();
  if (!catalog_.callable(id) || !call(t, id, 0, receiver)) {
    t.statements.resize(before);
    return false;
  }
  return true;
}

bool TestFactory::appendCallWith(TestCase &t, model::CallableId id, size_t param, Ref ref) {
  const size_t before = t.statements.size();
  const model::Callable &c = program_.callable(id);
  const bool function = c.kind != model::CallableKind::Constructor &&
                        !(c.parent && (c.kind == model::CallableKind::Method || c.kind == model::CallableKind::Operator));
  if (!catalog_.callable(id) || !function || param >= c.params.size() ||
      !call(t, id, 0, std::nullopt, GivenArg{param, ref})) {
    t.statements.resize(before);
    return false;
  }
  return true;
}

std::optional<Ref> TestFactory::appendValue(TestCase &t, model::TypeId type, const model::Param *param,
                                            const model::Callable *of) {
  const size_t before = t.statements.size();
  auto r = value(t, {type, param, true, false, false, of}, 1);
  if (!r) t.statements.resize(before);
  return r;
}

std::optional<Ref> TestFactory::call(TestCase &t, model::CallableId id, int depth, std::optional<Ref> receiver,
                                     std::optional<GivenArg> given) {
  const model::Callable &c = program_.callable(id);
  Statement s;
  s.callable = id;
  s.op = c.kind == model::CallableKind::Constructor ? Op::Construct
         : (c.parent && (c.kind == model::CallableKind::Method || c.kind == model::CallableKind::Operator))
             ? Op::MethodCall
             : Op::Call;
  if (s.op == Op::MethodCall && receiver) {
    s.refs.push_back(*receiver);
  } else if (s.op == Op::MethodCall) {
    auto made = value(t, {program_.record(*c.parent).type, nullptr, /*allowNull=*/false, false, !c.isConst}, depth + 1);
    if (!made) return std::nullopt;
    s.refs.push_back(*made);
  }
  std::vector<std::optional<Ref>> args(c.params.size());
  // The count each length was made for, by the first array paired with it;
  // arrays that share it (model::ParamRole::Buffer) are made that long.
  std::vector<std::optional<size_t>> counts(c.params.size());
  if (given && given->param < args.size() && s.op == Op::Call) args[given->param] = given->ref;
  for (size_t i = 0; i < c.params.size(); ++i) {
    if (args[i]) continue;
    const model::Param &p = c.params[i];
    if (p.role == ParamRole::Buffer && p.pairedWith) {
      // A buffer and its length, consistent with each other; of elements a
      // test can build (not cJSON's printbuffer, which only cJSON.c names),
      // else the pointer is made like any other.
      const model::Type &pt = program_.type(program_.type(p.type).value);
      const model::Type &pointee = program_.type(program_.type(*pt.pointee).value);
      const bool bytes = pointee.kind == TypeKind::Char || pointee.kind == TypeKind::Void ||
                         (pointee.kind == TypeKind::Integer && pointee.bits == 8);
      // An array of a record the API makes itself (lua_xmove's `to` beside
      // `n`) is no buffer: such a pointer is made as any other.
      // An internal type a test builds with its constructors (libsquish's
      // Vec3 beside ComputeWeightedCovariance's `n`) is none of those.
      const bool apiMade = pointee.kind == TypeKind::Record && (!catalog_.madeByApi(*pointee.recordId).empty() ||
                                                               (catalog_.internalType(*pointee.recordId) &&
                                                                !constructedClass(program_.record(*pointee.recordId))));
      // Nor is a handle only the API makes (libplist's plist_t beside
      // `uint32_t n`: plist_array_get_item(node, n)).
      if ((bytes || (catalog_.buildable(pointee.id) && catalog_.pointedArrayElement(pointee.id) && !apiMade)) &&
          !catalog_.apiPointer(p.type)) {
        const size_t j = *p.pairedWith;
        auto buffer = pairedBuffer(t, pt.id, p.written, depth, counts[j]);
        if (!buffer) return std::nullopt;
        const size_t count = buffer->second;
        args[i] = buffer->first;
        if (c.params[j].role == ParamRole::End) { // one past the bytes, wherever they end
          args[j] = push(t, Statement{.op = Op::EndOf, .type = program_.type(c.params[j].type).value, .refs = {*args[i]}});
          continue;
        }
        if (counts[j]) continue;
        Statement len{.op = Op::Primitive, .type = program_.type(c.params[j].type).value};
        len.bits = count;
        args[j] = push(t, std::move(len));
        counts[j] = count;
        continue;
      }
    }
    if (c.formatParam == i && catalog_.isCharPointer(p.type)) {
      // A format is a string the test makes: its text says what the
      // extras must be (appendVarargs, fitFormats).
      Statement f{.op = Op::CString, .type = program_.type(p.type).value};
      f.bytes = randomString(options_.maxStringLength);
      args[i] = push(t, std::move(f));
      continue;
    }
    args[i] = value(t, {p.type, &p, true, false, false, &c}, depth + 1);
    if (!args[i]) return std::nullopt;
  }
  for (auto &a : args) s.refs.push_back(*a);
  if (c.variadic && !appendVarargs(t, s, depth)) return std::nullopt;
  const Ref made = push(t, std::move(s));
  if (c.formatParam && fitFormats(catalog_, t) && made >= t.statements.size()) return std::nullopt;
  if (varargCountParam(program_, c) && fitCounts(catalog_, t) && made >= t.statements.size()) return std::nullopt;
  return made;
}

// Extra arguments of a variadic call: each further one with probability
// 1/2 (ours: most calls of a printf-like pass one or two), up to
// MOSAIC_MAX_VARARGS, each of a type Catalog::varargTypes lists.
bool TestFactory::appendVarargs(TestCase &t, Statement &call, int depth) {
  const auto &types = catalog_.varargTypes();
  if (types.empty()) return true;
  // A format function whose format is made here from bytes: extras that
  // fit it (abi/Format.h), of the unit's types of each kind. A format they
  // cannot fit (a `%n`, a kind the unit has no type of, any conversion of a
  // scanf format) loses its `%`s: the call is then one the harness performs.
  const model::Callable &c = program_.callable(call.callable);
  const size_t offset = call.op == Op::MethodCall ? 1 : 0;
  if (c.formatParam && offset + *c.formatParam < call.refs.size()) {
    const Statement &format = t.statements[call.refs[offset + *c.formatParam]];
    if (format.op != Op::CString) return true; // null: no extras needed; anything else, fitFormats drops
    char kinds[MOSAIC_MAX_VARARGS + 1];
    const int n = c.scanfFormat ? -1 : mosaic_format_kinds(format.bytes.c_str(), kinds, MOSAIC_MAX_VARARGS);
    std::vector<std::vector<model::TypeId>> choices;
    bool every = n >= 0; // the unit has a type of each kind the format asks for
    for (int k = 0; every && k < n; ++k) {
      choices.emplace_back();
      for (model::TypeId v : types) {
        const char kind = catalog_.varargKind(v);
        if (kind == kinds[k] || (kinds[k] == MOSAIC_VARARG_POINTER && kind == MOSAIC_VARARG_STRING))
          choices.back().push_back(v);
      }
      every = !choices.back().empty();
    }
    if (!every) return true; // fitFormats takes its `%`s
    for (const auto &fit : choices) {
      auto extra = value(t, {rng_.pick(fit), nullptr, true}, depth + 1);
      if (!extra) return false;
      call.refs.push_back(*extra);
    }
    return true;
  }
  for (unsigned k = 0; k < MOSAIC_MAX_VARARGS && rng_.chance(0.5); ++k) {
    auto extra = value(t, {rng_.pick(types), nullptr, true}, depth + 1);
    if (!extra) return false;
    call.refs.push_back(*extra);
  }
  return true;
}

std::optional<Ref> TestFactory::reuse(const TestCase &t, model::TypeId type, double probability, bool exact,
                                      bool writable, const model::Param *param) {
  if (!rng_.chance(probability)) return std::nullopt;
  // A pointer only the API makes (Catalog::apiPointer) is a call's result (or NULL).
  const bool fromApi = catalog_.apiPointer(type);
  std::vector<Ref> candidates;
  for (size_t i = 0; i < t.statements.size(); ++i)
    if (auto vt = variableType(program_, t, i); vt && catalog_.passable(*vt, type)) {
      const auto how = catalog_.fits(*vt, type);
      if (exact && *how != Passing::Same && *how != Passing::Derived) continue;
      // An exact match is one whose address is taken: not a constant.
      if (exact && catalog_.readOnly(*vt)) continue;
      if (writable && catalog_.constView(*vt)) continue;
      if (!catalog_.standsFor(t.statements[i], param, type)) continue;
      // Dereferencing a null pointer is the test's fault, not the unit's.
      if (*how == Passing::Deref && t.statements[i].op == Op::Null) continue;
      if (fromApi && !isCall(t.statements[i].op) && t.statements[i].op != Op::Null) continue;
      candidates.push_back(static_cast<Ref>(i));
    }
  if (candidates.empty()) return std::nullopt;
  return rng_.pick(candidates);
}

std::optional<Ref> TestFactory::value(TestCase &t, const Need &need, int depth) {
  const bool out = need.param && need.param->role == ParamRole::Out;
  if (!out && !(need.param && catalog_.fileDescriptor(*need.param))) {
    const double p = catalog_.isScalar(need.type) ? options_.primitiveReuse : options_.objectReuse;
    if (auto r = reuse(t, need.type, p, need.exact, need.writable, need.param)) {
      // Never hand a null pointer to a receiver.
      const Statement &s = t.statements[*r];
      if (need.allowNull || s.op != Op::Null) return r;
    }
  }
  return make(t, need, depth);
}

std::uint64_t TestFactory::randomScalarBits(const model::Type &type) {
  const bool fromPool = rng_.chance(options_.constantProbability);
  switch (type.kind) {
  case TypeKind::Bool:
    return rng_.chance(0.5);
  case TypeKind::Char:
    if (fromPool)
      if (auto c = pool_.character(rng_)) return static_cast<std::uint64_t>(*c);
    return static_cast<std::uint64_t>(rng_.uniform(32, 126));
  case TypeKind::Enum: {
    const model::Enum &e = program_.enums.at(*type.enumId);
    // Ours: mostly a declared enumerator; at times a value near them that
    // none names (-1 to 16), which C code often range-checks.
    if (!e.enumerators.empty() && rng_.chance(0.9)) return static_cast<std::uint64_t>(rng_.pick(e.enumerators).value);
    return static_cast<std::uint64_t>(rng_.uniform(-1, 16));
  }
  case TypeKind::Floating: {
    if (fromPool)
      if (auto f = pool_.floating(rng_, options_.dynamicShare)) return bitsOf(*f);
    if (fromPool)
      if (auto i = pool_.integer(rng_, options_.dynamicShare)) return bitsOf(static_cast<double>(*i));
    switch (rng_.index(3)) { // EvoSuite's three kinds of random doubles
    case 0: return bitsOf(rng_.gaussian() * static_cast<double>(options_.maxInt));
    case 1: return bitsOf(rng_.gaussian());
    default: return bitsOf(std::round(rng_.gaussian() * 100.0) / 100.0);
    }
  }
  default: { // Integer
    std::int64_t v;
    if (auto p = fromPool ? pool_.integer(rng_, options_.dynamicShare) : std::nullopt) {
      v = *p;
    } else if (rng_.chance(0.1)) {
      // Boundary values of the type, one time in ten (ours).
      const std::int64_t small[] = {0, 1, -1};
      // The type's extremes, without overflowing at 64 bits.
      const std::int64_t max = type.bits >= 64 ? std::numeric_limits<std::int64_t>::max()
                                               : (std::int64_t{1} << (type.bits - 1)) - 1;
      v = rng_.chance(0.5) ? small[rng_.index(3)] : type.isSigned ? (rng_.chance(0.5) ? -max - 1 : max) : -1;
    } else {
      v = static_cast<std::int64_t>(std::llround(rng_.gaussian() * static_cast<double>(options_.maxInt)));
    }
    if (!type.isSigned && v < 0 && v != std::numeric_limits<std::int64_t>::min() && rng_.chance(0.5))
      v = -v; // unsigned: mostly small positive values
    return static_cast<std::uint64_t>(v);
  }
  }
}

std::string TestFactory::randomString(size_t maxLength) {
  if (pool_.samples() && rng_.chance(options_.projectSample))
    if (auto s = pool_.sample(rng_)) return *s;
  if (rng_.chance(options_.constantProbability))
    if (auto s = pool_.string(rng_, options_.dynamicShare)) return *s;
  if (rng_.chance(options_.tokenSentence)) {
    std::string s = tokenSentence(pool_, rng_, options_.dynamicShare, options_.maxSentenceLength);
    if (!s.empty()) return s;
  }
  const size_t n = static_cast<size_t>(rng_.uniform(0, static_cast<std::int64_t>(maxLength)));
  std::string s;
  for (size_t i = 0; i < n; ++i) s.push_back(static_cast<char>(rng_.uniform(32, 126)));
  return s;
}

bool TestFactory::isText(model::TypeId type) const {
  const model::Type &t = program_.type(program_.type(type).value);
  return t.kind == TypeKind::Pointer && program_.type(program_.type(*t.pointee).value).kind == TypeKind::Char;
}

std::string TestFactory::randomBytes(bool text) {
  if (rng_.chance(text ? options_.textBuffer : 0.5)) return randomString(options_.maxBufferLength);
  const size_t n = static_cast<size_t>(rng_.uniform(0, static_cast<std::int64_t>(options_.maxBufferLength)));
  std::string s;
  for (size_t i = 0; i < n; ++i) s.push_back(static_cast<char>(rng_.uniform(0, 255)));
  return s;
}

std::optional<Ref> TestFactory::make(TestCase &t, const Need &need, int depth) {
  // Past maxDepth only what needs no factory is made, but a class whose
  // every constructor needs another such class (libebml's elements, made
  // from one another) recurses for ever: a hard end (ours: 200 levels, a
  // few hundred frames, far inside the stack; a chain of random picks that
  // could end, as a copy constructor among a class's constructors, never
  // gets there in practice, so the draws of every other test stay as
  // they were).
  constexpr int kHardDepth = 200;
  if (depth > kHardDepth) return std::nullopt;
  const model::Type &declared = program_.type(need.type);
  const model::Type &type = program_.type(declared.value);
  const bool deep = depth > options_.maxDepth;
  switch (type.kind) {
  case TypeKind::Bool:
  case TypeKind::Char:
  case TypeKind::Integer:
  case TypeKind::Floating:
  case TypeKind::Enum:
    // A file descriptor: of a temporary file holding bytes (as a stream's),
    // or -1 as often as a pointer is NULL; never the runner's stdio.
    if (need.param && catalog_.fileDescriptor(*need.param)) {
      if (rng_.chance(options_.nullProbability))
        return push(t, Statement{.op = Op::Primitive, .type = type.id, .bits = ~std::uint64_t{0}});
      return push(t, Statement{.op = Op::File, .type = type.id, .bytes = randomBytes(true)});
    }
    return push(t, Statement{.op = Op::Primitive, .type = type.id, .bits = deep ? 0 : randomScalarBits(type)});
  case TypeKind::Pointer:
    return makePointer(t, need, depth);
  case TypeKind::FunctionPointer:
  case TypeKind::StdFunction: {
    if (!catalog_.buildable(type.id)) return std::nullopt;
    if (type.kind == TypeKind::FunctionPointer && need.allowNull && rng_.chance(options_.nullProbability))
      return push(t, Statement{.op = Op::Null, .type = type.id});
    Statement s{.op = Op::Callback, .type = type.id};
    const model::TypeId result = program_.type(type.signature->result).value;
    if (catalog_.isScalar(result) && !deep) s.refs.push_back(*make(t, {result, nullptr, true}, depth + 1));
    return push(t, std::move(s));
  }
  case TypeKind::String:
  case TypeKind::StringView:
  case TypeKind::InputStream:
    return push(t, Statement{.op = Op::StdString, .type = type.id, .bytes = randomString(options_.maxStringLength)});
  case TypeKind::OutputStream:
    return push(t, Statement{.op = Op::StdString, .type = type.id});
  case TypeKind::UniquePtr:
  case TypeKind::SharedPtr:
  case TypeKind::Optional:
    return push(t, Statement{.op = Op::Null, .type = type.id});
  case TypeKind::Array: {
    Statement s{.op = Op::Array, .type = type.id};
    for (std::uint64_t i = 0; i < type.length && i < 64; ++i) {
      auto e = value(t, {*type.element, nullptr, true}, depth + 1);
      if (!e) return std::nullopt;
      s.refs.push_back(*e);
    }
    return push(t, std::move(s));
  }
  case TypeKind::Record:
    return makeRecord(t, type.id, depth);
  default:
    return std::nullopt;
  }
}

std::optional<Ref> TestFactory::makePointer(TestCase &t, const Need &need, int depth) {
  const model::Type &type = program_.type(program_.type(need.type).value);
  const model::Type &pointee = program_.type(program_.type(*type.pointee).value);
  const ParamRole role = need.param ? need.param->role : ParamRole::None;
  const bool deep = depth > options_.maxDepth;
  auto null = [&] { return push(t, Statement{.op = Op::Null, .type = type.id}); };
  auto addressOf = [&](std::optional<Ref> target) -> std::optional<Ref> {
    if (!target) return std::nullopt;
    return push(t, Statement{.op = Op::AddressOf, .type = type.id, .refs = {*target}});
  };
  if (deep) return null();
  // The C library's stream: over a temporary file holding bytes (text
  // mostly, as a buffer of char), or NULL as any pointer.
  if (catalog_.fileStream(type.id)) {
    if (need.allowNull && rng_.chance(options_.nullProbability)) return null();
    return push(t, Statement{.op = Op::File, .type = type.id, .bytes = randomBytes(true)});
  }

  // Through a reference (`const char *&cursor`) the pointer itself is what
  // the callee writes; what it points at is input like any other.
  const bool viaReference = need.param && program_.type(need.param->type).kind == TypeKind::Reference;
  // A parameter declared as an array (`uint32_t state[8]`) gets as many
  // elements: bytes, or up to kDeclaredArrayMax scalars; NULL as often as
  // any pointer when the callee only reads it.
  if (!viaReference && need.param && need.param->declaredLength) {
    const size_t n = static_cast<size_t>(*need.param->declaredLength);
    const bool written = need.param->written || role == ParamRole::Out;
    if (!written && need.allowNull && rng_.chance(options_.nullProbability)) return null();
    if (pointee.kind == TypeKind::Char || (pointee.kind == TypeKind::Integer && pointee.bits == 8)) {
      Statement b{.op = Op::Buffer, .type = type.id};
      b.bytes = written ? std::string(n, '\0') : randomBytes(isText(type.id));
      b.bytes.resize(std::max(n, b.bytes.size()), '\0');
      return push(t, std::move(b));
    }
    if (catalog_.isScalar(pointee.id) && catalog_.arrayElement(pointee.id) && n <= kDeclaredArrayMax) {
      Statement a{.op = Op::Array, .type = type.id};
      for (size_t k = 0; k < n; ++k) {
        auto e = value(t, {pointee.id, nullptr, true}, depth + 1);
        if (!e) return std::nullopt;
        a.refs.push_back(*e);
      }
      return push(t, std::move(a));
    }
  }
  if (!viaReference &&
      (role == ParamRole::Out || (need.param && need.param->written && catalog_.isScalar(pointee.id)))) {
    // A fresh variable for the callee to fill (a record zeroed, as a C
    // caller declares one for an initialiser), or NULL as often as any
    // pointer: C APIs take optional outputs (`if (len) *len = n;`) and
    // check for a missing one (`if (!out) return -1;`).
    if (pointee.kind == TypeKind::Void) return null();
    if (need.allowNull && rng_.chance(options_.nullProbability)) return null();
    // A pointer only the API makes, NULL until the callee sets it
    // (`plist_t root = NULL; plist_from_xml(xml, n, &root)`).
    if (catalog_.apiPointer(pointee.id)) return addressOf(push(t, Statement{.op = Op::Null, .type = pointee.id}));
    // Bytes written through a pointer that comes with no length (tinyxml2's
    // ConvertUTF32ToUTF8(input, char *output, int *length) writes up to
    // four): a C caller passes a buffer, not one char, and a test that gave
    // one char overflowed it (ASan then took it out of the suite).
    if (pointee.kind == TypeKind::Char || (pointee.kind == TypeKind::Integer && pointee.bits == 8))
      return push(t, Statement{.op = Op::Buffer, .type = type.id, .bytes = std::string(kUnpairedOutputBytes, '\0')});
    if (pointee.kind == TypeKind::Record && catalog_.buildable(pointee.id) && catalog_.aggregateFields(*pointee.recordId) &&
        !program_.record(*pointee.recordId).isCxx)
      return addressOf(push(t, Statement{.op = Op::Aggregate, .type = pointee.id}));
    return addressOf(make(t, {pointee.id, nullptr, true, /*exact=*/true}, depth + 1));
  }
  if (need.allowNull && rng_.chance(options_.nullProbability)) return null();
  // A pointer only the API makes (hiredis's sds, libplist's plist_t): from a function that
  // returns one, never the test's own bytes.
  if (catalog_.apiPointer(type.id)) {
    std::vector<model::CallableId> makers = catalog_.returning(type.id);
    // A handle of a kind (lcms2's cmsIT8GetSheetType(cmsHANDLE hIT8) or
    // cmsMD5add(cmsHANDLE Handle, ...), where cmsDictAlloc makes cmsHANDLEs
    // too: model::handleKindOf): from a maker of that kind (ours: nine
    // times in ten, the rest for robustness).
    if (const std::string kind = need.param && need.of ? model::handleKindOf(program_, need.of->name, need.param->name, makers) : "";
        !kind.empty()) {
      std::vector<model::CallableId> ofKind;
      for (model::CallableId c : makers)
        if (model::namesKind(program_.callable(c).name, kind)) ofKind.push_back(c);
      if (!ofKind.empty() && rng_.chance(0.9)) makers = std::move(ofKind);
    }
    if (auto r = call(t, rng_.pick(makers), depth + 1)) return r;
    return need.allowNull ? std::optional<Ref>(null()) : std::nullopt;
  }
  if (catalog_.isCharPointer(type.id)) {
    Statement s{.op = Op::CString, .type = type.id, .bytes = randomString(options_.maxStringLength)};
    return push(t, std::move(s));
  }
  if (role == ParamRole::UserData || pointee.kind == TypeKind::Void) {
    // A `void *` the unit hands out (jansson's hashtable_iter() for
    // hashtable_iter_key(void *iter)), half of the time when some function
    // returns one: the address of a test's variable is read as the unit's
    // own object, past the variable's end (ours: one half; a callback's
    // user data is opaque to the unit, so one of its pointers does no harm).
    if (const std::vector<model::CallableId> &makers = catalog_.returning(type.id); !makers.empty() && rng_.chance(0.5))
      if (auto r = call(t, rng_.pick(makers), depth + 1)) return r;
    // The address of any variable there is (not of a statement without one).
    std::vector<Ref> vars;
    for (size_t i = 0; i < t.statements.size(); ++i)
      if (variableType(program_, t, i)) vars.push_back(static_cast<Ref>(i));
    if (vars.empty() || rng_.chance(0.5)) return null();
    return push(t, Statement{.op = Op::AddressOf, .type = type.id, .refs = {rng_.pick(vars)}});
  }
  // Something that produces such a pointer (a factory), or the address of a
  // value built here.
  // For an address-of, only a pointer of exactly this type: a Derived *
  // variable's address is no Base **.
  std::vector<model::CallableId> producers = catalog_.producers(type.id);
  if (need.exact)
    std::erase_if(producers, [&](model::CallableId c) {
      const auto rv = catalog_.resultVariable(c);
      return !rv || catalog_.fits(*rv, type.id) != Passing::Same;
    });
  // A type the unit keeps to itself (defined in its .c file, handed out by
  // pointer), or one the API makes itself (Catalog::madeByApi), is only
  // ever made by the API when it can be: never field by field.
  const bool apiMade = pointee.kind == TypeKind::Record && !catalog_.madeByApi(*pointee.recordId).empty();
  const bool valueBuildable = catalog_.buildable(pointee.id) && pointee.kind != TypeKind::Void &&
                              !(producers.size() && (catalog_.isPrivate(pointee.id) || apiMade));
  // Ours: three times in four from a producer (the API's own way to make
  // one) when the value could also be built field by field.
  if (!producers.empty() && (!valueBuildable || rng_.chance(0.75))) {
    if (auto r = call(t, rng_.pick(producers), depth + 1)) return r;
  }
  if (!valueBuildable) return need.allowNull ? std::optional<Ref>(null()) : std::nullopt;
  if (catalog_.isScalar(pointee.id) && catalog_.arrayElement(pointee.id) && rng_.chance(0.5)) {
    Statement s{.op = Op::Array, .type = type.id};
    const size_t n = static_cast<size_t>(rng_.uniform(1, 4)); // ours: a few elements
    for (size_t i = 0; i < n; ++i) s.refs.push_back(*make(t, {pointee.id, nullptr, true}, depth + 1));
    return push(t, std::move(s));
  }
  return addressOf(value(t, {pointee.id, nullptr, true, /*exact=*/true}, depth + 1));
}

std::optional<Ref> TestFactory::makeRecord(TestCase &t, model::TypeId typeId, int depth) {
  const model::Type &type = program_.type(typeId);
  const model::Record &r = program_.record(*type.recordId);
  if (!catalog_.buildable(typeId)) return std::nullopt;
  const bool deep = depth > options_.maxDepth;

  std::vector<model::CallableId> ways;
  if (!r.abstract)
    for (model::CallableId c : r.constructors)
      if (catalog_.callable(c)) ways.push_back(c);
  if (!deep)
    for (model::CallableId c : catalog_.producers(typeId))
      if (program_.type(program_.type(program_.callable(c).result).value).kind == TypeKind::Record) ways.push_back(c);
  const bool aggregate = r.complete && (!r.isCxx || (r.aggregate && r.bases.empty())) && !r.abstract;
  // A type the API makes itself is never filled field by field: a test
  // gets one from a producer, or zeroed and then initialised by the API
  // (`mp_int a = {}; mp_init(&a)`); a type the callers fill may be made
  // either way (ours: an initialiser a quarter of the time; three quarters
  // for a table of functions that the library fills with its defaults,
  // where stubs do poorly: an allocator's stub gives NULL. An init of a
  // table of callbacks, as http_parser_settings_init, zeroes them).
  const bool apiMade = !catalog_.madeByApi(r.id).empty();
  const std::vector<model::CallableId> &inits = catalog_.initialisers(r.id);
  const bool defaults = model::hasFunctionField(program_, r.id) && std::any_of(inits.begin(), inits.end(), [&](auto c) {
                          return model::defaultsFilled(program_, program_.callable(c)) == r.id;
                        });
  if (aggregate && !deep && !inits.empty() && (apiMade || rng_.chance(defaults ? 0.75 : 0.25)))
    if (auto made = initialised(t, r, depth)) return made;
  // An abstract class: a stub subclass the test derives, always when
  // nothing else makes one, else half of the time (a concrete subclass or a
  // factory runs the project's own overrides).
  if (r.abstract && catalog_.subclassable(r.id)) {
    bool concrete = false;
    for (model::RecordId d : catalog_.derived(r.id)) concrete |= catalog_.buildable(program_.record(d).type);
    if ((ways.empty() && !concrete) || rng_.chance(0.5)) {
      Statement s{.op = Op::Subclass, .type = typeId};
      if (!deep)
        for (size_t k : catalog_.stubResults(r.id))
          s.refs.push_back(*make(t, {r.pureVirtuals[k].result, nullptr, true}, depth + 1));
      return push(t, std::move(s));
    }
  }

  if (!ways.empty() && (!aggregate || apiMade || rng_.chance(0.5))) {
    if (auto made = call(t, rng_.pick(ways), depth + 1)) return made;
  }
  if (aggregate) {
    Statement s{.op = Op::Aggregate, .type = typeId};
    const auto fields = catalog_.aggregateFields(r.id);
    if (!deep && fields && !apiMade) {
      // A (pointer, length) pair of fields is filled consistently: the
      // buffer first, then its length (model::Field::pairedWith).
      std::map<size_t, Ref> paired;
      for (size_t f : *fields) {
        const model::Field &field = r.fields[f];
        if (!field.pairedWith || field.isLength ||
            std::find(fields->begin(), fields->end(), *field.pairedWith) == fields->end())
          continue;
        auto buffer = pairedBuffer(t, field.type, false, depth + 1);
        if (!buffer) continue;
        paired[f] = buffer->first;
        Statement len{.op = Op::Primitive, .type = program_.type(r.fields[*field.pairedWith].type).value};
        len.bits = buffer->second;
        paired[*field.pairedWith] = push(t, std::move(len));
      }
      for (size_t f : *fields) {
        if (auto it = paired.find(f); it != paired.end()) {
          s.refs.push_back(it->second);
          continue;
        }
        // A pointer to a type only the unit's inside deals in (z_stream's
        // `state`) is the API's to fill: null.
        const model::Type &ft = program_.type(r.fields[f].type);
        if (ft.kind == TypeKind::Pointer && ft.pointee) {
          const model::Type &to = program_.type(program_.type(*ft.pointee).value);
          if (to.kind == TypeKind::Record && catalog_.internalType(*to.recordId)) {
            s.refs.push_back(push(t, Statement{.op = Op::Null, .type = ft.value}));
            continue;
          }
        }
        auto v = value(t, {r.fields[f].type, nullptr, true}, depth + 1);
        if (!v) {
          s.refs.clear(); // cannot list every field: zero them all
          break;
        }
        s.refs.push_back(*v);
      }
    }
    if (!s.refs.empty() || catalog_.zeroInitialisable(r.id)) return push(t, std::move(s));
  }
  for (model::RecordId d : catalog_.derived(r.id))
    if (auto made = makeRecord(t, program_.record(d).type, depth + 1)) return made;
  return std::nullopt;
}

std::optional<std::pair<Ref, size_t>> TestFactory::pairedBuffer(TestCase &t, model::TypeId pointer, bool written,
                                                                int depth, std::optional<size_t> count) {
  const model::Type &pt = program_.type(program_.type(pointer).value);
  const model::Type &pointee = program_.type(program_.type(*pt.pointee).value);
  const bool bytes = pointee.kind == TypeKind::Char || pointee.kind == TypeKind::Void ||
                     (pointee.kind == TypeKind::Integer && pointee.bits == 8);
  if (bytes) {
    Statement b{.op = Op::Buffer, .type = pt.id};
    b.bytes = written ? std::string(static_cast<size_t>(rng_.uniform(0, static_cast<std::int64_t>(options_.maxBufferLength))), '\0')
                      : randomBytes(isText(pt.id));
    if (count) b.bytes.resize(*count, written ? '\0' : 'a');
    const size_t size = b.bytes.size();
    return std::pair{push(t, std::move(b)), size};
  }
  if (!catalog_.buildable(pointee.id) || !catalog_.pointedArrayElement(pointee.id)) return std::nullopt;
  Statement a{.op = Op::Array, .type = pt.id};
  // Ours: small arrays, empty ones included where a test can write one
  // (`T a[1] = {}` needs a T without arguments).
  const bool emptyOk = pointee.kind != TypeKind::Record || catalog_.zeroInitialisable(*pointee.recordId);
  if (!count) count = static_cast<size_t>(rng_.uniform(emptyOk ? 0 : 1, 4));
  for (size_t k = 0; k < *count; ++k) {
    auto e = value(t, {pointee.id, nullptr, true}, depth + 1);
    if (!e) return std::nullopt;
    a.refs.push_back(*e);
  }
  return std::pair{push(t, std::move(a)), *count};
}

std::optional<Ref> TestFactory::initialised(TestCase &t, const model::Record &r, int depth) {
  const model::CallableId init = rng_.pick(catalog_.initialisers(r.id));
  const Ref x = push(t, Statement{.op = Op::Aggregate, .type = r.type});
  const size_t param = catalog_.initialisedParam(init, r.id);
  const Ref address =
      push(t, Statement{.op = Op::AddressOf, .type = program_.type(program_.callable(init).params[param].type).value,
                        .refs = {x}});
  if (!call(t, init, depth + 1, std::nullopt, GivenArg{param, address})) return std::nullopt;
  return x;
}

bool fitFormats(const Catalog &catalog, TestCase &test) {
  const model::Program &p = catalog.program();
  bool changed = false;
  for (size_t i = 0; i < test.statements.size(); ++i) {
    const Statement &s = test.statements[i];
    if (s.op != Op::Call && s.op != Op::MethodCall && s.op != Op::Construct) continue;
    const model::Callable &c = p.callable(s.callable);
    const size_t offset = s.op == Op::MethodCall ? 1 : 0;
    if (!c.formatParam || offset + *c.formatParam >= s.refs.size()) continue;
    const Ref f = s.refs[offset + *c.formatParam];
    if (f >= i || test.statements[f].op == Op::Null) continue;
    if (test.statements[f].op != Op::CString) {
      test = withoutStatement(test, i);
      changed = true;
      --i;
      continue;
    }
    std::string kinds;
    for (size_t k = offset + c.params.size(); k < s.refs.size(); ++k) {
      const auto vt = s.refs[k] < i ? variableType(p, test, s.refs[k]) : std::nullopt;
      kinds.push_back(vt && catalog.isVarargType(*vt) ? catalog.varargKind(*vt) : '?');
    }
    std::string &format = test.statements[f].bytes;
    const bool fits = c.scanfFormat ? format.find('%') == std::string::npos
                                    : mosaic_format_fits(format.c_str(), kinds.c_str(), kinds.size());
    if (!fits) {
      std::erase(format, '%');
      changed = true;
    }
  }
  return changed;
}

std::optional<size_t> varargCountParam(const model::Program &p, const model::Callable &c) {
  if (!c.variadic || c.formatParam) return std::nullopt;
  for (size_t k = c.params.size(); k-- > 0;) {
    if (p.type(p.type(c.params[k].type).value).kind != model::TypeKind::Integer) continue;
    const std::string n = lowercase(c.params[k].name);
    if (n == "count" || n == "n" || n == "num" || n == "nargs" || n == "argc" || n == "cnt" ||
        (n.size() > 5 && n.compare(n.size() - 5, 5, "count") == 0))
      return k;
    return std::nullopt; // the last fixed integer is no count
  }
  return std::nullopt;
}

bool fitCounts(const Catalog &catalog, TestCase &test) {
  const model::Program &p = catalog.program();
  bool changed = false;
  for (size_t i = 0; i < test.statements.size(); ++i) {
    const Statement &s = test.statements[i];
    if (s.op != Op::Call && s.op != Op::MethodCall) continue;
    const model::Callable &c = p.callable(s.callable);
    const auto k = varargCountParam(p, c);
    if (!k) continue;
    const size_t offset = s.op == Op::MethodCall ? 1 : 0;
    const size_t fixed = offset + c.params.size();
    if (offset + *k >= s.refs.size() || fixed > s.refs.size()) continue;
    const Ref r = s.refs[offset + *k];
    const std::uint64_t extras = s.refs.size() - fixed;
    if (r < i && test.statements[r].op == Op::Primitive) {
      if (test.statements[r].bits != extras) {
        test.statements[r].bits = extras;
        changed = true;
      }
      continue;
    }
    test = withoutStatement(test, i);
    changed = true;
    --i;
  }
  return changed;
}

} // namespace mosaic::testcase
