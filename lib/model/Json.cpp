// JSON (de)serialisation of the program model with nlohmann::json.
//
// Fields that do not apply to an entry (a pointee on an integer type, say)
// are left out; reading fills them with the struct's defaults.
#include "mosaic/model/Json.h"

#include <nlohmann/json.hpp>

namespace mosaic::model {

using Json = nlohmann::ordered_json;

namespace {

// Looks an enum value up by the name toString gives it; the enums are dense
// from 0 to `last`.
template <class E> E parseEnum(const Json &j, E last) {
  const std::string name = j.get<std::string>();
  for (int i = 0; i <= static_cast<int>(last); ++i)
    if (name == toString(static_cast<E>(i))) return static_cast<E>(i);
  throw std::runtime_error("unknown name '" + name + "'");
}

template <class T> void putOpt(Json &j, const char *key, const std::optional<T> &v) {
  if (v) j[key] = *v;
}
template <class T> void getOpt(const Json &j, const char *key, std::optional<T> &v) {
  if (auto it = j.find(key); it != j.end()) v = it->template get<T>();
}
template <class T> void getOr(const Json &j, const char *key, T &v) {
  if (auto it = j.find(key); it != j.end()) v = it->template get<T>();
}

} // namespace

void to_json(Json &j, const SourceRange &r) {
  j = Json{{"file", r.file}, {"begin", r.beginLine}, {"end", r.endLine}};
}
void from_json(const Json &j, SourceRange &r) {
  getOr(j, "file", r.file);
  getOr(j, "begin", r.beginLine);
  getOr(j, "end", r.endLine);
}

void to_json(Json &j, const Signature &s) {
  j = Json{{"result", s.result}, {"params", s.params}};
  if (s.variadic) j["variadic"] = true;
}
void from_json(const Json &j, Signature &s) {
  getOr(j, "result", s.result);
  getOr(j, "params", s.params);
  getOr(j, "variadic", s.variadic);
}

void to_json(Json &j, const Type &t) {
  j = Json{{"id", t.id}, {"kind", toString(t.kind)}, {"spelling", t.spelling}, {"canonical", t.canonical}};
  if (!t.aliases.empty()) j["aliases"] = t.aliases;
  if (t.isConst) j["const"] = true;
  if (t.value != t.id) j["value"] = t.value;
  if (t.bits) j["bits"] = t.bits;
  if (t.isSigned) j["signed"] = true;
  putOpt(j, "enum", t.enumId);
  putOpt(j, "pointee", t.pointee);
  if (t.pointeeConst) j["pointee_const"] = true;
  if (!t.cxxSpelling.empty()) j["cxx_spelling"] = t.cxxSpelling;
  if (t.spelledInUnit) j["spelled_in_unit"] = true;
  if (t.isRvalue) j["rvalue"] = true;
  putOpt(j, "element", t.element);
  if (t.length) j["length"] = t.length;
  putOpt(j, "key", t.key);
  if (!t.elements.empty()) j["elements"] = t.elements;
  putOpt(j, "record", t.recordId);
  putOpt(j, "signature", t.signature);
  if (!t.unsupportedReason.empty()) j["unsupported"] = t.unsupportedReason;
}
void from_json(const Json &j, Type &t) {
  getOr(j, "id", t.id);
  t.kind = parseEnum(j.at("kind"), TypeKind::Unsupported);
  getOr(j, "spelling", t.spelling);
  getOr(j, "canonical", t.canonical);
  getOr(j, "aliases", t.aliases);
  getOr(j, "const", t.isConst);
  t.value = t.id;
  getOr(j, "value", t.value);
  getOr(j, "bits", t.bits);
  getOr(j, "signed", t.isSigned);
  getOpt(j, "enum", t.enumId);
  getOpt(j, "pointee", t.pointee);
  getOr(j, "pointee_const", t.pointeeConst);
  getOr(j, "cxx_spelling", t.cxxSpelling);
  getOr(j, "spelled_in_unit", t.spelledInUnit);
  getOr(j, "rvalue", t.isRvalue);
  getOpt(j, "element", t.element);
  getOr(j, "length", t.length);
  getOpt(j, "key", t.key);
  getOr(j, "elements", t.elements);
  getOpt(j, "record", t.recordId);
  getOpt(j, "signature", t.signature);
  getOr(j, "unsupported", t.unsupportedReason);
}

void to_json(Json &j, const Enumerator &e) { j = Json{{"name", e.name}, {"value", e.value}}; }
void from_json(const Json &j, Enumerator &e) {
  getOr(j, "name", e.name);
  getOr(j, "value", e.value);
}

void to_json(Json &j, const Enum &e) {
  j = Json{{"id", e.id},       {"name", e.name},           {"scoped", e.scoped},
           {"underlying", e.underlying}, {"enumerators", e.enumerators}, {"location", e.location}};
}
void from_json(const Json &j, Enum &e) {
  getOr(j, "id", e.id);
  getOr(j, "name", e.name);
  getOr(j, "scoped", e.scoped);
  getOr(j, "underlying", e.underlying);
  getOr(j, "enumerators", e.enumerators);
  getOr(j, "location", e.location);
}

void to_json(Json &j, const Field &f) {
  j = Json{{"name", f.name}, {"type", f.type}, {"access", toString(f.access)}};
  if (f.bitWidth) j["bit_width"] = f.bitWidth;
  if (f.isStatic) j["static"] = true;
  if (f.pairedWith) j["paired_with"] = *f.pairedWith;
  if (f.isLength) j["is_length"] = true;
}
void from_json(const Json &j, Field &f) {
  getOr(j, "name", f.name);
  getOr(j, "type", f.type);
  f.access = parseEnum(j.at("access"), Access::Private);
  getOr(j, "bit_width", f.bitWidth);
  getOr(j, "static", f.isStatic);
  if (j.contains("paired_with")) f.pairedWith = j.at("paired_with").get<unsigned>();
  getOr(j, "is_length", f.isLength);
}

void to_json(Json &j, const PureVirtual &v) {
  j = Json{{"name", v.name}, {"result", v.result}, {"params", v.params}};
  if (v.isConst) j["const"] = true;
  if (v.isNoexcept) j["noexcept"] = true;
  if (!v.refQualifier.empty()) j["ref_qualifier"] = v.refQualifier;
}
void from_json(const Json &j, PureVirtual &v) {
  getOr(j, "name", v.name);
  getOr(j, "result", v.result);
  getOr(j, "params", v.params);
  getOr(j, "const", v.isConst);
  getOr(j, "noexcept", v.isNoexcept);
  getOr(j, "ref_qualifier", v.refQualifier);
}

void to_json(Json &j, const Record &r) {
  j = Json{{"id", r.id},
           {"name", r.name},
           {"type", r.type},
           {"tag", toString(r.tag)},
           {"complete", r.complete},
           {"cxx", r.isCxx},
           {"system", r.inSystemHeader},
           {"owned_by_unit", r.ownedByUnit},
           {"declared_outside_unit", r.declaredOutsideUnit},
           {"aggregate", r.aggregate},
           {"abstract", r.abstract},
           {"polymorphic", r.polymorphic},
           {"default_constructible", r.defaultConstructible},
           {"copy_constructible", r.copyConstructible},
           {"move_constructible", r.moveConstructible},
           {"public_destructor", r.publicDestructor}};
  if (!r.templateName.empty()) {
    j["template"] = r.templateName;
    j["template_args"] = r.templateArgs;
  }
  if (!r.bases.empty()) j["bases"] = r.bases;
  if (r.abstract && r.isCxx) {
    j["pure_virtuals"] = r.pureVirtuals;
    if (!r.notSubclassable.empty()) j["not_subclassable"] = r.notSubclassable;
  }
  j["fields"] = r.fields;
  j["constructors"] = r.constructors;
  j["methods"] = r.methods;
  j["factories"] = r.factories;
  j["location"] = r.location;
}
void from_json(const Json &j, Record &r) {
  getOr(j, "id", r.id);
  getOr(j, "name", r.name);
  getOr(j, "type", r.type);
  r.tag = parseEnum(j.at("tag"), RecordTag::Union);
  getOr(j, "complete", r.complete);
  getOr(j, "cxx", r.isCxx);
  getOr(j, "system", r.inSystemHeader);
  getOr(j, "owned_by_unit", r.ownedByUnit);
  getOr(j, "declared_outside_unit", r.declaredOutsideUnit);
  getOr(j, "aggregate", r.aggregate);
  getOr(j, "abstract", r.abstract);
  getOr(j, "polymorphic", r.polymorphic);
  getOr(j, "default_constructible", r.defaultConstructible);
  getOr(j, "copy_constructible", r.copyConstructible);
  getOr(j, "move_constructible", r.moveConstructible);
  getOr(j, "public_destructor", r.publicDestructor);
  getOr(j, "template", r.templateName);
  getOr(j, "template_args", r.templateArgs);
  getOr(j, "bases", r.bases);
  getOr(j, "pure_virtuals", r.pureVirtuals);
  getOr(j, "not_subclassable", r.notSubclassable);
  getOr(j, "fields", r.fields);
  getOr(j, "constructors", r.constructors);
  getOr(j, "methods", r.methods);
  getOr(j, "factories", r.factories);
  getOr(j, "location", r.location);
}

void to_json(Json &j, const Param &p) {
  j = Json{{"name", p.name}, {"type", p.type}, {"role", toString(p.role)}};
  putOpt(j, "paired_with", p.pairedWith);
  if (p.written) j["written"] = true;
  if (p.hasDefault) j["has_default"] = true;
  putOpt(j, "declared_length", p.declaredLength);
  if (p.nonnull) j["nonnull"] = true;
}
void from_json(const Json &j, Param &p) {
  getOr(j, "name", p.name);
  getOr(j, "type", p.type);
  p.role = parseEnum(j.at("role"), ParamRole::End);
  getOpt(j, "paired_with", p.pairedWith);
  getOr(j, "written", p.written);
  getOr(j, "has_default", p.hasDefault);
  getOpt(j, "declared_length", p.declaredLength);
  getOr(j, "nonnull", p.nonnull);
}

namespace {

// Literals are bytes, not always UTF-8: each is stored as a JSON string when
// it is valid UTF-8 text, else as {"bytes": [...]}, so the JSON stays valid.
Json bytesToJson(const std::vector<std::string> &list) {
  Json out = Json::array();
  for (const auto &s : list) {
    try {
      Json probe = s;
      (void)probe.dump();
      out.push_back(s);
    } catch (const Json::type_error &) {
      Json bytes = Json::array();
      for (unsigned char ch : s) bytes.push_back(ch);
      out.push_back(Json{{"bytes", bytes}});
    }
  }
  return out;
}

std::vector<std::string> bytesFromJson(const Json &list) {
  std::vector<std::string> out;
  for (const auto &s : list) {
    if (s.is_string()) {
      out.push_back(s.get<std::string>());
    } else {
      std::string bytes;
      for (const auto &b : s.at("bytes")) bytes.push_back(static_cast<char>(b.get<int>()));
      out.push_back(bytes);
    }
  }
  return out;
}

} // namespace

void to_json(Json &j, const Constants &c) {
  j = Json::object();
  if (!c.integers.empty()) j["integers"] = c.integers;
  if (!c.floats.empty()) j["floats"] = c.floats;
  if (!c.chars.empty()) j["chars"] = c.chars;
  if (!c.strings.empty()) j["strings"] = bytesToJson(c.strings);
}
void from_json(const Json &j, Constants &c) {
  getOr(j, "integers", c.integers);
  getOr(j, "floats", c.floats);
  getOr(j, "chars", c.chars);
  if (auto it = j.find("strings"); it != j.end()) c.strings = bytesFromJson(*it);
}

void to_json(Json &j, const Callable &c) {
  j = Json{{"id", c.id},
           {"kind", toString(c.kind)},
           {"name", c.name},
           {"qualified_name", c.qualifiedName},
           {"signature", c.signature}};
  if (!c.linkageNames.empty()) j["linkage_names"] = c.linkageNames;
  putOpt(j, "parent", c.parent);
  j["result"] = c.result;
  j["params"] = c.params;
  j["origin"] = toString(c.origin);
  auto flag = [&](const char *key, bool v) {
    if (v) j[key] = true;
  };
  flag("internal_linkage", c.internalLinkage);
  flag("declared_in_main_header", c.declaredInMainHeader);
  flag("declared_in_header", c.declaredInHeader);
  flag("internal_api", c.internalApi);
  flag("c_linkage", c.cLinkage);
  flag("const", c.isConst);
  flag("has_non_const_twin", c.hasNonConstTwin);
  flag("macro_shadowed", c.macroShadowed);
  if (!c.macroOf.empty()) j["macro_of"] = c.macroOf;
  flag("global_object", c.globalObject);
  flag("virtual", c.isVirtual);
  flag("noexcept", c.isNoexcept);
  flag("variadic", c.variadic);
  flag("overloaded", c.overloaded);
  putOpt(j, "format_param", c.formatParam);
  putOpt(j, "deprecated", c.deprecated);
  flag("scanf_format", c.scanfFormat);
  flag("inline", c.isInline);
  flag("implicit", c.isImplicit);
  flag("explicit", c.isExplicit);
  flag("template_instance", c.isTemplateInstance);
  flag("default_constructor", c.isDefaultConstructor);
  flag("copy_constructor", c.isCopyConstructor);
  flag("move_constructor", c.isMoveConstructor);
  if (!c.operatorSpelling.empty()) j["operator"] = c.operatorSpelling;
  j["location"] = c.location;
  j["constants"] = c.constants;
}
void from_json(const Json &j, Callable &c) {
  getOr(j, "id", c.id);
  c.kind = parseEnum(j.at("kind"), CallableKind::Operator);
  getOr(j, "name", c.name);
  getOr(j, "qualified_name", c.qualifiedName);
  getOr(j, "signature", c.signature);
  getOr(j, "linkage_names", c.linkageNames);
  getOpt(j, "parent", c.parent);
  getOr(j, "result", c.result);
  getOr(j, "params", c.params);
  c.origin = parseEnum(j.at("origin"), Origin::External);
  getOr(j, "internal_linkage", c.internalLinkage);
  getOr(j, "declared_in_main_header", c.declaredInMainHeader);
  getOr(j, "declared_in_header", c.declaredInHeader);
  getOr(j, "internal_api", c.internalApi);
  getOr(j, "c_linkage", c.cLinkage);
  getOr(j, "const", c.isConst);
  getOr(j, "has_non_const_twin", c.hasNonConstTwin);
  getOr(j, "macro_shadowed", c.macroShadowed);
  getOr(j, "macro_of", c.macroOf);
  getOr(j, "global_object", c.globalObject);
  getOr(j, "virtual", c.isVirtual);
  getOr(j, "noexcept", c.isNoexcept);
  getOr(j, "variadic", c.variadic);
  getOr(j, "overloaded", c.overloaded);
  getOpt(j, "format_param", c.formatParam);
  getOpt(j, "deprecated", c.deprecated);
  getOr(j, "scanf_format", c.scanfFormat);
  getOr(j, "inline", c.isInline);
  getOr(j, "implicit", c.isImplicit);
  getOr(j, "explicit", c.isExplicit);
  getOr(j, "template_instance", c.isTemplateInstance);
  getOr(j, "default_constructor", c.isDefaultConstructor);
  getOr(j, "copy_constructor", c.isCopyConstructor);
  getOr(j, "move_constructor", c.isMoveConstructor);
  getOr(j, "operator", c.operatorSpelling);
  getOr(j, "location", c.location);
  getOr(j, "constants", c.constants);
}

void to_json(Json &j, const Skipped &s) {
  j = Json{{"name", s.name}, {"what", s.what}, {"reason", s.reason}, {"location", s.location}};
  putOpt(j, "parent", s.parent);
}
void from_json(const Json &j, Skipped &s) {
  getOr(j, "name", s.name);
  getOr(j, "what", s.what);
  getOr(j, "reason", s.reason);
  getOr(j, "location", s.location);
  getOpt(j, "parent", s.parent);
}

void to_json(Json &j, const ConfigMacro &m) {
  j = Json{{"definition", m.definition}, {"undef", m.undef}, {"before_include", m.beforeInclude}};
}
void from_json(const Json &j, ConfigMacro &m) {
  getOr(j, "definition", m.definition);
  getOr(j, "undef", m.undef);
  getOr(j, "before_include", m.beforeInclude);
}

std::string toJson(const Program &p) {
  Json j{{"format", Program::kFormatVersion},
         {"unit", p.unit},
         {"main_header", p.mainHeader},
         {"directory", p.directory},
         {"compile_database", p.compileDatabase},
         {"language", p.language},
         {"compile_command", p.compileCommand},
         {"notes", p.notes},
         {"targets", p.targets},
         {"callables", p.callables},
         {"records", p.records},
         {"enums", p.enums},
         {"types", p.types},
         {"skipped", p.skipped},
         {"state", p.state},
         {"unit_macros", p.unitMacros},
         {"unit_includes", p.unitIncludes},
         {"configuration", p.configuration},
         {"completing_headers", p.completingHeaders},
         {"excluded_headers", p.excludedHeaders},
         {"unit_blocks", p.unitBlocks},
         {"samples", bytesToJson(p.samples)}};
  // The literal keys hold a literal's bytes: stored as the samples are.
  std::vector<std::string> keys;
  std::vector<std::uint32_t> holding;
  for (const auto &[key, files] : p.literalDocuments.holding) keys.push_back(key), holding.push_back(files);
  j["literal_documents"] = {{"files", p.literalDocuments.files}, {"keys", bytesToJson(keys)}, {"holding", holding}};
  // Invalid UTF-8 can only come from names and paths here (literals were
  // handled above); replace rather than throw.
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

Expected<Program> programFromJson(const std::string &text) {
  try {
    Json j = Json::parse(text);
    const int format = j.at("format").get<int>();
    if (format != Program::kFormatVersion)
      return Error::input("model JSON has format " + std::to_string(format) + ", this mosaic reads " +
                          std::to_string(Program::kFormatVersion));
    Program p;
    getOr(j, "unit", p.unit);
    getOr(j, "main_header", p.mainHeader);
    getOr(j, "directory", p.directory);
    getOr(j, "compile_database", p.compileDatabase);
    getOr(j, "language", p.language);
    getOr(j, "compile_command", p.compileCommand);
    getOr(j, "notes", p.notes);
    getOr(j, "targets", p.targets);
    getOr(j, "callables", p.callables);
    getOr(j, "records", p.records);
    getOr(j, "enums", p.enums);
    getOr(j, "types", p.types);
    getOr(j, "skipped", p.skipped);
    getOr(j, "state", p.state);
    getOr(j, "unit_macros", p.unitMacros);
    getOr(j, "unit_includes", p.unitIncludes);
    getOr(j, "configuration", p.configuration);
    getOr(j, "completing_headers", p.completingHeaders);
    getOr(j, "excluded_headers", p.excludedHeaders);
    getOr(j, "unit_blocks", p.unitBlocks);
    if (auto it = j.find("samples"); it != j.end()) p.samples = bytesFromJson(*it);
    if (auto it = j.find("literal_documents"); it != j.end()) {
      p.literalDocuments.files = it->value("files", 0u);
      const std::vector<std::string> keys = bytesFromJson(it->at("keys"));
      const auto holding = it->at("holding").get<std::vector<std::uint32_t>>();
      for (size_t k = 0; k < keys.size() && k < holding.size(); ++k) p.literalDocuments.holding[keys[k]] = holding[k];
    }
    return p;
  } catch (const std::exception &e) {
    return Error::input(std::string("malformed model JSON: ") + e.what());
  }
}

} // namespace mosaic::model
