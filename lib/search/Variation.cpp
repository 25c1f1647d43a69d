// Mutation and crossover of test cases (ALGORITHMS.md §1.6).
#include "mosaic/search/Variation.h"

#include "mosaic/abi/TestWire.h"

#include "mosaic/testcase/Inherited.h"
#include "mosaic/testcase/Lifetime.h"
#include "mosaic/testcase/TextEdits.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace mosaic::search {

using testcase::Op;
using testcase::Ref;
using testcase::Statement;
using testcase::TestCase;
using model::TypeKind;

namespace {

using testcase::isCall;

} // namespace

Variation::Variation(const testcase::Catalog &catalog, testcase::TestFactory &factory, Rng &rng,
                     std::vector<model::CallableId> targets, VariationOptions options)
    : catalog_(catalog), program_(catalog.program()), factory_(factory), rng_(rng), targets_(std::move(targets)),
      options_(options) {
  isTarget_.assign(program_.callables.size(), false);
  for (model::CallableId c : targets_)
    if (c < isTarget_.size()) isTarget_[c] = true;
  inherited_ = testcase::inheritedMethods(catalog_, targets_);
}

TestCase Variation::randomTest() {
  TestCase t = factory_.randomTest(targets_);
  if (endWithEntry(t)) testcase::dropEarlyReleases(t, program_);
  return t;
}

void Variation::guideTo(std::vector<model::CallableId> entries) {
  entries_ = std::move(entries);
  isEntry_.assign(program_.callables.size(), false);
  for (model::CallableId c : entries_)
    if (c < isEntry_.size()) isEntry_[c] = true;
}

bool Variation::endWithEntry(TestCase &t) {
  if (entries_.empty()) return false;
  const auto isEntryCall = [this](const Statement &s) {
    return isCall(s.op) && s.callable < isEntry_.size() && isEntry_[s.callable];
  };
  if (!t.statements.empty() && isEntryCall(t.statements.back())) return false;
  // The last entry call, moved to the end when nothing after it uses its
  // result: the statements after it become the set-up it runs after.
  for (size_t i = t.statements.size(); i-- > 0;) {
    if (!isEntryCall(t.statements[i])) continue;
    bool used = false;
    for (size_t j = i + 1; j < t.statements.size() && !used; ++j)
      used = std::find(t.statements[j].refs.begin(), t.statements[j].refs.end(), static_cast<Ref>(i)) !=
             t.statements[j].refs.end();
    if (used) break;
    Statement moved = t.statements[i];
    t.statements.erase(t.statements.begin() + static_cast<std::ptrdiff_t>(i));
    for (size_t j = i; j < t.statements.size(); ++j)
      for (Ref &r : t.statements[j].refs)
        if (r != testcase::kNoRef && r > i) --r;
    t.statements.push_back(std::move(moved)); // its refs all point before i
    return true;
  }
  // A new one: a method on a variable of its class (a target call makes
  // one when the test holds none), a function as it is.
  const size_t before = t.statements.size();
  for (int attempt = 0; attempt < 10; ++attempt) {
    const model::CallableId entry = rng_.pick(entries_);
    const model::Callable &c = program_.callable(entry);
    const bool method = c.parent && (c.kind == model::CallableKind::Method || c.kind == model::CallableKind::Operator);
    if (!method) {
      if (factory_.appendCall(t, entry)) return true;
      continue;
    }
    std::vector<Ref> receivers;
    for (size_t i = 0; i < t.statements.size(); ++i) {
      if (t.statements[i].op == Op::Null) continue;
      auto vt = testcase::variableType(program_, t, i);
      if (!vt) continue;
      const auto &on = methodsOn(*vt);
      if (std::find(on.begin(), on.end(), entry) != on.end()) receivers.push_back(static_cast<Ref>(i));
    }
    if (!receivers.empty()) {
      if (factory_.appendCallOn(t, entry, rng_.pick(receivers))) return true;
    } else if (!targets_.empty()) {
      factory_.appendCall(t, factory_.pickTarget(targets_)); // perhaps a receiver, for the next attempt
    }
  }
  return t.statements.size() != before; // perhaps still without an entry call
}

bool Variation::callsTarget(const TestCase &t) const {
  for (const Statement &s : t.statements)
    if (isCall(s.op) && s.callable < isTarget_.size() && isTarget_[s.callable]) return true;
  return false;
}

bool Variation::mutate(TestCase &t, const Execution *last) {
  size_t l = t.statements.size();
  if (last && last->stoppedAt >= 0) l = std::min(l, static_cast<size_t>(last->stoppedAt) + 1);
  l = std::max<size_t>(l, 1);
  bool changed = false;
  // Each step independently with its probability, until something changed
  // (EvoSuite mutates again when a mutation left the test as it was).
  for (int attempt = 0; attempt < 10 && !changed; ++attempt) {
    if (rng_.chance(options_.deleteProbability) && !t.statements.empty()) changed |= deleteStep(t, l);
    if (rng_.chance(options_.changeProbability) && !t.statements.empty()) changed |= changeStep(t, l);
    if (rng_.chance(options_.insertProbability)) changed |= insertStep(t);
  }
  if (t.statements.size() > options_.maxLength) t.statements.resize(options_.maxLength); // refs point backwards only
  changed |= testcase::dropEarlyReleases(t, program_) > 0;
  changed |= catalog_.dropWritesThroughConst(t) > 0;
  changed |= testcase::fitFormats(catalog_, t);
  changed |= testcase::fitCounts(catalog_, t);
  if (!callsTarget(t) && !targets_.empty()) {
    for (int attempt = 0; attempt < 10; ++attempt)
      if (factory_.appendCall(t, factory_.pickTarget(targets_))) break;
    changed = true;
  }
  if (endWithEntry(t)) {
    testcase::dropEarlyReleases(t, program_);
    changed = true;
  }
  return changed;
}

bool Variation::deleteStep(TestCase &t, size_t l) {
  bool changed = false;
  const size_t n = std::min(l, t.statements.size());
  for (size_t i = n; i-- > 0;) {
    if (i >= t.statements.size() || !rng_.chance(1.0 / static_cast<double>(l))) continue;
    t = testcase::withoutStatement(t, i);
    changed = true;
  }
  return changed;
}

bool Variation::changeStep(TestCase &t, size_t l) {
  bool changed = false;
  const size_t n = std::min(l, t.statements.size());
  // Backwards: a change that inserts statements before index i leaves the
  // indices still to visit as they were.
  for (size_t i = n; i-- > 0;)
    if (rng_.chance(1.0 / static_cast<double>(l))) changed |= changeStatement(t, i);
  return changed;
}

const std::vector<model::CallableId> &Variation::methodsOn(model::TypeId type) {
  auto [it, fresh] = methodsOn_.try_emplace(type);
  if (!fresh) return it->second;
  std::vector<model::CallableId> offered = targets_;
  offered.insert(offered.end(), inherited_.begin(), inherited_.end());
  for (model::CallableId c : offered) {
    const model::Callable &callable = program_.callable(c);
    if (!callable.parent ||
        (callable.kind != model::CallableKind::Method && callable.kind != model::CallableKind::Operator))
      continue;
    const model::TypeId receiver = program_.record(*callable.parent).type;
    if (catalog_.fits(type, receiver) && catalog_.passable(type, receiver) &&
        (callable.isConst || !catalog_.constView(type)))
      it->second.push_back(c);
  }
  return it->second;
}

std::optional<model::RecordId> Variation::writablyPointed(model::TypeId type) const {
  const model::Type &p = program_.type(program_.type(type).value);
  if (p.kind != model::TypeKind::Pointer || !p.pointee || p.pointeeConst) return std::nullopt;
  const model::Type &r = program_.type(program_.type(*p.pointee).value);
  if (r.kind != model::TypeKind::Record || !r.recordId) return std::nullopt;
  return r.recordId;
}

const std::vector<std::pair<model::CallableId, size_t>> &Variation::functionsOn(model::TypeId type) {
  auto [it, fresh] = functionsOn_.try_emplace(type);
  if (!fresh) return it->second;
  if (objectParam_.empty()) {
    objectParam_.assign(program_.callables.size(), SIZE_MAX);
    // The records the targets take by non-const pointer: another file's
    // function is offered on those only (libyaml's parser.c takes a
    // yaml_parser_t *; lz4frame.c's functions take none of lz4.c's
    // LZ4_stream_t, and offering lz4.c's functions on them cost it 42 of 532
    // branches at 10,000 tests).
    std::set<model::RecordId> worked;
    for (model::CallableId id : targets_)
      for (const model::Param &p : program_.callable(id).params)
        if (auto r = writablyPointed(p.type)) worked.insert(*r);
    for (const model::Callable &c : program_.callables) {
      // Not a target: the insertion calls those anyway, on what the test
      // holds or not (and offering them here too took half of the
      // insertions from fresh target calls: cJSON.c's and libconfig.c's
      // coverage fell by 30-56 branches of 1,038 and 494 at 10,000 tests).
      if (c.parent || c.kind != model::CallableKind::Function || !catalog_.callable(c.id) || isTarget_[c.id]) continue;
      // The library's own inside (private headers) is no API to set up
      // with, and a release is no change to build on.
      if (catalog_.internalCallable(c) || testcase::releasesItsArgument(program_, c)) continue;
      for (size_t i = 0; i < c.params.size(); ++i)
        if (auto r = writablyPointed(c.params[i].type)) {
          if (worked.count(*r)) objectParam_[c.id] = i;
          break;
        }
    }
  }
  const model::Type &held = program_.type(program_.type(type).value);
  if (held.kind != model::TypeKind::Pointer || held.pointeeConst) return it->second;
  for (const model::Callable &c : program_.callables)
    if (const size_t i = objectParam_[c.id]; i != SIZE_MAX) {
      const model::TypeId param = c.params[i].type;
      if (catalog_.fits(type, param) == testcase::Passing::Same && catalog_.passable(type, param))
        it->second.emplace_back(c.id, i);
    }
  return it->second;
}

bool Variation::insertStep(TestCase &t) {
  bool changed = false;
  int count = 0;
  do {
    ++count;
    bool done = false;
    if (!rng_.chance(options_.insertUnit)) {
      // A call on an existing variable: a target method, or one its class
      // inherits, whose class the variable is (or points to).
      // Or a function that takes a pointer the test holds as its object
      // (functionsOn).
      struct Option {
        Ref variable;
        model::CallableId callable;
        size_t param; ///< SIZE_MAX: a method, the variable its receiver
      };
      std::vector<Option> options;
      for (size_t i = 0; i < t.statements.size(); ++i) {
        if (t.statements[i].op == Op::Null) continue;
        auto vt = testcase::variableType(program_, t, i);
        if (!vt) continue;
        for (model::CallableId c : methodsOn(*vt)) options.push_back({static_cast<Ref>(i), c, SIZE_MAX});
        for (const auto &[c, param] : functionsOn(*vt)) options.push_back({static_cast<Ref>(i), c, param});
      }
      if (!options.empty()) {
        const Option &o = rng_.pick(options);
        done = o.param == SIZE_MAX ? factory_.appendCallOn(t, o.callable, o.variable)
                                   : factory_.appendCallWith(t, o.callable, o.param, o.variable);
      }
    }
    if (!done && !targets_.empty()) done = factory_.appendCall(t, factory_.pickTarget(targets_));
    changed |= done;
  } while (t.statements.size() < options_.maxLength && rng_.chance(std::pow(options_.insertionAlpha, count)));
  return changed;
}

const model::Param *Variation::paramOf(const TestCase &t, size_t call, size_t arg) const {
  const Statement &s = t.statements[call];
  if (!isCall(s.op)) return nullptr;
  const model::Callable &c = program_.callable(s.callable);
  const size_t offset = s.op == Op::MethodCall ? 1 : 0;
  if (arg < offset || arg - offset >= c.params.size()) return nullptr;
  return &c.params[arg - offset];
}

std::vector<std::pair<size_t, size_t>> Variation::aggregatePairs(const Statement &s) const {
  std::vector<std::pair<size_t, size_t>> out;
  const model::Type &ty = program_.type(program_.type(s.type).value);
  if (s.op != Op::Aggregate || ty.kind != model::TypeKind::Record || s.refs.empty()) return out;
  const model::Record &r = program_.record(*ty.recordId);
  const auto fields = catalog_.aggregateFields(r.id);
  if (!fields || fields->size() != s.refs.size()) return out;
  for (size_t k = 0; k < fields->size(); ++k) {
    const model::Field &f = r.fields[(*fields)[k]];
    if (!f.pairedWith || f.isLength) continue;
    const auto at = std::find(fields->begin(), fields->end(), *f.pairedWith);
    if (at != fields->end()) out.emplace_back(k, static_cast<size_t>(at - fields->begin()));
  }
  return out;
}

bool Variation::isPairedLength(const TestCase &t, size_t index) const {
  for (size_t j = index + 1; j < t.statements.size(); ++j) {
    const Statement &s = t.statements[j];
    for (const auto &[ptr, len] : aggregatePairs(s))
      if (s.refs[len] == index) return true;
    if (!isCall(s.op)) continue;
    const model::Callable &c = program_.callable(s.callable);
    const size_t offset = s.op == Op::MethodCall ? 1 : 0;
    for (size_t k = 0; k < c.params.size(); ++k)
      if (c.params[k].pairedWith && offset + *c.params[k].pairedWith < s.refs.size() &&
          s.refs[offset + *c.params[k].pairedWith] == index)
        return true;
  }
  return false;
}

void Variation::resizePaired(TestCase &t, size_t buffer, size_t size) {
  for (size_t j = buffer + 1; j < t.statements.size(); ++j) {
    Statement &s = t.statements[j];
    for (const auto &[ptr, len] : aggregatePairs(s))
      if (s.refs[ptr] == buffer && s.refs[len] < t.statements.size() && t.statements[s.refs[len]].op == Op::Primitive)
        t.statements[s.refs[len]].bits = size;
    if (!isCall(s.op)) continue;
    const model::Callable &c = program_.callable(s.callable);
    const size_t offset = s.op == Op::MethodCall ? 1 : 0;
    for (size_t k = 0; k < c.params.size(); ++k) {
      if (!c.params[k].pairedWith || offset + k >= s.refs.size() || s.refs[offset + k] != buffer) continue;
      const size_t m = offset + *c.params[k].pairedWith;
      if (m < s.refs.size() && s.refs[m] < t.statements.size() && t.statements[s.refs[m]].op == Op::Primitive)
        t.statements[s.refs[m]].bits = size;
    }
  }
}

std::string Variation::mutateString(const std::string &in, bool bytes) {
  auto randomChar = [&] { return static_cast<char>(bytes ? rng_.uniform(0, 255) : rng_.uniform(32, 126)); };
  std::string s = in;
  for (int attempt = 0; attempt < 10 && s == in; ++attempt) {
    if (rng_.chance(options_.textEdit)) {
      s = testcase::editText(s, factory_.pool(), rng_, factory_.options().dynamicShare, options_.maxTextLength);
      continue;
    }
    // Pynguin's StringPrimitiveStatement.delta: delete, replace and insert,
    // each with probability 1/3, characters with probability 1/len.
    const double p = 1.0 / static_cast<double>(std::max<size_t>(s.size(), 1));
    if (rng_.chance(1.0 / 3) && !s.empty()) {
      std::string kept;
      for (char c : s)
        if (!rng_.chance(p)) kept.push_back(c);
      s = kept;
    }
    if (rng_.chance(1.0 / 3))
      for (char &c : s)
        if (rng_.chance(p)) c = randomChar();
    if (rng_.chance(1.0 / 3)) {
      int count = 1;
      while (rng_.chance(std::pow(options_.insertionAlpha, count)) && s.size() < options_.maxTextLength) {
        s.insert(s.begin() + static_cast<std::ptrdiff_t>(rng_.index(s.size() + 1)), randomChar());
        ++count;
      }
    }
  }
  return s;
}

bool Variation::changePrimitive(Statement &s) {
  const model::Type &type = program_.type(program_.type(s.type).value);
  const std::uint64_t before = s.bits;
  switch (type.kind) {
  case TypeKind::Bool: s.bits = !s.bits; break;
  case TypeKind::Enum: s.bits = factory_.randomBits(type.id); break;
  case TypeKind::Floating: {
    if (rng_.chance(options_.randomPerturbation)) {
      s.bits = factory_.randomBits(type.id);
      break;
    }
    double d = testcase::doubleOf(s.bits);
    if (!std::isfinite(d)) d = 0;
    switch (rng_.index(3)) { // EvoSuite's three double deltas
    case 0: d += rng_.gaussian() * options_.maxDelta; break;
    case 1: d += rng_.gaussian(); break;
    default: {
      // EvoSuite's chopPrecision with Randomness.nextInt(15) digits.
      const double scale = std::pow(10.0, static_cast<double>(rng_.uniform(0, 14)));
      d = std::round(d * scale) / scale;
    }
    }
    s.bits = testcase::bitsOf(d);
    break;
  }
  default: { // Char, Integer
    if (rng_.chance(options_.randomPerturbation)) {
      s.bits = factory_.randomBits(type.id);
      break;
    }
    auto delta = static_cast<std::int64_t>(std::floor(rng_.gaussian() * options_.maxDelta));
    if (delta == 0) delta = rng_.chance(0.5) ? 1 : -1;
    s.bits = static_cast<std::uint64_t>(static_cast<std::int64_t>(s.bits) + delta);
  }
  }
  return s.bits != before;
}

bool Variation::changeBytes(TestCase &t, size_t i) {
  Statement &s = t.statements[i];
  const std::string before = s.bytes;
  if (s.op == Op::Buffer) {
    // Any byte, except that a buffer of plain char mostly stays text.
    const bool anyByte = !factory_.isText(s.type) || !rng_.chance(factory_.options().textBuffer);
    s.bytes = rng_.chance(options_.randomPerturbation) ? factory_.randomBuffer(s.type) : mutateString(s.bytes, anyByte);
    resizePaired(t, i, t.statements[i].bytes.size());
  } else if (s.op == Op::File) {
    // A stream's content: mostly text, as a buffer of char.
    const bool anyByte = !rng_.chance(factory_.options().textBuffer);
    s.bytes = rng_.chance(options_.randomPerturbation) ? factory_.randomText() : mutateString(s.bytes, anyByte);
  } else {
    s.bytes = rng_.chance(options_.randomPerturbation) ? factory_.randomText() : mutateString(s.bytes, false);
  }
  return t.statements[i].bytes != before;
}

bool Variation::newArgument(TestCase &t, size_t index, size_t arg, std::optional<model::TypeId> extra) {
  const Statement &call = t.statements[index];
  if (arg > call.refs.size() || (arg == call.refs.size() && !extra)) return false;
  const model::Param *param = paramOf(t, index, arg);
  model::TypeId type;
  if (extra) {
    type = *extra;
  } else if (param) {
    if (param->pairedWith || isPairedLength(t, call.refs[arg])) return false; // keep (buffer, length) pairs whole
    type = param->type;
  } else if (call.op == Op::MethodCall && arg == 0) {
    type = program_.record(*program_.callable(call.callable).parent).type;
  } else {
    return false;
  }
  TestCase head;
  head.statements.assign(t.statements.begin(), t.statements.begin() + static_cast<std::ptrdiff_t>(index));
  auto made = factory_.appendValue(head, type, param, param ? &program_.callable(call.callable) : nullptr);
  if (!made || (arg < call.refs.size() && *made == call.refs[arg])) return false;
  if (!param && !extra && head.statements[*made].op == Op::Null) return false; // never a null receiver
  const Ref added = static_cast<Ref>(head.statements.size() - index);
  for (size_t j = index; j < t.statements.size(); ++j) {
    Statement s = t.statements[j];
    for (Ref &r : s.refs)
      if (r != testcase::kNoRef && r >= index) r += added;
    if (j == index && arg == s.refs.size()) s.refs.push_back(*made);
    else if (j == index) s.refs[arg] = *made;
    head.statements.push_back(std::move(s));
  }
  t = std::move(head);
  return true;
}

bool Variation::changeVarargs(TestCase &t, size_t i) {
  const Statement &s = t.statements[i];
  const model::Callable &c = program_.callable(s.callable);
  const size_t fixed = c.params.size() + (s.op == Op::MethodCall ? 1 : 0);
  const auto &types = catalog_.varargTypes();
  const bool more = s.refs.size() < fixed + MOSAIC_MAX_VARARGS && !types.empty();
  if (more && (s.refs.size() == fixed || rng_.chance(0.5))) return newArgument(t, i, s.refs.size(), rng_.pick(types));
  if (s.refs.size() == fixed) return false;
  t.statements[i].refs.pop_back(); // its value stays, unused, until minimisation
  return true;
}

bool Variation::changeCall(TestCase &t, size_t i) {
  const Statement &s = t.statements[i];
  const model::Callable &callee = program_.callable(s.callable);
  const size_t fixed = callee.params.size() + (s.op == Op::MethodCall ? 1 : 0);
  // Ours: a third of the changes of a variadic call change how many extras it passes.
  if (callee.variadic && rng_.chance(1.0 / 3)) return changeVarargs(t, i);
  if (s.refs.empty()) return false;
  const size_t arg = rng_.index(s.refs.size());
  if (arg >= fixed) { // an extra argument: a new value, of any type a variadic call takes
    const auto &types = catalog_.varargTypes();
    return !types.empty() && newArgument(t, i, arg, rng_.pick(types));
  }
  const model::Param *param = paramOf(t, i, arg);
  if (param && (param->pairedWith || isPairedLength(t, s.refs[arg]))) return false;
  // A descriptor: a new temporary file or -1, never another int (Catalog::fileDescriptor).
  if (param && catalog_.fileDescriptor(*param)) return newArgument(t, i, arg);
  if (rng_.chance(options_.newArgument)) return newArgument(t, i, arg);
  // Another existing variable that fits.
  const model::TypeId want = param ? param->type : program_.record(*program_.callable(s.callable).parent).type;
  std::vector<Ref> candidates;
  for (size_t j = 0; j < i; ++j) {
    if (j == s.refs[arg]) continue;
    if (!param && t.statements[j].op == Op::Null) continue;
    if (!catalog_.standsFor(t.statements[j], param, want)) continue;
    auto vt = testcase::variableType(program_, t, j);
    if (vt && catalog_.fits(*vt, want) && catalog_.passable(*vt, want)) candidates.push_back(static_cast<Ref>(j));
  }
  if (candidates.empty()) return newArgument(t, i, arg);
  t.statements[i].refs[arg] = rng_.pick(candidates);
  return true;
}

bool Variation::retarget(TestCase &t, size_t i) {
  Statement &s = t.statements[i];
  if (s.refs.empty()) return false;
  const size_t k = rng_.index(s.refs.size());
  if (s.refs[k] == testcase::kNoRef) return false;
  const auto want = testcase::variableType(program_, t, s.refs[k]);
  std::vector<Ref> candidates;
  for (size_t j = 0; j < i; ++j)
    if (j != s.refs[k] && testcase::variableType(program_, t, j) == want) candidates.push_back(static_cast<Ref>(j));
  if (candidates.empty()) {
    // A scalar field or element: change the value it holds instead.
    if (t.statements[s.refs[k]].op == Op::Primitive && !isPairedLength(t, s.refs[k]) &&
        !catalog_.descriptorArgument(t, s.refs[k]))
      return changePrimitive(t.statements[s.refs[k]]);
    return false;
  }
  s.refs[k] = rng_.pick(candidates);
  return true;
}

bool Variation::changeStatement(TestCase &t, size_t i) {
  if (i >= t.statements.size()) return false;
  Statement &s = t.statements[i];
  switch (s.op) {
  case Op::Primitive: return !isPairedLength(t, i) && !catalog_.descriptorArgument(t, i) && changePrimitive(s);
  case Op::CString:
  case Op::StdString:
  case Op::Buffer:
  case Op::File: return changeBytes(t, i);
  case Op::Null:
    // Replace it where it is used with something built.
    for (size_t j = i + 1; j < t.statements.size(); ++j)
      if (isCall(t.statements[j].op))
        for (size_t k = 0; k < t.statements[j].refs.size(); ++k)
          if (t.statements[j].refs[k] == i) return newArgument(t, j, k);
    return false;
  case Op::Construct:
  case Op::Call:
  case Op::MethodCall: return changeCall(t, i);
  case Op::Aggregate:
  case Op::AddressOf:
  case Op::Subclass: // its stub's results
  case Op::Array: return retarget(t, i);
  case Op::FieldSet:
  case Op::Callback:
  case Op::EndOf: return false; // it follows its buffer
  }
  return false;
}

TestCase Variation::splice(const TestCase &head, size_t headLen, const TestCase &tail, size_t tailFrom) {
  TestCase out;
  out.statements.assign(head.statements.begin(), head.statements.begin() + static_cast<std::ptrdiff_t>(headLen));
  std::map<size_t, Ref> moved;
  for (size_t j = tailFrom; j < tail.statements.size(); ++j) {
    Statement s = tail.statements[j];
    bool ok = true, rebound = false;
    for (Ref &r : s.refs) {
      if (r == testcase::kNoRef) continue;
      if (r >= tailFrom) {
        auto it = moved.find(r);
        if (it == moved.end()) {
          ok = false;
          break;
        }
        r = it->second;
        continue;
      }
      // A variable of the other head: the latest variable of the same type
      // here, null as it was, a buffer (no NUL) as it was (Catalog::standsFor),
      // a temporary file as it was. A descriptor gets a descriptor (or -1
      // where it had -1), never just another int: a number the runner has
      // open (the persistent child's command pipe) made a test hang.
      const auto want = testcase::variableType(program_, tail, r);
      const Statement &was = tail.statements[r];
      const bool descriptor = catalog_.descriptorArgument(tail, r);
      std::optional<Ref> found;
      for (size_t q = out.statements.size(); q-- > 0;)
        if (const Statement &here = out.statements[q];
            testcase::variableType(program_, out, q) == want && (here.op == Op::Null) == (was.op == Op::Null) &&
            (here.op == Op::Buffer) == (was.op == Op::Buffer) && (here.op == Op::File) == (was.op == Op::File) &&
            (!descriptor || (here.op == was.op && (here.op == Op::File || here.bits == was.bits)))) {
          found = static_cast<Ref>(q);
          break;
        }
      if (!found) {
        ok = false;
        break;
      }
      r = *found;
      rebound = true;
    }
    // A (buffer, length) pair must come from one place, or the length lies;
    // so must a (begin, end) pair.
    if (ok && rebound && s.op == Op::EndOf) ok = false;
    if (ok && rebound && isCall(s.op))
      for (const model::Param &p : program_.callable(s.callable).params)
        if (p.pairedWith) ok = false;
    if (!ok) continue;
    moved[j] = static_cast<Ref>(out.statements.size());
    out.statements.push_back(std::move(s));
  }
  return out;
}

std::pair<TestCase, TestCase> Variation::crossover(const TestCase &a, const TestCase &b) {
  if (a.statements.size() < 2 || b.statements.size() < 2) return {a, b};
  const double alpha = rng_.uniform01();
  const size_t pa = static_cast<size_t>(std::floor(static_cast<double>(a.statements.size() - 1) * alpha)) + 1;
  const size_t pb = static_cast<size_t>(std::floor(static_cast<double>(b.statements.size() - 1) * alpha)) + 1;
  std::pair<TestCase, TestCase> children{splice(a, pa, b, pb), splice(b, pb, a, pa)};
  for (TestCase *child : {&children.first, &children.second}) {
    testcase::dropEarlyReleases(*child, program_);
    catalog_.dropWritesThroughConst(*child);
    testcase::fitFormats(catalog_, *child);
    if (endWithEntry(*child)) testcase::dropEarlyReleases(*child, program_);
  }
  return children;
}

} // namespace mosaic::search
