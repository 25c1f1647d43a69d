// Output coverage (seed 001's OC; ALGORITHMS.md §6.2): for each callable
// the tests call, every class of value its result can fall in: numbers
// negative, zero, positive; an enum each of its enumerators (a C status
// code's every value, where Java's enums are objects); bools true, false; chars letter, digit, other;
// pointers null, non-null; strings and char arrays empty, non-empty (a null
// C string is null); a record returned by value, each public field of it,
// as the harness observes them (harness/CodegenValues.cpp). Classes come
// from the callable's result type; what a run produced from the harness's
// observations of it (Execution::outputs).
#include "mosaic/search/Criteria.h"
#include "mosaic/testcase/TestCase.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

namespace mosaic::search {

namespace {

using model::TypeKind;

struct Class {
  OutputClass cls;
  std::int64_t value = 0;
  std::string name; ///< an enumerator's
};

std::vector<Class> classesOf(const model::Program &p, model::TypeId id) {
  const model::Type &t = p.type(p.type(id).value);
  if (t.kind == TypeKind::Enum && t.enumId && !p.enums[*t.enumId].enumerators.empty()) {
    std::vector<Class> out;
    for (const model::Enumerator &e : p.enums[*t.enumId].enumerators)
      if (std::none_of(out.begin(), out.end(), [&](const Class &c) { return c.value == e.value; }))
        out.push_back({OutputClass::Enumerator, e.value, e.name});
    return out;
  }
  auto plain = [](std::initializer_list<OutputClass> cs) {
    std::vector<Class> out;
    for (OutputClass c : cs)
      out.push_back({c, 0, ""});
    return out;
  };
  switch (t.kind) {
  case TypeKind::Bool:
    return plain({OutputClass::True, OutputClass::False});
  case TypeKind::Char:
    return plain({OutputClass::Alpha, OutputClass::Digit, OutputClass::OtherChar});
  case TypeKind::Integer:
    if (!t.isSigned) return plain({OutputClass::Zero, OutputClass::Positive});
    [[fallthrough]];
  case TypeKind::Enum:
  case TypeKind::Floating:
    return plain({OutputClass::Negative, OutputClass::Zero, OutputClass::Positive});
  case TypeKind::Pointer:
    if (t.pointee && p.type(*t.pointee).kind == TypeKind::Char)
      return plain({OutputClass::Null, OutputClass::Empty, OutputClass::NonEmpty});
    return plain({OutputClass::Null, OutputClass::NonNull});
  case TypeKind::String:
  case TypeKind::StringView:
    return plain({OutputClass::Empty, OutputClass::NonEmpty});
  case TypeKind::Array:
    if (t.element && p.type(*t.element).kind == TypeKind::Char)
      return plain({OutputClass::Empty, OutputClass::NonEmpty});
    return {};
  default:
    return {};
  }
}

const char *className(OutputClass c) {
  switch (c) {
  case OutputClass::Negative:
    return "negative";
  case OutputClass::Zero:
    return "zero";
  case OutputClass::Positive:
    return "positive";
  case OutputClass::True:
    return "true";
  case OutputClass::False:
    return "false";
  case OutputClass::Alpha:
    return "a letter";
  case OutputClass::Digit:
    return "a digit";
  case OutputClass::OtherChar:
    return "another char";
  case OutputClass::Null:
    return "null";
  case OutputClass::NonNull:
    return "non-null";
  case OutputClass::Empty:
    return "empty";
  case OutputClass::NonEmpty:
    return "non-empty";
  case OutputClass::Enumerator:
    return "an enumerator";
  }
  return "?";
}

// The value of a numeric output, when it is one (NaN is no value: §6.2).
std::optional<double> number(const Output &o) {
  switch (o.kind) {
  case MOSAIC_OBS_INT:
    return static_cast<double>(o.integer);
  case MOSAIC_OBS_UINT:
    return static_cast<double>(static_cast<std::uint64_t>(o.integer));
  case MOSAIC_OBS_FLOAT:
    if (std::isnan(o.floating)) return std::nullopt;
    return o.floating;
  default:
    return std::nullopt;
  }
}

bool inClass(const Output &o, const OutputGoal &g) {
  const OutputClass c = g.cls;
  switch (c) {
  case OutputClass::Negative:
    return number(o) && *number(o) < 0;
  case OutputClass::Zero:
    return number(o) && *number(o) == 0;
  case OutputClass::Positive:
    return number(o) && *number(o) > 0;
  case OutputClass::True:
    return o.kind == MOSAIC_OBS_BOOL && o.integer != 0;
  case OutputClass::False:
    return o.kind == MOSAIC_OBS_BOOL && o.integer == 0;
  case OutputClass::Alpha:
    return o.kind == MOSAIC_OBS_INT && std::isalpha(static_cast<unsigned char>(o.integer));
  case OutputClass::Digit:
    return o.kind == MOSAIC_OBS_INT && std::isdigit(static_cast<unsigned char>(o.integer));
  case OutputClass::OtherChar:
    return o.kind == MOSAIC_OBS_INT && !std::isalnum(static_cast<unsigned char>(o.integer));
  case OutputClass::Null:
    return o.kind == MOSAIC_OBS_NULL && o.integer != 0;
  case OutputClass::NonNull:
    return o.kind == MOSAIC_OBS_NULL && o.integer == 0;
  case OutputClass::Empty:
    return o.kind == MOSAIC_OBS_STRING && o.length == 0;
  case OutputClass::NonEmpty:
    return o.kind == MOSAIC_OBS_STRING && o.length > 0;
  case OutputClass::Enumerator:
    return o.kind == MOSAIC_OBS_INT && o.integer == g.value;
  }
  return false;
}

// How far a number is from the class (EvoSuite's table, ALGORITHMS.md §6.2).
std::optional<double> distance(double v, const OutputGoal &g) {
  switch (g.cls) {
  case OutputClass::Enumerator:
    return std::fabs(v - static_cast<double>(g.value));
  case OutputClass::Negative:
    return v < 0 ? 0 : v + 1;
  case OutputClass::Zero:
    return std::fabs(v);
  case OutputClass::Positive:
    return v > 0 ? 0 : std::fabs(v) + 1;
  default:
    return std::nullopt;
  }
}

class OutputCriterion final : public Criterion {
public:
  std::string_view name() const override { return "output"; }
  std::string_view plural() const override { return "outputs"; }
  void goals(std::uint32_t, const Reach &, std::vector<Goal> &) const override {}
  void callableGoals(const Targets &targets, const Reach &reach, std::vector<Goal> &out) const override {
    if (!targets.program) return;
    const model::Program &p = *targets.program;
    for (model::CallableId id : targets.callables) {
      const model::Callable &c = p.callable(id);
      if (c.kind == model::CallableKind::Constructor) continue;
      const auto var = testcase::callResultVariable(p, id);
      if (!var) continue;
      const std::string who = c.qualifiedName + "()";
      auto add = [&](std::int16_t field, const Class &cls, const std::string &what) {
        Goal g{.function = reach.functionOf(c.linkageNames), .line = c.location.beginLine};
        g.output = OutputGoal{id, field, cls.cls, cls.value};
        g.label = who + " returns " + what + (cls.name.empty() ? className(cls.cls) : cls.name);
        out.push_back(std::move(g));
      };
      for (const Class &cls : classesOf(p, *var))
        add(-1, cls, "");
      const model::Type &t = p.type(p.type(*var).value);
      if (t.kind != TypeKind::Record || !t.recordId) continue;
      const model::Record &r = p.record(*t.recordId);
      // The fields the harness observes: public, named, non-static (a
      // union's first only).
      for (size_t k = 0; k < r.fields.size(); ++k) {
        const model::Field &f = r.fields[k];
        if (f.isStatic || f.access != model::Access::Public || f.name.empty()) continue;
        for (const Class &cls : classesOf(p, f.type))
          add(static_cast<std::int16_t>(k), cls, "." + f.name + " ");
        if (r.tag == model::RecordTag::Union) break;
      }
    }
  }
  bool covered(const Goal &g, const Execution &e) const override {
    for (const Output &o : e.outputs)
      if (o.callable == g.output->callable && o.field == g.output->field && inClass(o, *g.output)) return true;
    return false;
  }
  // 0 in the class; a number elsewhere, ν(its distance) (below 1: the
  // reference leaves it raw, which would rank a far value below a call
  // that returned nothing); any other value, 1; no value at all, 2.
  double fitness(const Goal &g, const Execution &e, const Reach &) const override {
    double best = 2.0;
    for (const Output &o : e.outputs) {
      if (o.callable != g.output->callable || o.field != g.output->field) continue;
      if (inClass(o, *g.output)) return 0.0;
      const auto v = number(o);
      const auto d = v ? distance(*v, *g.output) : std::nullopt;
      best = std::min(best, d ? Reach::normalise(*d) : 1.0);
    }
    return best;
  }
  double notCalled(const Goal &, const Reach &) const override { return 2.0; }
  bool needsOutputs() const override { return true; }
};

} // namespace

std::unique_ptr<const Criterion> outputCriterion() { return std::make_unique<OutputCriterion>(); }

} // namespace mosaic::search
