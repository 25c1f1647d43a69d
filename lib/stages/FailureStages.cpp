// The stages that turn the failures met into claims a user can trust:
// SanitizeCheck and ClassifyFailures (Stage.h, Classify.h).
#include "mosaic/stages/Classify.h"
#include "mosaic/stages/Failures.h"

#include <algorithm>
#include <tuple>

namespace mosaic::stages {

namespace {

class SanitizeCheck final : public Stage {
  // A report about mosaic's own code (Context::mosaicsOwn) claims nothing.
  static bool own(const Context &c, std::string_view report) { return c.mosaicsOwn && c.mosaicsOwn(report); }

public:
  std::string_view name() const override { return "sanitize-check"; }

  void run(Work &work, Context &c) override {
    if (!c.sanitized) return;
    for (auto &[key, f] : work.failures) {
      if (c.failureDeadline.passed()) return;
      if (!f.reproducible || f.result.outcome == exec::Outcome::Sanitizer) continue;
      auto r = c.sanitized->run(f.test);
      if (r && r->outcome() == exec::Outcome::Sanitizer && c.sanitized->trace() &&
          !own(c, c.sanitized->trace()->output())) {
        f.sanitizerReport = std::string(c.sanitized->trace()->output());
        f.sanitizerStatement = r->result.statement;
      }
    }
    std::map<std::string, Failure> found;
    std::vector<Candidate> clean;
    for (Candidate &candidate : work.passing) {
      if (c.failureDeadline.passed()) {
        clean.push_back(std::move(candidate));
        continue;
      }
      auto r = c.sanitized->run(candidate.test);
      if (!r || r->outcome() != exec::Outcome::Sanitizer ||
          (c.sanitized->trace() && own(c, c.sanitized->trace()->output()))) {
        clean.push_back(std::move(candidate));
        continue;
      }
      Failure f;
      f.test = candidate.test;
      f.result = r->result;
      f.where = whereOf(c.program, f.test, f.result.statement);
      f.output = c.sanitized->trace() ? std::string(c.sanitized->trace()->output()) : std::string();
      // AddressSanitizer ends the run at its report: what follows the
      // statement it stopped in never ran, and is not the failure's.
      if (f.output.find("AddressSanitizer") != std::string::npos && f.result.statement >= 0 &&
          static_cast<size_t>(f.result.statement) + 1 < f.test.statements.size())
        f.test.statements.resize(static_cast<size_t>(f.result.statement) + 1);
      f.sanitizerReport = f.output;
      f.count = 1;
      f.confirmed = true;
      f.sanitizerOnly = true;
      // A memory error takes it out of the regression suite: what it
      // observed was read out of bounds or after a free, and may differ in
      // the suite's build (or kill its process). After undefined behaviour
      // that UBSan reports (an overflow in a hash) it stays: it ran cleanly
      // three times alike, and verification removes it if it does not in
      // the suite.
      if (f.output.find("AddressSanitizer") == std::string::npos) clean.push_back(std::move(candidate));
      found.emplace("sanitized/" + failureKey(f.result, f.where) + "/" + std::to_string(found.size()), std::move(f));
    }
    work.passing = std::move(clean);
    for (auto &[key, f] : found) work.failures.emplace(key, std::move(f));
  }
};

class ClassifyFailures final : public Stage {
public:
  std::string_view name() const override { return "classify-failures"; }

private:
  // The unusual integers (Classify.h: unusualIntegers) the failure cannot
  // do without, described; each the failure survives at 0 or 1 takes that
  // value (the written test is simpler for it). Runs through `executor`
  // until Context::failureDeadline.
  static std::vector<std::string> needsUnusualIntegers(Context &c, Failure &f, search::Executor &executor) {
    std::vector<std::string> needs;
    const std::string key = failureKey(f.result, f.where);
    // Only the sanitizers see it: the same error class at the same
    // statement. Any report will not do: libmodbus's modbus_new_rtu(dev,
    // 9600000, ...) overflows a signed int, and with baud 0 it returns
    // NULL, which a later call dereferences (another report, another call).
    const std::string reported = sanitizerClass(f.sanitizerReport.empty() ? f.output : f.sanitizerReport);
    auto same = [&](const search::Execution &e) {
      if (!f.sanitizerOnly) return failureKey(e.result, whereOf(c.program, f.test, e.result.statement)) == key;
      return e.outcome() == exec::Outcome::Sanitizer && e.result.statement == f.result.statement &&
             (!executor.trace() || sanitizerClass(std::string(executor.trace()->output())) == reported);
    };
    for (size_t j : unusualIntegers(c.catalog, f.test, f.result)) {
      if (c.failureDeadline.passed()) break;
      bool survives = false;
      for (std::uint64_t ordinary : {0ull, 1ull}) {
        testcase::TestCase candidate = f.test;
        candidate.statements[j].bits = ordinary;
        auto r = executor.run(candidate);
        if (r && same(*r)) {
          f.test = std::move(candidate);
          f.result = r->result;
          if (executor.trace()) f.output = std::string(executor.trace()->output());
          survives = true;
          break;
        }
      }
      if (!survives) needs.push_back(describeValue(c.catalog, f.test, j));
    }
    return needs;
  }

  // Why the failure is the test's for a buffer it gave with no length
  // (Classify.h: unsizedBuffers): with every such buffer roomy, the test
  // runs to its end. "" when there is none, or the failure stays.
  static std::string needsALargerBuffer(Context &c, const Failure &f, search::Executor &executor) {
    const std::vector<UnsizedBuffer> buffers = unsizedBuffers(c.catalog, f.test, f.result);
    if (buffers.empty() || c.failureDeadline.passed()) return "";
    auto r = executor.run(withRoomyBuffers(f.test, buffers));
    if (!r || r->outcome() != exec::Outcome::Ok) return "";
    const UnsizedBuffer &b = buffers.front();
    return c.program.callable(f.test.statements[b.call].callable).qualifiedName + "() was given " +
           std::to_string(b.bytes.size()) + " bytes as " + b.param +
           ", which comes with no length: its contract sizes it, and with " + std::to_string(kRoomyBuffer) +
           " bytes there" + (buffers.size() > 1 ? " (and in the test's " + std::to_string(buffers.size() - 1) + " other such buffers)" : "") +
           " the test passes";
  }

  // Why the failure is the test's for a library it never initialised
  // (Classify.h: libraryInitialisers): after one of them, with 0 and NULL
  // for arguments, the test runs to its end (libonig's
  // onig_get_callout_name_by_name_id(0), whose list onig_initialize makes).
  // "" when none does.
  static std::string needsTheLibrarysInitialiser(Context &c, const Failure &f, search::Executor &executor) {
    for (model::CallableId id : libraryInitialisers(c.catalog, f.test)) {
      if (c.failureDeadline.passed()) break;
      auto r = executor.run(afterInitialiser(c.program, id, f.test));
      if (r && r->outcome() == exec::Outcome::Ok)
        return "fails only without a call of " + c.program.callable(id).qualifiedName +
               "() first, the library's initialiser: after it the test runs to its end";
    }
    return "";
  }

public:
  void run(Work &work, Context &c) override {
    std::map<std::string, Failure> bySite;
    for (auto &[key, failure] : work.failures) {
      Failure f = std::move(failure);
      std::vector<exec::Observation> observations;
      if (f.reproducible && !f.sanitizerOnly && !c.failureDeadline.passed()) {
        // Once more alone: its stack and output as minimised, and which
        // pointers were null.
        auto r = c.isolated.run(f.test);
        if (r && failureKey(r->result, whereOf(c.program, f.test, r->result.statement)) ==
                     failureKey(f.result, f.where)) {
          f.result = r->result;
          if (c.isolated.trace()) f.output = std::string(c.isolated.trace()->output());
          observations = std::move(r->observations);
        }
      } else if (f.reproducible && f.sanitizerOnly && !c.failureDeadline.passed()) {
        // Only the sanitizers see this one: the plain harness runs it to the
        // end, and its observations still say which results were null
        // (json_object_to_file_ext(json_util_get_last_err(), ...) with no
        // error yet: robustness, not a defect).
        if (auto r = c.isolated.run(f.test)) observations = std::move(r->observations);
      }
      Classification cls = classify(c.catalog, f.test, f.result, observations, f.output);
      // The counterfactual runs, where the failure showed: small integers in
      // place of unusual ones, then roomy buffers in place of unsized ones.
      search::Executor *executor = f.sanitizerOnly ? c.sanitized : &c.isolated;
      if (cls.kind == FailureClass::Defect && f.reproducible && executor) {
        const std::vector<std::string> needs = needsUnusualIntegers(c, f, *executor);
        if (!needs.empty()) {
          cls.kind = FailureClass::Robustness;
          cls.why = "fails only with " + needs.front() + (needs.size() > 1 ? " (and " + std::to_string(needs.size() - 1) + " more)" : "") +
                    ": with 0 or 1 there it does not";
        } else if (std::string why = needsALargerBuffer(c, f, *executor); !why.empty()) {
          cls.kind = FailureClass::Misuse;
          cls.why = std::move(why);
        } else if (std::string init = needsTheLibrarysInitialiser(c, f, *executor); !init.empty()) {
          cls.kind = FailureClass::Misuse;
          cls.why = std::move(init);
        }
      }
      if (c.frames) {
        if (f.sanitizerOnly || f.result.outcome == exec::Outcome::Sanitizer)
          f.frames = c.frames(f.result, f.output, f.sanitizerOnly);
        else if (!f.result.stack.empty())
          f.frames = c.frames(f.result, f.output, false);
        else if (!f.sanitizerReport.empty())
          f.frames = c.frames(f.result, f.sanitizerReport, true);
      }
      // What the run reported: the sanitizer's report when it made one.
      const std::string &report = f.sanitizerReport.empty() ? f.output : f.sanitizerReport;
      if (cls.kind == FailureClass::Defect)
        if (std::string why = misuseOutsideTheCall(c.catalog, f.test, f.result,
                                                   f.sanitizerOnly || f.result.outcome == exec::Outcome::Sanitizer
                                                       ? std::vector<exec::Frame>{}
                                                       : f.frames,
                                                   report);
            !why.empty()) {
          cls.kind = FailureClass::Misuse;
          cls.why = std::move(why);
        }
      // The sanitizers stopped the same test at an earlier call: what the
      // plain run met later follows that call's undefined behaviour
      // (libgsm's Gsm_Long_Term_Synthesis_Filtering(state, 120, 22, ...)
      // indexes a word[4] with 22, then gsm_decode crashes on the state):
      // no claim on the later call. The earlier call, if at fault, fails on
      // its own.
      if (cls.kind == FailureClass::Defect && !f.sanitizerOnly && f.sanitizerStatement >= 0 && f.result.statement >= 0 &&
          f.sanitizerStatement < f.result.statement &&
          static_cast<size_t>(f.sanitizerStatement) < f.test.statements.size() &&
          testcase::isCall(f.test.statements[static_cast<size_t>(f.sanitizerStatement)].op)) {
        cls.kind = FailureClass::Robustness;
        cls.why = "follows undefined behaviour the sanitizers report in an earlier call, " +
                  c.program.callable(f.test.statements[static_cast<size_t>(f.sanitizerStatement)].callable).qualifiedName +
                  "() (statement " + std::to_string(f.sanitizerStatement) + ")";
      }
      if (cls.kind == FailureClass::Defect)
        if (std::string why = nullKeptEarlier(c.catalog, f.test, f.result, observations, report); !why.empty()) {
          cls.kind = FailureClass::Robustness;
          cls.why = std::move(why);
        }
      if (cls.kind == FailureClass::Defect)
        if (std::string why = errorReturnedEarlier(c.catalog, f.test, f.result, observations); !why.empty()) {
          cls.kind = FailureClass::Robustness;
          cls.why = std::move(why);
        }
      if (cls.kind == FailureClass::Defect)
        if (std::string why = readPastAnArrayWithNoLength(c.catalog, f.test, f.result, report); !why.empty()) {
          cls.kind = FailureClass::Misuse;
          cls.why = std::move(why);
        }
      for (const auto &rule : {overrunInABuiltStruct, wrongKindDowncast})
        if (cls.kind == FailureClass::Defect)
          if (std::string why = rule(c.catalog, f.test, f.result, report); !why.empty()) {
            cls.kind = FailureClass::Robustness;
            cls.why = std::move(why);
          }
      // f.where names the failing call (whereOf), or no function at all.
      if (cls.kind == FailureClass::Defect)
        if (std::string why = libraryAssertion(f.result, f.output, f.frames, f.where); !why.empty()) {
          cls.kind = FailureClass::Robustness;
          cls.why = std::move(why);
        }
      f.kind = cls.kind;
      f.why = cls.why;
      f.site = failureSite(f.result, f.sanitizerOnly ? f.sanitizerReport : f.output, f.frames, f.where,
                           f.kind == FailureClass::Robustness ? 1 : 3);
      // An unreproducible failure is its own site: it is not written, and
      // must not stand in for one that is.
      const std::string site = f.reproducible ? f.site : "unreproducible/" + key;
      auto [it, fresh] = bySite.try_emplace(site, std::move(f));
      if (fresh) continue;
      Failure &kept = it->second, &other = f;
      // The best of the two stands for the site: the most trusted class,
      // then the shorter test, then the one the plain harness shows.
      const auto rank = [](const Failure &x) {
        return std::make_tuple(static_cast<int>(x.kind), x.sanitizerOnly, x.test.statements.size());
      };
      if (rank(other) < rank(kept)) std::swap(kept, other);
      kept.duplicates += 1 + other.duplicates;
      kept.count += other.count;
    }
    work.failures = std::move(bySite);
  }
};

} // namespace

std::unique_ptr<Stage> sanitizeCheck() { return std::make_unique<SanitizeCheck>(); }
std::unique_ptr<Stage> classifyFailures() { return std::make_unique<ClassifyFailures>(); }

} // namespace mosaic::stages
