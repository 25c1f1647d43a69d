// Variation operators on test cases (ALGORITHMS.md §1.6): the random test
// factory, mutation (delete with dependants, change, insert) and single-point
// relative crossover that keeps every reference valid.
#pragma once

#include "mosaic/search/Execution.h"
#include "mosaic/testcase/Catalog.h"
#include "mosaic/testcase/TestCase.h"
#include "mosaic/testcase/TestFactory.h"

#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mosaic::search {

/// EvoSuite's defaults (Properties.java) unless noted.
struct VariationOptions {
  double deleteProbability = 1.0 / 3;  ///< p delete
  double changeProbability = 1.0 / 3;  ///< p change
  double insertProbability = 1.0 / 3;  ///< p insert
  double insertionAlpha = 0.5;         ///< statement insertion: repeat while rand <= α^count
  double insertUnit = 0.5;             ///< insert: a call on the unit (else a call on an existing variable)
  double randomPerturbation = 0.2;     ///< change: a fresh random value instead of a delta
  double maxDelta = 20;                ///< change: integer deltas are ⌊N(0,1)·20⌋
  double newArgument = 0.5;            ///< change a call: a new value for an argument (else reuse a variable); ours
  double textEdit = 0.5;               ///< change a string: a structure-aware edit (TextEdits.h), else Pynguin's delta; ours
  size_t maxTextLength = 1024;         ///< strings and buffers grow no longer; ours
  size_t maxLength = 40;               ///< chop tests longer than this
};

class Variation {
public:
  Variation(const testcase::Catalog &catalog, testcase::TestFactory &factory, Rng &rng,
            std::vector<model::CallableId> targets, VariationOptions options = {});

  /// A random test (RandomLengthTestFactory), ending with an entry call
  /// when guided (guideTo).
  testcase::TestCase randomTest();

  /// Crash reproduction's guidance (Botsing's guided initialisation and
  /// guided mutation, seed 003): from now on every test this variation
  /// makes or changes ends with a call of one of `entries`, the callables
  /// of the trace's innermost frame a test can call (a target or an
  /// inherited method). What comes before sets up the state the entry call
  /// runs in. A crash under a function only reached through a function
  /// pointer (muParserInt.cpp's operators, which ParserBase::Eval calls)
  /// gives its goal no approach level to follow; without an entry call
  /// the search would have to stumble on the call that reaches it. Empty:
  /// unguided, as generate is.
  void guideTo(std::vector<model::CallableId> entries);

  /// Makes `test` end with an entry call: its last one moved to the end
  /// when no later statement uses it, else a new one appended (on an
  /// existing variable of the method's class, or on one a target call
  /// makes). Returns whether the test changed; false when unguided.
  bool endWithEntry(testcase::TestCase &test);

  /// Mutates `test` in place (TestChromosome.mutate); `last` is its last run,
  /// whose first exception bounds the statements worth changing. Returns
  /// whether the test changed.
  bool mutate(testcase::TestCase &test, const Execution *last);

  /// Single-point relative crossover: the heads of both parents at the same
  /// relative position, each followed by the other's tail, with the tail's
  /// references rebound to variables of the same type in the new head
  /// (statements that cannot be rebound are dropped).
  std::pair<testcase::TestCase, testcase::TestCase> crossover(const testcase::TestCase &a, const testcase::TestCase &b);

  /// Whether the test calls one of the targets (else it cannot cover them).
  bool callsTarget(const testcase::TestCase &test) const;

  // The three mutation steps, exposed for tests.
  bool deleteStep(testcase::TestCase &test, size_t l);
  bool changeStep(testcase::TestCase &test, size_t l);
  bool insertStep(testcase::TestCase &test);
  /// Changes statement `index`; false when it has nothing to change.
  bool changeStatement(testcase::TestCase &test, size_t index);
  /// Replaces argument `arg` (index into refs) of the call at `index` with a
  /// newly built value placed before it.
  /// A new value for argument `arg` of call `index`, built before it; of
  /// type `extra` for an extra argument of a variadic call.
  bool newArgument(testcase::TestCase &test, size_t index, size_t arg,
                   std::optional<model::TypeId> extra = std::nullopt);
  /// One more extra argument for variadic call `index`, or one fewer.
  bool changeVarargs(testcase::TestCase &test, size_t index);

  const std::vector<model::CallableId> &targets() const { return targets_; }
  const testcase::Catalog &catalog() const { return catalog_; }
  testcase::TestFactory &factory() { return factory_; }

private:
  bool changePrimitive(testcase::Statement &s);
  bool changeBytes(testcase::TestCase &test, size_t index);
  bool changeCall(testcase::TestCase &test, size_t index);
  bool retarget(testcase::TestCase &test, size_t index);
  std::string mutateString(const std::string &s, bool bytes);
  void resizePaired(testcase::TestCase &test, size_t buffer, size_t size);
  bool isPairedLength(const testcase::TestCase &test, size_t index) const;
  /// The (buffer, length) pairs of fields an Aggregate statement lists, as
  /// indices into its refs (model::Field::pairedWith).
  std::vector<std::pair<size_t, size_t>> aggregatePairs(const testcase::Statement &aggregate) const;
  const model::Param *paramOf(const testcase::TestCase &test, size_t call, size_t arg) const;
  testcase::TestCase splice(const testcase::TestCase &head, size_t headLen, const testcase::TestCase &tail,
                            size_t tailFrom);

  const testcase::Catalog &catalog_;
  const model::Program &program_;
  testcase::TestFactory &factory_;
  Rng &rng_;
  std::vector<model::CallableId> targets_;
  std::vector<bool> isTarget_;
  std::vector<model::CallableId> entries_; ///< guideTo's
  std::vector<bool> isEntry_;
  /// The methods the targets' classes inherit from bases defined elsewhere
  /// (testcase/Inherited.h): called on the unit's objects, as targets are.
  std::vector<model::CallableId> inherited_;
  /// The target methods (and operators) a variable of a type can receive,
  /// in targets_' order, then the inherited methods: asked of the catalog
  /// once per type (an insertion asks it for every variable of the test,
  /// over every target: pugixml.cpp has hundreds of methods).
  const std::vector<model::CallableId> &methodsOn(model::TypeId type);
  std::unordered_map<model::TypeId, std::vector<model::CallableId>> methodsOn_;
  /// C's methods from outside the unit: the functions of the project that
  /// are no targets (another unit's, a header declares them) whose first
  /// parameter that points to a record writably takes a variable of
  /// `type`, with that parameter's index: what sets an object up before the
  /// unit's functions use it (libyaml's yaml_parser_set_input_string(
  /// yaml_parser_t *, ...), in api.c, before parser.c's yaml_parser_parse).
  /// Asked once per type. Only records some target takes by non-const
  /// pointer too: what the unit works on.
  const std::vector<std::pair<model::CallableId, size_t>> &functionsOn(model::TypeId type);
  /// The record a non-const pointer of `type` points to.
  std::optional<model::RecordId> writablyPointed(model::TypeId type) const;
  std::unordered_map<model::TypeId, std::vector<std::pair<model::CallableId, size_t>>> functionsOn_;
  /// Per callable function: its first parameter that points to a record
  /// it may write (functionsOn's candidates), SIZE_MAX for none.
  std::vector<size_t> objectParam_;
  VariationOptions options_;
};

} // namespace mosaic::search
