// The API a unit's classes inherit (Inherited.h).
#include "mosaic/testcase/Inherited.h"

#include <set>
#include <string>

namespace mosaic::testcase {

namespace {

// A member's own name from a qualified name or a signature
// ("mu::ParserInt::IsVal(const char *, int *, double *)" -> "IsVal").
std::string memberName(const std::string &name) {
  std::string head = name.substr(0, name.find('('));
  if (const size_t colon = head.rfind("::"); colon != std::string::npos) head = head.substr(colon + 2);
  return head;
}

class Walk {
public:
  Walk(const Catalog &catalog, const std::vector<model::CallableId> &targets)
      : catalog_(catalog), program_(catalog.program()) {
    for (model::CallableId c : targets) isTarget_.insert(c);
  }

  // Visits the bases of `record`, with the member names declared on the
  // way down to it (`record`'s included): what hides a base's method.
  void bases(model::RecordId record, std::set<std::string> hiding, int depth) {
    if (depth > 16) return; // a guard, as Catalog::derivesFrom has
    for (const std::string &n : declaredNames(record)) hiding.insert(n);
    for (model::RecordId base : program_.record(record).bases) {
      if (!seenBases_.insert(base).second) continue;
      for (model::CallableId m : program_.record(base).methods) {
        const model::Callable &c = program_.callable(m);
        if (c.kind != model::CallableKind::Method || isTarget_.count(m) || !catalog_.callable(m) || c.internalApi ||
            hiding.count(c.name))
          continue;
        if (taken_.insert(m).second) out.push_back(m);
      }
      bases(base, hiding, depth + 1);
    }
  }

  std::vector<model::CallableId> out;

private:
  // Every member name the record declares, whatever its access: its
  // fields, its callables and what the front end skipped of it (private
  // members).
  std::set<std::string> declaredNames(model::RecordId record) const {
    std::set<std::string> names;
    for (const model::Field &f : program_.record(record).fields) names.insert(f.name);
    for (const model::Callable &c : program_.callables)
      if (c.parent == record) names.insert(c.name);
    for (const model::Skipped &s : program_.skipped)
      if (s.parent == record) names.insert(memberName(s.name));
    return names;
  }

  const Catalog &catalog_;
  const model::Program &program_;
  std::set<model::CallableId> isTarget_, taken_;
  std::set<model::RecordId> seenBases_;
};

} // namespace

std::vector<model::CallableId> inheritedMethods(const Catalog &catalog, const std::vector<model::CallableId> &targets) {
  const model::Program &program = catalog.program();
  Walk walk(catalog, targets);
  std::set<model::RecordId> classes;
  for (model::CallableId t : targets) {
    const model::Callable &c = program.callable(t);
    if (c.parent && classes.insert(*c.parent).second) walk.bases(*c.parent, {}, 0);
  }
  return std::move(walk.out);
}

} // namespace mosaic::testcase
