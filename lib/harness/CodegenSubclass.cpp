// Harness generation: stub subclasses of abstract classes (Op::Subclass).
// Each overrides every pure virtual to do nothing and return either the
// value the test set (testcase::Catalog::stubResults) or a value-initialised
// result; the test writer (emit/Subclass.cpp) writes the same class.
#include "Writer.h"

#include <algorithm>

namespace mosaic::harness {

using model::TypeKind;

void Writer::emitSubclasses() {
  std::ostringstream cases;
  for (const model::Record &r : p_.records) {
    if (!cxx_ || !r.abstract || !catalog_.subclassable(r.id)) continue;
    const std::vector<size_t> results = catalog_.stubResults(r.id);
    const std::string base = t(r.type);
    const std::string stub = "__mosaic_subclass_" + std::to_string(r.id);
    helpers_ << "struct " << stub << " final : " << base << " {\n";
    for (size_t k = 0; k < results.size(); ++k)
      helpers_ << "  " << t(p_.type(r.pureVirtuals[results[k]].result).value) << " __mosaic_r" << k << "{};\n";
    for (size_t n = 0; n < r.pureVirtuals.size(); ++n) {
      const model::PureVirtual &v = r.pureVirtuals[n];
      helpers_ << "  auto " << v.name << "(";
      for (size_t i = 0; i < v.params.size(); ++i) helpers_ << (i ? ", " : "") << t(v.params[i]);
      helpers_ << ")" << (v.isConst ? " const" : "") << (v.refQualifier.empty() ? "" : " " + v.refQualifier)
               << (v.isNoexcept ? " noexcept" : "") << " -> " << t(v.result) << " override { ";
      const model::Type &result = p_.type(v.result);
      const auto set = std::find(results.begin(), results.end(), n);
      if (set != results.end()) helpers_ << "return __mosaic_r" << (set - results.begin()) << "; }\n";
      else if (result.kind == TypeKind::Reference)
        helpers_ << "static std::remove_reference_t<" << t(v.result) << "> value{}; return static_cast<" << t(v.result)
                 << ">(value); }\n";
      else if (result.kind == TypeKind::Void) helpers_ << "}\n";
      else helpers_ << "return " << t(v.result) << "(); }\n";
    }
    helpers_ << "};\nstatic void " << stub << "_delete(void *p) { delete static_cast<" << stub << " *>(static_cast<"
             << base << " *>(p)); }\n\n";
    // Every type naming the class (an alias is a type of its own).
    for (const model::Type &ty : p_.types) {
      if (ty.value != ty.id || ty.kind != TypeKind::Record || *ty.recordId != r.id) continue;
      cases << "  case " << ty.id << ": {\n    " << stub << " *o = new " << stub << "();\n";
      if (!results.empty()) {
        cases << "    if (s->nrefs == " << results.size() << ") {\n";
        for (size_t k = 0; k < results.size(); ++k) {
          const model::TypeId rv = p_.type(r.pureVirtuals[results[k]].result).value;
          cases << "      const " << t(rv) << " *v" << k << " = " << ref(rv) << "(ctx, s->refs[" << k << "]);\n"
                << "      if (!v" << k << ") { delete o; " << invalid() << " }\n      o->__mosaic_r" << k << " = *v" << k
                << ";\n";
        }
        cases << "    }\n";
      }
      cases << "    __mosaic_adopt(ctx, " << ty.id << ", static_cast<" << base << " *>(o), &" << stub << "_delete);\n"
            << "    return MOSAIC_STMT_OK;\n  }\n";
    }
  }
  builders_ << "static int __mosaic_make_subclass(mosaic_ctx *ctx, const mosaic_stmt *s) {\n  switch (s->type) {\n"
            << cases.str() << "  }\n  " << invalid() << "\n}\n\n";
}

} // namespace mosaic::harness
