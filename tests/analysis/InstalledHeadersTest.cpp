// The headers a project's build installs decide what is its interface.
#include "InstalledHeaders.h"

#include "common/TestSupport.h"
#include "mosaic/analysis/FrontEnd.h"

#include <filesystem>
#include <fstream>

using namespace mosaic;
using namespace mosaic::analysis;
using namespace mosaic::test;

namespace {

void write(const std::string &path, const std::string &text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << text;
}

const model::Callable *find(const model::Program &p, const std::string &name) {
  for (const model::Callable &c : p.callables)
    if (c.name == name) return &c;
  return nullptr;
}

} // namespace

TEST(InstalledHeaders, CMakeInstallRulesNameFilesAndFolders) {
  InstalledHeaders h;
  readCMakeInstall(R"(
if(CMAKE_INSTALL_COMPONENT STREQUAL "Unspecified" OR NOT CMAKE_INSTALL_COMPONENT)
  file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/include/re" TYPE FILE FILES
    "/src/re/re.h"
    "/src/re/set.h"
    )
  file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/lib" TYPE STATIC_LIBRARY FILES "/build/libre.a")
  file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/lib/cmake" TYPE FILE FILES "/build/reConfig.cmake")
  file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/include" TYPE DIRECTORY FILES "/src/include/" FILES_MATCHING REGEX "/[^/]*\\.h$")
endif()
)",
                   h);
  EXPECT_EQ(h.files, (std::vector<std::string>{"/src/re/re.h", "/src/re/set.h"}));
  EXPECT_EQ(h.folders, (std::vector<std::string>{"/src/include/"}));
  EXPECT_TRUE(h.installs("/src/re/set.h"));
  EXPECT_FALSE(h.installs("/src/re/prog.h"));
  EXPECT_TRUE(h.installs("/src/include/yaml/node.h"));
  EXPECT_FALSE(h.installs("/src/includes/x.h"));
}

TEST(InstalledHeaders, MakeDryRunNamesWhatInstallAndCpCopyButNotWhereTo) {
  InstalledHeaders h;
  // As re2's Makefile, lua's, zlib's and automake's install rules print
  // them under `make -n install DESTDIR=/nowhere`.
  readMakeDryRun("cc -c -include config.h -o obj/re2.o re2/re2.cc\n"
                 "install -m 644 re2/filtered_re2.h re2/re2.h  /nowhere/usr/local/include/re2\n"
                 "cd src && install -p -m 0644 lua.h luaconf.h /nowhere/usr/include/lua5.4/\n"
                 "cp zlib.h zconf.h /nowhere/usr/local/include\n"
                 "chmod 644 /nowhere/usr/local/include/zlib.h\n"
                 "list='../expat_config.h expat.h'; test -n \"/usr/local/include\" || list=; \\\n"
                 " for p in $list; do echo \"$p\"; done\n"
                 "if test ! -f /src/lib/grammar.h; then rm -f grammar.c; else :; fi\n",
                 "/nowhere", h);
  EXPECT_EQ(h.files, (std::vector<std::string>{"re2/filtered_re2.h", "re2/re2.h", "lua.h", "luaconf.h", "zlib.h",
                                               "zconf.h", "expat_config.h", "expat.h"}));
  EXPECT_TRUE(h.installs("/src/re2/re2.h"));
  EXPECT_FALSE(h.installs("/src/re2/prog.h"));
  EXPECT_FALSE(h.installs("/src/xre2/re2.h")) << "a suffix matches whole path components";
  EXPECT_TRUE(h.installs("/src/lib/expat.h"));
  EXPECT_FALSE(h.installs("/src/lib/grammar.h"));
}

// A make project (no CMake): its Makefile installs api.h, not helpers.h. A
// function only helpers.h declares is the library's inside although the
// header's name does not say so; one api.h declares is its interface.
TEST(InstalledHeaders, WhatOnlyAHeaderTheBuildKeepsDeclaresIsInternal) {
  const std::string dir = makeTempDir("mosaic-installed");
  write(dir + "/api.h", "int api_sum(int a, int b);\n");
  write(dir + "/helpers.h", "int impl_twice(int a);\n");
  write(dir + "/lib.c", "#include \"api.h\"\n#include \"helpers.h\"\n"
                        "int impl_twice(int a) { return 2 * a; }\n"
                        "int api_sum(int a, int b) { return impl_twice(a) / 2 + b; }\n");
  write(dir + "/Makefile", "all: lib.o\n"
                           "lib.o: lib.c\n\tcc -c lib.c\n"
                           "install: all\n\tinstall -m 644 api.h $(DESTDIR)/usr/include\n");
  write(dir + "/compile_commands.json", "[{\"directory\": \"" + dir + "\", \"file\": \"lib.c\", "
                                        "\"arguments\": [\"cc\", \"-c\", \"lib.c\"]}]");
  const InstalledHeaders installed = findInstalledHeaders(dir);
  EXPECT_EQ(installed.source, "make -n install");
  EXPECT_EQ(installed.files, std::vector<std::string>{"api.h"});

  auto program = analyzeUnit({.buildDir = dir, .unit = dir + "/lib.c", .projectSamples = false});
  ASSERT_TRUE(program) << program.error().message;
  const model::Callable *api = find(*program, "api_sum");
  const model::Callable *impl = find(*program, "impl_twice");
  ASSERT_TRUE(api && impl);
  EXPECT_FALSE(api->internalApi);
  EXPECT_TRUE(impl->internalApi);
  EXPECT_NE(std::find_if(program->notes.begin(), program->notes.end(),
                         [](const std::string &n) { return n.find("make -n install") != std::string::npos; }),
            program->notes.end());

  // Without an install rule, the build names no header: names decide.
  write(dir + "/Makefile", "all: lib.o\nlib.o: lib.c\n\tcc -c lib.c\n");
  EXPECT_FALSE(findInstalledHeaders(dir).known());
  program = analyzeUnit({.buildDir = dir, .unit = dir + "/lib.c", .projectSamples = false});
  ASSERT_TRUE(program) << program.error().message;
  EXPECT_FALSE(find(*program, "impl_twice")->internalApi);
}

// A project that marks what it exports (muParser's API_EXPORT_CXX on
// ParserBase, none on ParserByteCode): a class of its headers without the
// mark is its inside, though a build without -fvisibility=hidden exports it.
TEST(ExportMarks, AnUnmarkedClassOfAProjectThatMarksItsExportsIsInternal) {
  const std::string dir = makeTempDir("mosaic-exports");
  const std::string mark = "__attribute__((visibility(\"default\")))";
  auto project = [&](const std::string &exportMark, const std::string &defines = "") {
    write(dir + "/calc.h", "#pragma once\n" + defines +
                           "class " + exportMark + " Calc {\npublic:\n  int eval(int x);\n};\n"
                           "class Code {\npublic:\n  int add(int op);\n  int size() const { return n_; }\n"
                           "private:\n  int n_ = 0;\n};\n");
    write(dir + "/calc.cpp", "#include \"calc.h\"\n"
                             "int Code::add(int op) { return n_ += op; }\n"
                             "int Calc::eval(int x) { Code c; return c.add(x); }\n");
    write(dir + "/compile_commands.json", "[{\"directory\": \"" + dir + "\", \"file\": \"calc.cpp\", "
                                          "\"arguments\": [\"c++\", \"-c\", \"calc.cpp\"]}]");
    auto program = analyzeUnit({.buildDir = dir, .unit = dir + "/calc.cpp", .projectSamples = false});
    EXPECT_TRUE(program) << program.error().message;
    return program ? *program : model::Program{};
  };
  model::Program p = project(mark);
  ASSERT_TRUE(find(p, "eval") && find(p, "add") && find(p, "size"));
  EXPECT_FALSE(find(p, "eval")->internalApi);
  EXPECT_TRUE(find(p, "add")->internalApi);
  EXPECT_FALSE(find(p, "size")->internalApi) << "inline: compiled into whoever calls it, no mark could name it";

  p = project("");
  ASSERT_TRUE(find(p, "add"));
  EXPECT_FALSE(find(p, "add")->internalApi) << "a project that marks nothing says nothing";

  // pugixml's mark: a Windows-only macro, defined as nothing here, through
  // another (PUGIXML_CLASS -> PUGIXML_API).
  p = project("CALC_CLASS", "#ifdef _WIN32\n#define CALC_API __declspec(dllexport)\n#else\n#define CALC_API\n#endif\n"
                            "#define CALC_CLASS CALC_API\n");
  ASSERT_TRUE(find(p, "eval") && find(p, "add"));
  EXPECT_FALSE(find(p, "eval")->internalApi);
  EXPECT_TRUE(find(p, "add")->internalApi);
}

// msgpack-c marks its C interface with MSGPACK_DLLEXPORT, which is nothing
// on Linux: before a declaration or after `extern`, it still tells the
// interface (msgpack_zone_new) from what only the header's inline
// functions call (msgpack_zone_push_finalizer_expand). A macro that is
// nothing but is not named for exporting marks nothing.
TEST(ExportMarks, AnExportMacroDefinedAsNothingMarksTheInterfaceAsAnAttributeWould) {
  const std::string dir = makeTempDir("mosaic-exports");
  write(dir + "/zone.h", "#pragma once\n#define ZN_DLLEXPORT\n#define ZN_INLINE_HINT\n"
                         "typedef struct zone { int used; } zone;\n"
                         "ZN_DLLEXPORT\nzone *zone_new(void);\n"
                         "extern ZN_DLLEXPORT int zone_used(zone *z);\n"
                         "int zone_expand(zone *z, int n);\n"
                         "ZN_INLINE_HINT int zone_other(zone *z);\n"
                         "#if !defined(ZN_KERNEL_MODE)\nZN_DLLEXPORT\nint zone_print(zone *z);\n#endif\n"
                         "static int zone_peek(zone *z);\n"
                         "static inline int zone_push(zone *z) { return zone_expand(z, 1); }\n"
                         "static inline int zone_peek(zone *z) { return z->used; }\n");
  write(dir + "/zone.c", "#include <stdlib.h>\n#include \"zone.h\"\n"
                         "zone *zone_new(void) { return calloc(1, sizeof(zone)); }\n"
                         "int zone_used(zone *z) { return z->used; }\n"
                         "int zone_expand(zone *z, int n) { return z->used += n; }\n"
                         "int zone_other(zone *z) { return z->used; }\n"
                         "int zone_print(zone *z) { return z->used; }\n");
  write(dir + "/compile_commands.json", "[{\"directory\": \"" + dir + "\", \"file\": \"zone.c\", "
                                        "\"arguments\": [\"cc\", \"-c\", \"zone.c\"]}]");
  auto program = analyzeUnit({.buildDir = dir, .unit = dir + "/zone.c", .projectSamples = false});
  ASSERT_TRUE(program) << program.error().message;
  ASSERT_TRUE(find(*program, "zone_new") && find(*program, "zone_used") && find(*program, "zone_expand") &&
              find(*program, "zone_other"));
  EXPECT_FALSE(find(*program, "zone_new")->internalApi);
  EXPECT_FALSE(find(*program, "zone_used")->internalApi);
  EXPECT_TRUE(find(*program, "zone_expand")->internalApi);
  EXPECT_TRUE(find(*program, "zone_other")->internalApi);
  ASSERT_TRUE(find(*program, "zone_print") && find(*program, "zone_peek"));
  EXPECT_FALSE(find(*program, "zone_print")->internalApi) << "the mark on its own line inside an #if";
  EXPECT_FALSE(find(*program, "zone_peek")->internalApi)
      << "static in a header (msgpack-c's pack.h, inline where it is defined): each includer compiles its own";
}
