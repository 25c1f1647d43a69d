// The suite's CMakeLists.txt: the unit (through the wrapper) and the rest
// of the project with their own flags, the two test executables, and
// options for coverage and sanitizers.
#include "Portable.h"
#include "SuiteParts.h"
#include "mosaic/support/RenamedMain.h"
#include "mosaic/support/Text.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

namespace mosaic::emit {

namespace fs = std::filesystem;

namespace {

// Flags a test file needs from the unit's: where headers are and what is defined.
std::vector<std::string> preprocessorFlags(const std::vector<std::string> &flags) {
  std::vector<std::string> out;
  for (size_t i = 0; i < flags.size(); ++i) {
    const std::string &f = flags[i];
    for (const char *p : {"-I", "-D", "-U", "-isystem", "-iquote"}) {
      const std::string prefix = p;
      if (f == prefix && i + 1 < flags.size()) {
        out.push_back(f);
        out.push_back(flags[++i]);
        break;
      }
      if (f.rfind(prefix, 0) == 0 && f.size() > prefix.size()) {
        out.push_back(f);
        break;
      }
    }
  }
  return out;
}

} // namespace

File writeCMakeFile(const SuiteContext &context, const Suite &suite, const UnitBuild &build) {
  const model::Program &p = context.program;
  const ProjectPaths paths(build);
  auto path = [&](const std::string &file) { return cmakeQuotePath(paths.cmakePath(file)); };
  auto flag = [&](const std::string &f) { return cmakeQuotePath(paths.cmakeFlag(f)); };
  const std::string &ident = suite.ident;
  const std::string &wrapperFile = context.wrapperFile;
  std::ostringstream cm;
  const std::string unitLib = ident + "_unit";
  // CMake 3.16: ours, a floor rather than a tested minimum.
  cm << "# " << kGeneratedMarker << ": builds the tests of " << fs::path(p.unit).filename().string()
     << " against the unit, compiled with its project's flags.\n"
     << "#   cmake -S . -B build && cmake --build build && ctest --test-dir build\n"
     << "# -DMOSAIC_COVERAGE=ON measures coverage with clang's source-based coverage;\n"
     << "# -DMOSAIC_SANITIZE=ON builds with AddressSanitizer and UndefinedBehaviorSanitizer.\n"
     << "cmake_minimum_required(VERSION 3.16)\n"
     << "# The unit's flags are as mosaic's front end (Clang 19) read them, and may be\n"
     << "# Clang's own: Clang builds the suite unless -DCMAKE_C_COMPILER and\n"
     << "# -DCMAKE_CXX_COMPILER say otherwise (CC and CXX in the environment do not).\n"
     << "if(NOT CMAKE_C_COMPILER)\n  set(CMAKE_C_COMPILER clang-19)\nendif()\n"
     << "if(NOT CMAKE_CXX_COMPILER)\n  set(CMAKE_CXX_COMPILER clang++-19)\nendif()\n"
     << "project(" << ident << "_mosaic_tests LANGUAGES C CXX)\n\n"
     << paths.cmakeDefaults() << (paths.cmakeDefaults().empty() ? "" : "\n")
     << "find_package(GTest REQUIRED)\ninclude(GoogleTest)\nenable_testing()\n\n"
     << "option(MOSAIC_COVERAGE \"clang source-based coverage\" OFF)\n"
     << "option(MOSAIC_SANITIZE \"AddressSanitizer and UndefinedBehaviorSanitizer\" OFF)\n"
     << "if(MOSAIC_COVERAGE)\n  add_compile_options(-fprofile-instr-generate -fcoverage-mapping)\n"
     << "  add_link_options(-fprofile-instr-generate)\nendif()\n"
     // As the sanitized harness (harness/Build.cpp): every UBSan report ends
     // the test, so a death test of one dies here too; with debug
     // information, so that reports name files and lines.
     << "if(MOSAIC_SANITIZE)\n  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all "
        "-fno-omit-frame-pointer -g)\n"
     << "  add_compile_definitions(MOSAIC_SANITIZE=1) # tests that only a sanitizer sees fail run\n"
     << "  add_link_options(-fsanitize=address,undefined)\nendif()\n\n";
  cm << "# The unit, through a wrapper that also reaches its static functions.\n"
     << "add_library(" << unitLib << " STATIC " << cmakeQuotePath(wrapperFile) << ")\n"
     << "target_compile_definitions(" << unitLib << " PRIVATE "
     << cmakeQuotePath("MOSAIC_UNIT_SOURCE=\"" + paths.cmakePath(p.unit) + "\"") << ")\n"
     << "target_compile_options(" << unitLib << " PRIVATE";
  for (const std::string &f : build.flags)
    if (!mosaicOnlyFlag(f)) cm << " " << flag(f);
  cm << " -w)\n";
  if (!build.project.empty()) {
    // Assembly (zstd's huf_decompress_amd64.S) needs CMake's ASM language,
    // which compiles it with the C compiler.
    if (std::any_of(build.project.begin(), build.project.end(), [](const ProjectSource &s) {
          const std::string e = fs::path(s.file).extension().string();
          return e == ".S" || e == ".s" || e == ".sx";
        }))
      cm << "enable_language(ASM)\n";
    // A test driver of the project whose main mosaic renamed (harness/
    // Build.cpp) may define what GoogleTest does too (re2's util/test.cc:
    // testing::TempDir); the project's, linked first, is kept, as in the harness.
    if (std::any_of(build.project.begin(), build.project.end(), [](const ProjectSource &s) {
          return std::find(s.flags.begin(), s.flags.end(), kRenamedMainFlag) != s.flags.end();
        }))
      cm << "add_link_options(-Wl,--allow-multiple-definition)\n";
    cm << "\n# The rest of the project the unit calls into, each with its own flags.\n"
       << "add_library(" << ident << "_project STATIC";
    for (const ProjectSource &s : build.project) cm << "\n  " << path(s.file);
    cm << ")\n";
    for (const ProjectSource &s : build.project) {
      // One quoted list: each flag's `;` (none in practice) becomes `,`.
      std::string options;
      for (const std::string &f : s.flags) {
        if (mosaicOnlyFlag(f)) continue;
        std::string mapped = paths.cmakeFlag(f);
        std::replace(mapped.begin(), mapped.end(), ';', ',');
        options += mapped + ";";
      }
      cm << "set_source_files_properties(" << path(s.file) << " PROPERTIES COMPILE_OPTIONS "
         << cmakeQuotePath(options + "-w", true) << ")\n";
    }
    // Each calls the other (a class split across files: ticker.cpp's tick()
    // calls ticker_step.cpp's step()); CMake repeats a cycle of static
    // libraries on the link line.
    cm << "target_link_libraries(" << unitLib << " PUBLIC " << ident << "_project)\n"
       << "target_link_libraries(" << ident << "_project PUBLIC " << unitLib << ")\n";
  }
  for (const std::string &lib : build.linkLibraries) cm << "target_link_libraries(" << unitLib << " PUBLIC " << lib << ")\n";
  const std::vector<std::string> pp = preprocessorFlags(build.flags);
  // Measured here with Clang 19 (hard.c's suite): parsing the prelude every
  // test file starts with (GoogleTest's header most of it) takes 1.1 s of a
  // small test file's 1.7; precompiling it takes 2.75 s, after which each
  // file takes 0.55 s. A PCH pays from the third file on in CPU time (2.75 +
  // 3 x 0.55 < 3 x 1.7), never with two (3.85 > 3.3 s), and the coverage
  // build compiles the passing tests alone. With three files or more the
  // first target precompiles it and the other reuses it (both have the same
  // flags).
  const bool precompile = suite.testFiles.size() + suite.failingFiles.size() >= 3;
  std::string pchOwner;
  for (const auto &[target, files] :
       {std::pair{ident + "_test", suite.testFiles}, std::pair{ident + "_failing_test", suite.failingFiles}}) {
    cm << "\nadd_executable(" << target;
    for (const std::string &file : files) cm << " " << cmakeQuotePath(file);
    // C++20: the tests declare through std::type_identity_t (BodyWriter::declare).
    cm << ")\n"
       << "set_target_properties(" << target << " PROPERTIES CXX_STANDARD 20 CXX_STANDARD_REQUIRED ON)\n";
    if (!p.mainHeader.empty())
      cm << "target_include_directories(" << target << " PRIVATE " << path(fs::path(p.mainHeader).parent_path().string())
         << ")\n";
    // A C header's `register` parameters (lcms2.h's): C++17 removed the
    // keyword, and clang and g++ both accept it again with -Wno-register.
    if (p.language == "c") cm << "target_compile_options(" << target << " PRIVATE -Wno-register)\n";
    if (!pp.empty() || !paths.quoteFolders().empty()) {
      cm << "target_compile_options(" << target << " PRIVATE";
      for (const std::string &f : pp) cm << " " << flag(f);
      for (const std::string &f : paths.quoteFolders()) cm << " " << cmakeQuotePath(f);
      cm << ")\n";
    }
    if (precompile && pchOwner.empty()) {
      pchOwner = target;
      cm << "target_precompile_headers(" << target << " PRIVATE";
      for (const char *h : kTestPrelude) cm << " " << h;
      cm << ")\n";
    } else if (precompile) {
      cm << "target_precompile_headers(" << target << " REUSE_FROM " << pchOwner << ")\n";
    }
    // Listing the tests may take up to 60 s (ours, against CMake's default
    // of 5 s: room for an executable built with sanitizers or coverage, or
    // a loaded machine).
    cm << "target_link_libraries(" << target << " PRIVATE " << unitLib << " GTest::gtest_main)\n"
       << "# Leak reports are off: a test cannot always release what the unit handed it.\n"
       << "gtest_discover_tests(" << target
       << " DISCOVERY_TIMEOUT 60 PROPERTIES ENVIRONMENT \"ASAN_OPTIONS=detect_leaks=0\")\n";
  }
  return {"CMakeLists.txt", cm.str()};
}

} // namespace mosaic::emit
