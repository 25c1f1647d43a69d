// Writing the stub subclass of an abstract class that tests derive
// (Op::Subclass): the class the harness defined, in readable C++.
#include "Body.h"

#include <algorithm>
#include <cctype>

namespace mosaic::emit {

using model::TypeKind;

std::string stubResultName(const model::Program &program, model::RecordId record, size_t index) {
  const auto &all = program.record(record).pureVirtuals;
  std::string name;
  for (char c : all[index].name) name.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  size_t overload = 1;
  for (size_t k = 0; k < index; ++k) overload += all[k].name == all[index].name;
  return name + "_result" + (overload > 1 ? std::to_string(overload) : "");
}

std::optional<std::vector<std::string>> BodyWriter::stubDefinition(model::RecordId id) const {
  const model::Record &r = p_.record(id);
  // A type as the override must spell it: no `void *` or `int` stand-in.
  auto exact = [&](model::TypeId type) -> std::optional<std::string> {
    const model::Type &v = p_.type(p_.type(type).value);
    if (v.kind == TypeKind::Enum && !nameable(v.id)) return std::nullopt;
    if (v.kind == TypeKind::Pointer && v.pointee) {
      const model::TypeId inner = p_.type(*v.pointee).value;
      if (!nameable(inner) && !pointable(inner)) return std::nullopt;
    }
    return spell(type);
  };
  const std::string name = stubClassName(p_, id);
  const std::vector<size_t> results = catalog_.stubResults(id);
  std::vector<std::string> lines{"// A " + r.name + " for the tests: each pure virtual does nothing and returns",
                                 results.empty() ? "// a default value." : "// a default value, or the result a test sets.",
                                 "class " + name + " : public " + r.name + " {", "public:"};
  for (size_t k : results) {
    auto type = exact(p_.type(r.pureVirtuals[k].result).value);
    if (!type) return std::nullopt;
    lines.push_back("  " + *type + " " + stubResultName(p_, id, k) + "{};");
  }
  for (size_t n = 0; n < r.pureVirtuals.size(); ++n) {
    const model::PureVirtual &v = r.pureVirtuals[n];
    std::string params;
    for (size_t i = 0; i < v.params.size(); ++i) {
      auto p = exact(v.params[i]);
      if (!p) return std::nullopt;
      params += (i ? ", " : "") + *p;
    }
    auto result = exact(v.result);
    if (!result) return std::nullopt;
    const std::string qualifiers = std::string(v.isConst ? " const" : "") +
                                   (v.refQualifier.empty() ? "" : " " + v.refQualifier) + (v.isNoexcept ? " noexcept" : "");
    // A result spelled with a declarator (`void (*)(int)`) goes after the
    // parameters.
    const bool trailing = result->find_first_of("([") != std::string::npos;
    std::string head = trailing ? "auto " + v.name + "(" + params + ")" + qualifiers + " -> " + *result
                                : *result + (result->back() == '*' || result->back() == '&' ? "" : " ") + v.name + "(" +
                                      params + ")" + qualifiers;
    const model::Type &declared = p_.type(v.result);
    std::string body;
    if (std::find(results.begin(), results.end(), n) != results.end())
      body = "{ return " + stubResultName(p_, id, n) + "; }";
    else if (declared.kind == TypeKind::Void) body = "{}";
    else if (declared.kind == TypeKind::Reference) {
      auto value = spell(declared.value);
      if (!value) return std::nullopt;
      body = "{\n    static " + std::string(declared.pointeeConst ? "const " : "") + *value + " value{};\n    return " +
             (declared.isRvalue ? "std::move(value)" : "value") + ";\n  }";
    } else if (p_.type(declared.value).kind == TypeKind::Record) {
      body = "{ return " + *result + "(); }";
    } else {
      body = "{ return {}; }";
    }
    lines.push_back("  " + head + " override " + body);
  }
  lines.push_back("};");
  return lines;
}

} // namespace mosaic::emit
