// Which abstract classes a test can stand in for with a stub subclass
// (Op::Subclass): the C++ counterpart of a C callback stub.
#include "mosaic/testcase/Catalog.h"

namespace mosaic::testcase {

using model::TypeKind;

std::string Catalog::whyNotSubclassable(model::RecordId id) const {
  const model::Record &r = program_.record(id);
  if (!r.abstract || !r.isCxx || !r.complete) return r.name + " is not an abstract C++ class";
  if (!r.notSubclassable.empty()) return r.notSubclassable;
  if (r.pureVirtuals.empty()) return "no pure virtual of " + r.name + " was modelled";
  // A type the stub's override spells: the harness can name everything the
  // unit can, a test only what its headers declare.
  auto unnameable = [&](model::TypeId type) -> std::string {
    const model::Type &declared = program_.type(type);
    const model::Type &value = program_.type(declared.value);
    if (declared.kind == TypeKind::Unsupported || value.kind == TypeKind::Unsupported)
      return value.kind == TypeKind::Unsupported ? value.unsupportedReason : declared.unsupportedReason;
    const model::Type &inner = value.kind == TypeKind::Pointer ? program_.type(program_.type(*value.pointee).value) : value;
    if (isPrivate(inner.id)) return inner.spelling + " is defined in the unit's source file";
    return {};
  };
  for (const model::PureVirtual &v : r.pureVirtuals) {
    const std::string where = " in " + r.name + "::" + v.name;
    for (model::TypeId p : v.params) {
      if (std::string why = unnameable(p); !why.empty()) return why + where;
      // The override is a definition: a class it takes by value must be complete.
      const model::Type &byValue = program_.type(p);
      if (byValue.kind == TypeKind::Record && !program_.record(*byValue.recordId).complete)
        return "takes a " + byValue.spelling + " by value, which the unit only declares" + where;
    }
    if (std::string why = unnameable(v.result); !why.empty()) return why + where;
    // The override returns a value-initialised result (a reference: to a
    // value-initialised static).
    const model::Type &result = program_.type(program_.type(v.result).value);
    if (result.kind == TypeKind::Void) continue;
    if (result.kind == TypeKind::InputStream || result.kind == TypeKind::OutputStream)
      return "returns a stream, which a stub cannot make" + where;
    if (result.kind == TypeKind::Record) {
      const model::Record &rr = program_.record(*result.recordId);
      if (!rr.complete || !rr.defaultConstructible)
        return "returns a " + result.spelling + " that cannot be default-constructed" + where;
    } else if (std::string why = whyNotBuildable(result.id); !why.empty() && result.kind != TypeKind::Pointer) {
      return "returns a " + result.spelling + " (" + why + ")" + where;
    }
  }
  return {};
}

std::vector<size_t> Catalog::stubResults(model::RecordId id) const {
  std::vector<size_t> out;
  const model::Record &r = program_.record(id);
  for (size_t k = 0; k < r.pureVirtuals.size(); ++k) {
    const model::Type &result = program_.type(r.pureVirtuals[k].result);
    if (result.kind != TypeKind::Reference && isScalar(result.value)) out.push_back(k);
  }
  return out;
}

} // namespace mosaic::testcase
