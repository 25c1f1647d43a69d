// The GoogleTest writer on hand-built test cases: what it writes compiles.
#include "common/TestSupport.h"

#include "mosaic/analysis/FrontEnd.h"
#include "mosaic/driver/Toolchain.h"
#include "mosaic/emit/Suite.h"
#include "mosaic/model/Derive.h"

#include <gtest/gtest.h>

#include <csignal>

#include <filesystem>
#include <fstream>
#include <regex>

using namespace mosaic;
using namespace mosaic::test;
using testcase::Op;
using testcase::Statement;

namespace {

const std::string kFixtures = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/search/";
const std::string kAnalysisFixtures = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/analysis/";

struct Unit {
  model::Program program;
  std::unique_ptr<testcase::Catalog> catalog;

  std::string dir;

  explicit Unit(const std::string &file, const std::string &db = MOSAIC_FIXTURE_SEARCH_DB_DIR,
                const std::string &fixtures = kFixtures)
      : dir(fixtures) {
    auto p = analysis::analyzeUnit({db, fixtures + file});
    if (!p) throw std::runtime_error(p.error().message);
    program = std::move(*p);
    (void)model::selectTargets(program, {});
    catalog = std::make_unique<testcase::Catalog>(program);
  }
  const model::Callable &callable(const std::string &name) const {
    for (const auto &c : program.callables)
      if (c.qualifiedName == name) return c;
    throw std::runtime_error("no callable " + name);
  }
  model::TypeId pointee(model::TypeId pointer) const { return *program.type(program.type(pointer).value).pointee; }
};

// `compile` (clang with -fsyntax-only on a written file) accepts the file;
// `shown` is printed when it does not. Not under the sanitizers
// (TestSupport.h): clang's verdict on the same text is `make test`'s.
void expectCompiles(const std::vector<std::string> &compile, const std::string &shown) {
#ifdef MOSAIC_TESTS_UNDER_ASAN
  (void)compile;
  (void)shown;
#else
  auto r = runProcess(compile);
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err << shown;
#endif
}

// Writes `tests` as a suite (its passing tests, or with `failing` its
// failing tests) into a fresh folder and checks their test file with
// clang++ -fsyntax-only; returns the file's text.
std::string writeAndCheck(const Unit &u, const std::vector<emit::SuiteTest> &tests, bool failing = false) {
  emit::UnitBuild build;
  build.flags = {"-I" + u.dir};
  const std::vector<emit::SuiteTest> none;
  const emit::Suite suite = emit::writeSuite(u.program, *u.catalog, failing ? none : tests, failing ? tests : none, build);
  for (const auto &[site, why] : suite.unwritable) ADD_FAILURE() << "unwritable: " << why;
  const std::string dir = makeTempDir("mosaic-writer");
  for (const auto &f : suite.files) std::ofstream(std::filesystem::path(dir) / f.name) << f.text;
  const std::string file = dir + "/" + (failing ? suite.failingFiles : suite.testFiles).at(0);
  expectCompiles({driver::toolchain().clangxx, "-fsyntax-only", "-std=c++20", "-I" + u.dir, file}, // as the suite's CMake file
                 readFile(file));
  return readFile(file);
}

// scan_document(ptr, end) over `bytes`: the buffer, its end, the call.
std::vector<Statement> scanDocument(const Unit &u, std::string bytes) {
  const model::Callable &doc = u.callable("scan_document");
  return {
      Statement{.op = Op::Buffer, .type = u.program.type(doc.params[0].type).value, .bytes = std::move(bytes)},
      Statement{.op = Op::EndOf, .type = u.program.type(doc.params[1].type).value, .refs = {0}},
      Statement{.op = Op::Call, .callable = doc.id, .refs = {0, 1}},
  };
}

} // namespace

TEST(Writer, AnArrayPassedByItsAddressIsAPointerToItsElements) {
  // skip_spaces(char **cursor) given the address of an array of chars: the
  // array's own address would be a `char (*)[2]`, which does not convert to
  // `char **` (cJSON's utf16_literal_to_utf8 once lost tests this way).
  Unit u("state.c");
  const model::Callable &skip = u.callable("skip_spaces");
  const model::TypeId charPP = skip.params.at(0).type, charP = u.pointee(charPP), ch = u.pointee(charP);
  emit::SuiteTest t;
  t.test.statements = {
      Statement{.op = Op::Primitive, .type = ch, .bits = ' '},
      Statement{.op = Op::Primitive, .type = ch, .bits = 'x'},
      Statement{.op = Op::Array, .type = charP, .refs = {0, 1}},
      Statement{.op = Op::AddressOf, .type = charPP, .refs = {2}},
      Statement{.op = Op::Call, .callable = skip.id, .refs = {3}},
  };
  const std::string text = writeAndCheck(u, {t});
  EXPECT_NE(text.find("char buffer_bytes[] = {' ', 'x'}; char *buffer = buffer_bytes;"), std::string::npos) << text;
  EXPECT_NE(text.find("char **cursor = &buffer;"), std::string::npos) << text;
}

TEST(Writer, AnArrayFillsAnArrayMemberInPlaceAndAPointerMemberByName) {
  // struct window { int size; unsigned char *next; unsigned char tail[2]; }:
  // braces initialise `tail`, but not `next` (zlib's gzFile_s once lost a
  // test to `.next = {94u, 193u, 44u}`); an element taken from a pointer is
  // read through it (zlib's inflate_state once lost one to `.codes =
  // {lencode, ...}`, lencode a `code *`).
  Unit u("window.c");
  const model::Callable &sum = u.callable("window_sum");
  const model::TypeId windowP = sum.params.at(0).type, window = u.pointee(windowP);
  const model::Record &r = u.program.record(*u.program.type(u.program.type(window).value).recordId);
  const model::TypeId size = r.fields.at(0).type, next = r.fields.at(1).type, tail = r.fields.at(2).type,
                      spans = r.fields.at(3).type;
  const model::TypeId byte = u.pointee(next), span = *u.program.type(u.program.type(spans).value).element;
  model::TypeId spanP = span;
  for (const model::Type &ty : u.program.types)
    if (ty.kind == model::TypeKind::Pointer && ty.pointee && u.program.type(*ty.pointee).value == span) spanP = ty.id;
  ASSERT_NE(spanP, span) << "no struct span * in the model";
  emit::SuiteTest t;
  t.test.statements = {
      Statement{.op = Op::Primitive, .type = size, .bits = 2},
      Statement{.op = Op::Primitive, .type = byte, .bits = 7},
      Statement{.op = Op::Primitive, .type = byte, .bits = 9},
      Statement{.op = Op::Array, .type = next, .refs = {1, 2}},
      Statement{.op = Op::Array, .type = tail, .refs = {2, 1}},
      Statement{.op = Op::Aggregate, .type = span, .refs = {0, 0}},
      Statement{.op = Op::AddressOf, .type = spanP, .refs = {5}},
      Statement{.op = Op::Array, .type = spans, .refs = {5, 6}},
      Statement{.op = Op::Aggregate, .type = window, .refs = {0, 3, 4, 7}},
      Statement{.op = Op::AddressOf, .type = windowP, .refs = {8}},
      Statement{.op = Op::Call, .callable = sum.id, .refs = {9}},
  };
  EXPECT_EQ(u.catalog->typeError(t.test), "");
  const std::string text = writeAndCheck(u, {t});
  EXPECT_EQ(text.find(".next = {"), std::string::npos) << text;
  EXPECT_NE(text.find(".tail = {"), std::string::npos) << text;
  EXPECT_NE(text.find(", *"), std::string::npos) << text; // the second element, through its pointer
}

TEST(Writer, ElementsAndFieldsTakenFromPointersAreDereferenced) {
  // An array of `struct point` filled from `struct point *` variables (the
  // harness copies the pointee: Passing::Deref) is written with `*`, not
  // with the pointers (cJSON_Utils's get_array_item once lost a test so).
  Unit u("shapes.c", MOSAIC_FIXTURE_DB_DIR, kAnalysisFixtures);
  const model::Callable &move = u.callable("move_point");
  const model::TypeId pointP = move.params.at(0).type, point = u.pointee(pointP), integer = move.params.at(1).type;
  emit::SuiteTest t;
  t.test.statements = {
      Statement{.op = Op::Primitive, .type = integer, .bits = 1},
      Statement{.op = Op::Aggregate, .type = point, .refs = {0, 0}},
      Statement{.op = Op::AddressOf, .type = pointP, .refs = {1}},
      Statement{.op = Op::Array, .type = pointP, .refs = {2, 2}},
      Statement{.op = Op::Call, .callable = move.id, .refs = {3, 0}},
  };
  const std::string text = writeAndCheck(u, {t});
  EXPECT_NE(text.find("= {*"), std::string::npos) << text;
}

TEST(Writer, AReferenceToAPointerIsObservedThroughTheVariableBound) {
  // skip_digits(const char *&cursor) given `cursor`, made from the address
  // of a char: what the call changed is `cursor` (a string), not the char
  // it pointed at (pugixml's parse_declaration_encoding once read
  // `EXPECT_NE(value_, nullptr)` on a uint8_t this way).
  Unit u("codec.cpp");
  const model::Callable &skip = u.callable("codec::impl::skip_digits");
  const model::TypeId charP = u.program.type(skip.params.at(0).type).value, ch = u.pointee(charP);
  emit::SuiteTest t;
  t.test.statements = {
      Statement{.op = Op::Primitive, .type = ch, .bits = '0'},
      Statement{.op = Op::AddressOf, .type = charP, .refs = {0}},
      Statement{.op = Op::Call, .callable = skip.id, .refs = {1}},
  };
  t.observations = {exec::Observation{.statement = 2, .kind = MOSAIC_OBS_STRING, .target = MOSAIC_OBS_ARG0, .bytes = "7"}};
  const std::string text = writeAndCheck(u, {t});
  EXPECT_NE(text.find("EXPECT_STREQ(cursor, \"7\");"), std::string::npos) << text;
}

TEST(Writer, ANonConstReferenceIsGivenAVariableNeverALiteral) {
  // read_length(const char *, size_t &length): a literal cannot bind to
  // `size_t &` (pugixml's convert_buffer once lost tests this way).
  Unit u("codec.cpp");
  const model::Callable &read = u.callable("codec::read_length");
  const model::TypeId text = read.params.at(0).type, size = u.program.type(read.params.at(1).type).value;
  emit::SuiteTest t;
  t.test.statements = {
      Statement{.op = Op::CString, .type = text, .bytes = "12"},
      Statement{.op = Op::Primitive, .type = size, .bits = 3},
      Statement{.op = Op::Call, .callable = read.id, .refs = {0, 1}},
  };
  const std::string written = writeAndCheck(u, {t});
  EXPECT_NE(written.find("codec::read_length(\"12\", length)"), std::string::npos) << written;
}

TEST(Writer, ACallbackReturningAComputedValueCapturesNothing) {
  // A stub becomes a function pointer, so its lambda cannot capture: a
  // value that is no literal (here is_name()'s result) is kept in a static.
  Unit u("shapes.c", MOSAIC_FIXTURE_DB_DIR, kAnalysisFixtures);
  const model::Callable &isName = u.callable("is_name"), &visit = u.callable("registry_visit");
  const model::TypeId visitor = visit.params.at(1).type, regP = visit.params.at(0).type;
  emit::SuiteTest t;
  t.test.statements = {
      Statement{.op = Op::CString, .type = isName.params.at(0).type, .bytes = "name"},
      Statement{.op = Op::Call, .callable = isName.id, .refs = {0}},
      Statement{.op = Op::Callback, .type = visitor, .refs = {1}},
      Statement{.op = Op::Null, .type = regP},
      Statement{.op = Op::Null, .type = visit.params.at(2).type},
      Statement{.op = Op::Call, .callable = visit.id, .refs = {3, 2, 4}},
  };
  const std::string text = writeAndCheck(u, {t});
  EXPECT_NE(text.find("static const auto "), std::string::npos) << text;
}

TEST(Writer, AStringBoundToAReferenceToAPointerIsAPointerVariable) {
  // skip_spaces_ref(char *&cursor) given a char array: the reference needs
  // a `char *` variable to bind to, not the array (pugixml's
  // set_value_integer(char_t *&dest, ...) once lost tests this way).
  Unit u("codec.cpp");
  const model::Callable &skip = u.callable("codec::skip_spaces");
  const model::TypeId charP = u.program.type(skip.params.at(0).type).value;
  emit::SuiteTest t;
  t.test.statements = {
      Statement{.op = Op::CString, .type = charP, .bytes = "  x"},
      Statement{.op = Op::Call, .callable = skip.id, .refs = {0}},
  };
  const std::string text = writeAndCheck(u, {t});
  EXPECT_NE(text.find("char *cursor = cursor_bytes;"), std::string::npos) << text;
}

TEST(Writer, AnEndPointerIsItsBufferPlusItsLengthAndMostlyTextIsAString) {
  // scan_document(const char *ptr, const char *end): the end is written
  // from the buffer, and bytes that are mostly text as a string literal
  // (octal escapes for the rest), not as a list of hexadecimal bytes.
  Unit u("scan.c");
  const model::Callable &doc = u.callable("scan_document");
  ASSERT_EQ(doc.params.at(0).role, model::ParamRole::Buffer);
  ASSERT_EQ(doc.params.at(1).role, model::ParamRole::End);
  emit::SuiteTest t;
  t.test.statements = scanDocument(u, std::string("<a>\xfe</a>"));
  const std::string text = writeAndCheck(u, {t});
  EXPECT_NE(text.find("char ptr[] = \"<a>\\376</a>\";"), std::string::npos) << text;
  EXPECT_NE(text.find("const char *end = ptr + 8;"), std::string::npos) << text;
}

TEST(Writer, ABufferOfZeroesIsWrittenByItsSize) {
  // Room for the callee to write in: `char ptr[257] = {};`, not 256 '\x00's.
  Unit u("scan.c");
  emit::SuiteTest t;
  t.test.statements = scanDocument(u, std::string(256, '\0'));
  const std::string text = writeAndCheck(u, {t});
  EXPECT_NE(text.find("char ptr[257] = {};"), std::string::npos) << text;
  EXPECT_NE(text.find("const char *end = ptr + 256;"), std::string::npos) << text;
}

TEST(Writer, AnEnumResultNamesTheTestByItsEnumerator) {
  // scan_token("<a>", end, NULL) returns SCAN_OPEN (3): the test is
  // scan_token_ReturnsScanOpen, as its assertion spells the value, not
  // scan_token_Returns3.
  Unit u("scan.c");
  const model::Callable &token = u.callable("scan_token");
  emit::SuiteTest t;
  t.test.statements = {
      Statement{.op = Op::Buffer, .type = u.program.type(token.params[0].type).value, .bytes = "<a>"},
      Statement{.op = Op::EndOf, .type = u.program.type(token.params[1].type).value, .refs = {0}},
      Statement{.op = Op::Null, .type = u.program.type(token.params[2].type).value},
      Statement{.op = Op::Call, .callable = token.id, .refs = {0, 1, 2}},
  };
  t.observations = {exec::Observation{.statement = 3, .kind = MOSAIC_OBS_INT, .target = MOSAIC_OBS_RESULT, .field = -1,
                                      .integer = 3}};
  const std::string text = writeAndCheck(u, {t});
  EXPECT_NE(text.find("scan_token_ReturnsScanOpen)"), std::string::npos) << text;
  EXPECT_NE(text.find("SCAN_OPEN);"), std::string::npos) << text;
}

namespace {
// A failing test `mosaic reproduce` wrote for a sanitizer's report of class
// `cls`: scan_document on "<a>".
emit::SuiteTest reproducedBySanitizer(const Unit &u, const std::string &cls) {
  emit::SuiteTest t;
  t.test.statements = scanDocument(u, "<a>");
  t.failureClass = "crash";
  t.why = "reproduces a sanitizer report of trace.txt";
  t.result.outcome = exec::Outcome::Sanitizer;
  t.sanitizerClass = cls;
  t.origin = {"the trace"};
  return t;
}
} // namespace

TEST(Writer, AFailingTestASanitizerReportedHasItsBuffersOnTheHeapExactlyAsLong) {
  // A read one past a 3-byte buffer is a heap-buffer-overflow in the
  // harness's run; `char ptr[] = "<a>"` would hold a NUL there, and a stack
  // array would be another class of report.
  Unit u("scan.c");
  const emit::SuiteTest t = reproducedBySanitizer(u, "heap-buffer-overflow");
  const std::string text = writeAndCheck(u, {t}, /*failing=*/true);
  EXPECT_NE(text.find("char *ptr = new char[3]{'\\x3c', '\\x61', '\\x3e'};"), std::string::npos) << text;
  EXPECT_NE(text.find("const char *end = ptr + 3;"), std::string::npos) << text;
}

TEST(Writer, ASanitizerMessageIsMatchedLiterallyByItsDeathTest) {
  // UBSan's message names the type with parentheses: as a pattern they
  // would be a group, and the death test would fail on the very report;
  // the numbers the class left out (N) match any number.
  Unit u("scan.c");
  emit::SuiteTest t = reproducedBySanitizer(u, "member access within null pointer of type 'cJSON' (aka 'struct cJSON')");
  const std::string text = writeAndCheck(u, {t}, /*failing=*/true);
  EXPECT_NE(text.find(R"x(EXPECT_DEATH(run(), "member access within null pointer of type 'cJSON' \\(aka 'struct cJSON'\\)");)x"),
            std::string::npos)
      << text;
  t.sanitizerClass = "index -N out of bounds for type 'char[N]'";
  const std::string indexed = writeAndCheck(u, {t}, /*failing=*/true);
  EXPECT_NE(indexed.find(R"x("index -[0-9a-fA-Fx]+ out of bounds for type 'char\\[[0-9a-fA-Fx]+\\]'")x"),
            std::string::npos)
      << indexed;
}

TEST(Writer, ATestStoppedAtTheFileSizeLimitIsWrittenDisabledAsAHangIs) {
  // Outside the sandbox nothing stops its file: a death test would write on.
  Unit u("scan.c");
  emit::SuiteTest t;
  t.test.statements = scanDocument(u, "<a>");
  t.failureClass = "robustness";
  t.why = "scan_document() writes a file past the sandbox's size limit";
  t.result.outcome = exec::Outcome::Crash;
  t.result.signal = SIGXFSZ;
  t.result.statement = 2;
  const std::string text = writeAndCheck(u, {t}, /*failing=*/true);
  EXPECT_NE(text.find("DISABLED_scan_document_WritesPastTheFileLimit"), std::string::npos) << text;
  EXPECT_EQ(text.find("EXPECT_DEATH"), std::string::npos) << text;
}

TEST(Writer, EveryStandardHeaderATestFileIncludesComesBeforeTheProjectsHeaders) {
  // mxml's config.h says `#define inline` (for old C compilers): included
  // before <filesystem>, it turned libstdc++'s inline namespaces into
  // errors, and no test of mxml built.
  Unit u("scan.c");
  emit::SuiteTest t;
  t.test.statements = scanDocument(u, "<a>");
  const std::string text = writeAndCheck(u, {t});
  const size_t project = text.find("extern \"C\" {\n#include <scan.h>");
  ASSERT_NE(project, std::string::npos) << text;
  for (const char *h : {"#include <filesystem>", "#include <unistd.h>", "#include <gtest/gtest.h>"}) {
    EXPECT_NE(text.find(h), std::string::npos) << h << "\n" << text;
    EXPECT_LT(text.find(h), project) << h << "\n" << text;
  }
  EXPECT_EQ(text.find("#include <", project + 25), std::string::npos) << "nothing after the project's headers:\n" << text;
}

TEST(Writer, AFunctionAnotherProjectHeaderDeclaresIsCalledByNameAndAStructNameReadsWell) {
  // parser_impl.c has no header of its own name; parser_api.h, which it
  // includes, declares its functions: a test calls them by name (not
  // through the wrapper), as expat's tests call XML_ParserCreate.
  Unit u("parser_impl.c");
  const model::Callable &create = u.callable("parser_create");
  const model::Callable &depth = u.callable("parser_depth");
  EXPECT_TRUE(create.declaredInHeader);
  EXPECT_FALSE(u.callable("clamp").declaredInHeader);
  emit::SuiteTest t;
  t.test.statements = {
      Statement{.op = Op::Primitive, .type = create.params.at(0).type, .bits = 3},
      Statement{.op = Op::Call, .callable = create.id, .refs = {0}},
      Statement{.op = Op::Call, .callable = depth.id, .refs = {1}},
  };
  const std::string text = writeAndCheck(u, {t});
  EXPECT_NE(text.find("XML_Parser xml_ParserStruct = parser_create(3);"), std::string::npos) << text;
  EXPECT_NE(text.find("parser_depth(xml_ParserStruct)"), std::string::npos) << text;
  EXPECT_EQ(text.find("mosaic_parser_"), std::string::npos) << text;
}

TEST(Writer, ThroughTheWrapperAnOpaqueOutParameterIsAVoidPointerAndAStructOfTheHeadersIsNotWritten) {
  // cstyle.h is not C++ (WriteOptions::throughWrapper): cs_open's
  // `cs_state **` is a `void **` the test's `void *` is passed through,
  // the global table comes from the wrapper, and a test that must build a
  // struct cs_table itself is not written, with the reason.
  Unit u("cstyle.c");
  const model::Callable &open = u.callable("cs_open");
  const model::Callable &table = u.callable("cs_doubled");
  ASSERT_TRUE(table.globalObject);
  const model::TypeId state = u.program.type(open.params[0].type).value; // cs_state **
  emit::SuiteTest t;
  t.test.statements = {
      Statement{.op = Op::Null, .type = u.program.type(u.pointee(state)).value},
      Statement{.op = Op::AddressOf, .type = state, .refs = {0}},
      Statement{.op = Op::Call, .callable = table.id},
      Statement{.op = Op::Primitive, .type = open.params[2].type, .bits = 1},
      Statement{.op = Op::Call, .callable = open.id, .refs = {1, 2, 3}},
  };
  emit::SuiteTest own = t; // the same call over a table the test fills
  own.test.statements[2] = Statement{.op = Op::Aggregate, .type = u.program.type(u.pointee(open.params[1].type)).value};
  own.test.statements.insert(own.test.statements.begin() + 3,
                             Statement{.op = Op::AddressOf, .type = u.program.type(open.params[1].type).value, .refs = {2}});
  own.test.statements.back().refs = {1, 3, 4};
  emit::UnitBuild build;
  emit::WriteOptions options;
  options.throughWrapper = true;
  const emit::Suite suite = emit::writeSuite(u.program, *u.catalog, {t, own}, {}, build, options);
  ASSERT_EQ(suite.unwritable.size(), 1u);
  EXPECT_NE(suite.unwritable[0].second.find("only the project's C headers can name"), std::string::npos)
      << suite.unwritable[0].second;
  const std::string dir = makeTempDir("mosaic-writer");
  for (const auto &f : suite.files) std::ofstream(std::filesystem::path(dir) / f.name) << f.text;
  const std::string text = readFile(dir + "/" + suite.testFiles.at(0));
  EXPECT_EQ(text.find("cstyle.h"), std::string::npos) << text;
  EXPECT_NE(text.find("extern \"C\" int mosaic_cs_open_" + std::to_string(open.id) + "(void **out, const void *table, int mode);"),
            std::string::npos) << text;
  EXPECT_NE(text.find("void **out = &"), std::string::npos) << text;
  expectCompiles({driver::toolchain().clangxx, "-fsyntax-only", "-std=c++20", "-I" + u.dir, dir + "/" + suite.testFiles.at(0)},
                 text);
  const std::string wrapper = readFile(dir + "/cstyle_wrapper.c");
  EXPECT_NE(wrapper.find("return &cs_doubled;"), std::string::npos) << wrapper;
  EXPECT_NE(wrapper.find("(__typeof__(cs_state **))a0"), std::string::npos) << wrapper;
}

TEST(Writer, WhatAFailingTestPrintedCannotBreakOutOfItsComment) {
  // A carriage return ends a // comment (the rest becomes code); a
  // backslash at its end splices the next line into it. Either broke the
  // whole failing suite of json_object.c once (96 tests not compiled). And
  // "??/" in a string literal is a trigraph under a strict -std=.
  Unit u("scan.c");
  emit::SuiteTest t;
  t.test.statements = scanDocument(u, "<a>?\?/</a>");
  t.result.outcome = exec::Outcome::Crash;
  t.result.signal = 11;
  t.result.statement = 2;
  t.report = "text\rint broken = ;\nends in a backslash \\\nint alsoBroken = ;\ntrigraph ?\?/";
  emit::UnitBuild build;
  build.flags = {"-I" + u.dir};
  const emit::Suite suite = emit::writeSuite(u.program, *u.catalog, {}, {t}, build);
  const std::string dir = makeTempDir("mosaic-writer");
  for (const auto &f : suite.files) std::ofstream(std::filesystem::path(dir) / f.name) << f.text;
  const std::string file = dir + "/" + suite.failingFiles.at(0);
  expectCompiles({driver::toolchain().clangxx, "-fsyntax-only", "-std=c++17", "-trigraphs", "-I" + u.dir, file},
                 readFile(file));
  const std::string text = readFile(file);
  EXPECT_NE(text.find("//   text?int broken = ;"), std::string::npos) << text;
  EXPECT_NE(text.find("\"<a>?\\?/</a>\""), std::string::npos) << text;
}

TEST(Writer, AnExceptionTheTestCannotNameIsExpectedAsAnyException) {
  // EXPECT_THROW names the type the harness reported. A class that no
  // header of the unit declares (yaml-cpp's simplekey.cpp saw
  // YAML::ParserException thrown by scanner.cpp) would not compile: the
  // test expects any exception and says which one in a comment.
  Unit u("codec.cpp");
  const model::Callable &read = u.callable("codec::read_length");
  const model::TypeId text = read.params.at(0).type, size = u.program.type(read.params.at(1).type).value;
  for (const std::string type : {"codec::ParseError", "std::out_of_range", "int"}) {
    emit::SuiteTest t;
    t.test.statements = {
        Statement{.op = Op::CString, .type = text, .bytes = "12"},
        Statement{.op = Op::Primitive, .type = size, .bits = 3},
        Statement{.op = Op::Call, .callable = read.id, .refs = {0, 1}},
    };
    t.threwAt = 2;
    t.exceptionType = type;
    const std::string written = writeAndCheck(u, {t});
    if (type == "codec::ParseError") {
      EXPECT_NE(written.find("// Throws codec::ParseError, which no header of codec.cpp declares.\n"
                             "  EXPECT_ANY_THROW(codec::read_length(\"12\", length));"),
                std::string::npos)
          << written;
    } else {
      EXPECT_NE(written.find("EXPECT_THROW(codec::read_length(\"12\", length), " + type + ");"), std::string::npos)
          << written;
    }
  }
}

TEST(Writer, ACStructDefinedInsideAnotherIsNamedThroughItInCxx) {
  // lua's lgc.c: a test declared `struct NodeKey k = {...}` to fill a Node,
  // incomplete in C++, where the struct defined in union Node is Node::NodeKey.
  Unit u("slots.c", MOSAIC_FIXTURE_DB_DIR, kAnalysisFixtures);
  const model::Callable &clear = u.callable("slot_clear");
  const model::TypeId slotP = clear.params.at(0).type, slot = u.pointee(slotP);
  const model::Record &r = u.program.record(*u.program.type(u.program.type(slot).value).recordId);
  const model::TypeId slotKey = r.fields.at(0).type;
  const model::Record &k = u.program.record(*u.program.type(u.program.type(slotKey).value).recordId);
  emit::SuiteTest t;
  t.test.statements = {
      Statement{.op = Op::Primitive, .type = k.fields.at(0).type, .bits = 3},
      Statement{.op = Op::Aggregate, .type = slotKey, .refs = {0, 0}},
      Statement{.op = Op::Aggregate, .type = slot, .refs = {1}},
      Statement{.op = Op::AddressOf, .type = slotP, .refs = {2}},
      Statement{.op = Op::Call, .callable = clear.id, .refs = {3}},
  };
  EXPECT_EQ(u.catalog->typeError(t.test), "");
  const std::string text = writeAndCheck(u, {t});
  EXPECT_NE(text.find("struct Slot::SlotKey "), std::string::npos) << text;
}

TEST(Writer, AUnionSetThroughOneMemberIsZeroedFirstAsTheHarnessMadeIt) {
  // libconfig's config_value_t given by ival and read as sval: `= {.i = 7}`
  // leaves the bytes of the larger member (double d) indeterminate, the
  // stack's garbage in the suite where the harness had zeros.
  Unit u("shapes.c", MOSAIC_FIXTURE_DB_DIR, kAnalysisFixtures);
  const model::Callable &fill = u.callable("fill_number");
  const model::TypeId numberP = fill.params.at(0).type, number = u.pointee(numberP);
  const model::Record &r = u.program.record(*u.program.type(u.program.type(number).value).recordId);
  ASSERT_EQ(r.tag, model::RecordTag::Union);
  emit::SuiteTest t;
  t.test.statements = {
      Statement{.op = Op::Primitive, .type = r.fields.at(0).type, .bits = 7},
      Statement{.op = Op::Aggregate, .type = number, .refs = {0}},
      Statement{.op = Op::AddressOf, .type = numberP, .refs = {1}},
      Statement{.op = Op::Primitive, .type = fill.params.at(1).type, .bits = 1},
      Statement{.op = Op::Call, .callable = fill.id, .refs = {2, 3}},
  };
  EXPECT_EQ(u.catalog->typeError(t.test), "");
  const std::string text = writeAndCheck(u, {t});
  EXPECT_TRUE(std::regex_search(text, std::regex(R"(union number (\w+) = \{\}; \1\.i = 7;)"))) << text;
}

TEST(Writer, AStructOfTheCLibraryWithReservedFieldNamesIsFilledByPosition) {
  // lua's loslib.c, strict C99: glibc's struct tm has __tm_gmtoff there and
  // tm_gmtoff in C++, so `.__tm_gmtoff = ...` did not compile in the test.
  Unit u("clock.c", MOSAIC_FIXTURE_DB_DIR, kAnalysisFixtures);
  const model::Callable &minutes = u.callable("clock_minutes");
  const model::TypeId tmP = minutes.params.at(0).type, tm = u.program.type(u.pointee(tmP)).value;
  const model::Record &r = u.program.record(*u.program.type(tm).recordId);
  ASSERT_TRUE(std::any_of(r.fields.begin(), r.fields.end(), [](const model::Field &f) { return f.name == "__tm_gmtoff"; }));
  emit::SuiteTest t;
  std::vector<testcase::Ref> fields;
  for (const model::Field &f : r.fields) {
    fields.push_back(t.test.statements.size());
    if (u.program.type(u.program.type(f.type).value).kind == model::TypeKind::Pointer)
      t.test.statements.push_back(Statement{.op = Op::CString, .type = f.type, .bytes = "UTC"});
    else
      t.test.statements.push_back(Statement{.op = Op::Primitive, .type = f.type, .bits = 1});
  }
  t.test.statements.push_back(Statement{.op = Op::Aggregate, .type = tm, .refs = fields});
  model::TypeId tmMutableP = tmP;
  for (const model::Type &ty : u.program.types)
    if (ty.kind == model::TypeKind::Pointer && ty.pointee && *ty.pointee == tm) tmMutableP = ty.id;
  t.test.statements.push_back(
      Statement{.op = Op::AddressOf, .type = tmMutableP, .refs = {static_cast<testcase::Ref>(fields.size())}});
  t.test.statements.push_back(
      Statement{.op = Op::Call, .callable = minutes.id, .refs = {static_cast<testcase::Ref>(fields.size() + 1)}});
  // What the call left in each field, as the harness observed it: no
  // assertion can name __tm_gmtoff either (libplist's parse_date(str, &tm)).
  for (size_t f = 0; f < r.fields.size(); ++f)
    if (u.program.type(u.program.type(r.fields[f].type).value).kind == model::TypeKind::Integer)
      t.observations.push_back(exec::Observation{.statement = static_cast<std::uint32_t>(fields.size() + 2),
                                                 .kind = MOSAIC_OBS_INT,
                                                 .target = MOSAIC_OBS_ARG0,
                                                 .field = static_cast<std::int16_t>(f),
                                                 .integer = 1});
  EXPECT_EQ(u.catalog->typeError(t.test), "");
  const std::string text = writeAndCheck(u, {t});
  EXPECT_EQ(text.find("__tm_gmtoff"), std::string::npos) << text;
  EXPECT_NE(text.find(".tm_min, 1);"), std::string::npos) << text;
}

TEST(Writer, ACallbackOverATypeOnlyTheUnitNamesTakesAnOpaquePointer) {
  // zstd's cover.c: COVER_groupBy(..., int (*cmp)(COVER_ctx_t *, ...)),
  // COVER_ctx_t the unit's own, was declared for the test with that type.
  Unit u("slots.c", MOSAIC_FIXTURE_DB_DIR, kAnalysisFixtures);
  const model::Callable &each = u.callable("slot_each");
  const model::TypeId ctxP = each.params.at(0).type, visit = each.params.at(1).type, n = each.params.at(2).type;
  emit::SuiteTest t;
  t.test.statements = {
      Statement{.op = Op::Null, .type = ctxP},
      Statement{.op = Op::Primitive, .type = n, .bits = 2},
      Statement{.op = Op::Callback, .type = visit, .refs = {1}},
      Statement{.op = Op::Primitive, .type = n, .bits = 3},
      Statement{.op = Op::Call, .callable = each.id, .refs = {0, 2, 3}},
  };
  EXPECT_EQ(u.catalog->typeError(t.test), "");
  const std::string text = writeAndCheck(u, {t});
  EXPECT_NE(text.find("int (*)(void *, int)"), std::string::npos) << text;
  // The wrapper, compiled as C with the unit, casts it back.
  emit::UnitBuild build;
  const emit::Suite suite = emit::writeSuite(u.program, *u.catalog, {t}, {}, build);
  const std::string dir = makeTempDir("mosaic-writer");
  for (const auto &f : suite.files)
    if (f.name.ends_with("_wrapper.c")) {
      std::ofstream(std::filesystem::path(dir) / f.name) << f.text;
      // The unit by the path the CMakeLists.txt would define (Portable.h).
      expectCompiles({driver::toolchain().clang, "-fsyntax-only", "-I" + u.dir,
                      "-DMOSAIC_UNIT_SOURCE=\"" + u.program.unit + "\"", dir + "/" + f.name},
                     f.text);
    }
}

TEST(Writer, ABasesMethodThatTheReceiversClassHidesIsCalledThroughItsClass) {
  // taglib's `propertyMap.insert(k, v)` picked PropertyMap::insert (bool),
  // not the Map::insert the test meant (a map reference): the test did not
  // compile.
  Unit u("dial.c++", MOSAIC_FIXTURE_DB_DIR, kAnalysisFixtures);
  const model::Callable *shelfPut = nullptr, *rackMake = nullptr;
  for (const auto &c : u.program.callables) {
    if (c.qualifiedName == "knob::Shelf::put") shelfPut = &c;
    if (c.kind == model::CallableKind::Constructor && c.qualifiedName == "knob::Rack::Rack" && c.params.empty())
      rackMake = &c;
  }
  ASSERT_TRUE(shelfPut && rackMake);
  emit::SuiteTest t;
  t.test.statements = {
      Statement{.op = Op::Construct, .callable = rackMake->id},
      Statement{.op = Op::Primitive, .type = u.program.type(shelfPut->params[0].type).value, .bits = 3},
      Statement{.op = Op::MethodCall, .callable = shelfPut->id, .refs = {0, 1}},
  };
  const std::string text = writeAndCheck(u, {t});
  EXPECT_NE(text.find(".knob::Shelf::put("), std::string::npos) << text;
}

TEST(Writer, AVirtualMethodAnOverrideHidesIsCalledAsItIs) {
  // libplist's Node::Clone(), pure virtual, overridden by Dictionary: a call
  // qualified with Node would not dispatch, and names nothing to link
  // (shop::Shelf::capacity(), overridden by SmallShelf).
  Unit u("inventory.cpp", MOSAIC_FIXTURE_DB_DIR, kAnalysisFixtures);
  const model::Callable *capacity = nullptr, *small = nullptr;
  for (const auto &c : u.program.callables) {
    if (c.qualifiedName == "shop::Shelf::capacity") capacity = &c;
    if (c.kind == model::CallableKind::Constructor && c.qualifiedName == "shop::SmallShelf::SmallShelf" &&
        c.params.empty())
      small = &c;
  }
  ASSERT_TRUE(capacity && small);
  ASSERT_TRUE(capacity->isVirtual);
  emit::SuiteTest t;
  t.test.statements = {Statement{.op = Op::Construct, .callable = small->id},
                       Statement{.op = Op::MethodCall, .callable = capacity->id, .refs = {0}}};
  const std::string text = writeAndCheck(u, {t});
  EXPECT_EQ(text.find("shop::Shelf::capacity("), std::string::npos) << text;
  EXPECT_NE(text.find(".capacity()"), std::string::npos) << text;
}

TEST(Writer, APointerBoundToANonConstReferenceIsCastAsAReference) {
  // pugixml's impl::swap<xpath_node *>(T &, T &) given a const_iterator
  // (`const xpath_node *`): `(xpath_node *)it` is a temporary, which cannot
  // bind to `xpath_node *&`; and swap<xpath_ast_node *>, a class only the
  // unit defines, whose pointers the test holds as void *.
  Unit u("dial.c++", MOSAIC_FIXTURE_DB_DIR, kAnalysisFixtures);
  const model::Callable *hidden = nullptr, *text = nullptr;
  for (const auto &c : u.program.callables)
    if (c.name.starts_with("exchange") && c.params.size() == 2)
      (u.program.type(c.params[0].type).spelling.find("char") != std::string::npos ? text : hidden) = &c;
  ASSERT_TRUE(hidden && text);
  model::TypeId constCharP = 0, charP = u.program.type(text->params[0].type).value;
  for (const model::Type &ty : u.program.types)
    if (ty.kind == model::TypeKind::Pointer && ty.pointeeConst && ty.spelling == "const char *") constCharP = ty.id;
  emit::SuiteTest t;
  t.test.statements = {
      Statement{.op = Op::Null, .type = u.program.type(hidden->params[0].type).value},
      Statement{.op = Op::Null, .type = u.program.type(hidden->params[0].type).value},
      Statement{.op = Op::Call, .callable = hidden->id, .refs = {0, 1}},
      Statement{.op = Op::CString, .type = constCharP ? constCharP : charP, .bytes = "dial"},
      Statement{.op = Op::CString, .type = charP, .bytes = "knob"},
      Statement{.op = Op::Call, .callable = text->id, .refs = {3, 4}},
  };
  const std::string text_ = writeAndCheck(u, {t});
  EXPECT_NE(text_.find("(void *&a, void *&b)"), std::string::npos) << text_;
  EXPECT_NE(text_.find("((char *&)"), std::string::npos) << text_;
}

TEST(Writer, ACharArrayMemberIsWrittenAsTextAndDeclaredNowhereElse) {
  // Two squares whose char name[16] members were filled from one array of
  // 'a', 'b', NUL: both read `.name = "ab"`, and no variable holds the
  // array, which nothing would read (the demo's transfer tests once
  // declared `char owner[32] = {'\0', ... 32 times}` and never used it).
  Unit u("shapes.c", MOSAIC_FIXTURE_DB_DIR, kAnalysisFixtures);
  const model::Callable &area = u.callable("square_area");
  const model::TypeId squareP = area.params.at(0).type, square = u.pointee(squareP);
  const model::Record &r = u.program.record(*u.program.type(u.program.type(square).value).recordId);
  const auto fields = u.catalog->aggregateFields(*u.program.type(u.program.type(square).value).recordId);
  ASSERT_TRUE(fields);
  emit::SuiteTest t;
  auto &s = t.test.statements;
  model::TypeId nameType = 0, ch = 0;
  for (const model::Field &f : r.fields)
    if (f.name == "name") nameType = f.type;
  ch = *u.program.type(u.program.type(nameType).value).element;
  s.push_back(Statement{.op = Op::Primitive, .type = ch, .bits = 'a'});
  s.push_back(Statement{.op = Op::Primitive, .type = ch, .bits = 'b'});
  s.push_back(Statement{.op = Op::Primitive, .type = ch, .bits = 0});
  s.push_back(Statement{.op = Op::Array, .type = nameType, .refs = {0, 1, 2}});
  std::vector<testcase::Ref> refs;
  for (unsigned k : *fields) {
    const model::Field &f = r.fields[k];
    if (f.name == "name") {
      refs.push_back(3);
      continue;
    }
    s.push_back(Statement{.op = f.name == "corner" ? Op::Aggregate : Op::Primitive, .type = f.type});
    refs.push_back(static_cast<testcase::Ref>(s.size() - 1));
  }
  for (int k = 0; k < 2; ++k) {
    s.push_back(Statement{.op = Op::Aggregate, .type = square, .refs = refs});
    s.push_back(Statement{.op = Op::AddressOf, .type = squareP, .refs = {static_cast<testcase::Ref>(s.size() - 1)}});
    s.push_back(Statement{.op = Op::Call, .callable = area.id, .refs = {static_cast<testcase::Ref>(s.size() - 1)}});
  }
  EXPECT_EQ(u.catalog->typeError(t.test), "");
  const std::string text = writeAndCheck(u, {t});
  size_t count = 0;
  for (size_t at = text.find(".name = \"ab\""); at != std::string::npos; at = text.find(".name = \"ab\"", at + 1)) ++count;
  EXPECT_EQ(count, 2u) << text;
  EXPECT_EQ(text.find("'a'"), std::string::npos) << text;
  EXPECT_EQ(text.find("[16]"), std::string::npos) << text;
}

TEST(Writer, OneVariableGivenAsTwoArgumentsIsAssertedOnce) {
  // swap_points(&p, &p): the harness observes p once per argument; the test
  // says each fact once (cJSON_ReplaceItemViaPointer(item, item, item) once
  // wrote every field's assertion three times).
  Unit u("shapes.c", MOSAIC_FIXTURE_DB_DIR, kAnalysisFixtures);
  const model::Callable &swap = u.callable("swap_points");
  const model::TypeId pointP = swap.params.at(0).type, point = u.pointee(pointP);
  const model::Callable &move = u.callable("move_point");
  const model::TypeId integer = move.params.at(1).type;
  emit::SuiteTest t;
  t.test.statements = {
      Statement{.op = Op::Primitive, .type = integer, .bits = 3},
      Statement{.op = Op::Aggregate, .type = point, .refs = {0, 0}},
      Statement{.op = Op::AddressOf, .type = pointP, .refs = {1}},
      Statement{.op = Op::Call, .callable = swap.id, .refs = {2, 2}},
  };
  for (int arg : {MOSAIC_OBS_ARG0, MOSAIC_OBS_ARG0 + 1})
    for (int field : {0, 1})
      t.observations.push_back(exec::Observation{
          .statement = 3, .kind = MOSAIC_OBS_INT, .target = static_cast<std::uint8_t>(arg), .field = static_cast<std::int16_t>(field), .integer = 3});
  const std::string text = writeAndCheck(u, {t});
  const size_t first = text.find("EXPECT_EQ(a_point.x, 3);");
  ASSERT_NE(first, std::string::npos) << text;
  EXPECT_EQ(text.find("EXPECT_EQ(a_point.x, 3);", first + 1), std::string::npos) << text;
  EXPECT_NE(text.find("EXPECT_EQ(a_point.y, 3);"), std::string::npos) << text;
}
