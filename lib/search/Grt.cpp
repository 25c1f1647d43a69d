// GRT (Grt.h; seed 002, ALGORITHMS.md §4): Randoop's feedback-directed
// loop. Each step chooses a callable (bloodhound), takes the objects its
// call needs from sequences that ran normally (orienteering, elephant
// brain; impurity mutates them first), or builds them from their producers
// (detective), appends the call, and runs the new sequence: one that runs
// normally joins the pool, a failing one is left to the failure recorder,
// a redundant one (seen before) is not run at all. The archive keeps what
// covers goals, as with every algorithm.
#include "Algorithms.h"
#include "mosaic/search/Grt.h"

#include "mosaic/search/Bloodhound.h"
#include "mosaic/search/Observers.h"
#include "mosaic/testcase/ConstantPool.h"
#include "mosaic/testcase/Lifetime.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string_view>
#include <unordered_set>

namespace mosaic::search {

namespace {

using testcase::Op;
using testcase::Ref;
using testcase::Statement;
using testcase::TestCase;

constexpr std::uint32_t kNoProducer = 0xffffffffu;

/// A sequence that ran normally: a building block.
struct Entry {
  TestCase test;
  double weight = 1; ///< orienteering's (1 without it)
};

/// A value a pooled sequence makes: statement `ref` of `entry`, made by
/// callable `producer` (kNoProducer: not made by a call). A sequence lives
/// as long as a value of it is pooled.
struct Provider {
  std::shared_ptr<const Entry> entry;
  Ref ref;
  std::uint32_t producer;
};

/// Bound on the values pooled per type (ours: Randoop keeps them all; a
/// bound keeps a choice among them cheap on a long run). A full list
/// replaces a random member.
constexpr size_t kMaxProvidersPerType = 2000;

class Grt final : public Algorithm {
public:
  Grt(Evaluator &e, Variation &v, Rng &rng, const SearchOptions &o)
      : e_(e), rng_(rng), o_(o.grt), catalog_(v.catalog()), program_(catalog_.program()),
        factory_(catalog_, pool_, rng_, factoryOptions(v.factory().options(), o.grt)) {
    pool_.addStatic(program_);
    if (o_.constantMining) {
      weighLiteralsByTfIdf(pool_, program_);
      // Ours beside the paper's: the operands the unit compared inputs
      // with at run time join the mined literals (mosaic's dynamic pool).
      e_.addObserver(feeder_);
    }
    for (model::CallableId c : v.targets())
      if (catalog_.callable(c)) callables_.push_back(c);
    indexMutators();
  }

  ~Grt() override { e_.removeObserver(feeder_); }

  void run() override {
    if (callables_.empty()) return;
    std::uint64_t misses = 0;
    while (!e_.done()) {
      // Nothing new to build in a long while (every call needs an object
      // no sequence makes, or every extension was run before): the pool
      // is exhausted, and the search ends rather than spin.
      if (++misses > kMaxMisses) return;
      const model::CallableId target = chooseTarget();
      TestCase t;
      if (!extend(t, target)) continue;
      const std::vector<std::uint8_t> bytes = testcase::encode(t);
      // Redundant: run before (by a 64-bit hash of its encoding).
      if (!seen_.insert(std::hash<std::string_view>{}(std::string_view(reinterpret_cast<const char *>(bytes.data()),
                                                                     bytes.size())))
               .second)
        continue;
      misses = 0;
      auto run = e_.evaluate(t);
      if (!run) {
        if (e_.gaveUp()) return;
        continue;
      }
      if (run->failed() || run->threw) continue; // failing: never a building block
      bloodhound_.succeeded(target);
      addToPool(std::move(t), *run);
    }
  }

private:
  /// Steps in a row that built nothing new before the loop gives up (ours:
  /// far more than a pool that can still grow ever needs).
  static constexpr std::uint64_t kMaxMisses = 100000;

  static testcase::FactoryOptions factoryOptions(testcase::FactoryOptions f, const GrtOptions &o) {
    // Objects come from the pool: a fitting variable in the sequence is
    // always taken (the pool put it there for this call).
    f.objectReuse = 1.0;
    if (!o.constantMining) {
      // Plain feedback-directed random testing: no literal of the code.
      f.constantProbability = 0;
      f.projectSample = 0;
      f.tokenSentence = 0;
      f.dynamicShare = 0;
    } else {
      f.constantProbability = o.minedShare;
    }
    f.targetWeights.clear();
    return f;
  }

  // Impurity's mutating calls: per record, its non-const methods and the
  // functions that take a non-const pointer to it (with which parameter).
  void indexMutators() {
    for (const model::Callable &c : program_.callables) {
      // A release is no change to build on (dropEarlyReleases would take it out again).
      if (!catalog_.callable(c.id) || c.kind == model::CallableKind::Constructor ||
          testcase::releasesItsArgument(program_, c))
        continue;
      if (c.parent && c.kind == model::CallableKind::Method) {
        if (!c.isConst) mutators_[*c.parent].push_back({c.id, SIZE_MAX});
        continue;
      }
      if (c.parent) continue;
      for (size_t i = 0; i < c.params.size(); ++i)
        if (auto r = pointedRecord(c.params[i].type, /*writable=*/true)) {
          mutators_[*r].push_back({c.id, i});
          break;
        }
    }
  }

  // The record a pointer (or reference) of `type` reaches, when it may
  // write through it (`writable`) or in any case.
  std::optional<model::RecordId> pointedRecord(model::TypeId type, bool writable) const {
    const model::Type &t = program_.type(program_.type(type).value);
    if ((t.kind != model::TypeKind::Pointer && t.kind != model::TypeKind::Reference) || !t.pointee) return std::nullopt;
    if (writable && t.pointeeConst) return std::nullopt;
    const model::Type &p = program_.type(program_.type(*t.pointee).value);
    if (p.kind != model::TypeKind::Record || !p.recordId) return std::nullopt;
    return p.recordId;
  }

  // Whether a value of `type` is an object the API makes (taken from the
  // pool) rather than a value a test writes down: a record, or a pointer,
  // reference or smart pointer to one, or an untyped handle (`void *`).
  bool isObject(model::TypeId type) const {
    const model::Type &t = program_.type(program_.type(type).value);
    switch (t.kind) {
    case model::TypeKind::Record: return true;
    case model::TypeKind::Pointer:
    case model::TypeKind::Reference:
    case model::TypeKind::UniquePtr:
    case model::TypeKind::SharedPtr: {
      if (!t.pointee) return false;
      const model::Type &p = program_.type(program_.type(*t.pointee).value);
      return p.kind == model::TypeKind::Record || (p.kind == model::TypeKind::Void && t.kind == model::TypeKind::Pointer);
    }
    default: return false;
    }
  }

  // Bloodhound's choice (its updates on their period inside), or uniform.
  model::CallableId chooseTarget() {
    return o_.bloodhound ? bloodhound_.choose(callables_, rng_) : rng_.pick(callables_);
  }

  // The types a call of `c` needs as objects: its receiver's and its
  // object parameters'.
  std::vector<std::pair<model::TypeId, size_t>> objectNeeds(const model::Callable &c) const {
    std::vector<std::pair<model::TypeId, size_t>> needs; // type, parameter (SIZE_MAX: the receiver)
    if (c.parent && c.kind != model::CallableKind::Constructor && c.kind != model::CallableKind::StaticMethod)
      needs.push_back({program_.record(*c.parent).type, SIZE_MAX});
    for (size_t i = 0; i < c.params.size(); ++i)
      if (c.params[i].role != model::ParamRole::Out && isObject(c.params[i].type)) needs.push_back({c.params[i].type, i});
    return needs;
  }

  // A pooled value that fits `type`: by orienteering's weight among them
  // (uniformly without); with the elephant brain, first one of the makers
  // of such values (the callables that produced them) uniformly, so that a
  // rare maker's objects are not drowned by a common one's.
  std::optional<Provider> pickProvider(model::TypeId type) {
    std::vector<std::pair<model::TypeId, const std::vector<Provider> *>> lists; // the fitting types' values
    for (const auto &[var, how] : catalog_.fitting(type)) {
      (void)how;
      const auto it = providers_.find(var);
      if (it != providers_.end() && !it->second.empty() && catalog_.passable(var, type)) lists.push_back({var, &it->second});
    }
    if (lists.empty()) return std::nullopt;
    std::optional<std::uint32_t> maker;
    if (o_.elephantBrain) {
      // The distinct makers, ascending, from each type's counts (sorting
      // every fitting value's maker was a quarter of GRT's own time on
      // xmlparse.c, with thousands pooled).
      std::vector<std::uint32_t> makers;
      for (const auto &[var, list] : lists)
        for (const auto &[m, count] : makers_[var]) makers.push_back(m);
      std::sort(makers.begin(), makers.end());
      makers.erase(std::unique(makers.begin(), makers.end()), makers.end());
      maker = rng_.pick(makers);
    }
    std::vector<const Provider *> fit;
    for (const auto &[var, list] : lists)
      for (const Provider &p : *list)
        if (!maker || p.producer == *maker) fit.push_back(&p);
    if (!o_.orienteering) return *rng_.pick(fit);
    const auto k = rng_.weighted(fit.size(), [&](size_t k) { return fit[k]->entry->weight; });
    return *fit[k.value_or(fit.size() - 1)];
  }

  // Appends pooled sequence `e` to `t` (once): where its statements start.
  Ref include(TestCase &t, const Entry *e, std::map<const Entry *, Ref> &included) {
    if (auto it = included.find(e); it != included.end()) return it->second;
    const Ref offset = static_cast<Ref>(t.statements.size());
    for (Statement s : e->test.statements) {
      for (Ref &r : s.refs)
        if (r != testcase::kNoRef) r += offset;
      t.statements.push_back(std::move(s));
    }
    included[e] = offset;
    return offset;
  }

  // Impurity: the inputs the pooled sequences hand on are fuzzed (numbers
  // + N(0, σ²), strings edited), each with probability 1/n over the n
  // such inputs, so that one changes on average.
  void fuzzInputs(TestCase &t, size_t from, size_t to) {
    std::vector<size_t> inputs;
    for (size_t i = from; i < to; ++i) {
      const Statement &s = t.statements[i];
      const model::Type &type = program_.type(program_.type(s.type).value);
      const bool number = s.op == Op::Primitive && (type.kind == model::TypeKind::Integer ||
                                                    type.kind == model::TypeKind::Char ||
                                                    type.kind == model::TypeKind::Floating);
      if (number || s.op == Op::CString || s.op == Op::StdString || s.op == Op::File) inputs.push_back(i);
    }
    for (size_t i : inputs) {
      if (!rng_.chance(1.0 / static_cast<double>(inputs.size()))) continue;
      Statement &s = t.statements[i];
      const model::Type &type = program_.type(program_.type(s.type).value);
      if (s.op == Op::Primitive)
        s.bits = fuzzNumber(s.bits, type.kind == model::TypeKind::Char ? 8 : type.bits,
                            type.kind == model::TypeKind::Char || type.isSigned,
                            type.kind == model::TypeKind::Floating, o_.fuzzStddev, rng_);
      else
        s.bytes = fuzzString(s.bytes, rng_);
    }
  }

  // Impurity: a call that may change object `ref` (record `record`) before
  // its reuse: one of its non-const methods, or a function that writes
  // through a pointer to it.
  void mutate(TestCase &t, Ref ref, model::RecordId record) {
    const auto it = mutators_.find(record);
    if (it == mutators_.end() || it->second.empty()) return;
    const auto [callable, param] = rng_.pick(it->second);
    const size_t before = t.statements.size();
    const bool added = param == SIZE_MAX ? factory_.appendCallOn(t, callable, ref)
                                         : factory_.appendCallWith(t, callable, param, ref);
    if (added && builtOnDemand(t, before)) t.statements.resize(before);
  }

  // Without the detective no object is built on demand: whether the
  // factory added a call before the last statement, from `from` on.
  bool builtOnDemand(const TestCase &t, size_t from) const {
    if (o_.detective) return false;
    for (size_t i = from; i + 1 < t.statements.size(); ++i) {
      const Op op = t.statements[i].op;
      if (op == Op::Call || op == Op::Construct || op == Op::MethodCall) return true;
    }
    return false;
  }

  // Extends a new sequence into `t` with a call of `target`; false when it
  // cannot (no pooled object fits and the detective is off, or the
  // sequence grows past the length limit).
  bool extend(TestCase &t, model::CallableId target) {
    const model::Callable &c = program_.callable(target);
    std::map<const Entry *, Ref> included;
    for (const auto &[type, param] : objectNeeds(c)) {
      (void)param;
      const auto provider = pickProvider(type);
      if (!provider) {
        if (o_.detective) continue; // the factory builds it from its producers
        // A pointer may be null (Randoop's --null-ratio); nothing else fits.
        if (program_.type(program_.type(type).value).kind == model::TypeKind::Pointer && rng_.chance(o_.nullRatio))
          continue;
        return false;
      }
      const size_t before = t.statements.size();
      const Ref ref = include(t, provider->entry.get(), included) + provider->ref;
      if (o_.impurity) {
        fuzzInputs(t, before, t.statements.size());
        if (auto record = recordOf(t, ref); record && rng_.chance(o_.mutateBeforeReuse)) mutate(t, ref, *record);
      }
    }
    const size_t before = t.statements.size();
    if (!factory_.appendCall(t, target)) return false;
    if (builtOnDemand(t, before)) return false;
    if (o_.constantMining) useLocalConstants(t, before, target);
    // What the pooled sequences released is not used again, nor written
    // through a const view (as TestFactory::randomTest leaves its tests).
    testcase::dropEarlyReleases(t, program_);
    catalog_.dropWritesThroughConst(t);
    return !t.statements.empty() && t.statements.size() <= factory_.options().maxLength;
  }

  // Constant mining, local: each number or string the new call was given
  // fresh is, with probability p_const, one of the target's own literals.
  void useLocalConstants(TestCase &t, size_t from, model::CallableId target) {
    const model::Constants &k = program_.callable(target).constants;
    for (size_t i = from; i + 1 < t.statements.size(); ++i) {
      Statement &s = t.statements[i];
      if (!rng_.chance(o_.localConstantProbability)) continue;
      const model::Type &type = program_.type(program_.type(s.type).value);
      if (s.op == Op::Primitive && type.kind == model::TypeKind::Integer && !k.integers.empty())
        s.bits = static_cast<std::uint64_t>(rng_.pick(k.integers));
      else if (s.op == Op::Primitive && type.kind == model::TypeKind::Char && !k.chars.empty())
        s.bits = static_cast<std::uint64_t>(rng_.pick(k.chars));
      else if (s.op == Op::Primitive && type.kind == model::TypeKind::Floating && !k.floats.empty())
        s.bits = testcase::bitsOf(rng_.pick(k.floats));
      else if ((s.op == Op::CString || s.op == Op::StdString || s.op == Op::File) && !k.strings.empty())
        s.bytes = rng_.pick(k.strings);
    }
  }

  std::optional<model::RecordId> recordOf(const TestCase &t, Ref ref) const {
    const auto type = testcase::variableType(program_, t, ref);
    if (!type) return std::nullopt;
    const model::Type &v = program_.type(program_.type(*type).value);
    if (v.kind == model::TypeKind::Record && v.recordId) return v.recordId;
    return pointedRecord(*type, false);
  }

  // A sequence that ran normally: each object it makes becomes a pooled
  // value (a sequence that makes none builds nothing and is not kept).
  void addToPool(TestCase t, const Execution &run) {
    const double weight = o_.orienteering ? orienteeringWeight(run, t.statements.size()) : 1.0;
    auto entry = std::make_shared<Entry>(Entry{std::move(t), weight});
    const TestCase &test = entry->test;
    // Randoop pools no null value: a call that returned null made nothing
    // (as observed, when the executor observes results).
    std::vector<bool> null(test.statements.size(), false);
    for (const exec::Observation &o : run.observations)
      if (o.target == MOSAIC_OBS_RESULT && o.field < 0 && o.kind == MOSAIC_OBS_NULL && o.integer == 1 &&
          o.statement < null.size())
        null[o.statement] = true;
    for (size_t i = 0; i < test.statements.size(); ++i) {
      const Statement &s = test.statements[i];
      if (s.op == Op::Null || null[i]) continue;
      const auto type = testcase::variableType(program_, test, i);
      if (!type || !isObject(*type)) continue;
      const bool made = testcase::isCall(s.op);
      Provider p{entry, static_cast<Ref>(i), made ? s.callable : kNoProducer};
      auto &list = providers_[*type];
      auto &makers = makers_[*type];
      ++makers[p.producer];
      if (list.size() < kMaxProvidersPerType) {
        list.push_back(std::move(p));
        continue;
      }
      Provider &replaced = list[rng_.index(list.size())];
      if (--makers[replaced.producer] == 0) makers.erase(replaced.producer);
      replaced = std::move(p);
    }
  }

  Evaluator &e_;
  Rng &rng_;
  GrtOptions o_;
  const testcase::Catalog &catalog_;
  const model::Program &program_;
  testcase::ConstantPool pool_;
  DynamicPoolFeeder feeder_{pool_};
  testcase::TestFactory factory_;
  std::vector<model::CallableId> callables_;
  std::map<model::TypeId, std::vector<Provider>> providers_;
  /// Per type: how many of its pooled values each maker made (the
  /// elephant brain's choice of a maker).
  std::map<model::TypeId, std::map<std::uint32_t, size_t>> makers_;
  std::unordered_set<std::size_t> seen_;
  std::map<model::RecordId, std::vector<std::pair<model::CallableId, size_t>>> mutators_;
  Bloodhound bloodhound_{e_, program_, o_};
};

} // namespace

std::unique_ptr<Algorithm> makeGrt(Evaluator &evaluator, Variation &variation, Rng &rng, const SearchOptions &options) {
  return std::make_unique<Grt>(evaluator, variation, rng, options);
}

} // namespace mosaic::search
