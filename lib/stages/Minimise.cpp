// Minimise: the fewest statements that still cover a test's goals (Stage.h).
#include "Keeps.h"

namespace mosaic::stages {

namespace {

class Minimise final : public Stage {
public:
  std::string_view name() const override { return "minimise"; }

  void run(Work &work, Context &c) override {
    for (Candidate &k : work.passing) {
      dropStatements(work, c, k);
      unaliasCopies(work, c, k);
      defaultStubResults(work, c, k);
    }
  }

private:
  // Statements from the end backwards, each dropped with what depends on it.
  static void dropStatements(Work &work, Context &c, Candidate &k) {
    for (size_t i = k.test.statements.size(); i-- > 0 && !c.deadline.passed();) {
      if (i >= k.test.statements.size()) continue;
      testcase::TestCase candidate = testcase::withoutStatement(k.test, i);
      if (!candidate.statements.empty() && keepsGoals(c, work, k, candidate)) k.test = std::move(candidate);
    }
  }

  // A copy or move of an object, used instead of the object itself; not
  // of a pointer it dereferenced, nor of a const view (jsoncpp's `Json::Value v(Json::Value::nullSingleton())`:
  // the copy is the object a test may change, the singleton is not).
  static void unaliasCopies(Work &work, Context &c, Candidate &k) {
    for (size_t i = k.test.statements.size(); i-- > 0 && !c.deadline.passed();) {
      if (i >= k.test.statements.size()) continue;
      const testcase::Statement &s = k.test.statements[i];
      if (!testcase::copies(c.program, s)) continue;
      // Only a copy of an object of its own type: a pointer the copy
      // dereferenced (`Slice copy(*input)`) would stand where an object
      // was (`&copy` became `&input`, a Slice **: leveldb's coding.cc).
      const auto source = testcase::variableType(c.program, k.test, s.refs[0]);
      const auto copy = testcase::variableType(c.program, k.test, i);
      if (!source || !copy || c.catalog.constView(*source) ||
          c.catalog.fits(*source, *copy) != testcase::Passing::Same)
        continue;
      testcase::TestCase candidate = testcase::withAlias(k.test, i, s.refs[0]);
      if (keepsGoals(c, work, k, candidate)) k.test = std::move(candidate);
    }
  }

  // A stub's result that no goal needs: its default, which the written
  // test leaves unsaid (emit/Body).
  static void defaultStubResults(Work &work, Context &c, Candidate &k) {
    for (size_t i = 0; i < k.test.statements.size() && !c.deadline.passed(); ++i) {
      if (k.test.statements[i].op != testcase::Op::Subclass) continue;
      const std::vector<testcase::Ref> results = k.test.statements[i].refs;
      for (testcase::Ref r : results) {
        if (k.test.statements[r].op != testcase::Op::Primitive || k.test.statements[r].bits == 0) continue;
        testcase::TestCase candidate = k.test;
        candidate.statements[r].bits = 0;
        if (keepsGoals(c, work, k, candidate)) k.test = std::move(candidate);
      }
    }
  }
};

} // namespace

std::unique_ptr<Stage> minimise() { return std::make_unique<Minimise>(); }

} // namespace mosaic::stages
