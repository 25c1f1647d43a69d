// The flag table (Flags.h).
#include "mosaic/driver/Flags.h"

#include "mosaic/abi/Trace.h"

#include <fmt/format.h>

#include <charconv>
#include <limits>

namespace mosaic::driver {

namespace {

using FlagError = std::optional<std::string>;

// Where a flag's value lives, per subcommand.
AnalyzeOptions &unitOf(CommandLine &c, Command k) {
  return k == kAnalyze ? c.analyze
         : k == kRun   ? c.run.unit
         : k == kMutate ? c.mutate.unit
         : k == kReproduce ? c.reproduce.search.unit
         : k == kPredict   ? c.predict.unit
         : k == kProject   ? c.project.unit
                           : c.generate.unit;
}
RunOptions &runOf(CommandLine &c, Command k) {
  return k == kRun ? c.run : k == kReproduce ? c.reproduce.search : c.generate;
}

std::string showNumber(double v) { return fmt::format("{:.4g}", v); }

Flag text(Flag f, std::function<std::string *(CommandLine &, Command)> get) {
  f.set = [get](CommandLine &c, Command k, const std::string &v) -> FlagError {
    *get(c, k) = v;
    return std::nullopt;
  };
  f.show = [get](const CommandLine &c, Command k) {
    CommandLine copy = c;
    return *get(copy, k);
  };
  return f;
}

template <class T>
Flag whole(Flag f, std::function<T *(CommandLine &, Command)> get, T low, T high) {
  f.set = [get, low, high, name = f.longName()](CommandLine &c, Command k, const std::string &v) -> FlagError {
    T x{};
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (ec != std::errc() || end != v.data() + v.size())
      return fmt::format("{} '{}' is not a whole number", name, v);
    if (x < low || x > high) return fmt::format("{} {} is out of range: {} to {}", name, v, low, high);
    *get(c, k) = x;
    return std::nullopt;
  };
  f.show = [get](const CommandLine &c, Command k) {
    CommandLine copy = c;
    return std::to_string(*get(copy, k));
  };
  return f;
}

Flag real(Flag f, std::function<double *(CommandLine &, Command)> get, double low, double high) {
  f.set = [get, low, high, name = f.longName()](CommandLine &c, Command k, const std::string &v) -> FlagError {
    size_t used = 0;
    double x = 0;
    try {
      x = std::stod(v, &used);
    } catch (...) {
      used = 0;
    }
    if (used == 0 || used != v.size()) return fmt::format("{} '{}' is not a number", name, v);
    if (!(x >= low && x <= high))
      return fmt::format("{} {} is out of range: {} to {}", name, v, showNumber(low), showNumber(high));
    *get(c, k) = x;
    return std::nullopt;
  };
  f.show = [get](const CommandLine &c, Command k) {
    CommandLine copy = c;
    return showNumber(*get(copy, k));
  };
  return f;
}

Flag duration(Flag f, std::function<double *(CommandLine &, Command)> get) {
  f.set = [get, name = f.longName()](CommandLine &c, Command k, const std::string &v) -> FlagError {
    const auto seconds = parseDuration(v);
    if (!seconds) return fmt::format("{} '{}' is not a duration (30s, 2m, 1h)", name, v);
    *get(c, k) = *seconds;
    return std::nullopt;
  };
  f.show = [get](const CommandLine &c, Command k) {
    CommandLine copy = c;
    return showNumber(*get(copy, k)) + "s";
  };
  return f;
}

Flag list(Flag f, std::function<std::vector<std::string> *(CommandLine &, Command)> get) {
  f.set = [get](CommandLine &c, Command k, const std::string &v) -> FlagError {
    std::vector<std::string> items;
    size_t start = 0;
    while (start <= v.size()) {
      const size_t comma = v.find(',', start);
      const std::string item = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (!item.empty()) items.push_back(item);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    *get(c, k) = std::move(items);
    return std::nullopt;
  };
  f.show = [get](const CommandLine &c, Command k) {
    CommandLine copy = c;
    std::string out;
    for (const std::string &item : *get(copy, k)) out += (out.empty() ? "" : ",") + item;
    return out;
  };
  return f;
}

// A switch that stores `on` into a bool.
Flag toggle(Flag f, std::function<bool *(CommandLine &, Command)> get, bool on) {
  f.shape = FlagShape::Switch;
  f.set = [get, on](CommandLine &c, Command k, const std::string &) -> FlagError {
    *get(c, k) = on;
    return std::nullopt;
  };
  f.show = [](const CommandLine &, Command) { return std::string(); };
  return f;
}

constexpr unsigned kAll = kAnalyze | kRun | kGenerate;
constexpr unsigned kSearching = kRun | kGenerate;
// What `reproduce` shares with `generate`: the search and its sandbox, not
// the unit (the trace names it) nor what a regression suite needs.
constexpr unsigned kCrash = kReproduce;
constexpr std::uint32_t kMaxU32 = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint64_t kMaxU64 = std::numeric_limits<std::uint64_t>::max();
const std::string kSearch = "Search parameters";

GenerateOptions &gen(CommandLine &c, Command k) { return k == kReproduce ? c.reproduce.search : c.generate; }

// The unit and what of it is tested.
void unitFlags(std::vector<Flag> &t) {
  t.push_back(text({.names = "-p,--build-dir", .value = "DIR", .commands = kAll | kMutate | kCrash | kPredict,
                    .help = "Folder with compile_commands.json (or the JSON file itself)", .required = true},
                   [](CommandLine &c, Command k) { return &unitOf(c, k).buildDir; }));
  t.push_back(text({.names = "unit", .value = "UNIT", .shape = FlagShape::Positional, .commands = kAll | kMutate,
                    .help = "Source file of the unit", .required = true},
                   [](CommandLine &c, Command k) { return &unitOf(c, k).unit; }));
  t.push_back(text({.names = "-o,--output", .value = "DIR", .commands = kGenerate | kCrash,
                    .help = "Folder to write the suite to", .required = true},
                   [](CommandLine &c, Command k) { return &gen(c, k).outDir; }));
  t.push_back(text({.names = "--function", .value = "NAME", .commands = kAll,
                    .help = "Only this function (name or qualified name, every overload)", .excludes = "--class"},
                   [](CommandLine &c, Command k) { return &unitOf(c, k).function; }));
  t.push_back(text({.names = "--class", .value = "NAME", .commands = kAll,
                    .help = "Only this class (its constructors and methods)"},
                   [](CommandLine &c, Command k) { return &unitOf(c, k).className; }));
  t.push_back(text({.names = "--json", .value = "FILE", .commands = kAnalyze,
                    .help = "Write the full model as JSON to this file ('-' for stdout)"},
                   [](CommandLine &c, Command k) { return &unitOf(c, k).jsonOut; }));
  t.push_back(toggle({.names = "--no-project-samples", .commands = kAll,
                      .help = "Do not seed strings with the literals of the project's files that call the unit (its "
                              "tests)"},
                     [](CommandLine &c, Command k) { return &unitOf(c, k).projectSamples; }, false));
}

// The search: its strategy, its budget, its seed and outputs.
void searchFlags(std::vector<Flag> &t) {
  // Accepted and ignored: random testing is the only strategy of `run`.
  t.push_back({.names = "--random", .shape = FlagShape::Switch, .commands = kRun,
               .help = "Random testing (the only strategy of `run`; `generate` searches)",
               .set = [](CommandLine &, Command, const std::string &) -> FlagError { return std::nullopt; },
               .show = [](const CommandLine &, Command) { return std::string(); }});
  t.push_back(text({.names = "--algorithm", .value = "NAME", .commands = kGenerate | kCrash,
                    .help = "The search: dynamosa, mosa, ws (whole suite), mio, random or grt (guided random testing)"},
                   [](CommandLine &c, Command k) { return &gen(c, k).algorithm; }));
  t.push_back(text({.names = "--grt-components", .value = "LIST", .commands = kGenerate | kCrash,
                    .help = "With --algorithm grt: the components on, all (the default), none (plain "
                            "feedback-directed random testing) or some of constant-mining, impurity, elephant-brain, "
                            "detective, orienteering, bloodhound"},
                   [](CommandLine &c, Command k) { return &gen(c, k).grtComponents; }));
  t.push_back(text({.names = "--search-components", .value = "LIST", .commands = kGenerate,
                    .help = "With a search other than grt: GRT components it uses too, none (the default) or "
                            "some of constant-mining (the unit's literals weighted by TF-IDF over the project's "
                            "files), bloodhound (the calls of random tests and insertions chosen by uncovered goals "
                            "and successes)"},
                   [](CommandLine &c, Command k) { return &gen(c, k).searchComponents; }));
  t.push_back(list({.names = "--criteria", .value = "LIST", .commands = kGenerate,
                    .help = "Coverage criteria whose goals the search works on: function, branch, direct-branch, line, wm (weak mutation), top-level, no-exception, exception, output; or all, or smart (seed 001's selection) (docs/CLI.md)"},
                   [](CommandLine &c, Command k) { return &gen(c, k).criteria; }));
  t.push_back(text({.names = "--secondary", .value = "NAME", .commands = kGenerate | kCrash,
                    .help = "Which of two equally fit tests is better: length (the shorter), or bbc (basic-block "
                            "coverage past a failure, then length)"},
                   [](CommandLine &c, Command k) { return &gen(c, k).secondary; }));
  t.push_back(whole<std::uint32_t>({.names = "--bbc-usage", .value = "PERCENT", .commands = kGenerate | kCrash,
                                    .help = "With --secondary bbc: how often of the ties it decides"},
                                   [](CommandLine &c, Command k) { return &gen(c, k).bbcUsage; }, 0, 100));
  t.push_back(duration({.names = "--budget", .value = "TIME", .commands = kSearching | kCrash,
                        .help = "Search time: 30s, 2m, 1h"},
                       [](CommandLine &c, Command k) { return &runOf(c, k).budgetSeconds; }));
  t.push_back(whole<std::uint64_t>({.names = "--max-executions", .value = "N", .commands = kSearching | kCrash,
                                    .help = "Stop after this many tests (0: no limit)"},
                                   [](CommandLine &c, Command k) { return &runOf(c, k).maxExecutions; }, 0, kMaxU64));
  t.push_back(whole<std::uint64_t>({.names = "--seed", .value = "N", .commands = kSearching | kCrash,
                                    .help = "Random seed: the same seed gives the same tests"},
                                   [](CommandLine &c, Command k) { return &runOf(c, k).seed; }, 0, kMaxU64));
  t.push_back(text({.names = "--json", .value = "FILE", .commands = kSearching,
                    .help = "Write the statistics as JSON to this file"},
                   [](CommandLine &c, Command k) { return &runOf(c, k).jsonOut; }));
  t.push_back(text({.names = "--work-dir", .value = "DIR", .commands = kSearching | kCrash,
                    .help = "Where harnesses are built and cached (default BUILD_DIR/mosaic)"},
                   [](CommandLine &c, Command k) { return &runOf(c, k).workDir; }));
}

// The sandbox each test runs in.
void sandboxFlags(std::vector<Flag> &t) {
  t.push_back(whole<std::uint32_t>({.names = "--timeout", .value = "MS", .commands = kSearching | kCrash,
                                    .help = "Per-test CPU-time limit in milliseconds (a test that sleeps ends at 10x, "
                                            "at least 1 s)"},
                                   [](CommandLine &c, Command k) { return &runOf(c, k).timeoutMs; }, 1, kMaxU32));
  // At least 16 MiB (ours): below, a C++ unit's test cannot map its C and
  // C++ runtimes, and every test would fail for want of memory alone.
  t.push_back(whole<std::uint32_t>({.names = "--memory", .value = "MIB", .commands = kSearching | kCrash,
                                    .help = "Per-test memory limit in MiB"},
                                   [](CommandLine &c, Command k) { return &runOf(c, k).memoryMb; }, 16, kMaxU32));
  t.push_back(toggle({.names = "--sanitize", .commands = kSearching,
                      .help = "Build the harness with AddressSanitizer and UBSan: memory errors are failures"},
                     [](CommandLine &c, Command k) { return &runOf(c, k).sanitize; }, true));
  t.push_back(toggle({.names = "--isolate", .commands = kSearching,
                      .help = "A fresh process for every test (by default a child runs test after test with the "
                              "unit's globals restored, when the unit allows it)"},
                     [](CommandLine &c, Command k) { return &runOf(c, k).isolate; }, true));
  t.push_back(toggle({.names = "--no-cpu-pin", .commands = kSearching | kCrash,
                      .help = "Let the tests run on any CPU (by default the search and the processes that run its "
                              "tests share one CPU no other process is bound to, as AFL does: 2-3x the tests per "
                              "second)"},
                     [](CommandLine &c, Command k) { return &runOf(c, k).pinCpu; }, false));
  t.push_back(toggle({.names = "--one-cpu", .commands = kSearching | kCrash,
                      .help = "Run the tests on the search's CPU even where a second one is free (by default a "
                              "batch of tests runs there while mosaic reads the batch before: 1.2-1.5x the tests "
                              "per second on two CPUs)"},
                     [](CommandLine &c, Command k) { return &runOf(c, k).spareCpu; }, false));
  t.push_back(toggle({.names = "--no-progress", .commands = kSearching | kCrash, .help = "No live progress line"},
                     [](CommandLine &c, Command k) { return &runOf(c, k).progress; }, false));
}

// After the search: writing and verifying the suite.
void suiteFlags(std::vector<Flag> &t) {
  t.push_back(toggle({.names = "--no-verify", .commands = kGenerate,
                      .help = "Write the suite without building and running it"},
                     [](CommandLine &c, Command k) { return &gen(c, k).verify; }, false));
  t.push_back(whole<int>({.names = "--verify-runs", .value = "N", .commands = kGenerate,
                          .help = "Runs of the built suite that must all pass"},
                         [](CommandLine &c, Command k) { return &gen(c, k).verifyRuns; }, 1, 1000));
  t.push_back(whole<std::size_t>({.names = "--tests-per-file", .value = "N", .commands = kGenerate,
                                  .help = "Tests per file before a test file is split"},
                                 [](CommandLine &c, Command k) { return &gen(c, k).testsPerFile; }, 1,
                                 std::numeric_limits<std::size_t>::max()));
  t.push_back(toggle({.names = "--no-coverage", .commands = kGenerate,
                      .help = "Verify the suite without measuring its coverage (no llvm-cov build and run)"},
                     [](CommandLine &c, Command k) { return &gen(c, k).coverage; }, false));
  t.push_back(toggle({.names = "--no-sanitizer-check", .commands = kGenerate,
                      .help = "Do not re-run the failures and the regression suite once with ASan + UBSan"},
                     [](CommandLine &c, Command k) { return &gen(c, k).sanitizerCheck; }, false));
  t.push_back(toggle({.names = "--filter-assertions", .commands = kGenerate,
                      .help = "Keep only the assertions that some mutant of the unit changes, and every call's "
                              "result (builds a harness with the mutants compiled in)"},
                     [](CommandLine &c, Command k) { return &gen(c, k).filterAssertions; }, true));
  t.push_back(toggle({.names = "--measure-criteria", .commands = kGenerate,
                      .help = "Report the suite's coverage of every goal of the eight criteria, whatever --criteria "
                              "chose (the written tests run once more)"},
                     [](CommandLine &c, Command k) { return &gen(c, k).measureCriteria; }, true));
  t.push_back(toggle({.names = "--concolic", .commands = kGenerate | kCrash,
                      .help = "Concolic execution beside the search: archived tests run in a symbolic harness, "
                              "branches toward uncovered goals flipped by Z3 (issue 22)"},
                     [](CommandLine &c, Command k) { return &gen(c, k).concolic; }, true));
  t.push_back(text({.names = "--concolic-selection", .value = "NAME", .commands = kGenerate | kCrash,
                    .help = "With --concolic: which branch the solver flips next, knn (TARDIS's learned "
                            "feasibility) or fifo (in the order found)"},
                   [](CommandLine &c, Command k) { return &gen(c, k).concolicSelection; }));
  t.push_back(text({.names = "--concolic-flips", .value = "WHICH", .commands = kGenerate | kCrash,
                    .help = "With --concolic: the branches offered to flip, approach (toward uncovered sides; past "
                            "an unsatisfiable one, what stood in its way, then toward the side or the covered sides "
                            "its branch depends on) or uncovered (only toward uncovered sides)"},
                   [](CommandLine &c, Command k) { return &gen(c, k).concolicFlips; }));
  t.push_back(whole<unsigned>({.names = "--concolic-timeout", .value = "MS", .commands = kGenerate | kCrash,
                               .help = "With --concolic: Z3's time per query in milliseconds; a "
                                       "path condition it cannot decide becomes a goal of the search (0: Z3 "
                                       "decides none, the ablation of SUSHI's goals alone)"},
                              [](CommandLine &c, Command k) { return &gen(c, k).concolicTimeoutMs; }, 0, 600000));
  t.push_back(toggle({.names = "--misuse-tests", .commands = kGenerate,
                      .help = "Also write the failures reached only by misusing the API (internal functions, "
                              "objects built by hand), in a suite of their own"},
                     [](CommandLine &c, Command k) { return &gen(c, k).misuseTests; }, true));
  t.push_back(text({.names = "--function-weights", .value = "FILE", .commands = kGenerate,
                    .help = "JSON of the unit's functions to defect-prediction scores: riskier functions are called "
                            "more often (up to twice)"},
                   [](CommandLine &c, Command k) { return &gen(c, k).functionWeights; }));
  t.push_back(toggle({.names = "--no-dynamic-pool", .commands = kGenerate,
                      .help = "Do not seed the search with comparison operands seen at run time"},
                     [](CommandLine &c, Command k) { return &gen(c, k).dynamicPool; }, false));
}

// Search parameters (EvoSuite's defaults unless the options say otherwise).
void searchParameters(std::vector<Flag> &t) {
  auto sized = [&](const char *names, const char *help, size_t search::SearchOptions::*field, size_t low) {
    t.push_back(whole<size_t>({.names = names, .value = "N", .commands = kGenerate, .help = help, .group = kSearch},
                              [field](CommandLine &c, Command) { return &(c.generate.search.*field); }, low,
                              std::numeric_limits<size_t>::max()));
  };
  auto rate = [&](const char *names, const char *help, double search::SearchOptions::*field, double low, double high) {
    t.push_back(real({.names = names, .value = "X", .commands = kGenerate, .help = help, .group = kSearch},
                     [field](CommandLine &c, Command) { return &(c.generate.search.*field); }, low, high));
  };
  sized("--population", "Tests per generation (MOSA, DynaMOSA) or suites (whole suite)",
        &search::SearchOptions::population, 2);
  rate("--crossover-rate", "Probability of crossing two parents", &search::SearchOptions::crossoverRate, 0, 1);
  sized("--tournament-size", "Rounds of tournament selection (MOSA, DynaMOSA)", &search::SearchOptions::tournamentSize, 1);
  // Rank selection's formula needs 1 < bias <= 2 (ALGORITHMS.md §1.6).
  rate("--rank-bias", "Bias of rank selection (whole suite)", &search::SearchOptions::rankBias, 1.000001, 2);
  rate("--test-insertion", "Share of the population added as fresh or archive tests per generation",
       &search::SearchOptions::testInsertion, 0, 1);
  sized("--max-suite-size", "Tests per suite (whole suite)", &search::SearchOptions::maxSuiteSize, 1);
  sized("--initial-suite-size", "Initial suites hold 1 to this many tests (whole suite)",
        &search::SearchOptions::initialSuiteMax, 1);
  rate("--mio-random-start", "MIO: probability of a random test at the start", &search::SearchOptions::mioRandomStart, 0,
       1);
  rate("--mio-random-focus", "MIO: the same in the focused phase", &search::SearchOptions::mioRandomFocus, 0, 1);
  sized("--mio-size-start", "MIO: tests kept per goal at the start", &search::SearchOptions::mioSizeStart, 1);
  sized("--mio-size-focus", "MIO: the same in the focused phase", &search::SearchOptions::mioSizeFocus, 1);
  sized("--mio-mutations-start", "MIO: mutations of a sampled test at the start",
        &search::SearchOptions::mioMutationsStart, 1);
  sized("--mio-mutations-focus", "MIO: the same in the focused phase", &search::SearchOptions::mioMutationsFocus, 1);
  // MIO divides by the focus point: above 0.
  rate("--mio-focus", "MIO: share of the budget after which the focused phase starts", &search::SearchOptions::mioFocus,
       0.000001, 1);
}

// Variation parameters (EvoSuite's defaults unless the options say otherwise).
void variationParameters(std::vector<Flag> &t) {
  auto variation = [&](const char *names, const char *help, double search::VariationOptions::*field, double low,
                       double high) {
    t.push_back(real({.names = names, .value = "X", .commands = kGenerate, .help = help, .group = kSearch},
                     [field](CommandLine &c, Command) { return &(c.generate.variation.*field); }, low, high));
  };
  variation("--p-delete", "Mutation: probability of deleting statements", &search::VariationOptions::deleteProbability,
            0, 1);
  variation("--p-change", "Mutation: probability of changing statements", &search::VariationOptions::changeProbability,
            0, 1);
  variation("--p-insert", "Mutation: probability of inserting statements", &search::VariationOptions::insertProbability,
            0, 1);
  // Below 1, or insertion never stops.
  variation("--insertion-alpha", "Mutation: insert again while a random number is below alpha^count",
            &search::VariationOptions::insertionAlpha, 0, 0.999);
  variation("--p-insert-unit",
            "Mutation: an inserted call is on the unit (else on an existing variable: a method of its class or one "
            "it inherits, or a function of the project that takes a non-const pointer to it, as libyaml's api.c "
            "`yaml_parser_set_input_string` for parser.c)",
            &search::VariationOptions::insertUnit, 0, 1);
  variation("--p-random-value", "Mutation: a changed value is drawn afresh (else moved by a delta)",
            &search::VariationOptions::randomPerturbation, 0, 1);
  variation("--max-delta", "Mutation: integer deltas are N(0,1) times this", &search::VariationOptions::maxDelta, 0, 1e9);
  variation("--p-new-argument", "Mutation: a changed argument is a new value (else another variable)",
            &search::VariationOptions::newArgument, 0, 1);
  variation("--p-text-edit", "Mutation: a changed string gets a token edit or one of its numbers an interesting value (else a "
            "character delta)",
            &search::VariationOptions::textEdit, 0, 1);
  // Up to 1 MiB: the wire format's input area (MOSAIC_INPUT_BYTES) holds a test.
  t.push_back(whole<size_t>({.names = "--max-text-length", .value = "N", .commands = kGenerate,
                             .help = "Strings and buffers grow no longer", .group = kSearch},
                            [](CommandLine &c, Command) { return &c.generate.variation.maxTextLength; }, 1,
                            std::size_t{1} << 20));
  t.push_back(whole<size_t>({.names = "--max-test-length", .value = "N", .commands = kGenerate,
                             .help = "Tests are chopped beyond this many statements", .group = kSearch},
                            [](CommandLine &c, Command) { return &c.generate.variation.maxLength; }, 1,
                            MOSAIC_STMT_CAPACITY));
}

// `mutate`: the suite, and which mutants it runs against.
void mutateFlags(std::vector<Flag> &t) {
  MutateOptions &(*of)(CommandLine &) = [](CommandLine &c) -> MutateOptions & { return c.mutate; };
  t.push_back(text({.names = "--suite", .value = "DIR", .commands = kMutate,
                    .help = "A CMake project whose CTest tests exercise the unit (a suite mosaic wrote, or the "
                            "library's own); with --test, any folder holding the unit and its tests",
                    .required = true},
                   [of](CommandLine &c, Command) { return &of(c).suite; }));
  t.push_back(text({.names = "--test", .value = "CMD", .commands = kMutate,
                    .help = "A shell command that runs the suite's tests and exits 0 when they pass (make check), "
                            "for a suite CMake does not build"},
                   [of](CommandLine &c, Command) { return &of(c).testCommand; }));
  t.push_back(text({.names = "--build", .value = "CMD", .commands = kMutate,
                    .help = "With --test: the shell command that builds the suite, with CC and CXX set by mosaic"},
                   [of](CommandLine &c, Command) { return &of(c).buildCommand; }));
  t.push_back(list({.names = "--define", .value = "NAME=VALUE,...", .commands = kMutate,
                    .help = "Cache entries for the configure of a CMake suite, each passed as -DNAME=VALUE "
                            "(PUGIXML_BUILD_TESTS=ON)"},
                   [of](CommandLine &c, Command) { return &of(c).defines; }));
  t.push_back(whole<std::uint32_t>({.names = "--mutants", .value = "N", .commands = kMutate,
                                    .help = "How many mutants to sample (0: every one)"},
                                   [of](CommandLine &c, Command) { return &of(c).mutants; }, 0, kMaxU32));
  t.push_back(whole<std::uint64_t>({.names = "--seed", .value = "N", .commands = kMutate,
                                    .help = "Random seed of the sample: the same seed gives the same mutants"},
                                   [of](CommandLine &c, Command) { return &of(c).seed; }, 0, kMaxU64));
  t.push_back(text({.names = "--json", .value = "FILE", .commands = kMutate,
                    .help = "Write every sampled mutant and its outcome as JSON to this file"},
                   [of](CommandLine &c, Command) { return &of(c).jsonOut; }));
  t.push_back(text({.names = "--work-dir", .value = "DIR", .commands = kMutate,
                    .help = "Where the mutated build goes (default BUILD_DIR/mosaic)"},
                   [of](CommandLine &c, Command) { return &of(c).workDir; }));
}

// `reproduce`: the trace.
void reproduceFlags(std::vector<Flag> &t) {
  t.push_back(text({.names = "--trace", .value = "FILE", .commands = kReproduce,
                    .help = "The crash's stack trace: a sanitizer report, a libFuzzer log, a gdb or lldb bt, "
                            "backtrace_symbols output, a std::terminate message with a backtrace",
                    .required = true},
                   [](CommandLine &c, Command) { return &c.reproduce.traceFile; }));
  t.push_back(text({.names = "--crash-fitness", .value = "NAME", .commands = kReproduce,
                    .help = "What the search minimises: weighted-sum (EvoCrash's 3·line + 2·failure + stack) or "
                            "st-distance (ReCore's: the trace's lines reached outermost first, then the failure)"},
                   [](CommandLine &c, Command) { return &c.reproduce.fitness; }));
  t.push_back(text({.names = "--crash-guides", .value = "NAME", .commands = kReproduce,
                    .help = "Goals beside the crash that steer the search while the crash fitness is flat: coverage (the "
                            "unit's functions, branch sides and lines, as generate seeks them) or none (the crash alone, "
                            "as EvoCrash; the default)"},
                   [](CommandLine &c, Command) { return &c.reproduce.guides; }));
}

// `predict`: Schwa's history and weights, and what counts as a unit.
void predictFlags(std::vector<Flag> &t) {
  auto of = [](CommandLine &c) -> PredictOptions & { return c.predict; };
  t.push_back(text({.names = "--json", .value = "FILE", .commands = kPredict,
                    .help = "Write the ranking with every unit's and function's scores as JSON to this file ('-' "
                            "for stdout, instead of the table)"},
                   [of](CommandLine &c, Command) { return &of(c).unit.jsonOut; }));
  t.push_back(text({.names = "--revision", .value = "REV", .commands = kPredict,
                    .help = "Where the history ends: a commit, branch or tag (a fix's parent, to predict before it)"},
                   [of](CommandLine &c, Command) { return &of(c).revision; }));
  t.push_back(whole<std::uint64_t>({.names = "--max-commits", .value = "N", .commands = kPredict,
                                    .help = "Only the newest N commits count (0: all, as Schwa)"},
                                   [of](CommandLine &c, Command) { return &of(c).maxCommits; }, 0, kMaxU64));
  t.push_back(real({.names = "--revisions-weight", .value = "W", .commands = kPredict,
                    .help = "Schwa's weight of time-weighted revisions"},
                   [of](CommandLine &c, Command) { return &of(c).revisionsWeight; }, 0, 1));
  t.push_back(real({.names = "--fixes-weight", .value = "W", .commands = kPredict,
                    .help = "Schwa's weight of time-weighted fixes"},
                   [of](CommandLine &c, Command) { return &of(c).fixesWeight; }, 0, 1));
  t.push_back(real({.names = "--authors-weight", .value = "W", .commands = kPredict,
                    .help = "Schwa's weight of time-weighted new authors"},
                   [of](CommandLine &c, Command) { return &of(c).authorsWeight; }, 0, 1));
  t.push_back(real({.names = "--time-range", .value = "TR", .commands = kPredict,
                    .help = "Schwa's TR: how much of the history's end weighs (1: all of it alike)"},
                   [of](CommandLine &c, Command) { return &of(c).timeRange; }, 0, 1));
  t.push_back(text({.names = "--fix-pattern", .value = "REGEX", .commands = kPredict,
                    .help = "A fix commit by its message, case-insensitive (default Schwa's: "
                            "fix(e[ds])?|bugs?|defects?|patch|corrigidos?|close([sd])?|resolve([sd])?)"},
                   [of](CommandLine &c, Command) { return &of(c).fixPattern; }));
  t.push_back(toggle({.names = "--no-functions", .commands = kPredict,
                      .help = "Files only: do not parse the units for their functions' scores"},
                     [of](CommandLine &c, Command) { return &of(c).functions; }, false));
  t.push_back(toggle({.names = "--skip-merges", .commands = kPredict,
                      .help = "A merge counts for nothing (the commits it brings count on their own); Schwa diffs "
                              "it against each parent"},
                     [of](CommandLine &c, Command) { return &of(c).skipMerges; }, true));
  t.push_back(toggle({.names = "--include-tests", .commands = kPredict,
                      .help = "Rank the project's tests, fuzzers, examples and tools too, not only its library code"},
                     [of](CommandLine &c, Command) { return &of(c).includeTests; }, true));
}

// `project`: the units, their budget, the workers.
void projectFlags(std::vector<Flag> &t) {
  auto of = [](CommandLine &c) -> ProjectOptions & { return c.project; };
  t.push_back(text({.names = "-p,--build-dir", .value = "DIR", .commands = kProject,
                    .help = "Folder with compile_commands.json (or the JSON file itself); required but with --merge"},
                   [of](CommandLine &c, Command) { return &of(c).unit.buildDir; }));
  t.push_back(text({.names = "-o,--output", .value = "DIR", .commands = kProject,
                    .help = "Folder of the project's suites (units/), their logs, results and state, and a "
                            "CMakeLists.txt over them all",
                    .required = true},
                   [of](CommandLine &c, Command) { return &of(c).outDir; }));
  t.push_back(duration({.names = "--budget", .value = "TIME", .commands = kProject,
                        .help = "Search time of the whole project, split across its units (30m, 2h); without it, "
                                "--budget-per-unit times the units"},
                       [of](CommandLine &c, Command) { return &of(c).budgetSeconds; }));
  t.push_back(duration({.names = "--budget-per-unit", .value = "TIME", .commands = kProject,
                        .help = "Search time a unit gets on average"},
                       [of](CommandLine &c, Command) { return &of(c).budgetPerUnitSeconds; }));
  t.push_back(whole<std::uint64_t>({.names = "-j,--jobs", .value = "N", .commands = kProject,
                                    .help = "Units searched at once, each in a worker process"},
                                   [of](CommandLine &c, Command) { return &of(c).jobs; }, 1, 1024));
  t.push_back(list({.names = "--include", .value = "GLOB,...", .commands = kProject,
                    .help = "Only units whose path in the project matches one (lib/*.c)"},
                   [of](CommandLine &c, Command) { return &of(c).include; }));
  t.push_back(list({.names = "--exclude", .value = "GLOB,...", .commands = kProject,
                    .help = "No unit whose path in the project matches one"},
                   [of](CommandLine &c, Command) { return &of(c).exclude; }));
  t.push_back(text({.names = "--allocation", .value = "NAME", .commands = kProject,
                    .help = "How the budget is split: bads (by defect prediction from git history, seed 000) or "
                            "even"},
                   [of](CommandLine &c, Command) { return &of(c).allocation; }));
  t.push_back(whole<std::uint64_t>({.names = "--seed", .value = "N", .commands = kProject,
                                    .help = "Every unit's search seed"},
                                   [of](CommandLine &c, Command) { return &of(c).seed; }, 0, kMaxU64));
  t.push_back(toggle({.names = "--include-tests", .commands = kProject,
                      .help = "The project's tests, fuzzers, examples and tools are units too"},
                     [of](CommandLine &c, Command) { return &of(c).includeTests; }, true));
  t.push_back(whole<std::uint64_t>({.names = "--max-executions", .value = "N", .commands = kProject,
                                    .help = "Each unit's search also ends after N test executions (a run that "
                                            "repeats exactly, with --seed)"},
                                   [of](CommandLine &c, Command) { return &of(c).maxExecutions; }, 0,
                                   std::numeric_limits<std::uint64_t>::max()));
  t.push_back(toggle({.names = "--function-weights", .commands = kProject,
                      .help = "Pass each unit's function-level defect prediction to its search (riskier functions "
                              "called more; measured without a gain so far)"},
                     [of](CommandLine &c, Command) { return &of(c).functionWeights; }, true));
  t.push_back(toggle({.names = "--no-verify", .commands = kProject,
                      .help = "Write each suite without building, running and measuring it"},
                     [of](CommandLine &c, Command) { return &of(c).verify; }, false));
  t.push_back(text({.names = "--shard", .value = "I/N", .commands = kProject,
                    .help = "Run only part I of N (0 <= I < N) of the units, split by budget; without it, a Slurm "
                            "job array's task or a Kubernetes Indexed Job's index (with MOSAIC_SHARDS) decides"},
                   [of](CommandLine &c, Command) { return &of(c).shard; }));
  t.push_back(list({.names = "--merge", .value = "DIR,...", .commands = kProject,
                    .help = "Combine these shards' outputs into -o (one state, one CMakeLists.txt) instead of running"},
                   [of](CommandLine &c, Command) { return &of(c).merge; }));
  t.push_back(toggle({.names = "--dry-run", .commands = kProject,
                      .help = "Print each unit's defect-prediction score and budget (also to OUT/plan.json) and run "
                              "nothing"},
                     [of](CommandLine &c, Command) { return &of(c).dryRun; }, true));
  t.push_back(toggle({.names = "--no-progress", .commands = kProject,
                      .help = "No progress line every 10 s, only a line per finished unit"},
                     [of](CommandLine &c, Command) { return &of(c).progress; }, false));
}

std::vector<Flag> makeTable() {
  std::vector<Flag> t;
  unitFlags(t);
  searchFlags(t);
  sandboxFlags(t);
  suiteFlags(t);
  mutateFlags(t);
  reproduceFlags(t);
  predictFlags(t);
  projectFlags(t);
  searchParameters(t);
  variationParameters(t);
  return t;
}

std::string cell(std::string s) {
  std::string out;
  for (char ch : s) out += ch == '|' ? std::string("\\|") : std::string(1, ch);
  return out;
}

} // namespace

const char *commandName(Command command) {
  switch (command) {
  case kAnalyze: return "analyze";
  case kRun: return "run";
  case kGenerate: return "generate";
  case kMutate: return "mutate";
  case kReproduce: return "reproduce";
  case kPredict: return "predict";
  case kProject: return "project";
  }
  return "?";
}

std::string Flag::longName() const {
  const size_t comma = names.rfind(',');
  return comma == std::string::npos ? names : names.substr(comma + 1);
}

std::string Flag::defaultFor(Command command) const { return show ? show(CommandLine{}, command) : std::string(); }

const std::vector<Flag> &flagTable() {
  static const std::vector<Flag> table = makeTable();
  return table;
}

std::vector<const Flag *> flagsOf(Command command) {
  std::vector<const Flag *> out;
  for (const Flag &f : flagTable())
    if (f.commands & command) out.push_back(&f);
  return out;
}

std::string flagsMarkdown(Command command) {
  std::string out = "| flag | value | default | what |\n|---|---|---|---|\n";
  for (const Flag *f : flagsOf(command)) {
    std::string names;
    size_t start = 0;
    while (start <= f->names.size()) {
      const size_t comma = f->names.find(',', start);
      names += (names.empty() ? "" : ", ") + std::string("`") +
               f->names.substr(start, comma == std::string::npos ? std::string::npos : comma - start) + "`";
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    std::string what = f->help;
    if (f->required) what += " (required)";
    if (!f->group.empty()) what = f->group + ": " + what;
    const std::string def = f->defaultFor(command);
    out += fmt::format("| {} | {} | {} | {} |\n", names, f->value.empty() ? "" : "`" + f->value + "`",
                       def.empty() ? "" : "`" + def + "`", cell(what));
  }
  return out;
}

} // namespace mosaic::driver
