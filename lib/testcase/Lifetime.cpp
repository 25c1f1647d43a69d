// What a C API releases (Lifetime.h).
#include "mosaic/testcase/Lifetime.h"

#include "mosaic/support/Text.h"

#include <algorithm>

namespace mosaic::testcase {

bool isDestroyerName(const std::string &name) {
  for (const char *word : {"free", "delete", "destroy", "destructor", "release", "dispose", "unref", "dealloc"})
    if (containsFolded(name, word)) return true;
  return false;
}

namespace {

// A close function of what its open function returns (gzclose and
// gzclose_r of gzopen's gzFile, fclose of fopen's FILE *): named
// PREFIX close..., where a function named PREFIX open... returns its
// parameter's type. yajl_gen_map_close is not one: yajl_gen_map_open
// returns a status; nor is a stream_block_close beside stream_open.
bool closesWhatIsOpened(const model::Program &p, const model::Callable &c) {
  if (!containsFolded(c.name, "close")) return false; // most names: no allocation
  const std::string name = lowercase(c.name);
  const size_t at = name.rfind("close");
  if (at == std::string::npos) return false;
  const std::string prefix = name.substr(0, at);
  const model::TypeId takes = p.type(c.params[0].type).value;
  return std::any_of(p.callables.begin(), p.callables.end(), [&](const model::Callable &o) {
    return o.kind == model::CallableKind::Function && lowercase(o.name).rfind(prefix + "open", 0) == 0 &&
           p.type(o.result).value == takes;
  });
}

} // namespace

bool releasesItsArgument(const model::Program &p, const model::Callable &c) {
  if (c.parent || c.kind != model::CallableKind::Function || c.params.size() != 1 ||
      (!isDestroyerName(c.name) && !closesWhatIsOpened(p, c)))
    return false;
  const model::Type &t = p.type(p.type(c.params[0].type).value);
  if (t.kind != model::TypeKind::Pointer || !t.pointee) return false;
  return p.type(p.type(*t.pointee).value).kind != model::TypeKind::FunctionPointer;
}

std::optional<size_t> releasedParam(const model::Program &p, const model::Callable &c) {
  if (releasesItsArgument(p, c)) return 0;
  if (c.parent || c.kind != model::CallableKind::Function || c.params.size() != 2) return std::nullopt;
  const auto kindOf = [&](size_t k) { return p.type(p.type(c.params[k].type).value).kind; };
  const auto objectPointer = [&](size_t k) {
    const model::Type &t = p.type(p.type(c.params[k].type).value);
    return t.kind == model::TypeKind::Pointer && t.pointee &&
           p.type(p.type(*t.pointee).value).kind != model::TypeKind::FunctionPointer &&
           p.type(p.type(*t.pointee).value).kind != model::TypeKind::Integer;
  };
  // A close of what an open returns, with a status out-parameter after it
  // (giflib's DGifCloseFile(GifFileType *, int *ErrorCode)).
  if (closesWhatIsOpened(p, c) && objectPointer(0) && kindOf(1) == model::TypeKind::Pointer && !objectPointer(1))
    return 0;
  if (!isDestroyerName(c.name)) return std::nullopt;
  // An array and its count (hiredis's sdsfreesplitres(sds *tokens, int
  // count), which frees each token and then the array).
  for (size_t k : {0u, 1u})
    if (objectPointer(k) && kindOf(1 - k) == model::TypeKind::Integer) return k;
  for (const model::Param &param : c.params) {
    const model::Type &t = p.type(p.type(param.type).value);
    if (t.kind != model::TypeKind::Pointer || !t.pointee ||
        p.type(p.type(*t.pointee).value).kind == model::TypeKind::FunctionPointer)
      return std::nullopt;
  }
  return 1;
}

size_t dropEarlyReleases(TestCase &t, const model::Program &p) {
  return dropStatements(t, [&](const TestCase &test, size_t i) {
    const Statement &s = test.statements[i];
    if (s.op != Op::Call || s.refs.size() != 1 || !releasesItsArgument(p, p.callable(s.callable))) return false;
    const Ref gone = s.refs[0];
    for (size_t j = i + 1; j < test.statements.size(); ++j) {
      const std::vector<Ref> &refs = test.statements[j].refs;
      if (std::find(refs.begin(), refs.end(), gone) != refs.end()) return true;
    }
    return false;
  });
}

} // namespace mosaic::testcase
