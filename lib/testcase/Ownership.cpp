// Which records the API makes itself, and the functions that initialise
// one a caller provides (Catalog.h: madeByApi, initialisers).
#include "mosaic/testcase/Catalog.h"

#include "mosaic/support/Text.h"
#include "mosaic/testcase/Lifetime.h"

#include <algorithm>

namespace mosaic::testcase {

using model::TypeKind;

namespace {

// The record a pointer (or smart pointer's element, or reference) type is
// to, when it is one.
std::optional<model::RecordId> pointedRecord(const model::Program &p, model::TypeId id) {
  const model::Type &t = p.type(id);
  std::optional<model::TypeId> to;
  if (t.kind == TypeKind::Pointer || t.kind == TypeKind::Reference) to = t.pointee;
  if (t.kind == TypeKind::UniquePtr || t.kind == TypeKind::SharedPtr) to = t.element;
  if (!to) return {};
  const model::Type &pointee = p.type(p.type(*to).value);
  if (pointee.kind != TypeKind::Record) return {};
  return pointee.recordId;
}

// A last word that ends a lifetime beside Lifetime.h's destroyer names:
// C libraries that clear or finish what they initialised (libtommath's
// mp_clear, GMP's mpz_clear). Ours.
bool endsALifetime(const std::string &name) {
  if (isDestroyerName(name)) return true;
  const auto words = identifierWords(name);
  if (words.empty()) return false;
  const std::string &last = words.back();
  return last == "clear" || last == "fini" || last == "cleanup" || last == "deinit";
}

} // namespace

const std::string &Catalog::madeByApi(model::RecordId record) const {
  auto it = madeByApi_.find(record);
  if (it != madeByApi_.end()) return it->second;
  std::string found;
  // A record with no fields is a handle (leveldb's `struct Handle {}` of
  // Cache::Insert and Cache::Lookup): a method that hands one out makes it
  // too, where for other records a method may be a getter of what the
  // caller filled.
  const model::Record &r = program_.record(record);
  const bool handle = r.complete && r.fields.empty() && r.bases.empty();
  for (const model::Callable &c : program_.callables) {
    if (c.kind != model::CallableKind::Function && c.kind != model::CallableKind::StaticMethod &&
        !(handle && c.kind == model::CallableKind::Method))
      continue;
    // A creator: hands out a T by pointer and takes none.
    if (pointedRecord(program_, c.result) == record) {
      const bool takesOne = std::any_of(c.params.begin(), c.params.end(), [&](const model::Param &p) {
        return pointedRecord(program_, p.type) == record;
      });
      if (!takesOne) {
        found = c.qualifiedName;
        break;
      }
    }
    // A destroyer of T: one parameter, a pointer to it.
    if (c.kind == model::CallableKind::Function && c.params.size() == 1 &&
        program_.type(c.params[0].type).kind == TypeKind::Pointer &&
        pointedRecord(program_, c.params[0].type) == record && endsALifetime(c.name)) {
      found = c.qualifiedName;
      break;
    }
  }
  return madeByApi_[record] = found;
}

bool Catalog::internalToUnit(const model::Callable &c) const {
  if (c.internalLinkage) return true;
  if (c.parent) return isPrivate(program_.record(*c.parent).type);
  return c.origin == model::Origin::Unit && !c.declaredInHeader;
}

bool Catalog::internalCallable(const model::Callable &c) const { return internalToUnit(c) || c.internalApi; }

const char *Catalog::insideOf(const model::Callable &c) const {
  return internalToUnit(c) ? "internal to the unit" : "internal to the library";
}

bool Catalog::internalType(model::RecordId record) const {
  auto it = internalType_.find(record);
  if (it != internalType_.end()) return it->second;
  auto mentions = [&](model::TypeId t) {
    const model::Type &ty = program_.type(program_.type(t).value);
    if (ty.kind == TypeKind::Record) return ty.recordId == record;
    return pointedRecord(program_, t) == record;
  };
  bool any = false, allInternal = true;
  for (const model::Callable &c : program_.callables) {
    if (c.isImplicit || (c.parent && *c.parent == record)) continue; // its own members say nothing of who uses it
    const bool uses = mentions(c.result) || std::any_of(c.params.begin(), c.params.end(),
                                                        [&](const model::Param &p) { return mentions(p.type); });
    if (!uses) continue;
    any = true;
    allInternal = allInternal && internalCallable(c);
  }
  return internalType_[record] = any && allInternal;
}

bool Catalog::constView(model::TypeId var) const {
  const model::Type &t = program_.type(var);
  return t.isConst || ((t.kind == TypeKind::Reference || t.kind == TypeKind::Pointer) && t.pointeeConst);
}

size_t Catalog::dropWritesThroughConst(TestCase &t) const {
  return dropStatements(t, [&](const TestCase &test, size_t i) {
    const Statement &s = test.statements[i];
    if (s.op != Op::MethodCall || s.refs.empty() || s.refs[0] >= i) return false;
    const auto vt = variableType(program_, test, s.refs[0]);
    return !program_.callable(s.callable).isConst && vt && constView(*vt);
  });
}

namespace {

// The first parameter of `c` through which it may write a `record` its
// caller provides: a pointer to a non-const one.
std::optional<size_t> writtenRecordParam(const model::Program &p, const model::Callable &c, model::RecordId record) {
  for (size_t i = 0; i < c.params.size(); ++i) {
    const model::Type &t = p.type(p.type(c.params[i].type).value);
    if (t.kind == TypeKind::Pointer && !t.pointeeConst && pointedRecord(p, t.id) == record) return i;
  }
  return std::nullopt;
}

} // namespace

const std::vector<model::CallableId> &Catalog::initialisers(model::RecordId record) const {
  auto it = initialisers_.find(record);
  if (it != initialisers_.end()) return it->second;
  std::vector<model::CallableId> out;
  for (const model::Callable &c : program_.callables)
    if (c.kind == model::CallableKind::Function && callable_.at(c.id) &&
        ((isInitialiserName(c.name) && writtenRecordParam(program_, c, record)) ||
         model::defaultsFilled(program_, c) == record))
      out.push_back(c.id);
  return initialisers_[record] = std::move(out);
}

size_t Catalog::initialisedParam(model::CallableId init, model::RecordId record) const {
  return writtenRecordParam(program_, program_.callable(init), record).value_or(0);
}

} // namespace mosaic::testcase
