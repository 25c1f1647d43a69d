// mosaic analyze on cJSON (Debian source package cjson), checked against
// oracles that do not use Clang: the CJSON_PUBLIC declarations of cJSON.h
// read as text, and the static functions of cJSON.c as gcc's preprocessor
// leaves them (so that MSVC-only code is not counted).
#include "subjects/SubjectSupport.h"

#include <iostream>
#include <map>
#include <set>
#include <sstream>

using namespace mosaic::test;
using Json = nlohmann::json;

namespace {

struct Declared {
  std::string result;
  std::vector<std::string> params; // squeezed types, names and top-level const removed
};

// "const cJSON * const item" -> "constcJSON*"
std::string paramType(std::string p) {
  static const std::regex kNamed(R"(^(.*[\s\*&])[A-Za-z_]\w*$)");
  std::smatch m;
  p = std::regex_replace(p, std::regex(R"(^\s+|\s+$)"), "");
  if (std::regex_match(p, m, kNamed)) p = m[1];
  std::string t = squeeze(p);
  // Top-level const is not part of the function's type: `T *const` and a
  // `const T` value parameter.
  if (t.size() > 6 && t.compare(t.size() - 6, 6, "*const") == 0) t.resize(t.size() - 5);
  if (t.find_first_of("*&") == std::string::npos && t.rfind("const", 0) == 0) t = t.substr(5);
  return t;
}

std::map<std::string, Declared> publicDeclarations(const std::string &header) {
  std::string text;
  std::istringstream in(stripComments(readFile(header)));
  for (std::string line; std::getline(in, line);)
    if (line.find('#') == std::string::npos) text += line + " ";
  static const std::regex kDecl(R"(CJSON_PUBLIC\(([^()]*)\)\s*([A-Za-z_]\w*)\s*\(([^()]*)\)\s*;)");
  std::map<std::string, Declared> out;
  for (std::sregex_iterator it(text.begin(), text.end(), kDecl), end; it != end; ++it) {
    Declared d;
    d.result = squeeze((*it)[1]);
    std::string params = (*it)[3];
    if (squeeze(params) != "void") {
      std::istringstream ps(params);
      for (std::string p; std::getline(ps, p, ',');) d.params.push_back(paramType(p));
    }
    out[(*it)[2]] = d;
  }
  return out;
}

// Static function definitions of `unit`, from `gcc -E` output restricted to
// the lines that come from the unit itself.
std::set<std::string> staticDefinitions(const std::string &unit) {
  const std::string dir = makeTempDir("mosaic-cpp");
  auto r = runProcess({"/usr/bin/gcc", "-E", "-x", "c", unit, "-o", dir + "/unit.i"});
  if (r.exitCode != 0) throw std::runtime_error("gcc -E failed: " + r.err);
  std::istringstream in(readFile(dir + "/unit.i"));
  static const std::regex kMarker(R"re(^# \d+ "([^"]*)")re");
  std::string own;
  bool inUnit = false;
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, m, kMarker)) {
      inUnit = m[1] == unit;
      continue;
    }
    if (inUnit) own += line + "\n";
  }
  static const std::regex kStatic(R"((?:^|\n)\s*static\s+[^;{}=()]*?\b([A-Za-z_]\w*)\s*\([^;{}]*\)\s*\{)");
  std::set<std::string> out;
  for (std::sregex_iterator it(own.begin(), own.end(), kStatic), end; it != end; ++it) out.insert((*it)[1]);
  return out;
}

const Json *callableNamed(const Json &model, const std::string &name) {
  for (const Json &c : model["callables"])
    if (c["name"] == name) return &c;
  return nullptr;
}

std::string typeSpelling(const Json &model, const Json &id) { return model["types"][id.get<size_t>()]["spelling"]; }

void checkUnit(const std::string &unit, const std::string &header, const char *label) {
  const std::string src = subjectDir("cjson") + "/src/";
  const Json model = analyzeSubject("cjson", unit);
  const auto declared = publicDeclarations(src + header);
  ASSERT_GT(declared.size(), 10u) << "the oracle found too little in " << header;

  size_t found = 0, typesRight = 0;
  for (const auto &[name, decl] : declared) {
    const Json *c = callableNamed(model, name);
    EXPECT_NE(c, nullptr) << name << " declared in " << header << " is missing from the model";
    if (!c) continue;
    ++found;
    EXPECT_EQ((*c)["origin"], "unit") << name;
    std::vector<std::string> params;
    for (const Json &p : (*c)["params"]) params.push_back(squeeze(typeSpelling(model, p["type"])));
    const bool same = params == decl.params && squeeze(typeSpelling(model, (*c)["result"])) == decl.result;
    EXPECT_TRUE(same) << name << ": model has " << (*c)["signature"] << " returning "
                      << typeSpelling(model, (*c)["result"]);
    typesRight += same;
  }

  const auto statics = staticDefinitions(src + unit);
  size_t staticsFound = 0;
  for (const std::string &s : statics) {
    const Json *c = callableNamed(model, s);
    EXPECT_TRUE(c && (*c).value("internal_linkage", false)) << "static " << s << " missing or not internal";
    staticsFound += c != nullptr;
  }
  std::map<std::string, size_t> reasons;
  for (const Json &s : model["skipped"]) ++reasons[s["reason"].get<std::string>()];

  std::cout << label << ": " << found << " of " << declared.size() << " CJSON_PUBLIC functions found (" << typesRight
            << " with matching parameter and result types), " << staticsFound << " of " << statics.size()
            << " static functions found, " << model["skipped"].size() << " skipped\n";
  for (const auto &[reason, n] : reasons) std::cout << "  skipped " << n << ": " << reason << "\n";
  ::testing::Test::RecordProperty(std::string(label) + "_public_found", std::to_string(found) + "/" + std::to_string(declared.size()));
  ::testing::Test::RecordProperty(std::string(label) + "_static_found", std::to_string(staticsFound) + "/" + std::to_string(statics.size()));
}

} // namespace

TEST(Cjson, EveryPublicAndStaticFunctionOfCJsonC) {
  if (!subjectReady("cjson")) GTEST_SKIP() << "cjson was not fetched (offline?)";
  checkUnit("cJSON.c", "cJSON.h", "cJSON.c");
}

TEST(Cjson, EveryPublicAndStaticFunctionOfCJsonUtilsC) {
  if (!subjectReady("cjson")) GTEST_SKIP() << "cjson was not fetched (offline?)";
  checkUnit("cJSON_Utils.c", "cJSON_Utils.h", "cJSON_Utils.c");
}

TEST(Cjson, OpaqueStructAndItsFactories) {
  if (!subjectReady("cjson")) GTEST_SKIP() << "cjson was not fetched (offline?)";
  const Json model = analyzeSubject("cjson", "cJSON.c");
  const Json *record = nullptr;
  for (const Json &r : model["records"])
    if (r["name"] == "cJSON") record = &r;
  ASSERT_NE(record, nullptr);
  std::set<std::string> factories;
  for (const Json &id : (*record)["factories"]) factories.insert(model["callables"][id.get<size_t>()]["name"]);
  for (const char *f : {"cJSON_Parse", "cJSON_CreateObject", "cJSON_CreateString", "cJSON_Duplicate", "cJSON_GetObjectItem"})
    EXPECT_TRUE(factories.count(f)) << f;
  // cJSON_ParseWithOpts(const char *value, const char **return_parse_end, ...)
  const Json *opts = callableNamed(model, "cJSON_ParseWithOpts");
  ASSERT_NE(opts, nullptr);
  EXPECT_EQ((*opts)["params"][0]["role"], "c_string");
  EXPECT_EQ((*opts)["params"][1]["role"], "out");
  const Json *withLength = callableNamed(model, "cJSON_ParseWithLength");
  ASSERT_NE(withLength, nullptr);
  EXPECT_EQ((*withLength)["params"][0]["role"], "buffer");
  EXPECT_EQ((*withLength)["params"][1]["role"], "length");
  // The literals parse_value compares with and the characters parse_number
  // accepts are mined as constants.
  const Json *parseValue = callableNamed(model, "parse_value");
  ASSERT_NE(parseValue, nullptr);
  std::set<std::string> strings;
  for (const Json &s : (*parseValue)["constants"]["strings"]) strings.insert(s.get<std::string>());
  EXPECT_TRUE(strings.count("null") && strings.count("false") && strings.count("true"));
  const Json *parseNumber = callableNamed(model, "parse_number");
  ASSERT_NE(parseNumber, nullptr);
  std::set<int> chars;
  for (const Json &c : (*parseNumber)["constants"]["chars"]) chars.insert(c.get<int>());
  for (char c : {'0', '9', '+', '-', 'e', 'E', '.'}) EXPECT_TRUE(chars.count(c)) << c;
}

// The execution engine on real code: the harness builds with no hand edits,
// random tests run through the fork server, every test is performed.
TEST(Cjson, RandomTestingRunsOnCJsonC) {
  if (!subjectReady("cjson")) GTEST_SKIP() << "cjson was not fetched (offline?)";
  const Json j = runSubject("cjson", "cJSON.c", 3000);
  EXPECT_EQ(j["executions"].get<int>(), 3000);
  EXPECT_TRUE(j["harness_errors"].empty()) << j["harness_errors"].dump(2);
  EXPECT_TRUE(j["not_callable"].empty()) << j["not_callable"].dump(2);
  EXPECT_GT(j["goals"]["branch"]["covered"].get<int>(), 300);
}

TEST(Cjson, RandomTestingRunsOnCJsonUtilsCLinkedWithTheRestOfTheProject) {
  if (!subjectReady("cjson")) GTEST_SKIP() << "cjson was not fetched (offline?)";
  const Json j = runSubject("cjson", "cJSON_Utils.c", 2000);
  EXPECT_EQ(j["executions"].get<int>(), 2000);
  EXPECT_TRUE(j["harness_errors"].empty()) << j["harness_errors"].dump(2);
  EXPECT_GT(j["goals"]["branch"]["covered"].get<int>(), 100);
}

TEST(Cjson, GeneratedSuiteCompilesPassesAndCovers) {
  if (!subjectReady("cjson")) GTEST_SKIP() << "cjson was not fetched (offline?)";
  expectGeneratedSuiteCompilesPassesAndCovers("cjson", "cJSON.c");
}
