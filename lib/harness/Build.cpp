// Compiling and linking a harness.
#include "mosaic/harness/Build.h"
#include "ElfSymbols.h"
#include "mosaic/harness/Link.h"

#include "mosaic/abi/Hooks.h"
#include "mosaic/abi/Symbolic.h"
#include "mosaic/support/Process.h"
#include "mosaic/support/RenamedMain.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <future>
#include <set>
#include <regex>
#include <sstream>

#include <unistd.h>

namespace mosaic::harness {

namespace fs = std::filesystem;

namespace {

// Linked into every harness. -z now: every symbol bound when the fork
// server starts, not again in each child it forks on first call (AFL's
// fork server sets LD_BIND_NOW for the same reason; in pugixml.cpp's
// random search, whose children die by the hundred, lazy binding was 6%
// of the server's time, perf).
constexpr const char *kLinkFlags[] = {"-Wl,-z,now"};

std::string canonicalPath(const fs::path &p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(p, ec);
  return ec ? p.string() : c.string();
}

bool startsWith(const std::string &s, const char *prefix) { return s.rfind(prefix, 0) == 0; }

// Options with a separate value that name files of the original build.
bool dropsNext(const std::string &a) {
  return a == "-o" || a == "-MF" || a == "-MT" || a == "-MQ" || a == "-x";
}

// Flags that change what is built rather than how the unit's code means:
// outputs, dependency files, LTO (the pass must see real objects).
bool dropped(const std::string &a) {
  return a == "-c" || a == "-S" || a == "-E" || a == "-fsyntax-only" || a == "--" || a == "-MD" || a == "-MMD" ||
         a == "-M" || a == "-MM" || a == "-MP" || startsWith(a, "-flto") || startsWith(a, "-Werror") ||
         startsWith(a, "-fprofile") || startsWith(a, "-fcoverage");
}

std::string writeFileIfChanged(const fs::path &path, const std::string &text) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream old;
  old << in.rdbuf();
  if (!in || old.str() != text) std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

std::string hex(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// The inputs of a compile, from its Make-style dependency file.
std::vector<std::string> dependencies(const fs::path &depfile) {
  std::ifstream in(depfile);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> out;
  const auto colon = text.find(": ");
  if (colon == std::string::npos) return out;
  std::string word;
  for (size_t i = colon + 2; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size() && text[i + 1] == ' ') {
      word += ' ';
      ++i;
    } else if (c == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      ++i;
    } else if (c == ' ' || c == '\n') {
      if (!word.empty()) out.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) out.push_back(word);
  return out;
}

std::string stamp(const std::string &path) {
  std::error_code ec;
  const auto t = fs::last_write_time(path, ec);
  return ec ? std::string("missing") : std::to_string(t.time_since_epoch().count());
}

// A cached harness is current when no input of its compile changed since.
bool upToDate(const fs::path &manifest) {
  std::ifstream in(manifest);
  if (!in) return false;
  std::string path, when;
  while (std::getline(in, path) && std::getline(in, when))
    if (stamp(path) != when) return false;
  return true;
}

// Files generated in `stage` are left out: the cache key covers them.
void writeManifest(const fs::path &manifest, const fs::path &depfile, const std::string &directory,
                   const fs::path &stage) {
  std::ofstream out(manifest);
  for (const std::string &d : dependencies(depfile)) {
    const fs::path p = fs::path(d).is_absolute() ? fs::path(d) : fs::path(directory) / d;
    if (p.string().rfind(stage.string(), 0) == 0) continue;
    out << p.string() << "\n" << stamp(p.string()) << "\n";
  }
}

Error compileError(const std::string &what, const std::vector<std::string> &argv, const ProcessResult &r) {
  std::string out = r.output;
  constexpr size_t kShown = 8000; // the first errors are the ones that matter
  if (out.size() > kShown) out = out.substr(0, kShown) + "\n[... " + std::to_string(r.output.size() - kShown) + " more bytes]";
  return Error::input(what, "$ " + commandLine(argv) + "\n" + out);
}

// Paths in flags made absolute against the command's directory.
std::vector<std::string> absoluteFlags(const std::vector<std::string> &flags, const std::string &directory) {
  std::vector<std::string> out;
  auto absolute = [&](const std::string &path) {
    return path.empty() || path[0] == '/' ? path : (fs::path(directory) / path).lexically_normal().string();
  };
  for (size_t i = 0; i < flags.size(); ++i) {
    const std::string &f = flags[i];
    bool done = false;
    for (const char *p : {"-I", "-isystem", "-iquote", "-include", "-idirafter"}) {
      const std::string prefix = p;
      // Joined (clang and gcc take each joined or separate): CMake drops a
      // repeated option of a target, so `-include a.h -include b.h` would
      // lose its second `-include`.
      if (f == prefix && i + 1 < flags.size()) {
        out.push_back(f + absolute(flags[++i]));
        done = true;
        break;
      }
      if (prefix == "-I" && f.rfind(prefix, 0) == 0) {
        out.push_back("-I" + absolute(f.substr(2)));
        done = true;
        break;
      }
    }
    if (!done) out.push_back(f);
  }
  return out;
}

// A compile command's flags without the compiler, outputs, dependency
// files and the source file.
std::vector<std::string> buildFlags(const std::vector<std::string> &argv, const std::string &directory,
                                    const std::string &file) {
  std::vector<std::string> out;
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string &a = argv[i];
    if (dropsNext(a)) {
      ++i;
      continue;
    }
    if (dropped(a) || startsWith(a, "-o")) continue;
    if (!a.empty() && a[0] != '-' && canonicalPath(fs::path(directory) / a) == file) continue;
    out.push_back(a);
  }
  return absoluteFlags(out, directory);
}

} // namespace

std::vector<std::string> unitFlags(const model::Program &program) {
  std::vector<std::string> flags = buildFlags(program.compileCommand, program.directory, program.unit);
  // The suite's wrapper is mosaic's code too (taglib's -std=gnu++98).
  if (program.language != "c")
    for (std::string &f : flags) f = harnessStandard(f);
  return flags;
}

std::string harnessStandard(const std::string &flag) {
  // Before C++11 the harness's own code (std::move, lambdas, auto) does not
  // compile; C++98 code compiles as C++11 nearly always (taglib 1.13 builds
  // with -std=gnu++98). C keeps its standard; so does any later C++.
  for (const char *old : {"c++98", "c++03", "gnu++98", "gnu++03"})
    if (flag == std::string("-std=") + old) return std::string("-std=") + (old[0] == 'g' ? "gnu++11" : "c++11");
  return flag;
}

std::vector<std::string> harnessCompileCommand(const model::Program &program, const Toolchain &tc,
                                               const std::string &source, const std::string &object, bool sanitize) {
  std::vector<std::string> args{program.language == "c" ? tc.clang : tc.clangxx};
  const std::vector<std::string> &cmd = program.compileCommand;
  for (size_t i = 1; i < cmd.size(); ++i) {
    const std::string &a = cmd[i];
    if (dropsNext(a)) {
      ++i;
      continue;
    }
    if (dropped(a) || startsWith(a, "-o")) continue;
    // The unit itself: the wrapper includes it.
    if (!a.empty() && a[0] != '-' && canonicalPath(fs::path(program.directory) / a) == program.unit) continue;
    args.push_back(program.language == "c" ? a : harnessStandard(a));
  }
  // Every error, not clang's first 20: the calls to leave out are found
  // from them all at once (buildLinkedHarness), not 20 at a time.
  args.insert(args.end(), {"-g", "-ferror-limit=0", "-I" + tc.abiInclude, "-fpass-plugin=" + tc.passPlugin});
  if (sanitize) args.insert(args.end(), {"-fsanitize=address,undefined", "-fno-sanitize-recover=all"});
  args.insert(args.end(), {"-c", source, "-o", object});
  return args;
}

std::vector<std::string> projectLibraries(const std::string &buildDir) {
  std::vector<std::string> out;
  const auto add = [&](const std::string &item) {
    std::error_code ec;
    const bool flag = item.size() > 2 && item.rfind("-l", 0) == 0;
    const bool file = !flag && fs::path(item).is_absolute() && fs::is_regular_file(item, ec) &&
                      (item.ends_with(".so") || item.ends_with(".a") || item.find(".so.") != std::string::npos);
    if ((flag || file) && std::find(out.begin(), out.end(), item) == out.end()) out.push_back(item);
  };
  // The last group of each line of `file` that `line` matches, as items
  // split at `separator` (whitespace when 0).
  const auto scan = [&](const char *file, const std::regex &line, char separator) {
    std::ifstream in(fs::path(buildDir) / file);
    std::smatch m;
    for (std::string text; std::getline(in, text);)
      if (std::regex_match(text, m, line)) {
        std::stringstream items(m[m.size() - 1].str());
        if (separator)
          for (std::string item; std::getline(items, item, separator);) add(item);
        else
          for (std::string item; items >> item;) add(item);
      }
  };
  // NAME_LIBRARY, NAME_LIBRARY_RELEASE, NAME_LIBRARIES (CMake's find
  // modules), their values ;-lists; then an autotools Makefile's LIBS.
  scan("CMakeCache.txt", std::regex(R"(^[A-Za-z0-9_]+_LIBRAR(?:Y|IES)(?:_RELEASE)?:(?:FILEPATH|STRING|PATH)=(.+)$)"), ';');
  scan("Makefile", std::regex(R"(^LIBS\s*=\s*(.*)$)"), 0);
  return out;
}

// re2's util/test.cc defines main beside its own testing::TempDir.
bool definesMain(const std::string &object) {
  if (auto known = elfDefinesFunction(object, "main")) return *known;
  // Not an ELF object: LLVM bitcode (-flto), which binutils' nm reads only
  // through the plugin of Debian's oldest LLVM (14 refuses 19's bitcode),
  // so llvm-nm-19 first; then nm, for GCC's LTO objects.
  for (const char *tool : {"llvm-nm-19", "nm"}) {
    auto r = runProcess({tool, "-g", "--defined-only", object});
    if (!r || r->exitCode != 0 || r->output.find(" T ") == std::string::npos) continue;
    std::istringstream in(r->output);
    for (std::string line; std::getline(in, line);)
      if (line.size() >= 7 && line.compare(line.size() - 7, 7, " T main") == 0) return true;
    return false;
  }
  return false;
}

namespace {

// The project's other translation units, compiled with their own commands
// (their own compiler: they are not instrumented) into one archive, for a
// unit that calls into the rest of its project.
Expected<std::string> projectArchive(const model::Program &program, const fs::path &dir, const fs::path &objectCache,
                                     unsigned jobs, std::vector<std::string> &notes) {
  std::ifstream in(program.compileDatabase);
  if (!in) return Error::input("cannot read " + program.compileDatabase);
  nlohmann::json db;
  try {
    db = nlohmann::json::parse(in);
  } catch (const std::exception &e) {
    return Error::input(std::string("malformed compile database: ") + e.what());
  }
  struct Job {
    std::vector<std::string> argv; // empty when the object is cached
    std::string directory, object, file;
    std::vector<std::string> flags;
    std::vector<std::string> command; // its compile command without the output
  };
  std::vector<Job> work;
  // Objects are cached in the work folder, shared by every unit of the
  // project: each by its file and command, reused while the files its
  // dependency list names are unchanged (a manifest, as the harness's).
  const fs::path objects = objectCache;
  fs::create_directories(objects);
  size_t reused = 0;
  std::set<std::string> seen;
  for (const auto &entry : db) {
    const std::string directory = entry.value("directory", "");
    const std::string file = canonicalPath(fs::path(directory) / entry.value("file", ""));
    if (file == program.unit) continue;
    // A file the database builds several ways (libtool's PIC and non-PIC
    // objects; lua's C and C++ libraries) is linked once, as its first
    // entry builds it: the unit's own entry is its first one too.
    if (!seen.insert(file).second) continue;
    // Assembly is linked too: zstd's huf_decompress.c calls the loops of
    // huf_decompress_amd64.S (without it no unit of zstd linked).
    std::vector<std::string> argv;
    if (entry.contains("arguments")) {
      argv = entry["arguments"].get<std::vector<std::string>>();
    } else {
      std::istringstream words(entry.value("command", ""));
      for (std::string w; words >> w;) argv.push_back(w);
    }
    if (argv.empty()) continue;
    std::vector<std::string> cmd{argv[0]};
    for (size_t i = 1; i < argv.size(); ++i) {
      if (dropsNext(argv[i])) {
        ++i;
        continue;
      }
      if (dropped(argv[i]) || startsWith(argv[i], "-o")) continue;
      cmd.push_back(argv[i]);
    }
    // With debug information, whatever the project's build type: a
    // failure's stack names these files' lines too (a crash's trace has
    // frames in them, muParser's ParseCmdCodeBulk and the template of a
    // header it instantiates, which reproduce matches by function and
    // line); -g does not change the code generated.
    cmd.push_back("-g");
    const std::string object = (objects / (hex(fnv1a(commandLine(cmd), fnv1a(file))) + ".o")).string();
    if (fs::exists(object) && upToDate(object + ".inputs")) {
      ++reused;
      work.push_back({{}, directory, object, file, buildFlags(argv, directory, file), cmd});
      continue;
    }
    // Built under a name of this process's, then moved into place: a
    // concurrent run on another unit never links half an object.
    const std::string partial = object + ".tmp-" + std::to_string(getpid());
    std::vector<std::string> compile = cmd;
    compile.insert(compile.end(), {"-w", "-c", "-MD", "-MF", partial + ".d", "-o", partial});
    work.push_back({compile, directory, object, file, buildFlags(argv, directory, file), cmd});
  }
  std::vector<std::string> built, programs;
  nlohmann::json used = nlohmann::json::array();
  for (size_t start = 0; start < work.size(); start += jobs) {
    std::vector<std::future<Expected<ProcessResult>>> running;
    for (size_t i = start; i < work.size() && i < start + jobs; ++i)
      running.push_back(std::async(std::launch::async, [&, i]() -> Expected<ProcessResult> {
        if (work[i].argv.empty()) return ProcessResult{0, "", false}; // cached
        auto r = runProcess(work[i].argv, {.directory = work[i].directory});
        if (r && r->exitCode == 0) {
          const std::string partial = work[i].object + ".tmp-" + std::to_string(getpid());
          writeManifest(partial + ".inputs", partial + ".d", work[i].directory, objects);
          std::error_code ec;
          fs::rename(partial + ".inputs", work[i].object + ".inputs", ec);
          fs::rename(partial, work[i].object, ec);
          fs::remove(partial + ".d", ec);
        }
        return r;
      }));
    for (size_t k = 0; k < running.size(); ++k) {
      auto r = running[k].get();
      const Job &job = work[start + k];
      if (r && r->exitCode == 0) {
        // A program or test driver of the project (re2's util/test.cc)
        // defines main: its main is renamed, in the harness's archive and
        // in the suite's build alike, so that it neither clashes with
        // gtest_main's nor is lost with what else it defines
        // (testing::TempDir, which re2/testing/dump.cc calls). A marker
        // beside the cached object remembers it.
        std::vector<std::string> flags = job.flags;
        const std::string marker = job.object + ".main";
        bool renamed = fs::exists(marker);
        if (!renamed && definesMain(job.object)) {
          const std::string partial = job.object + ".main-" + std::to_string(getpid());
          std::vector<std::string> again = job.command;
          again.insert(again.end(), {kRenamedMainFlag, "-w", "-c", "-o", partial});
          auto rebuilt = runProcess(again, {.directory = job.directory});
          std::error_code ec;
          if (rebuilt && rebuilt->exitCode == 0 && !definesMain(partial)) {
            fs::rename(partial, job.object, ec);
            std::ofstream(marker) << "main renamed\n";
            renamed = !ec;
          }
          fs::remove(partial, ec);
          if (!renamed) {
            notes.push_back("left out " + job.file + ": it defines main, and renaming it failed");
            continue;
          }
        }
        if (renamed) {
          flags.push_back(kRenamedMainFlag);
          programs.push_back(fs::path(job.file).filename().string());
        }
        built.push_back(job.object);
        used.push_back({{"file", job.file}, {"flags", flags}, {"member", fs::path(job.object).filename().string()}});
      }
      else notes.push_back("could not compile " + job.file + " for linking; left out");
    }
  }
  if (!programs.empty()) {
    constexpr size_t kNamed = 4; // ours: a note line, not a list
    std::string named;
    for (size_t i = 0; i < programs.size() && i < kNamed; ++i) named += (i ? ", " : "") + programs[i];
    if (programs.size() > kNamed) named += " and " + std::to_string(programs.size() - kNamed) + " more";
    notes.push_back("renamed main in " + std::to_string(programs.size()) +
                    " translation unit(s) of the project (programs and test drivers): " + named);
  }
  if (reused) notes.push_back("reused " + std::to_string(reused) + " compiled translation units of the project");
  const std::string archive = (dir / "libproject.a").string();
  fs::remove(archive);
  std::vector<std::string> ar{"ar", "rcs", archive};
  ar.insert(ar.end(), built.begin(), built.end());
  auto r = runProcess(ar);
  if (!r || r->exitCode != 0) return Error::input("ar failed for the project archive");
  notes.push_back("linked with " + std::to_string(built.size()) + " other translation units of the project");
  // Which ones, for the build of generated test suites (Harness::project).
  std::ofstream(dir / "project.json") << used.dump(1);
  return archive;
}

} // namespace

namespace {

// The archive members a link used, from GNU ld's map file: the lines of
// its "Archive member included to satisfy reference by file (symbol)"
// section that start with "<archive>(<member>)". Nothing when the map has
// no such section (another linker's format).
std::optional<std::set<std::string>> linkedMembers(const fs::path &map, const std::string &archiveName) {
  std::ifstream in(map);
  std::string line;
  bool section = false;
  std::set<std::string> members;
  while (std::getline(in, line)) {
    if (line.rfind("Archive member included", 0) == 0) {
      section = true;
      continue;
    }
    if (!section || line.empty() || line[0] == ' ') continue;
    const size_t at = line.find(archiveName + "(");
    if (at == std::string::npos) {
      if (line.find('(') == std::string::npos) break; // the next section
      continue;
    }
    const size_t open = at + archiveName.size() + 1, close = line.find(')', open);
    if (close != std::string::npos) members.insert(line.substr(open, close - open));
  }
  if (!section) return std::nullopt;
  return members;
}

// project.json lists only the project's translation units the link used:
// a written suite builds and links those (emit/CMakeFile.cpp), not the
// project's test programs, fuzz harnesses and tools that no call of the
// unit reaches. Entries of an older format (no member) stay.
void keepLinkedMembers(const fs::path &stage) {
  const auto members = linkedMembers(stage / "link.map", "libproject.a");
  std::error_code ec;
  fs::remove(stage / "link.map", ec);
  if (!members) return;
  nlohmann::json all;
  try {
    std::ifstream in(stage / "project.json");
    all = nlohmann::json::parse(in);
  } catch (const std::exception &) {
    return;
  }
  nlohmann::json kept = nlohmann::json::array();
  for (const auto &u : all)
    if (!u.contains("member") || members->count(u["member"].get<std::string>())) kept.push_back(u);
  std::ofstream(stage / "project.json") << kept.dump(1);
}

// Compiles and links the harness in `stage`, the folder that becomes its
// home once complete. Fills h.notes.
Expected<bool> buildIn(const model::Program &program, const Toolchain &tc, const BuildOptions &options, Harness &h,
                       const fs::path &stage, LinkFailure *failure) {
  const std::string source = writeFileIfChanged(stage / ("harness" + h.generated.extension), h.generated.source);
  const std::string object = (stage / "harness.o").string();
  const std::string binary = (stage / "harness").string();
  std::vector<std::string> compile = harnessCompileCommand(program, tc, source, object, options.sanitize);
  const fs::path depfile = stage / "harness.d";
  compile.insert(compile.end() - 4, {"-MD", "-MF", depfile.string()});
  if (options.symbolic) compile.insert(compile.end() - 4, "-DMOSAIC_SYMBOLIC=1");
  auto c = runProcess(compile, {.directory = program.directory,
                                .env = {{MOSAIC_ENV_PASS_UNIT, program.unit},
                                 {MOSAIC_ENV_PASS_UNIT_HEADER, program.mainHeader},
                                 {MOSAIC_ENV_PASS_DESCRIPTION, (stage / "description.json").string()},
                                 {MOSAIC_ENV_PASS_MUTANTS, options.schemata       ? "schemata"
                                                           : options.weakMutation ? "weak"
                                                                                  : "none"},
                                 {MOSAIC_ENV_PASS_SYMBOLIC, options.symbolic ? "1" : "0"}}});
  if (!c) return c.takeError();
  if (c->exitCode != 0) {
    if (failure) failure->uncompilable = uncompilableCallables(h.generated.source, source, c->output);
    return compileError("the harness of '" + program.unit + "' does not compile", compile, *c);
  }
  writeManifest(stage / "inputs.txt", depfile, program.directory, stage);

  // Every C++ throw through the runtime's wrapper, which notes its stack
  // (runtime/throw.c); nothing for a unit that never throws.
  std::vector<std::string> link{tc.clangxx, object, tc.runtime, "-o", binary, "-Wl,--wrap=__cxa_throw"};
  link.insert(link.end(), std::begin(kLinkFlags), std::end(kLinkFlags));
  if (options.sanitize) link.insert(link.end(), {"-fsanitize=address,undefined"});
  // libffi for calls of variadic functions (CodegenVariadic.cpp).
  const std::vector<std::string> libs{"-lffi", "-lm", "-lpthread", "-ldl"};
  std::vector<std::string> first = link;
  first.insert(first.end(), libs.begin(), libs.end());
  auto l = runProcess(first, {.directory = stage.string()});
  if (!l) return l.takeError();
  if (l->exitCode != 0 && l->output.find("undefined reference") != std::string::npos &&
      !program.compileDatabase.empty()) {
    // The unit calls into the rest of its project.
    Expected<std::string> archive = (stage / "libproject.a").string();
    std::error_code ec;
    if (!options.reuseProject.empty() && fs::exists(fs::path(options.reuseProject) / "libproject.a") &&
        fs::exists(fs::path(options.reuseProject) / "project.json")) {
      for (const char *f : {"libproject.a", "project.json"}) fs::copy_file(fs::path(options.reuseProject) / f, stage / f, ec);
    } else {
      archive = projectArchive(program, stage, fs::absolute(options.workDir) / "objects", options.jobs, h.notes);
    }
    if (!archive) return archive.takeError();
    std::vector<std::string> second = link;
    // The runtime again after the project: its throw wrapper for the
    // project's throws (-Wl,--wrap=__cxa_throw). The link map says which
    // of the archive's members the unit needed (keepLinkedMembers).
    second.insert(second.end(), {*archive, tc.runtime, "-Wl,-Map=" + (stage / "link.map").string()});
    second.insert(second.end(), libs.begin(), libs.end());
    l = runProcess(second, {.directory = stage.string()});
    // What is still undefined may be the libraries the project links with
    // (taglib's tzlib.cpp calls zlib's inflate).
    if (l && l->exitCode != 0 && l->output.find("undefined reference") != std::string::npos)
      if (const std::vector<std::string> more = projectLibraries(fs::path(program.compileDatabase).parent_path().string());
          !more.empty()) {
        std::vector<std::string> third = second;
        third.insert(third.end(), more.begin(), more.end());
        auto again = runProcess(third, {.directory = stage.string()});
        if (again && again->exitCode == 0) {
          second = std::move(third);
          l = std::move(again);
          h.libraries = more;
          std::ofstream libraries(stage / "libraries.txt");
          for (const std::string &lib : more) libraries << lib << "\n";
        }
      }
    if (l && l->exitCode != 0 && l->output.find("multiple definition") != std::string::npos) {
      second.insert(second.begin() + 1, "-Wl,--allow-multiple-definition");
      l = runProcess(second, {.directory = stage.string()});
    }
    if (!l) return l.takeError();
    if (l->exitCode != 0) {
      if (failure) {
        failure->unlinked = unlinkedFunctions(l->output);
        failure->uncompilable = unlinkableCallables(h.generated.source, l->output);
      }
      return compileError("the harness of '" + program.unit + "' does not link", second, *l);
    }
    keepLinkedMembers(stage);
  } else if (l->exitCode != 0) {
    if (failure) {
      failure->unlinked = unlinkedFunctions(l->output);
      failure->uncompilable = unlinkableCallables(h.generated.source, l->output);
    }
    return compileError("the harness of '" + program.unit + "' does not link", first, *l);
  }
  return true;
}

} // namespace

Expected<Harness> buildHarness(const model::Program &program, const testcase::Catalog &catalog, const Toolchain &tc,
                               const BuildOptions &options, LinkFailure *failure) {
  Harness h;
  CodegenOptions codegen;
  for (const std::string &a : program.compileCommand)
    if (a == "-fno-exceptions") codegen.exceptions = false;
  h.generated = generateHarness(program, catalog, codegen);

  const std::string stem = fs::path(program.unit).stem().string();
  const std::vector<std::string> probe = harnessCompileCommand(program, tc, "harness" + h.generated.extension, "harness.o",
                                                               options.sanitize);
  // The cache key: everything that makes the harness what it is; inputs of
  // its compile that change later are caught by the manifest.
  std::uint64_t key = fnv1a(h.generated.source);
  key = fnv1a(commandLine(probe), key);
  if (options.weakMutation) key = fnv1a("weak mutation", key);
  if (options.schemata) key = fnv1a("mutant schemata", key);
  if (options.symbolic) key = fnv1a("symbolic", key);
  for (const char *flag : kLinkFlags) key = fnv1a(flag, key);
  for (const std::string &f : {tc.passPlugin, tc.runtime}) {
    std::error_code ec;
    key = fnv1a(std::to_string(fs::last_write_time(f, ec).time_since_epoch().count()), key);
  }
  // Absolute: the compile runs in the unit's own working directory.
  const fs::path dir = fs::absolute(options.workDir) / (stem + "-" + hex(key).substr(0, 12));
  h.directory = dir.string();
  h.binary = (dir / "harness").string();
  h.description = (dir / "description.json").string();
  auto readProject = [&] {
    h.libraries.clear();
    std::ifstream libraries(dir / "libraries.txt");
    for (std::string lib; std::getline(libraries, lib);)
      if (!lib.empty()) h.libraries.push_back(lib);
    std::ifstream in(dir / "project.json");
    if (!in) return;
    try {
      for (const auto &u : nlohmann::json::parse(in))
        h.project.push_back({u.at("file").get<std::string>(), u.at("flags").get<std::vector<std::string>>()});
    } catch (const std::exception &) {
      h.project.clear();
    }
  };
  if (fs::exists(h.binary) && fs::exists(h.description) && upToDate(dir / "inputs.txt")) {
    h.cached = true;
    readProject();
    return h;
  }
  // Built in a folder of its own and moved into place when complete, so
  // that concurrent runs on the same unit never see half a harness.
  std::error_code ec;
  const fs::path stage = dir.string() + ".tmp-" + std::to_string(getpid());
  fs::remove_all(stage, ec);
  fs::create_directories(stage, ec);
  if (ec) return Error::input("cannot create " + stage.string() + ": " + ec.message());
  auto built = buildIn(program, tc, options, h, stage, failure);
  if (!built) {
    // Kept for the user to read (the error names the generated source's
    // lines); the next failure replaces it.
    Error e = built.takeError();
    const fs::path failed = dir.string() + ".failed";
    fs::remove_all(failed, ec);
    fs::rename(stage, failed, ec);
    if (failure) failure->projectDir = ec ? std::string() : failed.string();
    if (ec) fs::remove_all(stage, ec);
    else e.detail += (e.detail.empty() || e.detail.back() == '\n' ? "" : "\n") + std::string("(the harness source is kept in ") +
                     failed.string() + ")";
    return e;
  }
  // A concurrent run may have installed the same harness meanwhile: keep
  // it (someone may be using it) and drop ours. A stale one is moved aside
  // first, so the folder is never seen half removed.
  if (fs::exists(h.binary) && upToDate(dir / "inputs.txt")) {
    fs::remove_all(stage, ec);
    readProject();
    return h;
  }
  const fs::path old = dir.string() + ".old-" + std::to_string(getpid());
  if (fs::exists(dir)) fs::rename(dir, old, ec);
  fs::rename(stage, dir, ec);
  fs::remove_all(old, ec);
  if (!fs::exists(h.binary)) {
    fs::remove_all(stage, ec);
    return Error::input("cannot install the harness in " + dir.string());
  }
  if (fs::exists(stage)) fs::remove_all(stage, ec); // another run installed between our check and rename
  readProject();
  return h;
}

} // namespace mosaic::harness
