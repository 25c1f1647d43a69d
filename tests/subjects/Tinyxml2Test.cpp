// mosaic analyze on tinyxml2.cpp (Debian source package tinyxml2), checked
// against an oracle that does not use Clang: the public classes,
// constructors and methods that Universal Ctags finds in tinyxml2.h. Every
// one must be in the model, either as a callable or as skipped with a reason.
#include "subjects/SubjectSupport.h"

#include <iostream>
#include <map>
#include <set>
#include <sstream>

using namespace mosaic::test;
using Json = nlohmann::json;

namespace {

// Number of parameters in a ctags signature "(const char* a, int b = 0) const".
size_t arity(const std::string &signature) {
  const auto open = signature.find('('), close = signature.rfind(')');
  if (open == std::string::npos || close == std::string::npos) return 0;
  const std::string inside = signature.substr(open + 1, close - open - 1);
  if (squeeze(inside).empty() || squeeze(inside) == "void") return 0;
  size_t n = 1;
  int depth = 0;
  for (char c : inside) {
    if (c == '(' || c == '<' || c == '[') ++depth;
    else if (c == ')' || c == '>' || c == ']') --depth;
    else if (c == ',' && depth == 0) ++n;
  }
  return n;
}

bool isConst(const std::string &signature) {
  const auto close = signature.rfind(')');
  return close != std::string::npos && signature.find("const", close) != std::string::npos;
}

struct Member {
  std::string qualifiedName; // scope::name, with a class template's own name
  size_t arity = 0;
  bool isConst = false;
  bool operator<(const Member &o) const {
    return std::tie(qualifiedName, arity, isConst) < std::tie(o.qualifiedName, o.arity, o.isConst);
  }
};

std::vector<Json> ctagsOf(const std::string &header) {
  const std::string out = makeTempDir("mosaic-ctags") + "/tags.json";
  auto r = runProcess({"/usr/bin/ctags", "--languages=C++", "--kinds-C++=fpc", "--fields=+aSK",
                       "--fields-C++=+{properties}", "--output-format=json", "-o", out, header});
  if (r.exitCode != 0) throw std::runtime_error("ctags failed: " + r.err);
  std::vector<Json> rows;
  std::istringstream in(readFile(out));
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    Json row = Json::parse(line);
    if (row.value("_type", "") == "tag") rows.push_back(std::move(row)); // not the pseudo-tags
  }
  return rows;
}

} // namespace

TEST(Tinyxml2, EveryPublicClassConstructorAndMethodOfTheHeader) {
  if (!subjectReady("tinyxml2")) GTEST_SKIP() << "tinyxml2 was not fetched (offline?)";
  const std::string header = subjectDir("tinyxml2") + "/src/tinyxml2.h";
  const Json model = analyzeSubject("tinyxml2", "tinyxml2.cpp");

  // The oracle: public classes at namespace scope and their public members.
  std::set<std::string> classes;
  std::set<Member> members;
  for (const Json &t : ctagsOf(header)) {
    const std::string kind = t["kind"], scopeKind = t.value("scopeKind", ""), name = t["name"];
    if (kind == "class" && scopeKind == "namespace") classes.insert(t["scope"].get<std::string>() + "::" + name);
  }
  for (const Json &t : ctagsOf(header)) {
    const std::string kind = t["kind"];
    // ctags writes "operator []"; Clang "operator[]".
    const std::string name = std::regex_replace(t["name"].get<std::string>(), std::regex("^operator "), "operator");
    if ((kind != "function" && kind != "prototype") || t.value("scopeKind", "") != "class") continue;
    if (t.value("access", "") != "public" || !classes.count(t["scope"].get<std::string>())) continue;
    if (name.rfind('~', 0) == 0) continue; // destructors are not called by tests
    if (t.value("pattern", "").find("= delete") != std::string::npos) continue;
    members.insert({t["scope"].get<std::string>() + "::" + name, arity(t.value("signature", "()")),
                    isConst(t.value("signature", ""))});
  }
  ASSERT_GT(classes.size(), 10u);
  ASSERT_GT(members.size(), 100u);

  // The model, with class template instantiations named by their template.
  std::set<std::string> modelClasses;
  std::map<size_t, std::string> recordName;
  for (const Json &r : model["records"]) {
    const std::string name = r.contains("template") ? r["template"].get<std::string>() : r["name"].get<std::string>();
    recordName[r["id"].get<size_t>()] = name;
    modelClasses.insert(name);
  }
  std::set<Member> modelMembers;
  for (const Json &c : model["callables"]) {
    if (!c.contains("parent")) continue;
    const std::string name = recordName[c["parent"].get<size_t>()] + "::" + c["name"].get<std::string>();
    modelMembers.insert({name, c["params"].size(), c.value("const", false)});
  }
  std::map<std::string, std::string> skipped; // qualified name (template's) -> reason
  for (const Json &s : model["skipped"]) {
    std::string name = s["name"];
    name = std::regex_replace(name, std::regex(R"(<[^:]*>::)"), "::"); // DynArray<char, 20>::X -> DynArray::X
    skipped[name] = s["reason"];
  }

  size_t classesFound = 0, found = 0;
  std::map<std::string, size_t> skippedReasons;
  for (const std::string &c : classes) {
    EXPECT_TRUE(modelClasses.count(c)) << "class " << c;
    classesFound += modelClasses.count(c);
  }
  for (const Member &m : members) {
    if (modelMembers.count(m)) {
      ++found;
    } else if (auto it = skipped.find(m.qualifiedName); it != skipped.end()) {
      ++skippedReasons[it->second];
    } else {
      ADD_FAILURE() << m.qualifiedName << "/" << m.arity << (m.isConst ? " const" : "")
                    << " is neither a callable nor skipped";
    }
  }
  size_t skippedTotal = 0;
  for (const auto &[r, n] : skippedReasons) skippedTotal += n;
  std::cout << "tinyxml2.cpp: " << classesFound << " of " << classes.size() << " public classes found; " << found
            << " of " << members.size() << " public constructors and methods found, " << skippedTotal
            << " skipped:\n";
  for (const auto &[reason, n] : skippedReasons) std::cout << "  " << n << ": " << reason << "\n";
  RecordProperty("classes_found", std::to_string(classesFound) + "/" + std::to_string(classes.size()));
  RecordProperty("members_found", std::to_string(found) + "/" + std::to_string(members.size()));
}

TEST(Tinyxml2, RandomTestingRunsOnTinyxml2Cpp) {
  if (!subjectReady("tinyxml2")) GTEST_SKIP() << "tinyxml2 was not fetched (offline?)";
  const Json j = runSubject("tinyxml2", "tinyxml2.cpp", 3000);
  EXPECT_EQ(j["executions"].get<int>(), 3000);
  EXPECT_TRUE(j["harness_errors"].empty()) << j["harness_errors"].dump(2);
  EXPECT_GT(j["goals"]["branch"]["covered"].get<int>(), 100);
}

TEST(Tinyxml2, GeneratedSuiteCompilesPassesAndCovers) {
  if (!subjectReady("tinyxml2")) GTEST_SKIP() << "tinyxml2 was not fetched (offline?)";
  expectGeneratedSuiteCompilesPassesAndCovers("tinyxml2", "tinyxml2.cpp");
}
