// The test files: the includes and declarations they start with, then
// each test, the failing ones as death tests with how they failed in a
// comment; split into files of at most WriteOptions::testsPerFile tests.
#include "Portable.h"
#include "SuiteParts.h"
#include "mosaic/support/Text.h"
#include "mosaic/testcase/Printer.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>

namespace mosaic::emit {

namespace fs = std::filesystem;

namespace {

// A sanitizer class (SuiteTest::sanitizerClass) as a death test's
// pattern: GoogleTest reads it as a POSIX extended regular expression, so
// every other character is matched literally (UBSan's messages hold
// parentheses, "of type 'cJSON' (aka 'struct cJSON')", which a pattern
// would read as a group and then never match), and the word N, a number
// the class left out, matches any number, decimal or hexadecimal.
std::string classPattern(const std::string &cls) {
  std::string out;
  for (size_t i = 0; i < cls.size(); ++i) {
    const char c = cls[i];
    const bool word = c == 'N' && (i == 0 || !std::isalnum(static_cast<unsigned char>(cls[i - 1]))) &&
                      (i + 1 == cls.size() || !std::isalnum(static_cast<unsigned char>(cls[i + 1])));
    if (word) {
      out += "[0-9a-fA-Fx]+";
      continue;
    }
    if (std::string_view(".[]()*+?{}|^$\\").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

// Text a program printed, made safe for a `//` comment: a carriage return
// or form feed would end the comment (and make code of what follows), and
// a backslash (or the ??/ trigraph) at its end would splice the next line
// of code into it. Control characters become '?'.
std::string commentText(std::string l) {
  for (char &c : l)
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f) c = '?'; // ASCII controls, DEL
  while (!l.empty() && (l.back() == ' ' || l.back() == '\t')) l.pop_back();
  if (!l.empty() && (l.back() == '\\' || l.ends_with("?\?/"))) l += '.';
  return l;
}

// The lines of a sanitizer's report that say what happened (its frames
// are shown symbolised, as the stack).
bool sanitizerHeadline(const std::string &l) {
  for (const char *key : {"ERROR: ", "runtime error: ", "READ of size", "WRITE of size"})
    if (l.find(key) != std::string::npos) return true;
  return false;
}

// The comment lines of a failing test: what it claims and why, its
// outcome, its stack in the project (at most 8 frames), and its report, at
// most 24 lines of it each cut at 160 characters (ours: the report's head,
// where a sanitizer or an abort says what happened, kept to a screenful).
// Paths under the project's folder are written relative to it: the suite
// is committed and read on other machines.
void reportComment(Text &text, const SuiteTest &t, const std::string &root) {
  auto relative = [&](std::string l) {
    if (root.empty()) return l;
    const std::string prefix = root + "/";
    for (size_t at = l.find(prefix); at != std::string::npos; at = l.find(prefix, at)) l.erase(at, prefix.size());
    return l;
  };
  if (!t.failureClass.empty()) text.line("  // " + commentText(t.failureClass + ": " + t.why));
  for (const std::string &l : t.origin) text.line("  // " + commentText(l));
  text.line("  // " + commentText(exec::describe(t.result)));
  if (!t.stack.empty()) {
    text.line("  // stack in the project:");
    for (size_t k = 0; k < t.stack.size() && k < 8; ++k) {
      std::string l = "#" + std::to_string(k) + " " + t.stack[k].str();
      if (t.stack[k].inlined) l += " (inlined)";
      text.line("  //   " + commentText(l));
    }
  }
  const bool sanitized = t.result.outcome == exec::Outcome::Sanitizer;
  std::istringstream report(t.report);
  int shown = 0;
  for (std::string l; std::getline(report, l) && shown < 24;) {
    if (sanitized && !sanitizerHeadline(l)) continue; // its frames are the stack above
    if (l.size() > 160) l = l.substr(0, 160) + " ...";
    if (shown++ == 0) text.line("  // output:");
    text.line("  //   " + commentText(relative(l)));
  }
  if (!t.sanitizerReport.empty() && !sanitized) {
    text.line("  // with ASan + UBSan (-DMOSAIC_SANITIZE=ON):");
    std::istringstream more(t.sanitizerReport);
    for (std::string l; std::getline(more, l);) {
      if (!sanitizerHeadline(l)) continue;
      if (l.size() > 160) l = l.substr(0, 160) + " ...";
      text.line("  //   " + commentText(relative(l)));
    }
  }
}

// The GoogleTest suite of a failing test: one per class, so that a
// developer runs the likely defects alone (--gtest_filter=*Defect*).
std::string failingSuiteName(const std::string &suiteName, const std::string &failureClass) {
  if (failureClass.empty()) return suiteName + "_DeathTest";
  std::string cls = failureClass;
  cls[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(cls[0])));
  return suiteName + "_" + cls + "DeathTest";
}

// The unit's macro directives that precede its include number `index`
// (Program::configuration), as the unit wrote them: its headers then
// declare for the test what they declared for the unit.
void configurationBefore(Text &text, const model::Program &p, size_t index) {
  for (const model::ConfigMacro &m : p.configuration) {
    if (m.beforeInclude != index) continue;
    const std::string name = m.definition.substr(0, m.definition.find_first_of(" \t("));
    if (m.undef) {
      text.line("#undef " + name);
    } else {
      // A -D of the unit's command may define it too.
      text.line("#ifndef " + name);
      text.line("#define " + m.definition);
      text.line("#endif");
    }
  }
}

// After the includes, the configuration macros the unit leaves defined are
// undefined, as the harness undefines them after the unit: the tests'
// own code is compiled as the harness's was.
void configurationAfter(Text &text, const model::Program &p) {
  for (const model::ConfigMacro &m : p.configuration) {
    const std::string name = m.definition.substr(0, m.definition.find_first_of(" \t("));
    if (!m.undef && std::binary_search(p.unitMacros.begin(), p.unitMacros.end(), name)) text.line("#undef " + name);
  }
}

// The declarations a test file starts with; with a fixture that restores
// the unit's state when it has any (Program::state).
void header(Text &text, const SuiteContext &context, const std::vector<Written> &written, const std::string &what,
            const std::string &fixture, const std::vector<std::string> &aliases = {}) {
  const model::Program &p = context.program;
  const bool cxx = context.cxx;
  const BodyWriter &writer = context.writer;
  const std::string &wrapperFile = context.wrapperFile;
  const std::string &restoreName = context.restoreName;
  text.line("// " + std::string(kGeneratedMarker) + " from " + fs::path(p.unit).filename().string() + ": " + what);
  text.line("// Regenerate rather than edit; see CMakeLists.txt to build and run.");
  for (const char *h : kTestPrelude) {
    text.line(std::string("#include ") + h);
    if (h == kTestPrelude[0]) text.line("");
  }
  text.line("");
  // The unit's own headers, in the unit's order: a header may rely on
  // what the ones before it defined (expat's xmltok.h on internal.h's
  // FASTCALL), and the ones after the main header define the types and
  // declare the functions the unit uses (json-c's json_object_private.h
  // defines struct json_object; json_util.h declares json_object_from_file).
  // Then the headers that define what the unit only declares
  // (Program::completingHeaders): the unit was analysed and built with them.
  std::vector<std::string> includes = p.unitIncludes;
  auto defines = [&](const std::string &h) {
    return std::find(p.excludedHeaders.begin(), p.excludedHeaders.end(), h) != p.excludedHeaders.end();
  };
  if (!p.mainHeader.empty() && std::find(includes.begin(), includes.end(), p.mainHeader) == includes.end() &&
      !defines(p.mainHeader))
    includes.push_back(p.mainHeader);
  for (const std::string &h : p.completingHeaders)
    if (std::find(includes.begin(), includes.end(), h) == includes.end()) includes.push_back(h);
  if (context.throughWrapper && !includes.empty()) {
    text.line("// " + fs::path(p.unit).filename().string() + "'s headers are C that does not compile as C++. The tests");
    text.line("// include none of them: they reach the library through " + wrapperFile + ",");
    text.line("// compiled as C, and hold its structures by `void *`.");
    text.line("");
  } else if (!includes.empty()) {
    const std::vector<std::string> first =
        p.mainHeader.empty() ? std::vector<std::string>{} : std::vector<std::string>{fs::path(p.mainHeader).parent_path().string()};
    if (!cxx) text.line("extern \"C\" {");
    for (size_t i = 0; i < includes.size(); ++i) {
      configurationBefore(text, p, i);
      // As the project's code spells it, through its include folders
      // (<json/value.h>); else beside the main header, by name (its
      // folder is an include folder of the suite); else relative to the
      // project (Portable.h); else by its whole path.
      const std::string &h = includes[i];
      const bool beside = !p.mainHeader.empty() && fs::path(h).parent_path() == fs::path(p.mainHeader).parent_path();
      std::string spelled = includeThroughFolders(h, context.build.flags, first);
      if (spelled.empty() && beside) spelled = "\"" + fs::path(h).filename().string() + "\"";
      if (spelled.empty()) spelled = ProjectPaths(context.build).includeFromProject(h);
      if (spelled.empty()) spelled = "\"" + h + "\"";
      text.line("#include " + spelled);
    }
    configurationAfter(text, p);
    if (!cxx) text.line("}");
    text.line("");
  }
  std::set<std::pair<model::CallableId, std::optional<std::string>>> declared;
  bool first = true;
  for (const Written &w : written) {
    std::vector<std::pair<model::CallableId, std::optional<std::string>>> reached;
    for (model::CallableId id : w.body.trampolines) reached.emplace_back(id, std::nullopt);
    for (const auto &[id, kinds] : w.body.variadicTrampolines) reached.emplace_back(id, kinds);
    for (const auto &[id, kinds] : reached) {
      if (!declared.insert({id, kinds}).second) continue;
      if (first) {
        if (context.throughWrapper) {
          text.line("// The functions and objects of the library the tests use, each reached through");
          text.line("// " + wrapperFile + ".");
        } else {
          text.line("// Functions of " + fs::path(p.unit).filename().string() + " a test cannot call by name (static,");
          text.line("// or declared in no header), reached through " + wrapperFile + ".");
        }
        first = false;
      }
      const model::Callable &c = p.callable(id);
      std::string params;
      for (size_t k = 0; k < c.params.size(); ++k) {
        // A C parameter named by a C++ keyword (`int not`) goes unnamed.
        const std::string &named = c.params[k].name;
        auto d = writer.declare(c.params[k].type, cxxKeyword(named) ? "" : named);
        params += (k ? ", " : "") + d.value_or("void *");
      }
      for (size_t k = 0; kinds && k < kinds->size(); ++k)
        params += (params.empty() ? "" : ", ") + varargParameterType((*kinds)[k]);
      const std::string name = kinds ? variadicTrampolineName(c, *kinds) : trampolineName(c);
      auto result = writer.declare(c.result, name + "(" + params + ")");
      text.line("extern \"C\" " + result.value_or("void " + name + "()") + ";");
    }
  }
  if (!first) text.line("");
  // Stub subclasses of the abstract classes the tests need one of, and the
  // helper of tests that open a temporary file.
  std::set<model::RecordId> stubs;
  for (const Written &w : written) stubs.insert(w.body.stubs.begin(), w.body.stubs.end());
  const bool files = std::any_of(written.begin(), written.end(), [](const Written &w) { return w.body.files; });
  if (files) {
    text.line("#include <fcntl.h>");
    text.line("#include <unistd.h>");
  }
  if (!stubs.empty() || files) {
    text.line("namespace {");
    text.line("");
    if (files) {
      for (const std::string &l : temporaryFileHelpers()) text.line(l);
      text.line("");
    }
    for (model::RecordId r : stubs) {
      for (const std::string &l : writer.stubDefinition(r).value_or(std::vector<std::string>{})) text.line(l);
      text.line("");
    }
    text.line("} // namespace");
    text.line("");
  }
  if (!p.state.empty()) {
    // The first 4 names, then how many more (ours, as for "Covers" below).
    std::string names;
    for (size_t k = 0; k < p.state.size() && k < 4; ++k) names += (k ? ", " : "") + p.state[k];
    if (p.state.size() > 4) names += " and " + std::to_string(p.state.size() - 4) + " more";
    text.line("// " + fs::path(p.unit).filename().string() + " keeps state in variables (" + names + ").");
    text.line("// Each test starts from their initial values, as mosaic ran it: in a fresh process.");
    text.line("extern \"C\" void " + restoreName + "(void);");
    text.line("");
    text.line("class " + fixture + " : public ::testing::Test {");
    text.line("protected:");
    text.line("  void SetUp() override { " + restoreName + "(); }");
    text.line("};");
    for (const std::string &a : aliases) text.line("using " + a + " = " + fixture + ";");
    text.line("");
  }
}

// One test, its name made unique among `names`; recorded in suite.tests.
void writeTest(Text &text, const SuiteContext &context, const Written &w, bool failingSuite, const std::string &suiteName,
               std::set<std::string> &names, Suite &suite) {
  const model::Program &p = context.program;
  std::string name = w.body.name;
  for (int k = 2; names.count(name); ++k) name = w.body.name + "_" + std::to_string(k);
  names.insert(name);
  const SuiteTest &t = *w.test;
  // A crash `mosaic reproduce` found that only a sanitizer sees: a death
  // test in a sanitized build of the suite, skipped in a plain one (where
  // other sanitizer reports are written disabled).
  const bool sanitizerCrash = failingSuite && !t.disabled && t.failureClass == "crash" &&
                              t.result.outcome == exec::Outcome::Sanitizer;
  // Hangs, and files stopped at the sandbox's size limit, would go on
  // outside it: disabled, as are sanitizer reports in a plain build.
  const bool disabled = failingSuite && !sanitizerCrash &&
                        (t.disabled || t.result.outcome == exec::Outcome::Timeout ||
                         exec::stoppedAtFileLimit(t.result) || t.result.outcome == exec::Outcome::Sanitizer);
  // An uncaught C++ exception `mosaic reproduce` found: EXPECT_THROW, not
  // a death.
  const bool exceptionCrash = failingSuite && !disabled && t.threwAt >= 0 && t.result.outcome == exec::Outcome::Ok;
  const std::string testSuite = failingSuite ? failingSuiteName(suiteName, t.failureClass) : suiteName;
  const std::string fullName = (disabled ? "DISABLED_" : "") + name;
  suite.tests[testSuite + "." + fullName] = w.site;
  if (!t.covers.empty() && !failingSuite) {
    // The first 4 goals it covers, then how many more (ours: one line).
    std::string covers = "// Covers ";
    for (size_t k = 0; k < t.covers.size() && k < 4; ++k) covers += (k ? ", " : "") + t.covers[k];
    if (t.covers.size() > 4) covers += " and " + std::to_string(t.covers.size() - 4) + " more";
    text.line(covers + ".");
  }
  text.line((p.state.empty() ? "TEST(" : "TEST_F(") + testSuite + ", " + fullName + ") {", w.site);
  if (failingSuite) reportComment(text, t, context.build.root);
  // A death test's statements go in a lambda: as a macro argument, the
  // commas of a braced initializer would split them.
  const std::string indent = failingSuite && !disabled ? "    " : "  ";
  if (failingSuite && !disabled) text.line("  auto run = [] {", w.site);
  for (const Line &l : w.body.lines) {
    Site s = w.site;
    s.observation = l.observation;
    text.line(indent + l.text, s);
  }
  if (failingSuite && !disabled) {
    text.line("  };", w.site);
    if (exceptionCrash) {
      const std::string &ty = t.exceptionType;
      text.line(context.writer.catchable(ty) ? "  EXPECT_THROW(run(), " + ty + ");" : "  EXPECT_ANY_THROW(run());", w.site);
    } else if (sanitizerCrash) {
      text.line("#ifdef MOSAIC_SANITIZE", w.site);
      text.line("  EXPECT_DEATH(run(), " + testcase::quote(classPattern(t.sanitizerClass)) + ");", w.site);
      text.line("#else", w.site);
      text.line("  GTEST_SKIP() << \"the crash shows under AddressSanitizer and UBSan: build with -DMOSAIC_SANITIZE=ON\";",
                w.site);
      text.line("#endif", w.site);
    } else if (t.result.outcome == exec::Outcome::Exit)
      text.line("  EXPECT_EXIT(run(), ::testing::ExitedWithCode(" + std::to_string(t.result.exitCode) + "), \"\");", w.site);
    else
      text.line("  EXPECT_DEATH(run(), \"\");", w.site);
  }
  text.line("}", w.site);
  text.line("");
  // A reproduced crash also gets its regression test: the same calls, run
  // directly, which crash today and pass once the bug is fixed. Disabled
  // until then (--gtest_also_run_disabled_tests runs it); the developer
  // enables it with the fix and keeps it.
  if (failingSuite && !disabled && !t.origin.empty()) {
    const std::string regression = "DISABLED_" + name + "_Regression";
    suite.tests[testSuite + "." + regression] = w.site;
    // In C++ a fix may report the error by throwing (muparser's fix of
    // ParserInt::Div throws ParserError(ecDIV_BY_ZERO), which its PoC
    // catches): the twin of a crash that was no exception accepts one.
    const bool acceptThrow = context.cxx && !exceptionCrash;
    text.line("// The regression test of the crash above: the same calls, which must return" +
              std::string(acceptThrow ? " (or throw)" : "") + " once the bug is");
    text.line("// fixed. Remove DISABLED_ with the fix and keep it.");
    text.line((p.state.empty() ? "TEST(" : "TEST_F(") + testSuite + ", " + regression + ") {", w.site);
    const std::string twinIndent = acceptThrow ? "    " : "  ";
    if (acceptThrow) text.line("  try {", w.site);
    for (const Line &l : w.body.lines) {
      Site s = w.site;
      s.observation = l.observation;
      text.line(twinIndent + l.text, s);
    }
    if (acceptThrow) {
      text.line("  } catch (...) {", w.site);
      text.line("    // the fix reports the error as an exception", w.site);
      text.line("  }", w.site);
    }
    text.line("}", w.site);
    text.line("");
  }
}

} // namespace

// Once per test executable: each test runs in a fresh temporary folder of
// its own, removed after it (a test that writes or deletes relative paths
// touches nothing else, the suite's build folder included), and ends the
// executable past kTestSeconds (a hang is a failure, not a stuck CI job).
void testEnvironment(Text &text) {
  constexpr int kTestSeconds = 60; // ours: six times verification's slow-test bound (Verify.h)
  text.line("namespace {");
  text.line("");
  text.line("// Each test in a fresh temporary folder, and at most " + std::to_string(kTestSeconds) +
            " s (SIGALRM ends the run).");
  text.line("class MosaicTestFolder : public ::testing::EmptyTestEventListener {");
  text.line("  std::filesystem::path previous_, folder_;");
  text.line("  void OnTestStart(const ::testing::TestInfo &) override {");
  text.line("    std::error_code ec;");
  text.line("    previous_ = std::filesystem::current_path(ec);");
  text.line("    std::string name = (std::filesystem::temp_directory_path(ec) / \"mosaic-test-XXXXXX\").string();");
  text.line("    if (mkdtemp(name.data())) {");
  text.line("      folder_ = name;");
  text.line("      std::filesystem::current_path(folder_, ec);");
  text.line("    }");
  text.line("    alarm(" + std::to_string(kTestSeconds) + ");");
  text.line("  }");
  text.line("  void OnTestEnd(const ::testing::TestInfo &) override {");
  text.line("    alarm(0);");
  text.line("    std::error_code ec;");
  text.line("    std::filesystem::current_path(previous_, ec);");
  text.line("    if (!folder_.empty()) std::filesystem::remove_all(folder_, ec);");
  text.line("    folder_.clear();");
  text.line("  }");
  text.line("};");
  text.line("const bool mosaic_test_folder_installed =");
  text.line("    (::testing::UnitTest::GetInstance()->listeners().Append(new MosaicTestFolder), true);");
  text.line("");
  text.line("} // namespace");
  text.line("");
  // The sanitized harness's allocator settings (exec/ForkServer.cpp's
  // sanitizerEnvironment), so that a test runs here as mosaic ran it: a
  // request too large for the allocator returns NULL, as malloc does.
  text.line("#ifdef MOSAIC_SANITIZE");
  text.line("// As mosaic ran the tests: an allocation too large returns NULL (as malloc does) instead of ending the");
  text.line("// test, and leaks are not reported. ASAN_OPTIONS still overrides both.");
  text.line("extern \"C\" const char *__asan_default_options() { return \"allocator_may_return_null=1:detect_leaks=0\"; }");
  text.line("#endif");
  text.line("");
}

void writeTestFiles(const SuiteContext &context, const std::vector<Written> &written, const WriteOptions &options,
                    Suite &suite) {
  const std::string suiteName = options.suiteName.empty() ? suite.ident + "Test" : options.suiteName;
  // Each kind of test in files of at most testsPerFile tests (at least one
  // file each, so that both targets exist).
  const size_t perFile = std::max<size_t>(1, options.testsPerFile);
  for (int failingSuite = 0; failingSuite < 2; ++failingSuite) {
    std::vector<const Written *> mine;
    for (const Written &w : written)
      if (w.site.failing == (failingSuite == 1)) mine.push_back(&w);
    const size_t parts = std::max<size_t>(1, (mine.size() + perFile - 1) / perFile);
    std::set<std::string> names; // test names are unique across a suite's files
    for (size_t part = 0; part < parts; ++part) {
      Text text;
      if (failingSuite) {
        // One GoogleTest suite per class of claim, in the order of trust.
        std::vector<std::string> aliases;
        for (const std::string cls : {"crash", "defect", "robustness", "misuse"}) // crash: mosaic reproduce
          if (std::any_of(mine.begin(), mine.end(), [&](const Written *w) { return w->test->failureClass == cls; }))
            aliases.push_back(failingSuiteName(suiteName, cls));
        header(text, context, written,
               "tests that crash, abort, exit or hang, in one suite per claim: likely defects\n"
               "// (public functions, plain values, objects the API made), robustness (a null pointer or a\n"
               "// value outside what the API accepts; hangs, exits) and, when asked for, misuse (internal\n"
               "// functions, objects built by hand). Each states how it failed and where; the suite stays\n"
               "// green because every one expects its failure (death tests) or is disabled (hangs, and\n"
               "// sanitizer reports, which need -DMOSAIC_SANITIZE=ON to show).",
               suiteName + "_DeathTest", aliases);
      } else {
        std::string what = "regression tests. They pin down the behaviour observed when they were generated.";
        if (!options.coverage.empty()) what += "\n// The search covered (mosaic's own counters): " + options.coverage + ".";
        header(text, context, written, what, suiteName);
      }
      if (part == 0) testEnvironment(text);
      for (size_t k = part * perFile; k < mine.size() && k < (part + 1) * perFile; ++k)
        writeTest(text, context, *mine[k], failingSuite == 1, suiteName, names, suite);
      const std::string file = suite.stem + (failingSuite ? "_failing_test" : "_test") +
                               (part ? "_" + std::to_string(part + 1) : "") + ".cpp";
      (failingSuite ? suite.failingFiles : suite.testFiles).push_back(file);
      suite.sites[file] = text.sites();
      suite.files.push_back({file, text.str()});
    }
  }
}

} // namespace mosaic::emit
