// What a C API releases (Lifetime.h).
#include "mosaic/testcase/Lifetime.h"

#include "mosaic/support/Text.h"

#include <algorithm>

namespace mosaic::testcase {

bool isDestroyerName(const std::string &name) {
  const std::string n = lowercase(name);
  for (const char *word : {"free", "delete", "destroy", "release", "dispose", "unref", "dealloc"})
    if (n.find(word) != std::string::npos) return true;
  return false;
}

bool releasesItsArgument(const model::Program &p, const model::Callable &c) {
  if (c.parent || c.kind != model::CallableKind::Function || c.params.size() != 1 || !isDestroyerName(c.name))
    return false;
  const model::Type &t = p.type(p.type(c.params[0].type).value);
  if (t.kind != model::TypeKind::Pointer || !t.pointee) return false;
  return p.type(p.type(*t.pointee).value).kind != model::TypeKind::FunctionPointer;
}

size_t dropEarlyReleases(TestCase &t, const model::Program &p) {
  size_t removed = 0;
  for (size_t i = 0; i < t.statements.size();) {
    const Statement &s = t.statements[i];
    bool early = false;
    if (s.op == Op::Call && s.refs.size() == 1 && releasesItsArgument(p, p.callable(s.callable))) {
      const Ref gone = s.refs[0];
      for (size_t j = i + 1; j < t.statements.size() && !early; ++j) {
        const std::vector<Ref> &refs = t.statements[j].refs;
        early = std::find(refs.begin(), refs.end(), gone) != refs.end();
      }
    }
    if (!early) {
      ++i;
      continue;
    }
    t = withoutStatement(t, i); // statement i is now the next one
    ++removed;
  }
  return removed;
}

} // namespace mosaic::testcase
