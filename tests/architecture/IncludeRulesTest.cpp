// The one-way dependencies, checked against the code: every #include of a
// mosaic header must follow an edge declared in CMake (component-graph.txt),
// and third-party walls hold: Clang and LLVM only in the front end (but
// LLVM's signal handling in the driver, for mosaic's own crash report), Z3
// only in the solver, libgit2 only in defect prediction.
#include "common/TestSupport.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using mosaic::test::readFile;

namespace {

const fs::path kSource = MOSAIC_SOURCE_DIR;

// component -> the components it declares as DEPS.
std::map<std::string, std::set<std::string>> componentGraph() {
  std::map<std::string, std::set<std::string>> g;
  std::istringstream in(readFile(std::string(MOSAIC_BINARY_DIR) + "/component-graph.txt"));
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    const auto bar = line.find('|');
    if (colon == std::string::npos || bar == std::string::npos) continue;
    std::istringstream deps(line.substr(colon + 1, bar - colon - 1));
    auto &set = g[line.substr(0, colon)];
    for (std::string d; deps >> d;) set.insert(d);
  }
  return g;
}

struct Include {
  fs::path file;
  std::string target;
};

// Every #include in the sources of a component (lib/<c>/ and include/mosaic/<c>/).
std::vector<Include> includesOf(const std::string &component) {
  static const std::regex kInclude(R"(^\s*#\s*include\s*[<"]([^>"]+)[>"])");
  std::vector<Include> out;
  for (const fs::path &dir : {kSource / "lib" / component, kSource / "include" / "mosaic" / component}) {
    if (!fs::exists(dir)) continue;
    for (const auto &e : fs::recursive_directory_iterator(dir)) {
      if (!e.is_regular_file()) continue;
      std::istringstream in(readFile(e.path()));
      std::smatch m;
      for (std::string line; std::getline(in, line);)
        if (std::regex_search(line, m, kInclude)) out.push_back({e.path(), m[1]});
    }
  }
  return out;
}

bool startsWith(const std::string &s, const std::string &prefix) { return s.rfind(prefix, 0) == 0; }

} // namespace

TEST(Architecture, GraphIsDeclaredAndAcyclic) {
  auto g = componentGraph();
  ASSERT_TRUE(g.count("model")) << "component-graph.txt missing or empty";
  // Depth-first search for a cycle.
  std::map<std::string, int> state; // 0 new, 1 on stack, 2 done
  std::function<bool(const std::string &)> cyclic = [&](const std::string &c) {
    if (state[c] == 1) return true;
    if (state[c] == 2) return false;
    state[c] = 1;
    for (const auto &d : g[c])
      if (cyclic(d)) return true;
    state[c] = 2;
    return false;
  };
  for (const auto &[c, deps] : g) EXPECT_FALSE(cyclic(c)) << "cycle through " << c;
}

TEST(Architecture, MosaicIncludesFollowDeclaredDependencies) {
  for (const auto &[component, deps] : componentGraph()) {
    for (const Include &inc : includesOf(component)) {
      if (!startsWith(inc.target, "mosaic/")) continue;
      const std::string other = inc.target.substr(7, inc.target.find('/', 7) - 7);
      EXPECT_TRUE(other == component || deps.count(other))
          << inc.file << " includes " << inc.target << " but component '" << component << "' does not depend on '"
          << other << "'";
    }
  }
}

TEST(Architecture, ThirdPartyWalls) {
  // Which component may include which third-party headers.
  // The longest prefix that matches an include decides.
  const std::map<std::string, std::set<std::string>> walls = {
      {"clang/", {"analysis"}},
      {"llvm/", {"analysis"}}, // and instrument/, which is not a component of the host
      // mosaic's own crash report (driver/CrashReport.cpp)
      {"llvm/Support/Signals.h", {"analysis", "driver"}},
      {"llvm/ADT/StringRef.h", {"analysis", "driver"}}, // what Signals.h takes
      {"z3", {"solver"}},
      {"git2", {"predict"}},
  };
  for (const auto &[component, deps] : componentGraph()) {
    for (const Include &inc : includesOf(component)) {
      const std::set<std::string> *allowedBy = nullptr;
      size_t longest = 0;
      for (const auto &[prefix, allowed] : walls)
        if (startsWith(inc.target, prefix) && prefix.size() > longest) {
          longest = prefix.size();
          allowedBy = &allowed;
        }
      if (allowedBy) {
        const std::set<std::string> &allowed = *allowedBy;
        EXPECT_TRUE(allowed.count(component)) << inc.file << " includes " << inc.target;
        // Even there, only in private sources: public headers stay free of it.
        EXPECT_EQ(inc.file.string().find("/include/mosaic/"), std::string::npos)
            << inc.file << " is a public header and includes " << inc.target;
      }
    }
  }
  // The pass and the runtime share only the ABI with mosaic.
  for (const char *part : {"instrument", "runtime"}) {
    for (const auto &e : fs::recursive_directory_iterator(kSource / part)) {
      if (!e.is_regular_file()) continue;
      std::istringstream in(readFile(e.path()));
      for (std::string line; std::getline(in, line);)
        if (line.find("#include \"mosaic/") != std::string::npos)
          EXPECT_NE(line.find("mosaic/abi/"), std::string::npos) << e.path() << ": " << line;
      if (std::string(part) == "runtime")
        EXPECT_EQ(readFile(e.path()).find("#include <llvm/"), std::string::npos) << e.path();
    }
  }
  // And the tool itself sees only the driver.
  std::istringstream in(readFile(kSource / "tools" / "mosaic" / "main.cpp"));
  for (std::string line; std::getline(in, line);)
    if (line.find("#include \"mosaic/") != std::string::npos)
      EXPECT_NE(line.find("mosaic/driver/"), std::string::npos) << line;
}
