// Undecided path conditions as search goals (PathGoals.h).
#include "mosaic/concolic/PathGoals.h"

#include "mosaic/abi/Symbolic.h"
#include "mosaic/concolic/Inputs.h"
#include "mosaic/search/Goals.h"

#include <set>

namespace mosaic::concolic {

void UndecidedPaths::add(UndecidedPath path) { paths_.push_back(std::move(path)); }

std::vector<std::uint32_t> UndecidedPaths::takeNew() {
  std::vector<std::uint32_t> out;
  for (; handedOut_ < paths_.size(); ++handedOut_) out.push_back(static_cast<std::uint32_t>(handedOut_));
  return out;
}

std::vector<std::uint8_t> inputValues(const testcase::TestCase &test, const UndecidedPath &path) {
  std::vector<std::uint8_t> values(path.inputs.size(), 0);
  for (std::size_t i = 0; i < path.inputs.size(); ++i) {
    const solver::InputByte &in = path.inputs[i];
    values[i] = in.concrete;
    if (in.statement >= test.statements.size() || !carries(test.statements[in.statement], in)) continue;
    const testcase::Statement &s = test.statements[in.statement];
    values[i] = inputByte(s, in);
  }
  return values;
}

UndecidedPath undecidedPath(const solver::SymbolicTrace &trace, const std::vector<std::size_t> &keep, std::size_t flip,
                            const testcase::TestCase &test) {
  UndecidedPath p{solver::PathGoal(trace, keep, flip), {}, 0, 0, 0, "", {}};
  std::set<std::uint32_t> statements;
  for (std::uint32_t i : p.goal.inputs()) {
    p.inputs.push_back(trace.inputs[i]); // PathGoal read only inputs the trace has
    if (trace.inputs[i].kind != MOSAIC_SYM_IN_RESULT && trace.inputs[i].statement < test.statements.size())
      statements.insert(trace.inputs[i].statement);
  }
  for (std::uint32_t s : statements) p.shape.emplace_back(s, test.statements[s].op, test.statements[s].type);
  return p;
}

bool sameShape(const testcase::TestCase &test, const UndecidedPath &path) {
  for (const auto &[s, op, type] : path.shape)
    if (s >= test.statements.size() || test.statements[s].op != op || test.statements[s].type != type) return false;
  return true;
}

namespace {

class PathConditionCriterion final : public search::Criterion {
public:
  explicit PathConditionCriterion(std::shared_ptr<UndecidedPaths> paths) : paths_(std::move(paths)) {}

  std::string_view name() const override { return "path-condition"; }
  std::string_view plural() const override { return "undecided path conditions"; }
  void goals(std::uint32_t, const search::Reach &, std::vector<search::Goal> &) const override {}
  void discover(const search::Execution &, const search::Targets &, const search::Reach &,
                std::vector<search::Goal> &out) const override {
    for (std::uint32_t i : paths_->takeNew()) {
      const UndecidedPath &p = (*paths_)[i];
      search::Goal g{.function = p.function, .line = p.line};
      g.pathCondition = i;
      g.label = p.label;
      out.push_back(std::move(g));
    }
  }
  // Covered when a run takes the side the condition was flipped for.
  bool covered(const search::Goal &g, const search::Execution &e) const override {
    const std::uint32_t side = (*paths_)[*g.pathCondition].side;
    return side < e.sides.size() && e.sides[side] == 1.0;
  }
  // ν(SUSHI distance) in [0, 1), and 1 for a run without its test; a run
  // whose values satisfy the condition but which missed the side (the
  // condition was a slice) is ν(0.5) from covering.
  double fitness(const search::Goal &g, const search::Execution &e, const search::Reach &) const override {
    if (covered(g, e)) return 0.0;
    const UndecidedPath &p = (*paths_)[*g.pathCondition];
    if (!e.test || !sameShape(*e.test, p)) return 1.0;
    const double d = p.goal.distance(inputValues(*e.test, p));
    return search::Goals::normalise(d > 0 ? d : 0.5);
  }
  double notCalled(const search::Goal &, const search::Reach &) const override { return 1.0; }
  bool listedInTests() const override { return false; }

private:
  std::shared_ptr<UndecidedPaths> paths_;
};

} // namespace

std::unique_ptr<const search::Criterion> pathConditionCriterion(std::shared_ptr<UndecidedPaths> paths) {
  return std::make_unique<PathConditionCriterion>(std::move(paths));
}

} // namespace mosaic::concolic
