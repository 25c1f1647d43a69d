// Building and running a written suite with CMake, and its llvm-cov
// coverage (SuiteRunner.h).
#include "SuiteRunner.h"
#include "BuildFolder.h"
#include "mosaic/support/Spawn.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>

namespace mosaic::driver {

namespace fs = std::filesystem;

namespace {

std::string readAll(const fs::path &path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class CMakeSuiteRunner final : public SuiteRunner {
public:
  CMakeSuiteRunner(const model::Program &program, const VerifyOptions &options)
      : p_(program), o_(options), buildDir_(fs::path(options.outDir) / "build") {}

  Expected<SuiteBuild> build(const emit::Suite &suite) override {
    writeFiles(suite, o_.outDir);
    if (!configured_) {
      // Every error reported (not the first 20): each round removes all the
      // tests that do not compile.
      auto c = runProcess({"cmake", "-S", o_.outDir, "-B", buildDir_.string(), "-G", "Ninja",
                           "-DCMAKE_C_COMPILER=" + o_.toolchain.clang, "-DCMAKE_CXX_COMPILER=" + o_.toolchain.clangxx,
                           "-DCMAKE_CXX_FLAGS=-ferror-limit=0"});
      if (!c) return c.takeError();
      if (c->exitCode != 0) return Error::internal(c->output);
      configured_ = true;
    }
    auto b = runProcess({"cmake", "--build", buildDir_.string(), "--", "-k", "0"}, contained({}));
    if (!b) return b.takeError();
    return SuiteBuild{b->exitCode == 0, b->output};
  }

  // Line-buffered (stdbuf), so that a test the timeout kills has its
  // "[ RUN ]" line in the output (buffered, expat's hanging test was never
  // named, and every round hung again).
  Expected<SuiteRun> run(const std::string &binary, const std::vector<std::string> &gtestArgs,
                         const std::string &seconds, const std::string &reportName) override {
    const fs::path report = buildDir_ / reportName;
    std::error_code ec;
    fs::remove(report, ec);
    std::vector<std::string> argv{"stdbuf", "-oL", "timeout", seconds, (buildDir_ / binary).string(),
                                  "--gtest_output=json:" + report.string()};
    argv.insert(argv.end(), gtestArgs.begin(), gtestArgs.end());
    auto r = runProcess(argv, sandboxed(buildDir_.string()));
    if (!r) return r.takeError();
    return SuiteRun{*r, fs::exists(report, ec) ? readAll(report) : std::string()};
  }

  LlvmCoverage coverage(const std::string &binaryName, const std::vector<std::string> &tests) override;
  Expected<SuiteRun> runSanitized(const std::string &binary, const std::vector<std::string> &gtestArgs,
                                  const std::string &seconds) override;

private:
  ProcessOptions contained(std::string directory) const { return containedRun(std::move(directory), o_.stop); }
  ProcessOptions sandboxed(std::string directory) const {
    return sandboxedRun(std::move(directory), o_.stop, o_.maxProcesses);
  }

  const model::Program &p_;
  VerifyOptions o_;
  fs::path buildDir_;
  bool configured_ = false;
  std::set<std::string> sanitizedBuilt_; ///< binaries built in build-sanitize
};

// A Debug build with clang's source-based coverage (-DMOSAIC_COVERAGE=ON),
// the suite run once (or test by test when it fails there), the profiles
// merged and the unit's file summarised by llvm-cov.
LlvmCoverage CMakeSuiteRunner::coverage(const std::string &binaryName, const std::vector<std::string> &tests) {
  LlvmCoverage c;
  const fs::path dir = fs::path(o_.outDir) / "build-coverage";
  auto configure = configureBeside(o_.outDir, buildDir_.string(), dir.string(),
                                   {"-DCMAKE_BUILD_TYPE=Debug", "-DMOSAIC_COVERAGE=ON",
                                    "-DCMAKE_C_COMPILER=" + o_.toolchain.clang,
                                    "-DCMAKE_CXX_COMPILER=" + o_.toolchain.clangxx});
  auto build = configure && configure->exitCode == 0
                   ? runProcess({"cmake", "--build", dir.string(), "--target", binaryName}, contained({}))
                                                      : configure;
  if (!build || build->exitCode != 0) {
    c.error = "the coverage build failed";
    return c;
  }
  const fs::path profiles = dir / "profiles";
  const std::string data = (dir / "suite.profdata").string();
  std::error_code ec;
  fs::remove_all(profiles, ec);
  fs::create_directories(profiles, ec);
  const std::string binary = (dir / binaryName).string();
  // 600 s for the whole suite, 60 s a test alone: ours, as the rounds of
  // verification (Verify.cpp).
  ProcessOptions wholeRun = sandboxed(dir.string());
  wholeRun.env = {{"LLVM_PROFILE_FILE", (profiles / "suite.profraw").string()}};
  auto whole = runProcess({"timeout", "600", binary}, wholeRun);
  if (!whole || whole->exitCode != 0) {
    // A test died in this build: each test in a process of its own, so
    // that the others still count.
    fs::remove_all(profiles, ec);
    fs::create_directories(profiles, ec);
    for (size_t k = 0; k < tests.size(); ++k) {
      const std::string &name = tests[k];
      ProcessOptions alone = sandboxed(dir.string());
      // A profile per test, named by its index: in a PID namespace of its
      // own every run has the same PID, so `%p` would name them all alike
      // and each would overwrite the last.
      alone.env = {{"LLVM_PROFILE_FILE", (profiles / ("test-" + std::to_string(k) + ".profraw")).string()}};
      // Twice before it counts as failing (the caller removes it): a busy
      // machine (CI running several suites at once) must not cost a test.
      // A run that did not start at all is the machine's failure, not the
      // test's.
      bool failed = true;
      for (int attempt = 0; attempt < 2 && failed; ++attempt) {
        auto r = runProcess({"timeout", "60", binary, "--gtest_filter=" + name}, alone);
        failed = r && r->exitCode != 0;
      }
      if (failed) c.failedInCoverageBuild.push_back(name);
    }
  }
  std::vector<std::string> merge{o_.toolchain.llvmProfdata, "merge", "-sparse"};
  for (const auto &f : fs::directory_iterator(profiles, ec))
    if (f.path().extension() == ".profraw") merge.push_back(f.path().string());
  merge.insert(merge.end(), {"-o", data});
  auto merged = runProcess(merge);
  if (!merged || merged->exitCode != 0) {
    c.error = "llvm-profdata failed";
    return c;
  }
  // The unit file, and the headers whose blocks the unit switches on (a
  // single-header library's implementation file: its code is there).
  std::set<fs::path> files{fs::weakly_canonical(p_.unit, ec)};
  for (const model::SourceRange &b : p_.unitBlocks) files.insert(fs::weakly_canonical(b.file, ec));
  std::vector<std::string> exportCommand{o_.toolchain.llvmCov, "export", "-summary-only", "-instr-profile=" + data, binary};
  for (const fs::path &f : files) exportCommand.push_back(f.string());
  auto report = runProcess(exportCommand);
  if (!report || report->exitCode != 0) {
    c.error = "llvm-cov failed";
    return c;
  }
  try {
    // llvm-cov's JSON goes to stdout; runProcess interleaves stderr, so
    // parse from the first brace.
    const auto start = report->output.find('{');
    const nlohmann::json j = nlohmann::json::parse(report->output.substr(start == std::string::npos ? 0 : start));
    for (const auto &file : j.at("data").at(0).at("files")) {
      if (!files.count(fs::weakly_canonical(file.value("filename", ""), ec))) continue;
      const auto &s = file.at("summary");
      c.branches += s.at("branches").at("count").get<std::size_t>();
      c.branchesCovered += s.at("branches").at("covered").get<std::size_t>();
      c.lines += s.at("lines").at("count").get<std::size_t>();
      c.linesCovered += s.at("lines").at("covered").get<std::size_t>();
      c.functions += s.at("functions").at("count").get<std::size_t>();
      c.functionsCovered += s.at("functions").at("covered").get<std::size_t>();
      c.measured = true;
    }
    if (!c.measured) c.error = "llvm-cov reported nothing for " + p_.unit;
  } catch (const std::exception &e) {
    c.error = std::string("unreadable llvm-cov output: ") + e.what();
  }
  return c;
}

// The build a developer runs a sanitizer's test in (the suite's CMake
// option), with the options bench/reproduce checks under: the slow
// unwinder at a fatal error (a stack overflow's report is empty with the
// fast one when the overflowing frame keeps no frame pointer), frames named
// by llvm-symbolizer (Debian names it llvm-symbolizer-19, which ASan does
// not look for).
Expected<SuiteRun> CMakeSuiteRunner::runSanitized(const std::string &binary, const std::vector<std::string> &gtestArgs,
                                                  const std::string &seconds) {
  const fs::path dir = fs::path(o_.outDir) / "build-sanitize";
  // Configured and built once per binary: the check runs it several times.
  if (!sanitizedBuilt_.count(binary)) {
    auto configure = configureBeside(o_.outDir, buildDir_.string(), dir.string(),
                                     {"-DMOSAIC_SANITIZE=ON", "-DCMAKE_C_COMPILER=" + o_.toolchain.clang,
                                      "-DCMAKE_CXX_COMPILER=" + o_.toolchain.clangxx});
    if (!configure) return configure.takeError();
    if (configure->exitCode != 0) return Error::internal(configure->output);
    auto build = runProcess({"cmake", "--build", dir.string(), "--target", binary}, contained({}));
    if (!build) return build.takeError();
    if (build->exitCode != 0) return Error::internal(build->output);
    sanitizedBuilt_.insert(binary);
  }
  const std::string symbolizer = findProgram(o_.toolchain.llvmSymbolizer);
  const std::string symbolize = symbolizer.empty() ? "" : ":external_symbolizer_path=" + symbolizer;
  ProcessOptions run = sandboxed(dir.string());
  run.env = {{"ASAN_OPTIONS", "detect_leaks=0:handle_abort=1:fast_unwind_on_fatal=0" + symbolize},
             {"UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1" + symbolize}};
  std::vector<std::string> argv{"timeout", seconds, (dir / binary).string()};
  argv.insert(argv.end(), gtestArgs.begin(), gtestArgs.end());
  auto r = runProcess(argv, run);
  if (!r) return r.takeError();
  return SuiteRun{*r, {}};
}

} // namespace

ProcessOptions containedRun(std::string directory, const volatile std::sig_atomic_t *stop) {
  ProcessOptions o;
  o.directory = std::move(directory);
  o.ownGroup = true;
  o.stop = stop;
  return o;
}

ProcessOptions sandboxedRun(std::string directory, const volatile std::sig_atomic_t *stop, unsigned maxProcesses) {
  ProcessOptions o = containedRun(std::move(directory), stop);
  o.pidNamespace = true;
  o.maxProcesses = maxProcesses;
  // Written tests each make a temporary folder and remove it when they
  // end; one that crashes or hangs leaves it behind (hundreds of MB a run
  // of the suite), so they make it in a folder removed after every run.
  if (!o.directory.empty()) o.privateTmpUnder = (fs::path(o.directory) / "tmp").string();
  return o;
}

std::unique_ptr<SuiteRunner> cmakeSuiteRunner(const model::Program &program, const VerifyOptions &options) {
  return std::make_unique<CMakeSuiteRunner>(program, options);
}

} // namespace mosaic::driver
