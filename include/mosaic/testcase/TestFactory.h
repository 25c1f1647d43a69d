// Random, type-correct test cases over a program model: the random-testing
// baseline and the source of the search's initial populations.
#pragma once

#include "mosaic/testcase/Catalog.h"
#include "mosaic/testcase/ConstantPool.h"
#include "mosaic/testcase/TestCase.h"
#include "mosaic/support/Random.h"

#include <functional>
#include <optional>
#include <utility>

namespace mosaic::testcase {

/// Bytes of the buffer a test gives a function that writes bytes through a
/// pointer without a length (ours: room for what such functions write, a
/// number, a UTF-8 sequence, a name, a formatted line).
constexpr size_t kUnpairedOutputBytes = 256;
/// The most scalars a test lists for a parameter declared as an array of
/// more than one byte each (ours: SHA-2's `uint64_t state[8]` and
/// `uint32_t W[16]`-sized blocks; a longer bound keeps the usual pointer).
constexpr size_t kDeclaredArrayMax = 16;

/// Defaults from EvoSuite's Properties (ALGORITHMS.md §1.6) unless noted.
struct FactoryOptions {
  size_t maxLength = 40;            ///< statements in a random test (max test length)
  double nullProbability = 0.1;     ///< a pointer argument is null
  double constantProbability = 0.5; ///< a value comes from the constant pools (seeded-constant use)
  /// A random string or text buffer is one of the project's samples, when
  /// it has some (ConstantPool::sample); ours, half of the seeded share.
  double projectSample = 0.25;
  double dynamicShare = 0.5;        ///< of those, from the dynamic pool when it has values
  double objectReuse = 0.9;         ///< an object argument reuses an existing variable
  double primitiveReuse = 0.5;      ///< a primitive argument reuses an existing variable
  std::int64_t maxInt = 2048;       ///< scale of random integers: N(0,1) * maxInt
  size_t maxStringLength = 20;      ///< random strings are at most this long
  size_t maxBufferLength = 64;      ///< random (pointer, length) buffers; ours
  double textBuffer = 0.8;          ///< a buffer of plain char holds text (else any bytes); ours
  double tokenSentence = 1.0 / 3;   ///< a random string not from the pools is a sentence of tokens; ours
  size_t maxSentenceLength = 256;   ///< such sentences are cut here; ours
  int maxDepth = 4;                 ///< nesting of arguments built for arguments; ours
  /// Per callable (indexed by CallableId), how likely the search is to call
  /// it when it chooses a target, relative to the others: empty (or a
  /// callable past its end) is 1, uniform. Function-level defect prediction
  /// sets it (generate's --function-weights), so that the riskier functions'
  /// goals are worked on first and most.
  std::vector<double> targetWeights;
};

/// Chooses the callable a random test or an insertion calls next, from
/// what the search has seen so far (GRT's bloodhound, lent to the other
/// searches by --search-components bloodhound).
class TargetChooser {
public:
  virtual ~TargetChooser() = default;
  /// One of `ids` (not empty); `staticWeight(id)` is
  /// FactoryOptions::targetWeights' weight of `id` (1 without them).
  virtual model::CallableId choose(const std::vector<model::CallableId> &ids,
                                   const std::function<double(model::CallableId)> &staticWeight, Rng &rng) = 0;
};

class TestFactory {
public:
  TestFactory(const Catalog &catalog, const ConstantPool &pool, Rng &rng, FactoryOptions options = {});

  /// One of `ids` (not empty): the chooser's when one is set, else by
  /// FactoryOptions::targetWeights.
  model::CallableId pickTarget(const std::vector<model::CallableId> &ids);
  /// Lets `chooser` (null: none; it must outlive its use) choose targets.
  void setChooser(TargetChooser *chooser) { chooser_ = chooser; }

  /// A random test: a length uniform in [1, maxLength), filled with calls to
  /// randomly chosen `targets` (callable ones) and what their arguments need.
  TestCase randomTest(const std::vector<model::CallableId> &targets);

  /// Appends a call to `callable`, building or reusing its arguments (and its
  /// receiver). False, with `test` unchanged, when it cannot be built.
  bool appendCall(TestCase &test, model::CallableId callable);

  /// Appends a call to method `callable` on the existing variable
  /// `receiver` (which must fit its class). False, with `test` unchanged,
  /// when the arguments cannot be built.
  bool appendCallOn(TestCase &test, model::CallableId callable, Ref receiver);

  /// Appends a call to function `callable` with the existing variable
  /// `ref` as its parameter `param` (which it must fit), the other
  /// arguments built or reused. False, with `test` unchanged, when they
  /// cannot be built or `callable` is no free function.
  bool appendCallWith(TestCase &test, model::CallableId callable, size_t param, Ref ref);

  /// Appends what a value of `type` needs (reusing variables or not) and
  /// returns the variable holding it; `param` gives its roles when it is one,
  /// of callable `of` when known (the kind of handle it takes).
  std::optional<Ref> appendValue(TestCase &test, model::TypeId type, const model::Param *param,
                                 const model::Callable *of = nullptr);

  /// A fresh random value for a scalar type (its bits, as Primitive holds
  /// them), a random string and random buffer bytes; pools included.
  std::uint64_t randomBits(model::TypeId type) { return randomScalarBits(program_.type(program_.type(type).value)); }
  std::string randomText() { return randomString(options_.maxStringLength); }
  /// Bytes for a buffer of `type` (a pointer): mostly text when it points
  /// to plain `char`, which is text more often than not.
  std::string randomBuffer(model::TypeId type) { return randomBytes(isText(type)); }
  /// Whether a buffer of `type` holds text first (its pointee is plain char).
  bool isText(model::TypeId type) const;

  const FactoryOptions &options() const { return options_; }
  const ConstantPool &pool() const { return pool_; }

private:
  struct Need {
    model::TypeId type;                     ///< the parameter's type as declared
    const model::Param *param = nullptr;    ///< its roles, when it is a parameter
    bool allowNull = true;
    bool exact = false; ///< reuse only variables of the type itself (or derived): for address-of
    bool writable = false; ///< no const view (Catalog::constView): the receiver of a non-const method
    const model::Callable *of = nullptr; ///< the callable whose parameter `param` is
  };
  std::optional<Ref> value(TestCase &t, const Need &need, int depth);
  std::optional<Ref> reuse(const TestCase &t, model::TypeId type, double probability, bool exact,
                           bool writable = false, const model::Param *param = nullptr);
  std::optional<Ref> make(TestCase &t, const Need &need, int depth);
  std::optional<Ref> makePointer(TestCase &t, const Need &need, int depth);
  std::optional<Ref> makeRecord(TestCase &t, model::TypeId type, int depth);
  /// One argument a call is given rather than built: `ref` at `param`.
  struct GivenArg {
    size_t param;
    Ref ref;
  };
  /// A call of `c` with arguments built or reused; `receiver` for a method,
  /// `given` as one of a function's arguments when given.
  std::optional<Ref> call(TestCase &t, model::CallableId c, int depth, std::optional<Ref> receiver = std::nullopt,
                          std::optional<GivenArg> given = std::nullopt);
  /// A buffer for a (pointer, length) pair: bytes (zeroed when `written`:
  /// the callee fills them) or a small array of values; with its length.
  /// `count`: that many elements (an array that shares a length already made).
  std::optional<std::pair<Ref, size_t>> pairedBuffer(TestCase &t, model::TypeId pointer, bool written, int depth,
                                                     std::optional<size_t> count = std::nullopt);
  /// `T x = {}; init(..., &x, ...)` with one of Catalog::initialisers(record): x.
  std::optional<Ref> initialised(TestCase &t, const model::Record &record, int depth);
  bool appendVarargs(TestCase &t, Statement &call, int depth);
  Ref push(TestCase &t, Statement s);

  std::uint64_t randomScalarBits(const model::Type &type);
  std::string randomString(size_t maxLength);
  std::string randomBytes(bool text);

  const Catalog &catalog_;
  const model::Program &program_;
  const ConstantPool &pool_;
  Rng &rng_;
  FactoryOptions options_;
  TargetChooser *chooser_ = nullptr;
};

/// Makes every call of a format function (Callable::formatParam) in `test`
/// one the harness performs: a format string whose `%`s the call's extras
/// do not fit (abi/Format.h) loses its `%`s; a call whose format is neither
/// a string the test makes nor null is dropped, with what depends on it (its
/// text is unknown until run time). Returns whether `test` changed.
bool fitFormats(const Catalog &catalog, TestCase &test);

/// The parameter of a variadic function without a format that says how
/// many extras follow: its last fixed integer parameter named count, n,
/// num, nargs, argc or cnt, or ending in count (`int sum(int count, ...)`).
std::optional<size_t> varargCountParam(const model::Program &program, const model::Callable &callable);

/// Makes every call of such a function (varargCountParam) pass as its count
/// the number of extras it passes: a count that is a number of the test's
/// is set to it; a call whose count is anything else is dropped, with what
/// depends on it. `sum(701)` reads 701 ints that are not there: it passed
/// in the harness and crashed in a suite's own build. Returns whether
/// `test` changed.
bool fitCounts(const Catalog &catalog, TestCase &test);

} // namespace mosaic::testcase
