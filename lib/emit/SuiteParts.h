// What the files that write a suite share (private to lib/emit): Suite.cpp
// writes the tests' bodies and hands them to TestFile.cpp (the test files),
// Wrapper.cpp (the wrapper translation unit) and CMakeFile.cpp (the
// CMakeLists.txt).
#pragma once

#include "Body.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mosaic::emit {

/// What every test file includes first, before the unit's configuration
/// macros and headers (TestFile.cpp): a project header's macros cannot
/// break them (mxml's config.h has `#define inline`, which turned
/// libstdc++'s inline namespaces in <filesystem> into errors). The suite's
/// CMakeLists.txt precompiles the same list (CMakeFile.cpp), so the order a
/// test file sees is the same with or without the precompiled header.
inline constexpr const char *kTestPrelude[] = {"<gtest/gtest.h>", "<cmath>",       "<cstdint>",   "<cstring>",
                                               "<filesystem>",    "<functional>",  "<limits>",    "<sstream>",
                                               "<string>",        "<string_view>", "<type_traits>", "<utility>",
                                               "<unistd.h>"};

/// Lines of a file being written, with what each belongs to, by line
/// number (a compiler's and GoogleTest's: text holding newlines is that
/// many lines, each of the site).
class Text {
public:
  void line(const std::string &text, std::optional<Site> site = std::nullopt) {
    for (size_t start = 0;;) {
      const size_t end = text.find('\n', start);
      lines_.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
      if (site) sites_[static_cast<int>(lines_.size())] = *site;
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  std::string str() const {
    std::string out;
    for (const std::string &l : lines_) out += l + "\n";
    return out;
  }
  std::map<int, Site> &sites() { return sites_; }

private:
  std::vector<std::string> lines_;
  std::map<int, Site> sites_;
};

/// A test whose body could be written.
struct Written {
  Body body;
  Site site;
  const SuiteTest *test;
};

/// What every part of one suite knows.
struct SuiteContext {
  const model::Program &program;
  const testcase::Catalog &catalog;
  const BodyWriter &writer;
  bool cxx;                ///< the unit is C++ (else C)
  std::string wrapperFile; ///< <stem>_wrapper.cpp or .c
  /// The wrapper's function that puts the unit's state back (Program::state).
  std::string restoreName;
  /// How the project builds the unit; its include folders say how a test
  /// file spells the unit's headers (Portable.h).
  const UnitBuild &build;
  /// WriteOptions::throughWrapper, for a C unit: the test files include no
  /// project header.
  bool throughWrapper = false;
};

/// Writes the test files of both kinds into `suite` (files, sites, tests,
/// testFiles, failingFiles): at most options.testsPerFile tests a file, at
/// least one file of each kind.
void writeTestFiles(const SuiteContext &context, const std::vector<Written> &written, const WriteOptions &options,
                    Suite &suite);

/// The wrapper translation unit: the unit itself, a trampoline for each
/// function in `trampolines`, and the saving and restoring of its state.
/// `variadic`: Body::variadicTrampolines of every test.
File writeWrapper(const SuiteContext &context, const std::set<model::CallableId> &trampolines,
                  const std::set<std::pair<model::CallableId, std::string>> &variadic);

/// The CMakeLists.txt that builds `suite`'s test files (already in
/// suite.testFiles and suite.failingFiles) against the unit.
File writeCMakeFile(const SuiteContext &context, const Suite &suite, const UnitBuild &build);

} // namespace mosaic::emit
