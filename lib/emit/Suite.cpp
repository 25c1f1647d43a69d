// Writing a suite: each test's body first (they say which functions need
// the wrapper), then the test files (TestFile.cpp), the wrapper translation
// unit (Wrapper.cpp) and the CMakeLists.txt (CMakeFile.cpp).
#include "mosaic/emit/Suite.h"

#include "SuiteParts.h"

#include <cctype>
#include <filesystem>
#include <set>

namespace mosaic::emit {

namespace fs = std::filesystem;

Suite writeSuite(const model::Program &p, const testcase::Catalog &catalog, const std::vector<SuiteTest> &passing,
                 const std::vector<SuiteTest> &failing, const UnitBuild &build, const WriteOptions &options) {
  Suite suite;
  const bool cxx = p.language == "c++";
  suite.stem = fs::path(p.unit).stem().string();
  for (char c : suite.stem) suite.ident.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  const std::string &ident = suite.ident;
  const std::string wrapperFile = suite.stem + "_wrapper" + (cxx ? ".cpp" : ".c");
  BodyWriter writer(p, catalog, options);

  // Bodies first: they say which static functions need a wrapper.
  std::vector<Written> written;
  std::set<model::CallableId> trampolines;
  std::set<std::pair<model::CallableId, std::string>> variadic;
  for (int failingSuite = 0; failingSuite < 2; ++failingSuite) {
    const auto &tests = failingSuite ? failing : passing;
    for (size_t i = 0; i < tests.size(); ++i) {
      Site site{i, -1, failingSuite == 1};
      Body b = writer.write(tests[i], failingSuite == 0);
      if (!b.unwritable.empty()) {
        suite.unwritable.emplace_back(site, b.unwritable);
        continue;
      }
      trampolines.insert(b.trampolines.begin(), b.trampolines.end());
      variadic.insert(b.variadicTrampolines.begin(), b.variadicTrampolines.end());
      written.push_back({std::move(b), site, &tests[i]});
    }
  }

  const SuiteContext context{p,     catalog, writer, cxx, wrapperFile, "mosaic_" + ident + "_restore_state",
                             build, options.throughWrapper && !cxx};
  writeTestFiles(context, written, options, suite);
  suite.files.push_back(writeWrapper(context, trampolines, variadic));
  suite.files.push_back(writeCMakeFile(context, suite, build));
  return suite;
}

} // namespace mosaic::emit
