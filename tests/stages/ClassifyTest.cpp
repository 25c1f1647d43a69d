// What a failing test claims (stages/Classify.h), on the claims.c fixture's
// model with tests written by hand, and the two stages that classify and
// sanitize failures (with fake executors).
#include "common/UnitModel.h"
#include "mosaic/stages/Classify.h"
#include "mosaic/stages/Failures.h"
#include "mosaic/stages/Stage.h"
#include "mosaic/testcase/Lifetime.h"
#include "mosaic/testcase/Printer.h"

#include <bit>
#include <gtest/gtest.h>

#include <csignal>
#include <cstring>
#include <optional>

using namespace mosaic;
using namespace mosaic::test;
using testcase::Op;
using testcase::Ref;
using testcase::Statement;

namespace {

const std::string kClassifyFixtures = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/search/";

// A failing run at the last statement.
exec::RunResult crashAtEnd(const testcase::TestCase &t, exec::Outcome o = exec::Outcome::Crash) {
  exec::RunResult r;
  r.outcome = o;
  r.signal = o == exec::Outcome::Crash ? SIGSEGV : 0;
  r.statement = static_cast<int>(t.statements.size()) - 1;
  return r;
}

// The callable of `p` with this signature (Callable::signature).
const model::Callable &bySignature(const model::Program &p, const std::string &signature) {
  for (const model::Callable &c : p.callables)
    if (c.signature == signature) return c;
  throw std::runtime_error("no callable " + signature);
}

class Claims : public ::testing::Test {
protected:
  static void SetUpTestSuite() { m = UnitModel::make(MOSAIC_FIXTURE_SEARCH_DB_DIR, kClassifyFixtures + "claims.c").release(); }
  static void TearDownTestSuite() {
    delete m;
    m = nullptr;
  }
  const model::Program &p() const { return m->program; }

  const model::Callable &callable(const std::string &name) const {
    for (const model::Callable &c : p().callables)
      if (c.qualifiedName == name) return c;
    throw std::runtime_error("no callable " + name);
  }
  model::TypeId typeNamed(const std::string &spelling) const {
    for (const model::Type &t : p().types)
      if (t.spelling == spelling) return t.id;
    throw std::runtime_error("no type " + spelling);
  }
  static Ref push(testcase::TestCase &t, Statement s) {
    t.statements.push_back(std::move(s));
    return static_cast<Ref>(t.statements.size() - 1);
  }
  Ref call(testcase::TestCase &t, const std::string &name, std::vector<Ref> refs) const {
    return push(t, Statement{.op = Op::Call, .callable = callable(name).id, .refs = std::move(refs)});
  }
  // claims_doc *doc = claims_new("x"): a doc the API made.
  Ref newDoc(testcase::TestCase &t) const {
    const Ref text = push(t, Statement{.op = Op::CString, .type = typeNamed("const char *"), .bytes = "x"});
    return call(t, "claims_new", {text});
  }
  // claims_doc d = {}; then &d as a `pointer` (claims_doc * or const
  // claims_doc *): a doc the test zeroed. Returns &d.
  Ref zeroedDoc(testcase::TestCase &t, const std::string &pointer = "claims_doc *") const {
    const Ref zeroed = push(t, Statement{.op = Op::Aggregate, .type = typeNamed("claims_doc")});
    return push(t, Statement{.op = Op::AddressOf, .type = typeNamed(pointer), .refs = {zeroed}});
  }
  Ref integer(testcase::TestCase &t, const std::string &type, std::int64_t v) const {
    return push(t, Statement{.op = Op::Primitive, .type = typeNamed(type), .bits = static_cast<std::uint64_t>(v)});
  }
  // claims_fill(&byte, &n) with n as given, n a size_t of its own: the
  // length says dest holds n bytes where it has one. Returns n.
  Ref fillOneByte(testcase::TestCase &t, std::int64_t bytes) const {
    const Ref byte = integer(t, "unsigned char", 0);
    const Ref dest = push(t, Statement{.op = Op::AddressOf, .type = typeNamed("unsigned char *"), .refs = {byte}});
    const Ref n = integer(t, "size_t", bytes);
    const Ref destLen = push(t, Statement{.op = Op::AddressOf, .type = typeNamed("size_t *"), .refs = {n}});
    call(t, "claims_fill", {dest, destLen});
    return n;
  }
  // claims_last(doc) on claims_new("x") after `earlier`(doc, v), v an
  // integer of type `type`.
  testcase::TestCase lastAfter(const std::string &earlier, const std::string &type, std::int64_t v) const {
    testcase::TestCase t;
    const Ref doc = newDoc(t);
    call(t, earlier, {doc, integer(t, type, v)});
    call(t, "claims_last", {doc});
    return t;
  }
  stages::Classification classify(const testcase::TestCase &t, exec::Outcome o = exec::Outcome::Crash,
                                  const std::vector<exec::Observation> &observations = {}) const {
    return stages::classify(*m->catalog, t, crashAtEnd(t, o), observations);
  }

  static UnitModel *m;
};

UnitModel *Claims::m = nullptr;

} // namespace

TEST_F(Claims, APublicFunctionWithPlainValuesIsALikelyDefect) {
  const auto t = m->call("claims_ratio", {std::int64_t{1}, std::int64_t{0}});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Defect) << c.why;
  EXPECT_NE(c.why.find("claims_ratio()"), std::string::npos) << c.why;
}

TEST_F(Claims, AFailureInADeprecatedFunctionIsMisuse) {
  // The library tells callers not to use it (LZ4_decompress_fast: "This
  // function is deprecated and unsafe"): the same division by zero as
  // claims_ratio's is no claim.
  EXPECT_EQ(callable("claims_ratio_old").deprecated, "use claims_ratio() instead");
  EXPECT_EQ(callable("claims_ratio").deprecated, std::nullopt);
  EXPECT_EQ(callable("claims_ratio_older").deprecated, "use claims_ratio() (see claims.h)"); // a macro off here
  const auto t = m->call("claims_ratio_old", {std::int64_t{1}, std::int64_t{0}});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_EQ(c.why, "calls claims_ratio_old(), which its library declares deprecated (\"use claims_ratio() instead\")");
}

TEST_F(Claims, ANullArgumentToAPublicFunctionIsRobustness) {
  const auto t = m->call("claims_length", {nullptr});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Robustness) << c.why;
  EXPECT_EQ(c.why, "claims_length() given NULL as doc");
}

TEST_F(Claims, ANullResultPassedOnIsRobustness) {
  testcase::TestCase t;
  const Ref doc = newDoc(t);
  call(t, "claims_length", {doc});
  // claims_new returned NULL in the run (out of memory, say).
  exec::Observation null;
  null.statement = doc;
  null.kind = MOSAIC_OBS_NULL;
  null.target = MOSAIC_OBS_RESULT;
  null.integer = 1;
  const auto c = classify(t, exec::Outcome::Crash, {null});
  EXPECT_EQ(c.kind, stages::FailureClass::Robustness) << c.why;
  EXPECT_NE(c.why.find("the result of claims_new()"), std::string::npos) << c.why;
  // Not null: the document the API made, a likely defect.
  EXPECT_EQ(classify(t).kind, stages::FailureClass::Defect);
}

TEST_F(Claims, ANullAnEarlierCallLeftInAVariableThroughItsAddressIsRobustness) {
  // char *text = ...; claims_dup_text(doc, &text) leaves it NULL (as when
  // the doc has no text); then claims_new(text) (utf8proc_map(str, 0,
  // &dst, ...) on an error, then utf8proc_NFKC_Casefold(dst)).
  testcase::TestCase t;
  const Ref doc = newDoc(t);
  const Ref text = push(t, Statement{.op = Op::Buffer, .type = typeNamed("char *"), .bytes = std::string("a\0", 2)});
  const Ref address = push(t, Statement{.op = Op::AddressOf, .type = typeNamed("char **"), .refs = {text}});
  const Ref dup = call(t, "claims_dup_text", {doc, address});
  call(t, "claims_new", {text});
  exec::Observation leftNull{.statement = dup, .kind = MOSAIC_OBS_NULL, .target = MOSAIC_OBS_ARG0 + 1, .integer = 1};
  const auto c = classify(t, exec::Outcome::Crash, {leftNull});
  EXPECT_EQ(c.kind, stages::FailureClass::Robustness) << c.why;
  EXPECT_NE(c.why.find("claims_new() given NULL as text (what claims_dup_text() left in it)"), std::string::npos)
      << c.why;
  // Not when the call left it pointing somewhere.
  leftNull.integer = 0;
  EXPECT_EQ(classify(t, exec::Outcome::Crash, {leftNull}).why.find("left in it"), std::string::npos);
  // Nor a defect when what the call left was not observed (the run alone
  // did not repeat the failure in time): it may be NULL.
  const auto unobserved = classify(t, exec::Outcome::Crash, {});
  EXPECT_EQ(unobserved.kind, stages::FailureClass::Robustness) << unobserved.why;
  EXPECT_NE(unobserved.why.find("claims_new() given as text what claims_dup_text() left in it, which the run did not "
                                "observe (it may be NULL)"),
            std::string::npos)
      << unobserved.why;
}

TEST_F(Claims, ANullFieldInAStructTheCallerFillsIsRobustness) {
  testcase::TestCase t;
  const Ref name = push(t, Statement{.op = Op::Null, .type = typeNamed("const char *")});
  const Ref level = integer(t, "int", 1);
  const Ref options = push(t, Statement{.op = Op::Aggregate, .type = typeNamed("claims_options"), .refs = {name, level}});
  const Ref address = push(t, Statement{.op = Op::AddressOf, .type = typeNamed("const claims_options *"), .refs = {options}});
  call(t, "claims_score", {address});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Robustness) << c.why;
  EXPECT_NE(c.why.find("field name is NULL"), std::string::npos) << c.why;
}

TEST_F(Claims, AnEnumerationValueNoEnumeratorHasIsRobustness) {
  testcase::TestCase t;
  const Ref buf = push(t, Statement{.op = Op::Buffer, .type = typeNamed("const unsigned char *"), .bytes = "ql"});
  const Ref len = integer(t, "size_t", 2);
  const Ref mode = integer(t, "claims_mode", 7);
  call(t, "claims_count", {buf, len, mode});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Robustness) << c.why;
  EXPECT_NE(c.why.find("7 as a claims_mode"), std::string::npos) << c.why;
}

TEST_F(Claims, AnInternalFunctionIsMisuse) {
  EXPECT_TRUE(stages::internal(*m->catalog, callable("first_of")));
  EXPECT_FALSE(stages::internal(*m->catalog, callable("claims_first")));
  const auto c = classify(m->call("first_of", {nullptr}));
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("first_of(), internal to the unit"), std::string::npos) << c.why;
}

TEST_F(Claims, AFunctionTheBuildDoesNotInstallIsInternalToTheLibrary) {
  // claims_first as if only a header the build keeps to itself declared it
  // (Callable::internalApi, analysis/InstalledHeaders.h).
  model::Program inside = p();
  for (model::Callable &c : inside.callables)
    if (c.qualifiedName == "claims_first") c.internalApi = true;
  const testcase::Catalog catalog(inside);
  const testcase::TestCase t = m->call("claims_first", {nullptr});
  const auto c = stages::classify(catalog, t, crashAtEnd(t), {});
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("claims_first(), internal to the library"), std::string::npos) << c.why;
}

TEST_F(Claims, AnObjectBuiltByHandOfATypeTheApiMakesIsMisuse) {
  const model::Type &doc = p().type(typeNamed("claims_doc"));
  EXPECT_EQ(m->catalog->madeByApi(*doc.recordId), "claims_new");
  EXPECT_EQ(m->catalog->madeByApi(*p().type(typeNamed("claims_options")).recordId), "");
  testcase::TestCase t;
  const Ref text = push(t, Statement{.op = Op::CString, .type = typeNamed("char *"), .bytes = ""});
  const Ref len = integer(t, "size_t", 0);
  const Ref made = push(t, Statement{.op = Op::Aggregate, .type = doc.id, .refs = {text, len}});
  const Ref address = push(t, Statement{.op = Op::AddressOf, .type = typeNamed("const claims_doc *"), .refs = {made}});
  call(t, "claims_last", {address});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("builds a claims_doc field by field"), std::string::npos) << c.why;
}

TEST_F(Claims, AZeroedObjectOfATypeTheApiMakesFirstGivenToAnythingButAnInitialiserIsMisuse) {
  // claims_doc d = {}; claims_free_text(&d, NULL); claims_length(&d): no
  // initialiser of claims_doc ever saw it, so its NULL text is the test's.
  const model::Type &doc = p().type(typeNamed("claims_doc"));
  for (model::CallableId init : m->catalog->initialisers(*doc.recordId))
    ASSERT_NE(p().callable(init).name, "claims_free_text");
  testcase::TestCase t;
  const Ref text = push(t, Statement{.op = Op::Null, .type = typeNamed("char *")});
  const Ref address = zeroedDoc(t);
  call(t, "claims_free_text", {address, text});
  call(t, "claims_length", {address});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("gives claims_length() a claims_doc it never initialised (the API makes one: claims_new)"),
            std::string::npos)
      << c.why;
}

TEST_F(Claims, ANullResultPutIntoAnArrayIsRobustness) {
  // const char *parts[] = {claims_get_content(NULL)}; claims_total(parts, 1):
  // the element is null because the test gave NULL to the getter.
  testcase::TestCase t;
  const Ref none = push(t, Statement{.op = Op::Null, .type = callable("claims_get_content").params[0].type});
  const Ref content = call(t, "claims_get_content", {none});
  const Ref parts = push(t, Statement{.op = Op::Array, .type = callable("claims_total").params[0].type, .refs = {content}});
  call(t, "claims_total", {parts, integer(t, "size_t", 1)});
  exec::Observation null;
  null.statement = content;
  null.kind = MOSAIC_OBS_NULL;
  null.target = MOSAIC_OBS_RESULT;
  null.integer = 1;
  const auto c = classify(t, exec::Outcome::Crash, {null});
  EXPECT_EQ(c.kind, stages::FailureClass::Robustness) << c.why;
  EXPECT_NE(c.why.find("whose element is NULL (the result of claims_get_content())"), std::string::npos) << c.why;
}

TEST_F(Claims, APointerACallReturnedWhenGivenNullForItsObjectIsRobustness) {
  // void *iter = claims_iter(NULL); claims_iter_text(iter) (libzip's
  // zip_file_get_error(NULL), which returns &file->error, a few bytes past
  // NULL, then zip_error_init of it): not NULL, but made from one.
  testcase::TestCase t;
  const Ref none = push(t, Statement{.op = Op::Null, .type = callable("claims_iter").params[0].type});
  const Ref iter = call(t, "claims_iter", {none});
  call(t, "claims_iter_text", {iter});
  const auto c = classify(t, exec::Outcome::Crash, {});
  EXPECT_EQ(c.kind, stages::FailureClass::Robustness) << c.why;
  EXPECT_NE(c.why.find("claims_iter_text() given as iter the result of claims_iter(), which was given NULL as doc"),
            std::string::npos)
      << c.why;
}

TEST_F(Claims, NullWhereTheDeclarationSaysNeverIsMisuse) {
  // claims_size(NULL) of a `_Nonnull` doc, claims_flags(NULL, 1) of a
  // function declared nonnull(1), and claims_read_size of what
  // claims_size_of(NULL) returned (libzip's zip_error_init of
  // zip_file_get_error(NULL), whose parameter is `_Nonnull`).
  ASSERT_TRUE(callable("claims_size").params[0].nonnull);
  ASSERT_TRUE(callable("claims_flags").params[0].nonnull);
  ASSERT_FALSE(callable("claims_flags").params[1].nonnull);
  ASSERT_FALSE(callable("claims_read_size").params[0].nonnull);
  testcase::TestCase t;
  const Ref none = push(t, Statement{.op = Op::Null, .type = callable("claims_size").params[0].type});
  call(t, "claims_size", {none});
  auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("gives claims_size() NULL as doc, which it declares never NULL"), std::string::npos) << c.why;
  testcase::TestCase u;
  const Ref doc = push(u, Statement{.op = Op::Null, .type = callable("claims_size_of").params[0].type});
  const Ref size = call(u, "claims_size_of", {doc});
  call(u, "claims_read_size", {size});
  c = classify(u);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("an earlier call on the same object was misuse: gives claims_size_of() NULL as doc, which it "
                       "declares never NULL"),
            std::string::npos)
      << c.why;
}

TEST_F(Claims, AHandleOfAnotherKindUnderOneVoidPointerTypedefIsMisuse) {
  // claimsSheetGetCount(claimsDictAlloc()): lcms2's
  // cmsIT8GetSheetType(cmsHANDLE hIT8) given cmsDictDup's handle.
  testcase::TestCase t;
  const Ref dict = call(t, "claimsDictAlloc", {});
  call(t, "claimsSheetGetCount", {dict});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("gives claimsSheetGetCount() as hSheet a claims_handle that claimsDictAlloc() made, where it "
                       "takes one of the kind claimsSheetAlloc() makes"),
            std::string::npos)
      << c.why;
  // A parameter named for its kind without the `h`.
  testcase::TestCase v;
  call(v, "claimsSheetRows", {call(v, "claimsDictAlloc", {})});
  EXPECT_EQ(classify(v).kind, stages::FailureClass::Misuse) << classify(v).why;
  // A parameter whose name says no kind, of a function whose name does:
  // lcms2's cmsMD5add(cmsHANDLE Handle, ...), the library's prefix (cms)
  // then the kind (MD5) that one of the makers' names has too.
  testcase::TestCase w;
  call(w, "claimsMD5add", {call(w, "claimsDictAlloc", {}), integer(w, "int", 7)});
  EXPECT_NE(classify(w).why.find("gives claimsMD5add() as Handle a claims_handle that claimsDictAlloc() made, where it "
                                 "takes one of the kind claimsMD5alloc() makes"),
            std::string::npos)
      << classify(w).why;
  // The sheet's own handle: a likely defect.
  testcase::TestCase u;
  const Ref sheet = call(u, "claimsSheetAlloc", {});
  call(u, "claimsSheetGetCount", {sheet});
  EXPECT_EQ(classify(u).kind, stages::FailureClass::Defect);
}

TEST_F(Claims, ANullAnEarlierCallKeptInTheObjectIsRobustnessWhenTheRunDereferencedNull) {
  // claims_doc *d = claims_new("x"); claims_adopt(d, NULL); claims_length(d):
  // strlen of the NULL text claims_adopt was given.
  testcase::TestCase t;
  const Ref doc = newDoc(t);
  call(t, "claims_adopt", {doc, push(t, Statement{.op = Op::Null, .type = typeNamed("char *")})});
  call(t, "claims_length", {doc});
  const exec::RunResult r = crashAtEnd(t);
  const std::string ubsan = "claims.c:53:61: runtime error: null pointer passed as argument 1, which is declared to "
                            "never be null";
  EXPECT_EQ(stages::nullKeptEarlier(*m->catalog, t, r, {}, ubsan),
            "claims_length() dereferences a null pointer after claims_adopt() was given NULL as text for an object "
            "it uses");
  const std::string asan = "==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000008 (pc 0x55 bp 0x7f "
                           "sp 0x7f T0)\n==1==Hint: address points to the zero page.";
  EXPECT_NE(stages::nullKeptEarlier(*m->catalog, t, r, {}, asan), "");
  // A crash elsewhere than at a null pointer keeps its class, as does a
  // report-less run (the unit does not build with the sanitizers).
  EXPECT_EQ(stages::nullKeptEarlier(*m->catalog, t, r, {},
                                    "ERROR: AddressSanitizer: SEGV on unknown address 0x7f0012345678"),
            "");
  EXPECT_EQ(stages::nullKeptEarlier(*m->catalog, t, r, {}, ""), "");
  // Nor does a NULL given to a call that only reads the object: it kept
  // nothing there.
  testcase::TestCase reads;
  const Ref d = newDoc(reads);
  call(reads, "claims_write", {d, push(reads, Statement{.op = Op::Null, .type = callable("claims_write").params[1].type})});
  call(reads, "claims_length", {d});
  EXPECT_EQ(stages::nullKeptEarlier(*m->catalog, reads, crashAtEnd(reads), {}, ubsan), "");
  // A null callback kept in the object: whatever the fault, later calls
  // may call it (leveldb's Cache::Insert(k, v, 1, nullptr), then Erase).
  testcase::TestCase hooked;
  const Ref h = newDoc(hooked);
  call(hooked, "claims_rehash", {h, push(hooked, Statement{.op = Op::Null, .type = callable("claims_rehash").params[1].type})});
  call(hooked, "claims_length", {h});
  EXPECT_EQ(stages::nullKeptEarlier(*m->catalog, hooked, crashAtEnd(hooked), {},
                                    "ERROR: AddressSanitizer: SEGV on unknown address 0xfffffffffffffff8"),
            "claims_length() fails after claims_rehash() was given NULL as hook for an object it uses");
}

TEST_F(Claims, AZeroedObjectInAStructTheTestFilledWasNeverInitialised) {
  // claims_doc d = {}; claims_buffer b = {.doc = &d, .used = 0};
  // claims_buffer_peek(&b) reads d's NULL text: d reached the API inside b.
  testcase::TestCase t;
  const Ref doc = zeroedDoc(t, "const claims_doc *");
  const Ref used = integer(t, "size_t", 0);
  const Ref buffer = push(t, Statement{.op = Op::Aggregate, .type = typeNamed("claims_buffer"), .refs = {doc, used}});
  call(t, "claims_buffer_peek",
       {push(t, Statement{.op = Op::AddressOf, .type = callable("claims_buffer_peek").params[0].type, .refs = {buffer}})});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("gives claims_buffer_peek() a claims_doc it never initialised (the API makes one: claims_new)"),
            std::string::npos)
      << c.why;
}

TEST_F(Claims, AZeroedObjectAnEarlierCallKeptInTheObjectWasNeverInitialised) {
  // claims_doc d = {}; claims_buffer b = {}; claims_buffer_init(&d, &b);
  // claims_buffer_peek(&b): b was set up by its initialiser, but over d,
  // which nothing did.
  testcase::TestCase t;
  const Ref doc = zeroedDoc(t, "const claims_doc *");
  const Ref buffer = push(t, Statement{.op = Op::Aggregate, .type = typeNamed("claims_buffer")});
  const auto address = [&] {
    return push(t, Statement{.op = Op::AddressOf, .type = callable("claims_buffer_peek").params[0].type, .refs = {buffer}});
  };
  call(t, "claims_buffer_init", {doc, address()});
  call(t, "claims_buffer_peek", {address()});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("a claims_doc it never initialised (the API makes one: claims_new)"), std::string::npos)
      << c.why;
  // Over a doc the API made, the buffer is right: a likely defect if it fails.
  testcase::TestCase made;
  const Ref d = newDoc(made);
  const Ref b = push(made, Statement{.op = Op::Aggregate, .type = typeNamed("claims_buffer")});
  call(made, "claims_buffer_init",
       {d, push(made, Statement{.op = Op::AddressOf, .type = callable("claims_buffer_init").params[1].type, .refs = {b}})});
  call(made, "claims_buffer_peek",
       {push(made, Statement{.op = Op::AddressOf, .type = callable("claims_buffer_peek").params[0].type, .refs = {b}})});
  EXPECT_EQ(classify(made).kind, stages::FailureClass::Defect) << classify(made).why;
}

TEST_F(Claims, AStringOfTheTestsGivenToAFunctionThatTakesItOverIsMisuse) {
  // char text[] = "abc"; claims_adopt(d, text); claims_free(d) frees the
  // test's array.
  testcase::TestCase t;
  const Ref doc = newDoc(t);
  call(t, "claims_adopt", {doc, push(t, Statement{.op = Op::CString, .type = typeNamed("char *"), .bytes = "abc"})});
  call(t, "claims_free", {doc});
  const auto c = classify(t, exec::Outcome::Abort);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("gives claims_adopt() the test's own 4 bytes as text, which it takes over and frees"),
            std::string::npos)
      << c.why;
}

TEST_F(Claims, AZeroedObjectGivenToAnInitialiserAsItsSourceWasNeverInitialised) {
  // claims_doc a = {}, b = {}; claims_init_copy(&a, &b); claims_length(&b):
  // the initialiser sets up its first parameter, a; b, the const source it
  // reads, was never set up (libtommath's mp_init_copy(a, b), then
  // mp_dr_reduce(b, ...) on b's NULL digits was claimed as a defect).
  testcase::TestCase t;
  const Ref pa = zeroedDoc(t);
  const Ref pb = zeroedDoc(t, "const claims_doc *");
  call(t, "claims_init_copy", {pa, pb});
  call(t, "claims_length", {pb});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("gives claims_length() a claims_doc it never initialised (the API makes one: claims_new)"),
            std::string::npos)
      << c.why;
  // The doc it initialised, a, is the library's to get right.
  testcase::TestCase u;
  const Ref made = newDoc(u);
  const Ref address = zeroedDoc(u);
  call(u, "claims_init_copy", {address, made});
  call(u, "claims_length", {address});
  EXPECT_EQ(classify(u).kind, stages::FailureClass::Defect) << classify(u).why;
}

TEST_F(Claims, AnObjectMadeWithANullCallbackThatItCallsIsRobustness) {
  // claims_table_bucket(claims_table_new(NULL), "k") calls the null hash
  // function the creator kept (json-c's lh_table_new(1, free_fn, NULL,
  // equal_fn), then lh_table_lookup_entry).
  testcase::TestCase t;
  const Ref hash = push(t, Statement{.op = Op::Null, .type = callable("claims_table_new").params[0].type});
  const Ref table = call(t, "claims_table_new", {hash});
  const Ref key = push(t, Statement{.op = Op::CString, .type = typeNamed("const char *"), .bytes = "k"});
  call(t, "claims_table_bucket", {table, key});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Robustness) << c.why;
  EXPECT_NE(c.why.find("claims_table_bucket() on an object made with NULL as hash (claims_table_new())"),
            std::string::npos)
      << c.why;
  // A null pointer that is no callback, given to a creator, says nothing
  // of a later failure (yajl_gen_alloc(NULL) takes the default allocator).
  testcase::TestCase d;
  const Ref text = push(d, Statement{.op = Op::Null, .type = typeNamed("const char *")});
  const Ref doc = call(d, "claims_new", {text});
  call(d, "claims_last", {doc});
  EXPECT_EQ(classify(d).why.find("made with NULL"), std::string::npos) << classify(d).why;
}

TEST_F(Claims, ACallbackOfTheTestsThatReturnsNullIsRobustness) {
  // claims_new_with("x", &alloc) with alloc.calloc a stub returning NULL
  // (cmark_node_new_with_mem with a cmark_mem of the test's): the library
  // trusts its allocator never to return NULL.
  const model::Record *alloc = nullptr;
  for (const model::Record &r : p().records)
    if (r.name == "claims_alloc") alloc = &r;
  ASSERT_NE(alloc, nullptr);
  testcase::TestCase t;
  const Ref calloc = push(t, Statement{.op = Op::Callback, .type = alloc->fields[0].type});
  const Ref release = push(t, Statement{.op = Op::Callback, .type = alloc->fields[1].type});
  const Ref filled = push(t, Statement{.op = Op::Aggregate, .type = typeNamed("claims_alloc"), .refs = {calloc, release}});
  const Ref address = push(t, Statement{.op = Op::AddressOf, .type = typeNamed("const claims_alloc *"), .refs = {filled}});
  const Ref text = push(t, Statement{.op = Op::CString, .type = typeNamed("const char *"), .bytes = "x"});
  call(t, "claims_new_with", {text, address});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Robustness) << c.why;
  EXPECT_NE(c.why.find("claims_new_with() with a callback of the test's as the calloc of a claims_alloc that returns "
                       "NULL"),
            std::string::npos)
      << c.why;
  // A callback that returns nothing says nothing (a release).
  t.statements[calloc].op = Op::Null;
  EXPECT_EQ(classify(t).why.find("callback of the test's"), std::string::npos) << classify(t).why;
}

TEST(StubClaims, AStubSubclassWhosePointerResultIsNullIsRobustness) {
  // relayMade(factory, "1") with a stub ListenerFactory whose make()
  // returns nullptr (jsoncpp's writeString with a stub
  // StreamWriter::Factory): the library trusts a factory to make one.
  const auto m = UnitModel::make(MOSAIC_FIXTURE_SEARCH_DB_DIR, kClassifyFixtures + "relay.cpp");
  const model::Program &p = m->program;
  const model::Callable *made = nullptr;
  for (const model::Callable &c : p.callables)
    if (c.qualifiedName == "sig::relayMade") made = &c;
  ASSERT_NE(made, nullptr);
  testcase::TestCase t;
  const model::TypeId factory = p.type(made->params[0].type).value; // the class behind the reference
  t.statements = {Statement{.op = Op::Subclass, .type = factory},
                  Statement{.op = Op::CString, .type = made->params[1].type, .bytes = "1"},
                  Statement{.op = Op::Call, .callable = made->id, .refs = {0, 1}}};
  const auto c = stages::classify(*m->catalog, t, crashAtEnd(t), {});
  EXPECT_EQ(c.kind, stages::FailureClass::Robustness) << c.why;
  EXPECT_NE(c.why.find("relayMade() with a stub sig::ListenerFactory of the test's whose make() returns nullptr"),
            std::string::npos)
      << c.why;
}

TEST(StubClaims, AStubGivenToAnEarlierCallOnTheSameObjectIsOneToo) {
  // Hub h; h.use(&stub); h.relay("1"): the stub's make() returns nullptr
  // (muParserX's reader.AddValueReader(&stub), then reader.Clone()).
  const auto m = UnitModel::make(MOSAIC_FIXTURE_SEARCH_DB_DIR, kClassifyFixtures + "relay.cpp");
  const model::Program &p = m->program;
  const model::Callable *use = nullptr, *relay = nullptr, *hub = nullptr;
  for (const model::Callable &c : p.callables) {
    if (c.qualifiedName == "sig::Hub::use") use = &c;
    if (c.qualifiedName == "sig::Hub::relay") relay = &c;
    if (c.kind == model::CallableKind::Constructor && c.qualifiedName == "sig::Hub::Hub" && c.params.empty()) hub = &c;
  }
  ASSERT_TRUE(use && relay && hub);
  const model::TypeId factory = p.type(*p.type(use->params[0].type).pointee).value;
  testcase::TestCase t;
  t.statements = {Statement{.op = Op::Subclass, .type = factory},
                  Statement{.op = Op::AddressOf, .type = use->params[0].type, .refs = {0}},
                  Statement{.op = Op::Construct, .type = p.record(*hub->parent).type, .callable = hub->id},
                  Statement{.op = Op::MethodCall, .callable = use->id, .refs = {2, 1}},
                  Statement{.op = Op::CString, .type = relay->params[0].type, .bytes = "1"},
                  Statement{.op = Op::MethodCall, .callable = relay->id, .refs = {2, 4}}};
  const auto c = stages::classify(*m->catalog, t, crashAtEnd(t), {});
  EXPECT_EQ(c.kind, stages::FailureClass::Robustness) << c.why;
  EXPECT_NE(c.why.find("with a stub sig::ListenerFactory of the test's whose make() returns nullptr"),
            std::string::npos)
      << c.why;
  // UBSan's word that a callee cast what it was given to a kind it is not.
  EXPECT_EQ(stages::wrongKindDowncast(*m->catalog, t, crashAtEnd(t, exec::Outcome::Sanitizer),
                                      "mpRPN.cpp:81:2: runtime error: downcast of address 0x507000000330 which does "
                                      "not point to an object of type 'TokenNewline'\n"),
            "sig::Hub::relay() cast an object it was given to TokenNewline, which that object is not: it takes only "
            "objects of that kind");
  EXPECT_EQ(stages::wrongKindDowncast(*m->catalog, t, crashAtEnd(t), "runtime error: member call on null pointer"), "");
}

TEST(StubClaims, ASingularIteratorOrOneNeverComparedWithAnEndIsMisuse) {
  // DigitIterator().digit(), and Channel("12").begin().digit() with no
  // comparison (jsoncpp's ValueIteratorBase().key() and
  // Value(0u).begin().key()): a C++ caller never does either.
  const auto m = UnitModel::make(MOSAIC_FIXTURE_SEARCH_DB_DIR, kClassifyFixtures + "relay.cpp");
  const model::Program &p = m->program;
  const auto id = [&](const std::string &signature) { return bySignature(p, signature).id; };
  const model::CallableId digit = id("sig::Channel::DigitIterator::digit() const");
  testcase::TestCase singular;
  singular.statements = {Statement{.op = Op::Construct, .callable = id("sig::Channel::DigitIterator::DigitIterator()")},
                         Statement{.op = Op::MethodCall, .callable = digit, .refs = {0}}};
  auto c = stages::classify(*m->catalog, singular, crashAtEnd(singular), {});
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("calls sig::Channel::DigitIterator::digit() on a default-constructed "
                       "sig::Channel::DigitIterator, a singular iterator"),
            std::string::npos)
      << c.why;
  // Also through a copy of it.
  testcase::TestCase copied = singular;
  copied.statements.back() = Statement{
      .op = Op::Construct, .callable = id("sig::Channel::DigitIterator::DigitIterator(const sig::Channel::DigitIterator &)"),
      .refs = {0}};
  copied.statements.push_back(Statement{.op = Op::MethodCall, .callable = digit, .refs = {1}});
  EXPECT_EQ(stages::classify(*m->catalog, copied, crashAtEnd(copied), {}).kind, stages::FailureClass::Misuse);
  const model::Callable &channel = p.callable(id("sig::Channel::Channel(const char *)"));
  testcase::TestCase begun;
  begun.statements = {Statement{.op = Op::CString, .type = channel.params[0].type, .bytes = "12"},
                      Statement{.op = Op::Construct, .callable = channel.id, .refs = {0}},
                      Statement{.op = Op::MethodCall, .callable = id("sig::Channel::begin() const"), .refs = {1}},
                      Statement{.op = Op::MethodCall, .callable = digit, .refs = {2}}};
  c = stages::classify(*m->catalog, begun, crashAtEnd(begun), {});
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("on the iterator sig::Channel::begin() returned, never compared with an end"), std::string::npos)
      << c.why;
  // Compared with end() first, it is the caller's right to use it.
  testcase::TestCase compared = begun;
  compared.statements.insert(compared.statements.begin() + 3,
                             {Statement{.op = Op::MethodCall, .callable = id("sig::Channel::end() const"), .refs = {1}},
                              Statement{.op = Op::MethodCall,
                                        .callable = id("sig::Channel::DigitIterator::operator!=(const "
                                                       "sig::Channel::DigitIterator &) const"),
                                        .refs = {2, 3}}});
  compared.statements.back().refs = {2};
  EXPECT_NE(stages::classify(*m->catalog, compared, crashAtEnd(compared), {}).kind, stages::FailureClass::Misuse);
}

TEST(StubClaims, AHandleOfAnEmptyStructTheTestZeroedIsMisuse) {
  // Store::Handle h = {}; store.Value(&h) (leveldb's Cache::Value with a
  // Cache::Handle of the test's): only Store::Insert makes a handle.
  const auto m = UnitModel::make(MOSAIC_FIXTURE_SEARCH_DB_DIR, kClassifyFixtures + "relay.cpp");
  const model::Program &p = m->program;
  const auto callable = [&](const std::string &signature) -> const model::Callable & { return bySignature(p, signature); };
  const model::Callable &value = callable("sig::Store::Value(sig::Store::Handle *) const");
  const model::TypeId handlePointer = value.params[0].type;
  testcase::TestCase t;
  t.statements = {Statement{.op = Op::Construct, .callable = callable("sig::Store::Store()").id},
                  Statement{.op = Op::Aggregate, .type = *p.type(p.type(handlePointer).value).pointee},
                  Statement{.op = Op::AddressOf, .type = handlePointer, .refs = {1}},
                  Statement{.op = Op::MethodCall, .callable = value.id, .refs = {0, 2}}};
  const auto c = stages::classify(*m->catalog, t, crashAtEnd(t), {});
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("sig::Store::Insert"), std::string::npos) << c.why;
}

TEST_F(Claims, AReleaseOfWhatAGetterLentIsMisuse) {
  // claims_doc *d = claims_new("x"); claims_free_text(d, claims_get_content(d));
  // claims_free(d) frees the text again: the getter lent it, the doc still
  // owned it (cJSON_free(cJSON_GetStringValue(item)) in cJSON.c).
  testcase::TestCase t;
  const Ref doc = newDoc(t);
  const Ref lent = call(t, "claims_get_content", {doc});
  call(t, "claims_free_text", {doc, lent});
  call(t, "claims_free", {doc});
  const auto c = classify(t, exec::Outcome::Abort);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("gives claims_free_text() what claims_get_content() returned, memory that "
                       "claims_get_content() lends"),
            std::string::npos)
      << c.why;
}

TEST_F(Claims, APartReleasedWithItsOwnerAndThenAgainIsMisuse) {
  // claims_tree_add returns the node it added, which the tree owns:
  // releasing the tree releases it (cJSON_Delete(object) and the item
  // cJSON_AddStringToObject(object, ...) returned). Releasing it after,
  // or the tree after releasing it, is the test's double free.
  testcase::TestCase t;
  const Ref tree = call(t, "claims_tree_new", {});
  const Ref node = call(t, "claims_tree_add", {tree, integer(t, "int", 1)});
  call(t, "claims_tree_free", {tree});
  call(t, "claims_tree_free", {node});
  const auto after = classify(t, exec::Outcome::Abort);
  EXPECT_EQ(after.kind, stages::FailureClass::Misuse) << after.why;
  EXPECT_NE(after.why.find("claims_tree_free() uses an object released with what held it (made by "
                           "claims_tree_new())"),
            std::string::npos)
      << after.why;
  std::swap(t.statements[3], t.statements[4]); // the node first, then its tree
  t.statements[3].refs = {node};
  t.statements[4].refs = {tree};
  const auto before = classify(t, exec::Outcome::Abort);
  EXPECT_EQ(before.kind, stages::FailureClass::Misuse) << before.why;
  EXPECT_NE(before.why.find("claims_tree_free() releases a part of the object claims_tree_add() was given, which "
                            "still holds it"),
            std::string::npos)
      << before.why;
}

// nodes.c: a tree made under parents, and a release internal to the unit.
class NodeClaims : public Claims {
protected:
  static void SetUpTestSuite() { m = UnitModel::make(MOSAIC_FIXTURE_SEARCH_DB_DIR, kClassifyFixtures + "nodes.c").release(); }
};

TEST_F(NodeClaims, ANodeMadeUnderAParentIsReleasedWithIt) {
  // mxml's mxmlNewElement(parent, name): a maker given the parent of what
  // it makes, though its name says new. mxmlRelease(root), then
  // mxmlRelease(the element) was "a likely defect" before.
  testcase::TestCase t;
  const Ref root = call(t, "node_new", {});
  const Ref child = call(t, "node_new_child", {root, integer(t, "int", 1)});
  const Ref grandchild = call(t, "node_new_child", {child, integer(t, "int", 2)});
  call(t, "node_free", {root});
  call(t, "node_free", {grandchild});
  const auto c = classify(t, exec::Outcome::Abort);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("node_free() uses an object released with what held it"), std::string::npos) << c.why;
  // Made under NULL, a node is its own: releasing the root says nothing of it.
  testcase::TestCase lone;
  const Ref root2 = call(lone, "node_new", {});
  const Ref node = call(lone, "node_new_child",
                        {push(lone, Statement{.op = Op::Null, .type = typeNamed("node *")}), integer(lone, "int", 1)});
  call(lone, "node_free", {root2});
  call(lone, "node_free", {node});
  EXPECT_EQ(classify(lone, exec::Outcome::Abort).why.find("released with what held it"), std::string::npos);
}

TEST_F(NodeClaims, AFailureAfterAReleaseInternalToTheUnitIsMisuse) {
  // mxml's static _mxml_destructor(global) frees the per-thread data, and
  // the public mxml_error() then reads it: no object in common.
  testcase::TestCase t;
  const Ref text = push(t, Statement{.op = Op::Null, .type = typeNamed("void *")});
  call(t, "scratch_destructor", {text});
  call(t, "node_ratio", {integer(t, "int", 1), integer(t, "int", 0)});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_EQ(c.why, "follows scratch_destructor(), a release internal to the unit, which may free what the library "
                   "still holds");
  // Another static function before it, which frees nothing: node_ratio's own.
  testcase::TestCase other;
  call(other, "twice", {integer(other, "int", 1)});
  call(other, "node_ratio", {integer(other, "int", 1), integer(other, "int", 0)});
  EXPECT_EQ(classify(other).kind, stages::FailureClass::Defect);
}

TEST_F(Claims, AnObjectGivenToASecondOwnerIsMisuse) {
  // claims_tree_append(tree, child) makes the tree own the child
  // (cJSON_AddItemToArray's way): given to two trees, each frees it; given
  // and then freed by the test, its tree frees it again. The crash in the
  // second release is the test's doing.
  testcase::TestCase t;
  const Ref first = call(t, "claims_tree_new", {});
  const Ref second = call(t, "claims_tree_new", {});
  const Ref child = call(t, "claims_tree_new", {});
  const Ref once = call(t, "claims_tree_append", {first, child});
  call(t, "claims_tree_free", {first});
  EXPECT_EQ(classify(t, exec::Outcome::Abort).kind, stages::FailureClass::Defect); // owned once: the library's
  t.statements.resize(once + 1);
  const Ref twice = call(t, "claims_tree_append", {second, child});
  call(t, "claims_tree_free", {second});
  const auto shared = classify(t, exec::Outcome::Abort);
  EXPECT_EQ(shared.kind, stages::FailureClass::Misuse) << shared.why;
  EXPECT_NE(shared.why.find("claims_tree_append() gives an object a second owner: claims_tree_append() had given it "
                            "to another"),
            std::string::npos)
      << shared.why;
  // Freed by the test once its tree owns it.
  t.statements.resize(twice);
  call(t, "claims_tree_free", {child});
  const auto released = classify(t, exec::Outcome::Abort);
  EXPECT_EQ(released.kind, stages::FailureClass::Misuse) << released.why;
  EXPECT_NE(released.why.find("claims_tree_free() releases an object that claims_tree_append() had given to "
                              "another, which still holds it"),
            std::string::npos)
      << released.why;
  // Used after its tree was released, which released it too.
  t.statements.resize(twice);
  call(t, "claims_tree_free", {first});
  call(t, "claims_tree_add", {child, integer(t, "int", 2)});
  const auto used = classify(t);
  EXPECT_EQ(used.kind, stages::FailureClass::Misuse) << used.why;
  EXPECT_NE(used.why.find("claims_tree_add() uses an object released with what held it"),
            std::string::npos)
      << used.why;
  // A part of one tree (what claims_tree_add returned) given to another.
  testcase::TestCase u;
  const Ref a = call(u, "claims_tree_new", {});
  const Ref b = call(u, "claims_tree_new", {});
  const Ref node = call(u, "claims_tree_add", {a, integer(u, "int", 1)});
  call(u, "claims_tree_append", {b, node});
  call(u, "claims_tree_free", {b});
  const auto part = classify(u, exec::Outcome::Abort);
  EXPECT_EQ(part.kind, stages::FailureClass::Misuse) << part.why;
  EXPECT_NE(part.why.find("gives an object a second owner: it is a part of what claims_tree_add() was given"),
            std::string::npos)
      << part.why;
  // An item taken out of a tree that does not hold it (a node of a node of
  // another tree), the whole tree then released.
  testcase::TestCase w;
  const Ref whole = call(w, "claims_tree_new", {});
  const Ref node1 = call(w, "claims_tree_add", {whole, integer(w, "int", 1)});
  const Ref node2 = call(w, "claims_tree_add", {node1, integer(w, "int", 2)});
  const Ref other = call(w, "claims_tree_new", {});
  const Ref fresh = call(w, "claims_tree_new", {});
  call(w, "claims_tree_replace", {other, node2, fresh});
  call(w, "claims_tree_free", {whole});
  const auto notHeld = classify(w, exec::Outcome::Abort);
  EXPECT_EQ(notHeld.kind, stages::FailureClass::Misuse) << notHeld.why;
  EXPECT_NE(notHeld.why.find("claims_tree_replace() takes out of an object an item it does not hold"),
            std::string::npos)
      << notHeld.why;
  // A tree given to its own node: a cycle, which claims_tree_free walks forever.
  testcase::TestCase v;
  const Ref tree = call(v, "claims_tree_new", {});
  const Ref own = call(v, "claims_tree_add", {tree, integer(v, "int", 1)});
  call(v, "claims_tree_append", {own, tree});
  call(v, "claims_tree_free", {tree});
  const auto cycle = classify(v, exec::Outcome::Timeout);
  EXPECT_EQ(cycle.kind, stages::FailureClass::Misuse) << cycle.why;
  EXPECT_NE(cycle.why.find("claims_tree_append() makes an object a part of itself"), std::string::npos) << cycle.why;
}

TEST_F(Claims, AReleaseOfWhatAnEarlierCallReleasedIsMisuse) {
  // claims_get_text(d) hands over a copy, which claims_free_text frees (the
  // two names share "text", as yajl_get_error and yajl_free_error share
  // "error"): freeing it once is right, twice is the test's double free.
  testcase::TestCase t;
  const Ref doc = newDoc(t);
  const Ref copy = call(t, "claims_get_text", {doc});
  call(t, "claims_free_text", {doc, copy});
  call(t, "claims_length", {doc});
  EXPECT_EQ(classify(t).kind, stages::FailureClass::Defect) << classify(t).why;
  call(t, "claims_free_text", {doc, copy});
  const auto c = classify(t, exec::Outcome::Abort);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("gives claims_free_text() what claims_free_text() already released"), std::string::npos)
      << c.why;
  // Read after it was released: the same.
  t.statements.back() = Statement{.op = Op::Call, .callable = callable("claims_first").id, .refs = {copy}};
  const auto read = classify(t);
  EXPECT_EQ(read.kind, stages::FailureClass::Misuse) << read.why;
  EXPECT_NE(read.why.find("gives claims_first() what claims_free_text() already released"), std::string::npos)
      << read.why;
}

TEST_F(Claims, OneObjectInTwoRolesIsRobustness) {
  // claims_copy(d, d) frees d's text, then copies from it: one doc as both
  // the copy and its source (cJSON_DetachItemViaPointer(item, item)).
  testcase::TestCase t;
  const Ref doc = newDoc(t);
  call(t, "claims_copy", {doc, doc});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Robustness) << c.why;
  EXPECT_NE(c.why.find("claims_copy() given one object as both to and from"), std::string::npos) << c.why;
  // The same, in an earlier call on the object that fails later.
  call(t, "claims_length", {doc});
  const auto later = classify(t);
  EXPECT_EQ(later.kind, stages::FailureClass::Robustness) << later.why;
  EXPECT_NE(later.why.find("an earlier call on the same object gave it two roles: claims_copy()"), std::string::npos)
      << later.why;
  // Not through a number the earlier call returned: claims_ratio(r, r)
  // with r = claims_init_copy(d, d) divides by a zero any caller could pass.
  testcase::TestCase number;
  const Ref d = newDoc(number);
  const Ref r = call(number, "claims_init_copy", {d, d});
  call(number, "claims_ratio", {r, r});
  EXPECT_EQ(classify(number).kind, stages::FailureClass::Defect) << classify(number).why;
}

TEST_F(Claims, TheTestsOwnBufferGivenToAFunctionThatTakesItOverIsMisuse) {
  // claims_adopt(d, bytes of the test's): claims_free(d) frees them later
  // (pugixml's load_buffer_inplace_own given a stack array).
  testcase::TestCase t;
  const Ref doc = newDoc(t);
  const Ref bytes = push(t, Statement{.op = Op::Buffer, .type = typeNamed("char *"), .bytes = std::string("ab\0", 3)});
  call(t, "claims_adopt", {doc, bytes});
  call(t, "claims_free", {doc});
  const auto c = classify(t, exec::Outcome::Abort);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("gives claims_adopt() the test's own 3 bytes as text, which it takes over and frees"),
            std::string::npos)
      << c.why;
}

TEST_F(Claims, ASizeTimesACountBeyondTheBufferIsMisuse) {
  // claims_put(bytes, 5, 4294963745, d) with 5 bytes (zlib's gzfwrite).
  testcase::TestCase t;
  const Ref doc = newDoc(t);
  const Ref bytes = push(t, Statement{.op = Op::Buffer, .type = typeNamed("const void *"), .bytes = "hello"});
  const Ref size = integer(t, "size_t", 5);
  const Ref count = integer(t, "size_t", 4294963745);
  call(t, "claims_put", {bytes, size, count, doc});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("passes 5 × 4294963745 as size and nitems, beyond the 5 of buf"), std::string::npos) << c.why;
  t.statements[count].bits = 1;
  EXPECT_EQ(classify(t).why.find("beyond"), std::string::npos) << classify(t).why;
}

TEST_F(Claims, BytesOfTheTestsOwnAsAVoidPointerWithNoLengthAreMisuse) {
  // claims_new(claims_iter_text(bytes)) with bytes no claims_iter made
  // (jansson's json_dumps(json_object_iter_value(bytes))): the later call
  // crashes on what the handle-taking call read from the test's bytes.
  testcase::TestCase t;
  const Ref bytes = push(t, Statement{.op = Op::Buffer, .type = typeNamed("void *"), .bytes = "w\x0c%"});
  call(t, "claims_new", {call(t, "claims_iter_text", {bytes})});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("gives claims_iter_text() 3 bytes of the test's own as iter (void *), with no length"),
            std::string::npos)
      << c.why;
  // From the API's own iterator it stays a claim about the library.
  testcase::TestCase made;
  call(made, "claims_new", {call(made, "claims_iter_text", {call(made, "claims_iter", {newDoc(made)})})});
  EXPECT_NE(classify(made).kind, stages::FailureClass::Misuse) << classify(made).why;
  // An object the API made of another type, where the API makes such
  // `void *` handles itself (jansson's json_object_iter_value(json)).
  testcase::TestCase other;
  call(other, "claims_new", {call(other, "claims_iter_text", {newDoc(other)})});
  const auto d = classify(other);
  EXPECT_EQ(d.kind, stages::FailureClass::Misuse) << d.why;
  EXPECT_NE(d.why.find("gives claims_iter_text() what claims_new() returned (claims_doc *) as iter (void *), a "
                       "handle of the kind claims_iter() makes"),
            std::string::npos)
      << d.why;
  // A `void *` that a size goes with is a buffer (fwrite's contract).
  testcase::TestCase put;
  const Ref doc = newDoc(put);
  const Ref hello = push(put, Statement{.op = Op::Buffer, .type = typeNamed("const void *"), .bytes = "hello"});
  call(put, "claims_put", {hello, integer(put, "size_t", 5), integer(put, "size_t", 1), doc});
  EXPECT_NE(classify(put).kind, stages::FailureClass::Misuse) << classify(put).why;
}

TEST_F(Claims, AFileTheTestBuiltByHandIsMisuse) {
  // FILE f = {}; claims_write(d, &f) (libconfig's Config::read(&file)).
  testcase::TestCase t;
  const Ref doc = newDoc(t);
  const model::Type &out = p().type(callable("claims_write").params[1].type);
  const Ref file = push(t, Statement{.op = Op::Aggregate, .type = *out.pointee});
  const Ref address = push(t, Statement{.op = Op::AddressOf, .type = out.id, .refs = {file}});
  call(t, "claims_write", {doc, address});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("the test built by hand: only the C library makes one (fopen)"), std::string::npos) << c.why;
}

TEST_F(Claims, AnArrayOfStringsOneOfWhichHasNoNulIsMisuse) {
  // const char *parts[] = {bytes "h" with no NUL, "\n"}; claims_total(parts,
  // 2) reads past the first (cJSON_CreateStringArray's strdup did).
  testcase::TestCase t;
  const Ref bytes = push(t, Statement{.op = Op::Buffer, .type = typeNamed("const char *"), .bytes = "h"});
  const Ref line = push(t, Statement{.op = Op::CString, .type = typeNamed("const char *"), .bytes = "\n"});
  const Ref parts =
      push(t, Statement{.op = Op::Array, .type = callable("claims_total").params[0].type, .refs = {bytes, line}});
  call(t, "claims_total", {parts, integer(t, "size_t", 2)});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("gives claims_total() an array whose element 0 is 1 bytes with no NUL"), std::string::npos)
      << c.why;
  // Both terminated: whatever failed, it was not that.
  t.statements[bytes].op = Op::CString;
  EXPECT_EQ(classify(t).why.find("no NUL"), std::string::npos);
}

TEST_F(Claims, AFailureOutsideTheCallItStoppedAtAfterAnInternalCallIsMisuse) {
  // first_of("x") (static), then claims_ratio(1, 2), and the stack is in
  // claims_first alone, never in claims_ratio (zstd's POOL worker thread
  // running the NULL job an internal POOL_add_internal queued, while the
  // test was in ZSTD_createThreadPool): the internal call is the cause.
  testcase::TestCase t;
  const Ref text = push(t, Statement{.op = Op::CString, .type = typeNamed("const char *"), .bytes = "x"});
  call(t, "first_of", {text});
  call(t, "claims_ratio", {integer(t, "int", 1), integer(t, "int", 2)});
  exec::RunResult r = crashAtEnd(t);
  r.stack = {0x1000, 0x2000};
  const std::vector<exec::Frame> elsewhere{{"claims_first(char const*)", "claims.c", 61, 0, false}};
  const std::string why = stages::misuseOutsideTheCall(*m->catalog, t, r, elsewhere);
  EXPECT_NE(why.find("it failed outside claims_ratio() (in claims_first()), after an earlier call of first_of(), "
                     "internal to the unit"),
            std::string::npos)
      << why;
  // In claims_ratio, or with a stack cut at its capacity, or with no
  // earlier call of that kind: no such claim.
  const std::vector<exec::Frame> inside{{"claims_ratio", "claims.c", 40, 0, false}};
  EXPECT_EQ(stages::misuseOutsideTheCall(*m->catalog, t, r, inside), "");
  exec::RunResult cut = r;
  cut.stack.assign(MOSAIC_STACK_CAPACITY, 0x1000);
  EXPECT_EQ(stages::misuseOutsideTheCall(*m->catalog, t, cut, elsewhere), "");
  // With no stack, a sanitizer report that puts it in another thread.
  const std::string report = "==220==ERROR: AddressSanitizer: SEGV on unknown address 0xfffffffffffffff8 (pc "
                             "0x55555576b379 bp 0x7ffff39feda0 sp 0x7ffff39fe3c0 T1)\n";
  EXPECT_NE(stages::misuseOutsideTheCall(*m->catalog, t, crashAtEnd(t), {}, report)
                .find("it failed outside claims_ratio() (in thread T1), after an earlier call of first_of()"),
            std::string::npos);
  EXPECT_EQ(stages::misuseOutsideTheCall(*m->catalog, t, crashAtEnd(t), {}, "==1==ERROR: AddressSanitizer: SEGV (pc 0x1 T0)\n"),
            "");
  testcase::TestCase alone;
  call(alone, "claims_ratio", {integer(alone, "int", 1), integer(alone, "int", 2)});
  EXPECT_EQ(stages::misuseOutsideTheCall(*m->catalog, alone, crashAtEnd(alone), elsewhere), "");
}

TEST_F(Claims, AHeapGlibcFoundCorruptedAfterAnInternalCallIsMisuse) {
  // first_of("x") (static), then claims_ratio(1, 2) aborts in malloc: the
  // heap is every call's, so the internal call is the likelier writer
  // (json-c's json_object_new(type, 13, ...) then json_object_new_double_s).
  testcase::TestCase t;
  const Ref text = push(t, Statement{.op = Op::CString, .type = typeNamed("const char *"), .bytes = "x"});
  call(t, "first_of", {text});
  call(t, "claims_ratio", {integer(t, "int", 1), integer(t, "int", 2)});
  const std::string corrupted = "malloc(): corrupted top size\n";
  const auto c = stages::classify(*m->catalog, t, crashAtEnd(t, exec::Outcome::Abort), {}, corrupted);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("glibc found the heap corrupted after an earlier call of first_of()"), std::string::npos)
      << c.why;
  // Without glibc's report the two calls share nothing: claims_ratio's own.
  EXPECT_EQ(stages::classify(*m->catalog, t, crashAtEnd(t, exec::Outcome::Abort), {}).kind,
            stages::FailureClass::Defect);
}

TEST_F(Claims, ATaggedUnionWhoseTagDoesNotNameTheMemberSetIsMisuse) {
  // claims_value v = {CLAIMS_VALUE_TEXT, {.number = 5}}: an aggregate sets a
  // union through its first member only, and the tag says text
  // (msgpack_object {MSGPACK_OBJECT_ARRAY, {.boolean = true}}).
  const model::Type &value = p().type(typeNamed("claims_value"));
  const model::Type &payload = p().type(typeNamed("claims_payload"));
  auto lengthOf = [&](std::int64_t kind) {
    testcase::TestCase t;
    const Ref tag = integer(t, "claims_kind", kind);
    const Ref number = integer(t, "long", 5);
    const Ref as = push(t, Statement{.op = Op::Aggregate, .type = payload.id, .refs = {number}});
    const Ref v = push(t, Statement{.op = Op::Aggregate, .type = value.id, .refs = {tag, as}});
    call(t, "claims_value_length", {v});
    return classify(t);
  };
  const auto text = lengthOf(1);
  EXPECT_EQ(text.kind, stages::FailureClass::Misuse) << text.why;
  EXPECT_NE(text.why.find("gives claims_value_length() a claims_value built by hand whose kind (CLAIMS_VALUE_TEXT) "
                          "does not name the member of its as the test set (number)"),
            std::string::npos)
      << text.why;
  // The tag names the member set: whatever failed, it was not that.
  EXPECT_EQ(lengthOf(0).why.find("built by hand"), std::string::npos) << lengthOf(0).why;
}

TEST_F(Claims, AnObjectOfOneKindGivenToAFunctionForAnotherIsRobustness) {
  // claims_item_list_at(claims_item_new_number(2), 0): a number where the
  // function is for a list (json-c's json_object_array_shrink on
  // json_object_new_string's object), read off the creators' names.
  auto at = [&](const std::string &creator, const std::string &callee) {
    testcase::TestCase t;
    std::vector<Ref> args;
    if (creator == "claims_item_new_number")
      args.push_back(push(t, Statement{.op = Op::Primitive, .type = typeNamed("double"),
                                       .bits = std::bit_cast<std::uint64_t>(2.0)}));
    const Ref item = call(t, creator, args);
    if (callee == "claims_item_list_at")
      call(t, callee, {item, integer(t, "size_t", 0)});
    else
      call(t, callee, {item});
    return classify(t);
  };
  const auto number = at("claims_item_new_number", "claims_item_list_at");
  EXPECT_EQ(number.kind, stages::FailureClass::Robustness) << number.why;
  EXPECT_NE(number.why.find("claims_item_list_at() given as list a const claims_item * made by "
                            "claims_item_new_number() (a number, where the function is for a list)"),
            std::string::npos)
      << number.why;
  // The list's own function on a list, and a getter of any kind (its next
  // word, get, names no kind), make no such claim.
  EXPECT_EQ(at("claims_item_new_list", "claims_item_list_at").kind, stages::FailureClass::Defect);
  EXPECT_EQ(at("claims_item_new_list", "claims_item_get_number").kind, stages::FailureClass::Defect);
}

TEST_F(Claims, AnIndexIntoAnObjectNothingWasPutIntoIsRobustness) {
  // claims_item_list_value(claims_item_new_list(), 5): no call put a value
  // in the list, so no index is one it holds (re2's `FilteredRE2 f;
  // f.GetRE2(1)`).
  testcase::TestCase t;
  const Ref list = call(t, "claims_item_new_list", {});
  call(t, "claims_item_list_value", {list, integer(t, "size_t", 5)});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Robustness) << c.why;
  EXPECT_NE(c.why.find("claims_item_list_value() given index 5 into a claims_item nothing was put into (made by "
                       "claims_item_new_list())"),
            std::string::npos)
      << c.why;
  // After a call that may put something into the list, the index may be
  // one it holds.
  testcase::TestCase used;
  const Ref l = call(used, "claims_item_new_list", {});
  call(used, "claims_item_list_push", {l, push(used, Statement{.op = Op::Primitive, .type = typeNamed("double")})});
  call(used, "claims_item_list_value", {l, integer(used, "size_t", 5)});
  EXPECT_EQ(classify(used).kind, stages::FailureClass::Defect) << classify(used).why;
  // One that only reads it (a const pointer, a const method) puts nothing
  // in, and an index the test got from a call is no better than a literal
  // (re2's `FilteredRE2 f; f.GetRE2(f.NumRegexps())`).
  testcase::TestCase read;
  const Ref r = call(read, "claims_item_new_list", {});
  call(read, "claims_item_get_number", {r});
  const Ref count = call(read, "claims_item_list_count", {r});
  call(read, "claims_item_list_value", {r, count});
  const auto c2 = classify(read);
  EXPECT_EQ(c2.kind, stages::FailureClass::Robustness) << c2.why;
  EXPECT_NE(c2.why.find("claims_item_list_value() given index (the result of claims_item_list_count()) into a "
                        "claims_item nothing was put into"),
            std::string::npos)
      << c2.why;
}

TEST_F(Claims, AZeroedObjectWhoseInitialiserTakesItSecondIsMisuseWhenGivenToAnythingElseFirst) {
  // claims_buffer b = {}; claims_buffer_peek(&b): claims_buffer_init(doc,
  // &b) sets one up (lua's luaL_Buffer B = {}; luaL_pushresult(&B)).
  const model::Type &buffer = p().type(typeNamed("claims_buffer"));
  testcase::TestCase t;
  const Ref zeroed = push(t, Statement{.op = Op::Aggregate, .type = buffer.id});
  const Ref address =
      push(t, Statement{.op = Op::AddressOf, .type = callable("claims_buffer_peek").params[0].type, .refs = {zeroed}});
  call(t, "claims_buffer_peek", {address});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("gives claims_buffer_peek() a claims_buffer it never initialised (claims_buffer_init "
                       "initialises one)"),
            std::string::npos)
      << c.why;
  // An array of them zeroed (lua's `luaL_Buffer B[1] = {}`): the same.
  testcase::TestCase a;
  const Ref array = push(a, Statement{.op = Op::Array, .type = callable("claims_buffer_peek").params[0].type});
  call(a, "claims_buffer_peek", {array});
  const auto z = classify(a);
  EXPECT_EQ(z.kind, stages::FailureClass::Misuse) << z.why;
  EXPECT_NE(z.why.find("it never initialised (claims_buffer_init initialises one)"), std::string::npos) << z.why;
}

TEST_F(Claims, AnObjectWhoseInitialiserFailedIsMisuse) {
  // claims_doc d = {}; claims_init(&d, 0) returns -1 and leaves d's text
  // NULL; claims_length(&d) then crashes: the test went on past the error.
  const model::Type &doc = p().type(typeNamed("claims_doc"));
  ASSERT_EQ(m->catalog->initialisers(*doc.recordId).size(), 2u); // claims_init, claims_init_copy
  testcase::TestCase t;
  const Ref address = zeroedDoc(t);
  const Ref init = call(t, "claims_init", {address, integer(t, "size_t", 0)});
  call(t, "claims_length", {address});
  exec::Observation status{.statement = static_cast<std::uint32_t>(init), .kind = MOSAIC_OBS_INT,
                           .target = MOSAIC_OBS_RESULT, .integer = -1};
  const auto c = classify(t, exec::Outcome::Crash, {status});
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("gives claims_length() a claims_doc whose initialiser claims_init() failed (it returned -1)"),
            std::string::npos)
      << c.why;
  // Initialised (status 0), the same crash is the library's.
  status.integer = 0;
  EXPECT_EQ(classify(t, exec::Outcome::Crash, {status}).kind, stages::FailureClass::Defect);
}

TEST_F(Claims, ALengthBeyondItsBufferIsMisuse) {
  testcase::TestCase t;
  const Ref buf = push(t, Statement{.op = Op::Buffer, .type = typeNamed("const unsigned char *"), .bytes = "ql"});
  const Ref len = integer(t, "size_t", 4096);
  const Ref mode = integer(t, "claims_mode", 0);
  call(t, "claims_count", {buf, len, mode});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("beyond the 2"), std::string::npos) << c.why;
}

TEST_F(Claims, BuffersFollowedByTheirLengthsArePairedInOrder) {
  // claims_squeeze("abc", dst, 46, 8) (LZ4_decompress_safe_usingDict(src,
  // dst, srcSize, dstCapacity, ...) given 46 for a 15-byte source).
  const model::Callable &squeeze = callable("claims_squeeze");
  EXPECT_EQ(squeeze.params[0].pairedWith, 2u);
  EXPECT_EQ(squeeze.params[1].pairedWith, 3u);
  // A length named after its pointer pairs with it, not with the pointer
  // before it (LZ4_compress(src, dest, srcSize)); dest has no length.
  const model::Callable &pack = callable("claims_pack");
  EXPECT_EQ(pack.params[0].pairedWith, 2u);
  EXPECT_EQ(pack.params[1].pairedWith, std::nullopt);
  // Nor when it is named for its pointer's role (an input's: in, input,
  // src, source; an output's: out, output, dst, dest, destination).
  const model::Callable &packOn = callable("claims_pack_on");
  EXPECT_EQ(packOn.params[1].pairedWith, 3u);
  EXPECT_EQ(packOn.params[2].pairedWith, std::nullopt);
  testcase::TestCase t;
  const Ref src = push(t, Statement{.op = Op::CString, .type = squeeze.params[0].type, .bytes = "abc"});
  const Ref dst = push(t, Statement{.op = Op::Buffer, .type = squeeze.params[1].type, .bytes = std::string(8, '\0')});
  call(t, "claims_squeeze", {src, dst, integer(t, "int", 46), integer(t, "int", 8)});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("passes 46 as srcSize, beyond the 4 of src"), std::string::npos) << c.why;
  // A `void *` work area beside them takes none of their lengths, nor an
  // integer named like no length (LZ4_compress_fast_extState's
  // acceleration): the test's 3 bytes there are no state of the size the
  // API wants.
  const model::Callable &with = callable("claims_squeeze_with");
  testcase::TestCase w;
  const Ref state = push(w, Statement{.op = Op::Buffer, .type = with.params[0].type, .bytes = "abc"});
  const Ref s2 = push(w, Statement{.op = Op::CString, .type = with.params[1].type, .bytes = "abc"});
  const Ref d2 = push(w, Statement{.op = Op::Buffer, .type = with.params[2].type, .bytes = std::string(8, '\0')});
  call(w, "claims_squeeze_with", {state, s2, d2, integer(w, "int", 3), integer(w, "int", 8), integer(w, "int", 1)});
  const auto cw = classify(w);
  EXPECT_EQ(cw.kind, stages::FailureClass::Misuse) << cw.why;
  EXPECT_NE(cw.why.find("3 bytes of the test's own as state (void *), with no length"), std::string::npos) << cw.why;
}

TEST_F(Claims, FewerElementsThanAParameterDeclaredAsAnArrayIsMisuse) {
  // claims_mix(&state, block): libmd's SHA256Transform(uint32_t state[8],
  // const uint8_t data[64]) given the address of one uint32_t.
  const model::Callable &mix = callable("claims_mix");
  ASSERT_EQ(mix.params[0].declaredLength, 4u);
  ASSERT_EQ(mix.params[1].declaredLength, 8u);
  testcase::TestCase t;
  const Ref one = integer(t, "unsigned int", 7);
  const Ref state = push(t, Statement{.op = Op::AddressOf, .type = mix.params[0].type, .refs = {one}});
  const Ref block = push(t, Statement{.op = Op::Buffer, .type = mix.params[1].type, .bytes = std::string(8, 'x')});
  call(t, "claims_mix", {state, block});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("gives claims_mix() 1 element(s) as state, which it declares as an array of 4"),
            std::string::npos)
      << c.why;
  // Four elements and eight bytes: the crash is the library's.
  testcase::TestCase full;
  std::vector<Ref> elements;
  for (int k = 0; k < 4; ++k) elements.push_back(integer(full, "unsigned int", k));
  const Ref array = push(full, Statement{.op = Op::Array, .type = mix.params[0].type, .refs = elements});
  const Ref bytes = push(full, Statement{.op = Op::Buffer, .type = mix.params[1].type, .bytes = std::string(8, 'x')});
  call(full, "claims_mix", {array, bytes});
  EXPECT_EQ(classify(full).kind, stages::FailureClass::Defect) << classify(full).why;
}

TEST_F(Claims, ABufferWithNoLengthThatARoomierOneFixesIsMisuse) {
  // claims_digest(data, len, text) with a 4-byte text: libmd's
  // SHA1Data(buffer, 15, text) wrote its 41-byte digest string past the
  // test's "\200" and aborted after the test's last statement.
  const model::Callable &digest = callable("claims_digest");
  testcase::TestCase t;
  const Ref data = push(t, Statement{.op = Op::Buffer, .type = digest.params[0].type, .bytes = "abc"});
  const Ref len = integer(t, "size_t", 3);
  const Ref out = push(t, Statement{.op = Op::CString, .type = digest.params[2].type, .bytes = "xyz"});
  call(t, "claims_digest", {data, len, out});
  exec::RunResult crash = crashAtEnd(t, exec::Outcome::Abort);
  crash.statement = -1; // after the last statement
  const auto unsized = stages::unsizedBuffers(*m->catalog, t, crash);
  ASSERT_EQ(unsized.size(), 1u); // not data, which has its length
  EXPECT_EQ(unsized[0].statement, out);
  EXPECT_EQ(unsized[0].param, "out"); // as the definition names it
  const testcase::TestCase roomy = stages::withRoomyBuffers(t, unsized);
  EXPECT_EQ(roomy.statements[out].op, Op::Buffer);
  EXPECT_EQ(roomy.statements[out].bytes.size(), stages::kRoomyBuffer);
  EXPECT_EQ(roomy.statements[out].bytes.substr(0, 4), std::string("xyz\0", 4));
  EXPECT_EQ(roomy.statements[data].bytes, "abc");

  // ClassifyFailures runs it so: the abort goes when the buffer holds 33
  // bytes, and the claim is misuse.
  stages::Work work;
  stages::Failure f;
  f.test = t;
  f.result = crash;
  f.where = "claims_digest";
  f.count = 1;
  f.confirmed = true;
  work.failures["abort"] = f;
  auto overflowing = [&](const testcase::TestCase &run) {
    search::Execution e;
    if (run.statements[out].bytes.size() + (run.statements[out].op == Op::CString ? 1 : 0) < 33) e.result = crash;
    return std::optional(e);
  };
  FakeExecutor isolated(overflowing);
  FakeExecutor none([](const testcase::TestCase &) { return std::optional<search::Execution>(); });
  const search::Goals goals(fourBlocks());
  stages::Context c{p(), *m->catalog, goals, none, isolated, nullptr, {}, {}, nullptr, {}, {}};
  stages::classifyFailures()->run(work, c);
  ASSERT_EQ(work.failures.size(), 1u);
  const stages::Failure &kept = work.failures.begin()->second;
  EXPECT_EQ(kept.kind, stages::FailureClass::Misuse) << kept.why;
  EXPECT_NE(kept.why.find("claims_digest() was given 4 bytes as out, which comes with no length"),
            std::string::npos)
      << kept.why;

  // A failure that stays with roomy buffers stays a likely defect.
  work.failures.clear();
  work.failures["abort"] = f;
  FakeExecutor always([&](const testcase::TestCase &) {
    search::Execution e;
    e.result = crash;
    return std::optional(e);
  });
  stages::Context c2{p(), *m->catalog, goals, none, always, nullptr, {}, {}, nullptr, {}, {}};
  stages::classifyFailures()->run(work, c2);
  EXPECT_EQ(work.failures.begin()->second.kind, stages::FailureClass::Defect) << work.failures.begin()->second.why;
}

TEST_F(Claims, AFailureAfterUndefinedBehaviourTheSanitizersReportEarlierIsNoDefect) {
  // doc = claims_new("x"); claims_length(doc) crashes in the plain run,
  // while the sanitized one stopped in claims_new (libgsm's
  // Gsm_Long_Term_Synthesis_Filtering indexing a word[4] with 22, then
  // gsm_decode crashing on the state it wrote over).
  testcase::TestCase t;
  const Ref doc = newDoc(t);
  call(t, "claims_length", {doc});
  stages::Work work;
  stages::Failure f;
  f.test = t;
  f.result = crashAtEnd(t);
  f.where = "claims_length";
  f.count = 1;
  f.confirmed = true;
  f.sanitizerReport = "src/claims.c:10:3: runtime error: index 22 out of bounds for type 'int[4]'";
  f.sanitizerStatement = static_cast<int>(doc);
  work.failures["crash"] = f;
  FakeExecutor always([&](const testcase::TestCase &) {
    search::Execution e;
    e.result = f.result;
    return std::optional(e);
  });
  FakeExecutor none([](const testcase::TestCase &) { return std::optional<search::Execution>(); });
  const search::Goals goals(fourBlocks());
  stages::Context c{p(), *m->catalog, goals, none, always, nullptr, {}, {}, nullptr, {}, {}};
  stages::classifyFailures()->run(work, c);
  const stages::Failure &kept = work.failures.begin()->second;
  EXPECT_EQ(kept.kind, stages::FailureClass::Robustness) << kept.why;
  EXPECT_NE(kept.why.find("follows undefined behaviour the sanitizers report in an earlier call, claims_new()"),
            std::string::npos)
      << kept.why;
  // Where the sanitizers stopped at the failing call itself: a likely defect.
  work.failures.clear();
  f.sanitizerStatement = f.result.statement;
  work.failures["crash"] = f;
  stages::classifyFailures()->run(work, c);
  EXPECT_EQ(work.failures.begin()->second.kind, stages::FailureClass::Defect) << work.failures.begin()->second.why;
}

TEST_F(Claims, AStringOnlyTheAPIMakesIsNeverTheTestsOwnNorUsedAfterItMoved) {
  // hiredis's `typedef char *sds`: sdslen(buf) of a char array reads a
  // header before it; `sdscat(s, t)` may move s (the idiom is `s =
  // sdscat(s, t)`); sdsfreesplitres({s, s}, 2) frees s twice.
  const model::Callable &len = callable("claims_str_len");
  EXPECT_TRUE(m->catalog->apiPointer(len.params[0].type));
  EXPECT_FALSE(m->catalog->apiPointer(typeNamed("const char *")));
  EXPECT_EQ(testcase::releasedParam(p(), callable("claims_str_free_all")), 0u);
  testcase::TestCase own;
  const Ref bytes = push(own, Statement{.op = Op::CString, .type = len.params[0].type, .bytes = "abc"});
  call(own, "claims_str_len", {bytes});
  auto c = classify(own);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("4 bytes of the test's own as s, a claims_str only the API makes (claims_str_new())"),
            std::string::npos)
      << c.why;

  const model::Callable &make = callable("claims_str_new");
  testcase::TestCase moved;
  const Ref init = push(moved, Statement{.op = Op::CString, .type = make.params[0].type, .bytes = "a"});
  const Ref s = call(moved, "claims_str_new", {init});
  const Ref more = push(moved, Statement{.op = Op::CString, .type = make.params[0].type, .bytes = "bcdefgh"});
  call(moved, "claims_str_cat", {s, more});
  call(moved, "claims_str_len", {s});
  c = classify(moved);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("claims_str_len() uses a claims_str that claims_str_cat() replaced"), std::string::npos) << c.why;

  testcase::TestCase twice;
  const Ref i2 = push(twice, Statement{.op = Op::CString, .type = make.params[0].type, .bytes = "a"});
  const Ref s2 = call(twice, "claims_str_new", {i2});
  const model::Callable &all = callable("claims_str_free_all");
  const Ref list = push(twice, Statement{.op = Op::Array, .type = all.params[0].type, .refs = {s2, s2}});
  call(twice, "claims_str_free_all", {list, integer(twice, "int", 2)});
  c = classify(twice);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("gives claims_str_free_all() an array holding one object twice as list"), std::string::npos)
      << c.why;

  // One such string as both the destination and the source (sdscatsds(s,
  // s): s may move as it grows, leaving the source behind): robustness.
  testcase::TestCase self;
  const Ref i3 = push(self, Statement{.op = Op::CString, .type = make.params[0].type, .bytes = "a"});
  const Ref s3 = call(self, "claims_str_new", {i3});
  call(self, "claims_str_cat_str", {s3, s3});
  c = classify(self);
  EXPECT_EQ(c.kind, stages::FailureClass::Robustness) << c.why;
  EXPECT_NE(c.why.find("claims_str_cat_str() given one object as both s and t"), std::string::npos) << c.why;
}

TEST_F(Claims, ANumberAsAFileDescriptorIsRobustnessAndTheRunnersStdioIsNoArgument) {
  // giflib's DGifOpenFileHandle(1, &error): descriptor 1 is the harness's
  // output pipe there, a terminal or a file where the test runs later.
  const model::Callable &read = callable("claims_read_fd");
  ASSERT_TRUE(m->catalog->fileDescriptor(read.params[0]));
  EXPECT_FALSE(m->catalog->fileDescriptor(callable("claims_ratio").params[0]));
  // gif_lib.h's DGifOpenFileHandle(int GifFileHandle, int *Error): a prefix
  // before FileHandle; not a name that merely holds "fd" inside.
  model::Param named = read.params[0];
  for (const char *name : {"GifFileHandle", "in_filedes", "FileHandle"}) {
    named.name = name;
    EXPECT_TRUE(m->catalog->fileDescriptor(named)) << name;
  }
  for (const char *name : {"fdcount", "handles", "file"}) {
    named.name = name;
    EXPECT_FALSE(m->catalog->fileDescriptor(named)) << name;
  }
  testcase::TestCase t;
  const Ref fd = integer(t, "int", 1);
  call(t, "claims_read_fd", {fd});
  EXPECT_NE(m->catalog->typeError(t).find("a descriptor of the test runner's own stdio, as fd"), std::string::npos)
      << m->catalog->typeError(t);
  EXPECT_TRUE(m->catalog->descriptorArgument(t, fd));
  t.statements[fd].bits = ~std::uint64_t{0};
  EXPECT_EQ(m->catalog->typeError(t), "");
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Robustness) << c.why;
  EXPECT_NE(c.why.find("claims_read_fd() given -1 as fd, no file descriptor the test opened"), std::string::npos)
      << c.why;
}

TEST_F(Claims, AReallocOfTheTestsOwnObjectThroughAPointerToAPointerIsMisuse) {
  // giflib's GifAddExtensionBlock(&count, &blocks, ...) with blocks
  // pointing at an ExtensionBlock of the test's: "realloc(): invalid pointer".
  const model::Callable &add = callable("claims_add_block");
  testcase::TestCase t;
  const Ref n = integer(t, "int", 1);
  const Ref count = push(t, Statement{.op = Op::AddressOf, .type = add.params[0].type, .refs = {n}});
  const model::TypeId blockP = p().type(*p().type(add.params[1].type).pointee).value;
  const model::TypeId block = p().type(*p().type(blockP).pointee).value;
  const Ref b = push(t, Statement{.op = Op::Aggregate, .type = block});
  const Ref bp = push(t, Statement{.op = Op::AddressOf, .type = blockP, .refs = {b}});
  const Ref bpp = push(t, Statement{.op = Op::AddressOf, .type = add.params[1].type, .refs = {bp}});
  call(t, "claims_add_block", {count, bpp});
  auto c = stages::classify(*m->catalog, t, crashAtEnd(t, exec::Outcome::Abort), {}, "realloc(): invalid pointer\n");
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("gives claims_add_block() the address of a pointer to the test's own memory as blocks"),
            std::string::npos)
      << c.why;
  // Without glibc's word on it, nothing says the test's object was freed.
  EXPECT_EQ(stages::classify(*m->catalog, t, crashAtEnd(t, exec::Outcome::Abort), {}, "").kind,
            stages::FailureClass::Defect);
}

TEST_F(Claims, ScalarsGivenWithNoLengthAreTriedRoomyToo) {
  // libmodbus's modbus_get_float(const uint16_t *src) reads src[1]:
  // `uint16_t src[] = {258}` or `&value` is one register; run again with
  // 65536 bytes holding it first.
  const model::Callable &get = callable("claims_get_float");
  for (const bool address : {false, true}) {
    testcase::TestCase t;
    const Ref value = integer(t, "unsigned short", 258);
    const Ref src = push(t, Statement{.op = address ? Op::AddressOf : Op::Array, .type = get.params[0].type,
                                      .refs = {value}});
    call(t, "claims_get_float", {src});
    const auto unsized = stages::unsizedBuffers(*m->catalog, t, crashAtEnd(t, exec::Outcome::Sanitizer));
    ASSERT_EQ(unsized.size(), 1u) << address;
    EXPECT_EQ(unsized[0].statement, src);
    EXPECT_EQ(unsized[0].bytes, std::string("\x02\x01", 2));
    const testcase::TestCase roomy = stages::withRoomyBuffers(t, unsized);
    EXPECT_EQ(roomy.statements[src].op, Op::Buffer);
    EXPECT_TRUE(roomy.statements[src].refs.empty());
    EXPECT_EQ(roomy.statements[src].bytes.size(), stages::kRoomyBuffer);
    EXPECT_EQ(roomy.statements[src].bytes.substr(0, 3), std::string("\x02\x01\0", 3));
  }
}

TEST_F(Claims, AReallocOfTheTestsOwnMemoryInAStructItBuiltIsMisuse) {
  // libogg's `oggpack_buffer b = {.buffer = &byte}; oggpack_write(&b, ...)`:
  // "realloc(): invalid pointer", the buffer being the test's, not malloc's.
  const model::Callable &put = callable("claims_bits_put");
  testcase::TestCase t;
  const Ref byte = integer(t, "unsigned char", 1);
  const Ref buffer = push(t, Statement{.op = Op::AddressOf, .type = typeNamed("unsigned char *"), .refs = {byte}});
  const Ref bits = push(t, Statement{.op = Op::Aggregate, .type = typeNamed("claims_bits"),
                                     .refs = {buffer, integer(t, "long", 0)}});
  const Ref address = push(t, Statement{.op = Op::AddressOf, .type = put.params[0].type, .refs = {bits}});
  call(t, "claims_bits_put", {address, integer(t, "int", 1)});
  auto c = stages::classify(*m->catalog, t, crashAtEnd(t, exec::Outcome::Abort), {}, "realloc(): invalid pointer\n");
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("gives claims_bits_put() a claims_bits built by hand whose buffer points at the test's own "
                       "memory"),
            std::string::npos)
      << c.why;
  // In the harness the test's bytes are on the heap: freed by the callee,
  // then again when the test ends.
  EXPECT_EQ(stages::classify(*m->catalog, t, crashAtEnd(t, exec::Outcome::Abort), {},
                             "free(): double free detected in tcache 2\n")
                .kind,
            stages::FailureClass::Misuse);
  // Without glibc's word on it, nothing says the buffer was freed.
  EXPECT_EQ(stages::classify(*m->catalog, t, crashAtEnd(t, exec::Outcome::Abort), {}, "").kind,
            stages::FailureClass::Defect);
}

TEST_F(Claims, AnOverrunOfABufferInAStructTheTestBuiltIsRobustness) {
  // libogg's ogg_page og = {.header = header, .header_len = 4, ...};
  // ogg_page_checksum_set(&og) writes its checksum at header[22..25].
  testcase::TestCase t;
  const Ref header = push(t, Statement{.op = Op::Buffer, .type = typeNamed("unsigned char *"), .bytes = "Ogg"});
  const Ref page = push(t, Statement{.op = Op::Aggregate, .type = typeNamed("claims_page"),
                                     .refs = {header, integer(t, "long", 3)}});
  call(t, "claims_page_first",
       {push(t, Statement{.op = Op::AddressOf, .type = callable("claims_page_first").params[0].type, .refs = {page}})});
  const std::string asan = "==3==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x502000003066 at pc 0x5";
  EXPECT_EQ(stages::overrunInABuiltStruct(*m->catalog, t, crashAtEnd(t, exec::Outcome::Sanitizer), asan),
            "claims_page_first() overran a buffer given inside a claims_page built by hand (its header is the "
            "test's): a claims_page the API fills may hold more than the test gave");
  // Another report, or bytes the API made: no word on it.
  EXPECT_EQ(stages::overrunInABuiltStruct(*m->catalog, t, crashAtEnd(t), "==3==ERROR: AddressSanitizer: SEGV on"), "");
  testcase::TestCase zeroed;
  const Ref z = push(zeroed, Statement{.op = Op::Aggregate, .type = typeNamed("claims_page")});
  call(zeroed, "claims_page_first",
       {push(zeroed, Statement{.op = Op::AddressOf, .type = callable("claims_page_first").params[0].type, .refs = {z}})});
  EXPECT_EQ(stages::overrunInABuiltStruct(*m->catalog, zeroed, crashAtEnd(zeroed), asan), "");
}

TEST_F(Claims, AFailureAfterAnErrorAnEarlierCallReturnedOnTheSameObjectIsRobustness) {
  // xxhash's XXH3_64bits_reset_withSecret(state, secret, 63) returns
  // XXH_ERROR, then XXH3_64bits_digest(state) reads past the secret. Here:
  // claims_reserve(doc, 100) returns CLAIMS_ERROR, then claims_length(doc).
  testcase::TestCase t;
  const Ref doc = newDoc(t);
  call(t, "claims_reserve", {doc, integer(t, "size_t", 100)});
  call(t, "claims_length", {doc});
  const auto at = [](size_t statement, std::int64_t value) {
    exec::Observation o;
    o.statement = static_cast<std::uint32_t>(statement);
    o.target = MOSAIC_OBS_RESULT;
    o.field = -1;
    o.kind = MOSAIC_OBS_INT;
    o.integer = value;
    return o;
  };
  EXPECT_EQ(stages::errorReturnedEarlier(*m->catalog, t, crashAtEnd(t), {at(3, 1)}),
            "follows the error CLAIMS_ERROR that an earlier call on the same object returned, claims_reserve() "
            "(statement 3), which the test did not heed");
  // CLAIMS_OK, or no observation of it: no word on it.
  EXPECT_EQ(stages::errorReturnedEarlier(*m->catalog, t, crashAtEnd(t), {at(3, 0)}), "");
  EXPECT_EQ(stages::errorReturnedEarlier(*m->catalog, t, crashAtEnd(t), {}), "");
}

TEST_F(Claims, AReadPastAnArrayGivenWithNoLengthIsMisuse) {
  // libspiro's TaggedSpiroCPsToBezier0(spiros, bc) reads points up to one
  // tagged 'z' or '}': given an array of three without that mark, it reads
  // past them. Here: claims_page_first(pages), an array of two zeroed pages.
  testcase::TestCase t;
  const Ref first = push(t, Statement{.op = Op::Aggregate, .type = typeNamed("claims_page")});
  const Ref second = push(t, Statement{.op = Op::Aggregate, .type = typeNamed("claims_page")});
  call(t, "claims_page_first",
       {push(t, Statement{.op = Op::Array, .type = callable("claims_page_first").params[0].type, .refs = {first, second}})});
  const std::string read = "==3==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x5020 at pc 0x5\n"
                           "READ of size 1 at 0x5020 thread T0\n";
  EXPECT_EQ(stages::readPastAnArrayWithNoLength(*m->catalog, t, crashAtEnd(t, exec::Outcome::Sanitizer), read),
            "claims_page_first() read past the end of the 2-element array the test gave it as page, with no length "
            "beside it: it finds the array's end by a mark (a last element of its own kind) the test did not put "
            "there");
  // A read far past it, into memory that is not mapped: the same; near NULL, not.
  const std::string far = "==3==ERROR: AddressSanitizer: SEGV on unknown address 0x508000040010 (pc 0x5 bp 0x7 T0)\n"
                          "==3==The signal is caused by a READ memory access.\n";
  EXPECT_NE(stages::readPastAnArrayWithNoLength(*m->catalog, t, crashAtEnd(t, exec::Outcome::Sanitizer), far), "");
  const std::string null = "==3==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000008 (pc 0x5 bp 0x7 T0)\n"
                           "==3==The signal is caused by a READ memory access.\n";
  EXPECT_EQ(stages::readPastAnArrayWithNoLength(*m->catalog, t, crashAtEnd(t, exec::Outcome::Sanitizer), null), "");
  // An array a call returned with a length of the test's own (libspiro's
  // spiro_to_bpath(run_spiro(src, 4), 2336, bc)): claims_count(made, 2336, 0).
  testcase::TestCase made;
  call(made, "claims_count",
       {call(made, "claimsDictAlloc", {}), integer(made, "size_t", 2336), integer(made, "int", 0)});
  EXPECT_EQ(stages::readPastAnArrayWithNoLength(*m->catalog, made, crashAtEnd(made, exec::Outcome::Sanitizer), read),
            "claims_count() read past the end of the array claimsDictAlloc() returned, given as buf with len = 2336, "
            "a length of the test's own: only the caller that made the array knows its length");
  // A write past it, another report, or bytes (a string ends at its NUL): no word on it.
  const std::string write = "==3==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x5020 at pc 0x5\n"
                            "WRITE of size 1 at 0x5020 thread T0\n";
  EXPECT_EQ(stages::readPastAnArrayWithNoLength(*m->catalog, t, crashAtEnd(t, exec::Outcome::Sanitizer), write), "");
  EXPECT_EQ(stages::readPastAnArrayWithNoLength(*m->catalog, t, crashAtEnd(t), "==3==ERROR: AddressSanitizer: SEGV"),
            "");
  testcase::TestCase text;
  call(text, "claims_new", {push(text, Statement{.op = Op::Buffer, .type = typeNamed("const char *"), .bytes = "x"})});
  EXPECT_EQ(stages::readPastAnArrayWithNoLength(*m->catalog, text, crashAtEnd(text, exec::Outcome::Sanitizer), read), "");
}

TEST_F(Claims, ANullInAStructTheTestZeroedAndGaveFirstIsRobustness) {
  // libogg's `ogg_page og = {}; ogg_page_bos(&og)` reads og.header[5].
  testcase::TestCase t;
  const Ref page = push(t, Statement{.op = Op::Aggregate, .type = typeNamed("claims_page")});
  const auto address = [&] {
    return push(t, Statement{.op = Op::AddressOf, .type = callable("claims_page_first").params[0].type, .refs = {page}});
  };
  call(t, "claims_page_first", {address()});
  const std::string ubsan = "claims.c:420:68: runtime error: applying non-zero offset 5 to null pointer";
  EXPECT_EQ(classify(t).kind, stages::FailureClass::Defect);
  EXPECT_EQ(stages::nullKeptEarlier(*m->catalog, t, crashAtEnd(t), {}, ubsan),
            "claims_page_first() dereferences a null pointer in a claims_page the test zero-initialised and gave it "
            "first");
  // Not at a null pointer, or given to a call before (which may have
  // filled it): no word on it.
  EXPECT_EQ(stages::nullKeptEarlier(*m->catalog, t, crashAtEnd(t), {}, "SEGV on unknown address 0x7f0012345678"), "");
  call(t, "claims_page_first", {address()});
  EXPECT_EQ(stages::nullKeptEarlier(*m->catalog, t, crashAtEnd(t), {}, ubsan), "");
}

TEST_F(Claims, AnObjectOneInitialiserSetUpGivenToAnotherKindsFunctionIsMisuse) {
  // bzip2's BZ2_bzDecompressInit(&s) then BZ2_bzCompressEnd(&s).
  const model::Callable &decode = callable("claims_decode_init");
  const model::TypeId codec = p().type(*p().type(decode.params[0].type).pointee).value;
  const auto codecWith = [&](const std::string &init) {
    testcase::TestCase t;
    const Ref c = push(t, Statement{.op = Op::Aggregate, .type = codec});
    const Ref a = push(t, Statement{.op = Op::AddressOf, .type = decode.params[0].type, .refs = {c}});
    call(t, init, {a});
    call(t, "claims_encode_end", {a});
    return t;
  };
  auto c = classify(codecWith("claims_decode_init"));
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("gives claims_encode_end() a claims_codec that claims_decode_init() set up: "
                       "claims_encode_init() sets up what it takes"),
            std::string::npos)
      << c.why;
  EXPECT_EQ(classify(codecWith("claims_encode_init")).kind, stages::FailureClass::Defect);
}

TEST_F(Claims, AReaderGivenToTheWritersClearIsMisuseAndSoIsWhatFollows) {
  // libogg's oggpack_readinit(&b, buf, 1) then oggpack_writeclear(&b),
  // which frees the test's buf; then oggpack_read1(&b): the kind is the
  // init word's start (readinit: "read"; writeclear is the writer's).
  const model::Callable &get = callable("claims_bits_get");
  const model::TypeId bits = p().type(*p().type(callable("claims_bits_put").params[0].type).pointee).value;
  const auto withInit = [&](const std::string &init, bool thenGet) {
    testcase::TestCase t;
    const Ref b = push(t, Statement{.op = Op::Aggregate, .type = bits});
    const Ref a = push(t, Statement{.op = Op::AddressOf, .type = callable("claims_bits_put").params[0].type, .refs = {b}});
    if (init == "claims_bits_readinit") {
      const Ref byte = integer(t, "unsigned char", 7);
      const Ref buf = push(t, Statement{.op = Op::AddressOf, .type = typeNamed("unsigned char *"), .refs = {byte}});
      call(t, init, {a, buf, integer(t, "long", 1)});
    } else {
      call(t, init, {a});
    }
    call(t, "claims_bits_writeclear", {a});
    if (thenGet)
      call(t, "claims_bits_get", {push(t, Statement{.op = Op::AddressOf, .type = get.params[0].type, .refs = {b}})});
    return t;
  };
  auto c = classify(withInit("claims_bits_readinit", false));
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("gives claims_bits_writeclear() a claims_bits that claims_bits_readinit() set up: "
                       "claims_bits_writeinit() sets up what it takes"),
            std::string::npos)
      << c.why;
  c = classify(withInit("claims_bits_readinit", true));
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("an earlier call on the same object was misuse: gives claims_bits_writeclear() a claims_bits "
                       "that claims_bits_readinit() set up"),
            std::string::npos)
      << c.why;
  EXPECT_EQ(classify(withInit("claims_bits_writeinit", false)).kind, stages::FailureClass::Defect);
  EXPECT_EQ(classify(withInit("claims_bits_writeinit", true)).kind, stages::FailureClass::Defect);
}

TEST_F(Claims, AnUnusualIntegerOfAnEarlierCallOnTheSameObjectIsTriedAtZeroAndOne) {
  // libogg's oggpack_adv(&b, -943), then oggpack_read(&b, 0) reads before
  // b's buffer: -943 is not in the failing call's cone, but in that of an
  // earlier call on its object.
  const model::Callable &put = callable("claims_bits_put");
  testcase::TestCase t;
  const Ref b = push(t, Statement{.op = Op::Aggregate, .type = p().type(*p().type(put.params[0].type).pointee).value});
  const auto address = [&] { return push(t, Statement{.op = Op::AddressOf, .type = put.params[0].type, .refs = {b}}); };
  call(t, "claims_bits_writeinit", {address()});
  const Ref n = integer(t, "long", -943);
  call(t, "claims_bits_adv", {address(), n});
  const Ref other = integer(t, "long", 5);
  call(t, "claims_bits_get",
       {push(t, Statement{.op = Op::AddressOf, .type = callable("claims_bits_get").params[0].type, .refs = {b}})});
  const std::vector<size_t> unusual = stages::unusualIntegers(*m->catalog, t, crashAtEnd(t));
  EXPECT_NE(std::find(unusual.begin(), unusual.end(), n), unusual.end());
  // An integer no call on the object took is not one.
  EXPECT_EQ(std::find(unusual.begin(), unusual.end(), other), unusual.end());
}

TEST_F(Claims, AHandleOnlyTheAPIMakesIsNeverTheTestsOwnEvenThroughAPointer) {
  // libplist's plist_array_get_item("</integer>", 10) and
  // plist_from_xml(xml, n, &p) with p the address of the test's variable.
  const model::Callable &kind = callable("claims_node_kind");
  EXPECT_TRUE(m->catalog->apiPointer(kind.params[0].type));
  testcase::TestCase bytes;
  const Ref text = push(bytes, Statement{.op = Op::CString, .type = typeNamed("char *"), .bytes = "</integer>"});
  call(bytes, "claims_node_kind", {text, integer(bytes, "unsigned int", 10)});
  auto c = classify(bytes);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("11 bytes of the test's own as node, a claims_node only the API makes (claims_node_new())"),
            std::string::npos)
      << c.why;
  const model::Callable &parse = callable("claims_node_parse");
  testcase::TestCase own;
  const Ref src = push(own, Statement{.op = Op::CString, .type = parse.params[0].type, .bytes = "x"});
  const Ref n = integer(own, "int", 7);
  const Ref node = push(own, Statement{.op = Op::AddressOf, .type = kind.params[0].type, .refs = {n}});
  const Ref out = push(own, Statement{.op = Op::AddressOf, .type = parse.params[1].type, .refs = {node}});
  call(own, "claims_node_parse", {src, out});
  c = classify(own);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("gives claims_node_parse() the address of a pointer to the test's own memory as out"),
            std::string::npos)
      << c.why;
}

TEST_F(Claims, AnInOutLengthBeyondItsBufferIsMisuse) {
  // claims_fill(&byte, &n) with n = 1416: the length says dest holds more
  // than the one byte it points at.
  testcase::TestCase t;
  const Ref n = fillOneByte(t, 1416);
  auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("1416 through destLen, beyond the 1 of dest"), std::string::npos) << c.why;
  // One byte for one byte is not a claim of misuse.
  t.statements[n].bits = 1;
  c = classify(t);
  EXPECT_NE(c.kind, stages::FailureClass::Misuse) << c.why;
}

TEST_F(Claims, ReleasingWhatTheApiDidNotAllocateIsMisuseAlsoAsTheSecondOfTwo) {
  // claims_free_text(doc, text) releases its second argument: the test's
  // own buffer is not the library's to free.
  testcase::TestCase t;
  const Ref doc = newDoc(t);
  const Ref text = push(t, Statement{.op = Op::Buffer, .type = typeNamed("char *"), .bytes = std::string("ab\0", 3)});
  call(t, "claims_free_text", {doc, text});
  const auto c = classify(t, exec::Outcome::Abort);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("gives claims_free_text() a"), std::string::npos) << c.why;
  EXPECT_NE(c.why.find("the API did not allocate"), std::string::npos) << c.why;
}

TEST_F(Claims, BytesWithoutANulAsACStringAreMisuse) {
  const auto c = classify(m->call("claims_first", {Bytes{"abc"}}));
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("no NUL"), std::string::npos) << c.why;
}

TEST_F(Claims, BytesWithoutANulWhereNoLengthGoesWithThemAreMisuse) {
  // claims_utf8_count(bytes) with bytes that have no NUL
  // (utf8proc_NFKC_Casefold(const utf8proc_uint8_t *str)).
  testcase::TestCase t;
  const Ref bytes = push(t, Statement{.op = Op::Buffer, .type = typeNamed("const unsigned char *"), .bytes = "\xe8p"});
  call(t, "claims_utf8_count", {bytes});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("gives claims_utf8_count() 2 bytes with no NUL as str, which no length goes with"),
            std::string::npos)
      << c.why;
  // With their NUL they are a string like any other.
  t.statements[bytes].bytes.push_back('\0');
  EXPECT_NE(classify(t).kind, stages::FailureClass::Misuse) << classify(t).why;
  // A length behind a pointer goes with them too (claims_fill(dest, &n)).
  testcase::TestCase fill;
  fillOneByte(fill, 1);
  EXPECT_EQ(classify(fill).why.find("no length goes with"), std::string::npos) << classify(fill).why;
}

TEST_F(Claims, APointerPastTheEndOfBytesWhereNoLengthGoesWithThemIsMisuse) {
  // claims_utf8_count(end) with end one past 2 bytes (libonig's
  // onigenc_strlen_null(enc, p) given `buffer + 28`): it reads up to a NUL,
  // and nothing is there.
  testcase::TestCase t;
  const Ref bytes = push(t, Statement{.op = Op::Buffer, .type = typeNamed("const unsigned char *"), .bytes = "\xe8p"});
  const Ref end = push(t, Statement{.op = Op::EndOf, .type = typeNamed("const unsigned char *"), .refs = {bytes}});
  call(t, "claims_utf8_count", {end});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("gives claims_utf8_count() a pointer one past the end of a buffer as str, which no length goes with"),
            std::string::npos)
      << c.why;
}

TEST_F(Claims, TheEndOfABufferAsACStringIsMisuse) {
  // pugixml's xpath_variable_set::set(name) given one past the end of 4
  // bytes: the harness's buffer has no NUL after it.
  testcase::TestCase t;
  const Ref bytes = push(t, Statement{.op = Op::Buffer, .type = typeNamed("const char *"), .bytes = "abcd"});
  const Ref end = push(t, Statement{.op = Op::EndOf, .type = typeNamed("const char *"), .refs = {bytes}});
  call(t, "claims_first", {end});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_EQ(c.why, "gives claims_first() a pointer one past the end of a buffer as the string s");
}

TEST(WideClaims, WideCharactersWithoutATerminatorAsAWideStringAreMisuse) {
  // pugixml's save_file(const wchar_t *path) given {1, 1}.
  const auto m = UnitModel::make(MOSAIC_FIXTURE_DB_DIR, std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/analysis/dial.c++");
  const model::Callable *widths = nullptr;
  for (const model::Callable &c : m->program.callables)
    if (c.qualifiedName == "knob::widths") widths = &c;
  ASSERT_NE(widths, nullptr);
  const model::TypeId text = widths->params.at(0).type;
  const model::TypeId wide = *m->program.type(m->program.type(text).value).pointee;
  testcase::TestCase t;
  t.statements = {
      Statement{.op = Op::Primitive, .type = wide, .bits = 1},
      Statement{.op = Op::Array, .type = text, .refs = {0, 0}},
      Statement{.op = Op::Call, .callable = widths->id, .refs = {1}},
  };
  const auto c = stages::classify(*m->catalog, t, crashAtEnd(t, exec::Outcome::Sanitizer), {});
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_EQ(c.why, "gives knob::widths() 2 wide characters with no NUL as the wide string text");
}

// codec.cpp's Node (a pointer constructor, an implicit default and move
// constructor, depth()), read once for the tests of objects.
class ObjectClaims : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    m = UnitModel::make(MOSAIC_FIXTURE_SEARCH_DB_DIR, kClassifyFixtures + "codec.cpp").release();
    for (const model::Callable &c : m->program.callables) {
      if (c.kind == model::CallableKind::Constructor && c.qualifiedName == "codec::Node::Node") {
        if (c.params.empty()) fresh = &c;
        else if (m->program.type(c.params[0].type).kind == model::TypeKind::Pointer) fromRaw = &c;
        else if (m->program.type(c.params[0].type).isRvalue) moved = &c;
      }
      if (c.qualifiedName == "codec::Node::depth") depth = &c;
    }
  }
  static void TearDownTestSuite() {
    delete m;
    m = nullptr;
  }
  static UnitModel *m;
  static const model::Callable *fresh, *fromRaw, *moved, *depth;
};

UnitModel *ObjectClaims::m = nullptr;
const model::Callable *ObjectClaims::fresh = nullptr, *ObjectClaims::fromRaw = nullptr,
                      *ObjectClaims::moved = nullptr, *ObjectClaims::depth = nullptr;

TEST_F(ObjectClaims, AnObjectConstructedWithNullIsRobustness) {
  // pugixml's xml_writer_file(nullptr).write(...): fwrite of a null FILE *.
  ASSERT_TRUE(fromRaw && depth);
  testcase::TestCase t;
  t.statements = {
      Statement{.op = Op::Null, .type = fromRaw->params[0].type},
      Statement{.op = Op::Construct, .type = m->program.record(*fromRaw->parent).type,
                .callable = fromRaw->id, .refs = {0}},
      Statement{.op = Op::MethodCall, .callable = depth->id, .refs = {1}},
  };
  const auto c = stages::classify(*m->catalog, t, crashAtEnd(t), {});
  EXPECT_EQ(c.kind, stages::FailureClass::Robustness) << c.why;
  EXPECT_EQ(c.why, "codec::Node::depth() on an object made with NULL as raw (codec::Node::Node())");
}

TEST_F(ObjectClaims, AnObjectConstructedWithACallsNullResultIsRobustness) {
  // muParserX's TokenPtr<IValue>(fun.AsIValue()), NULL for a function, then
  // FunStrLen::Eval(ret, &arg, 0) calls through it.
  ASSERT_TRUE(fromRaw && depth);
  const model::Callable *make = nullptr;
  for (const model::Callable &c : m->program.callables)
    if (c.qualifiedName == "codec::make_node") make = &c;
  ASSERT_TRUE(make);
  testcase::TestCase t;
  t.statements = {
      Statement{.op = Op::Primitive, .type = make->params[0].type, .bits = 3},
      Statement{.op = Op::Call, .callable = make->id, .refs = {0}},
      Statement{.op = Op::Construct, .type = m->program.record(*fromRaw->parent).type,
                .callable = fromRaw->id, .refs = {1}},
      Statement{.op = Op::MethodCall, .callable = depth->id, .refs = {2}},
  };
  exec::Observation null{.statement = 1, .kind = MOSAIC_OBS_NULL, .target = MOSAIC_OBS_RESULT, .integer = 1};
  const auto c = stages::classify(*m->catalog, t, crashAtEnd(t), {null});
  EXPECT_EQ(c.kind, stages::FailureClass::Robustness) << c.why;
  EXPECT_EQ(c.why, "codec::Node::depth() on an object made with NULL as raw (codec::Node::Node(); NULL was the result "
                   "of codec::make_node())");
  // Not null when it ran: the library's.
  null.integer = 0;
  EXPECT_EQ(stages::classify(*m->catalog, t, crashAtEnd(t), {null}).kind, stages::FailureClass::Defect);
}

TEST_F(ObjectClaims, TheAddressOfTheTestsOwnObjectGivenToAnOwnerIsMisuse) {
  // muParserX's tokenReader.AddValueReader(&reader): the reader deletes
  // what it was given when it is destroyed, after the test's last statement.
  const model::Callable *ctorOwner = nullptr, *ctorPattern = nullptr, *adopt = nullptr;
  for (const model::Callable &c : m->program.callables) {
    if (c.kind == model::CallableKind::Constructor && c.qualifiedName == "codec::Owner::Owner" && c.params.empty())
      ctorOwner = &c;
    if (c.kind == model::CallableKind::Constructor && c.qualifiedName == "codec::Pattern::Pattern" &&
        c.params.size() == 1 && m->program.type(c.params[0].type).kind != model::TypeKind::Reference)
      ctorPattern = &c;
    if (c.qualifiedName == "codec::Owner::adopt") adopt = &c;
  }
  ASSERT_TRUE(ctorOwner && ctorPattern && adopt);
  testcase::TestCase t;
  t.statements = {
      Statement{.op = Op::Construct, .type = m->program.record(*ctorOwner->parent).type, .callable = ctorOwner->id},
      Statement{.op = Op::Primitive, .type = ctorPattern->params[0].type, .bits = 'a'},
      Statement{.op = Op::Construct, .type = m->program.record(*ctorPattern->parent).type,
                .callable = ctorPattern->id, .refs = {1}},
      Statement{.op = Op::AddressOf, .type = adopt->params[0].type, .refs = {2}},
      Statement{.op = Op::MethodCall, .callable = adopt->id, .refs = {0, 3}},
  };
  exec::RunResult r = crashAtEnd(t, exec::Outcome::Abort);
  r.statement = -1; // in the destructors, after the last statement
  const auto c = stages::classify(*m->catalog, t, r, {}, "free(): invalid pointer\n");
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_EQ(c.why, "gives codec::Owner::adopt() the address of the test's own codec::Pattern as pattern: a callee that "
                   "takes ownership deletes what it is given, and only an object from new can be deleted");
  // A failure in the call itself, with no word of a bad free: the library's.
  EXPECT_EQ(stages::classify(*m->catalog, t, crashAtEnd(t), {}, "").kind, stages::FailureClass::Defect);
  // A pointer a method of the test's object lent (muParserX's
  // TokenPtr<IValue>(value.AsValue())) is the test's object too.
  const model::Callable *self = nullptr;
  for (const model::Callable &c : m->program.callables)
    if (c.qualifiedName == "codec::Pattern::self") self = &c;
  ASSERT_TRUE(self);
  t.statements[3] = Statement{.op = Op::MethodCall, .callable = self->id, .refs = {2}};
  const auto lent = stages::classify(*m->catalog, t, r, {}, "free(): invalid pointer\n");
  EXPECT_EQ(lent.kind, stages::FailureClass::Misuse) << lent.why;
  EXPECT_NE(lent.why.find("gives codec::Owner::adopt() a pointer codec::Pattern::self() lent from the test's own object"),
            std::string::npos)
      << lent.why;
  // At any depth, and as the address of what a method returned
  // (TokenPtr<IValue>(&value.At(0, 0))).
  testcase::TestCase deeper = t;
  deeper.statements[4] = Statement{.op = Op::MethodCall, .callable = self->id, .refs = {3}};
  deeper.statements.push_back(Statement{.op = Op::MethodCall, .callable = adopt->id, .refs = {0, 4}});
  EXPECT_EQ(stages::classify(*m->catalog, deeper, r, {}, "free(): invalid pointer\n").kind, stages::FailureClass::Misuse);
}

TEST_F(ObjectClaims, AnObjectUsedAfterItWasMovedFromIsMisuse) {
  // yaml-cpp's memory_holder h2(std::move(h)); h.create_node(): a crash on
  // a moved-from object is no claim about the library.
  ASSERT_TRUE(fresh && moved && depth);
  const model::TypeId node = m->program.record(*fresh->parent).type;
  testcase::TestCase t;
  t.statements = {
      Statement{.op = Op::Construct, .type = node, .callable = fresh->id},
      Statement{.op = Op::Construct, .type = node, .callable = moved->id, .refs = {0}},
      Statement{.op = Op::MethodCall, .callable = depth->id, .refs = {0}},
  };
  const auto c = stages::classify(*m->catalog, t, crashAtEnd(t), {});
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_EQ(c.why, "uses an object after moving it into codec::Node::Node()");
  // The object moved into is fine to use.
  t.statements[2].refs = {1};
  EXPECT_EQ(stages::classify(*m->catalog, t, crashAtEnd(t), {}).kind, stages::FailureClass::Defect);
  // An object made from the moved-from one is no better (yaml-cpp's
  // memory_holder h3(h) after the move, then h3.create_node()).
  testcase::TestCase made;
  made.statements = {
      Statement{.op = Op::Construct, .type = node, .callable = fresh->id},
      Statement{.op = Op::Construct, .type = node, .callable = moved->id, .refs = {0}},
      Statement{.op = Op::Construct, .type = node, .callable = moved->id, .refs = {0}},
      Statement{.op = Op::MethodCall, .callable = depth->id, .refs = {2}},
  };
  const auto d = stages::classify(*m->catalog, made, crashAtEnd(made), {});
  EXPECT_EQ(d.kind, stages::FailureClass::Misuse) << d.why;
  EXPECT_EQ(d.why, "uses an object made by codec::Node::Node() from one the test had moved into codec::Node::Node()");
}

TEST_F(Claims, AVariadicCallWithoutAFormatIsMisuse) {
  // Its extras follow a contract (here a count) the test cannot know.
  const auto c = classify(m->call("claims_sum", {std::int64_t{1000}}));
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("variadic claims_sum()"), std::string::npos) << c.why;
}

TEST_F(Claims, AnEarlierVariadicCallOnTheSameObjectIsMisuse) {
  // claims_set(doc, 1) without the char * its option takes: what
  // claims_last then reads is whatever claims_set took for it.
  const auto c = classify(lastAfter("claims_set", "int", 1));
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("earlier call of the variadic claims_set()"), std::string::npos) << c.why;
}

TEST_F(Claims, AnEarlierCallOnTheSameObjectThatWasMisuseTaintsWhatFollows) {
  // claims_free_text(doc, bytes of the test's), then claims_last(doc)
  // crashes: the heap the earlier free corrupted is the likelier cause.
  testcase::TestCase t;
  const Ref doc = newDoc(t);
  const Ref text = push(t, Statement{.op = Op::Buffer, .type = typeNamed("char *"), .bytes = std::string("ab\0", 3)});
  call(t, "claims_free_text", {doc, text});
  call(t, "claims_last", {doc});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("an earlier call on the same object was misuse: gives claims_free_text() a char * the API "
                       "did not allocate"),
            std::string::npos)
      << c.why;
}

TEST_F(Claims, AnEarlierMisuseReachesALaterCallThroughAnotherAddressOfTheSameObject) {
  // claims_fill(&byte, &n) with n = 1416 overflows; then claims_fill(big,
  // &n) fails. The two `&n` are two statements for one object.
  testcase::TestCase t;
  const Ref n = fillOneByte(t, 1416);
  const Ref big = push(t, Statement{.op = Op::Buffer, .type = typeNamed("unsigned char *"), .bytes = std::string(2000, 'q')});
  const Ref second = push(t, Statement{.op = Op::AddressOf, .type = typeNamed("size_t *"), .refs = {n}});
  call(t, "claims_fill", {big, second});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("an earlier call on the same object was misuse: passes 1416 through destLen"), std::string::npos)
      << c.why;
}

TEST_F(Claims, ACrashAfterACallWroteOverTheTestsOwnVariableAsItsObjectIsMisuse) {
  // claims_iter_text(&number) reads (and a callee of the kind may write)
  // the test's int as its own iterator; then claims_ratio(4, 2), on
  // nothing of it, crashes (bzip2's BZ2_bzread(&file, ...), the address of
  // a FILE * as its BZFILE *, then BZ2_bzopen crashed): the stack it wrote
  // over is the likelier cause.
  testcase::TestCase t;
  const Ref number = integer(t, "int", 7);
  const Ref address = push(t, Statement{.op = Op::AddressOf, .type = typeNamed("void *"), .refs = {number}});
  call(t, "claims_iter_text", {address});
  call(t, "claims_ratio", {integer(t, "int", 4), integer(t, "int", 2)});
  const auto c = classify(t);
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("it failed in claims_ratio() after an earlier call claims_iter_text() the address of a int as "
                       "iter (void *), which it reads as an object of its own"),
            std::string::npos)
      << c.why;
}

TEST_F(Claims, AFailureAfterTheLastCallFollowsAnEarlierMisuseWhateverItShares) {
  // claims_free_text(doc, bytes of the test's); claims_ratio(4, 2); then
  // the process aborts at exit (a corrupted heap): not claims_ratio's doing.
  testcase::TestCase t;
  const Ref doc = newDoc(t);
  const Ref text = push(t, Statement{.op = Op::Buffer, .type = typeNamed("char *"), .bytes = std::string("ab\0", 3)});
  call(t, "claims_free_text", {doc, text});
  call(t, "claims_ratio", {integer(t, "int", 4), integer(t, "int", 2)});
  exec::RunResult atExit = crashAtEnd(t, exec::Outcome::Abort);
  atExit.statement = static_cast<int>(t.statements.size()); // after the last statement
  const auto c = stages::classify(*m->catalog, t, atExit, {});
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("it failed after the test's last call, and an earlier call was misuse: gives "
                       "claims_free_text() a char * the API did not allocate"),
            std::string::npos)
      << c.why;
  // Failing in claims_ratio itself, it is claims_ratio's.
  EXPECT_EQ(classify(t, exec::Outcome::Abort).kind, stages::FailureClass::Defect);
}

TEST_F(Claims, AFailureAfterTheLastCallFollowsAnEarlierInternalCallWhateverItShares) {
  // set_len(doc, 1000), which no caller does; claims_ratio(4, 2); then a
  // report after the last statement (zstd's internal
  // ZDICT_addEntropyTablesFromBuffer_advanced, then ZDICT_getDictHeaderSize).
  testcase::TestCase t;
  const Ref doc = newDoc(t);
  call(t, "set_len", {doc, integer(t, "size_t", 1000)});
  call(t, "claims_ratio", {integer(t, "int", 4), integer(t, "int", 2)});
  exec::RunResult atExit = crashAtEnd(t, exec::Outcome::Sanitizer);
  atExit.statement = -1; // outside every statement
  const auto c = stages::classify(*m->catalog, t, atExit, {});
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("it failed after the test's last call after an earlier call of set_len(), internal to the unit"),
            std::string::npos)
      << c.why;
}

TEST_F(Claims, AnEarlierInternalCallOnTheSameObjectIsMisuse) {
  // set_len(doc, 1000), which no caller does, then the public claims_last
  // reads past the text (expat: externalParEntProcessor(parser, ...) with a
  // buffer not the parser's, then XML_GetCurrentLineNumber(parser)).
  const auto c = classify(lastAfter("set_len", "size_t", 1000));
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("earlier call of set_len(), internal"), std::string::npos) << c.why;
}

TEST(LibraryAssertion, TheCalledFunctionsOwnAssertionIsAPrecondition) {
  exec::RunResult r;
  r.outcome = exec::Outcome::Abort;
  r.signal = SIGABRT;
  const std::string out = "harness: json_object.c:1479: int json_object_array_add(struct json_object *, struct "
                          "json_object *): Assertion `json_object_get_type(jso) == json_type_array' failed.\n";
  const std::vector<exec::Frame> top{{"json_object_array_add", "json_object.c", 1479, 0, false}};
  const std::string why = stages::libraryAssertion(r, out, top, "json_object_array_add");
  EXPECT_NE(why.find("json_object_array_add() rejects its arguments with its own assertion "
                     "`json_object_get_type(jso) == json_type_array`"),
            std::string::npos)
      << why;
  // No stack: glibc's message names the function. Neither a message nor a
  // stack: nothing to go by. C++ frames carry their parameters.
  EXPECT_EQ(stages::libraryAssertion(r, out, {}, "json_object_array_add"), why);
  EXPECT_EQ(stages::libraryAssertion(r, "Aborted\n", {}, "json_object_array_add"), "");
  const std::vector<exec::Frame> cxx{{"mu::Parser::Eval(int) const", "muParser.cpp", 3, 0, false}};
  EXPECT_NE(stages::libraryAssertion(r, out, cxx, "mu::Parser::Eval").find("its own assertion"), std::string::npos);
  // Demangled frames spell template arguments their own way.
  const std::vector<exec::Frame> spelled{{"dc::Vector<char const>::SubVector(int, int)", "utils.h", 263, 0, false}};
  EXPECT_NE(stages::libraryAssertion(r, out, spelled, "dc::Vector<const char>::SubVector").find("its own assertion"),
            std::string::npos);
  const std::vector<exec::Frame> index{{"dc::Vector<char>::operator[](int) const", "utils.h", 279, 0, false}};
  EXPECT_NE(stages::libraryAssertion(r, out, index, "dc::Vector<char>::operator[]").find("its own assertion"),
            std::string::npos);
}

TEST(LibraryAssertion, AnAssertionDeeperInTheLibraryIsACheckItMakesOnPurpose) {
  exec::RunResult r;
  r.outcome = exec::Outcome::Abort;
  r.signal = SIGABRT;
  // json-c's lh_kchar_table_new(0, ...) passes its size to lh_table_new,
  // which asserts it is positive; no stack was recorded.
  const std::string out = "harness: /src/linkhash.c:504: struct lh_table *lh_table_new(int, lh_entry_free_fn *, "
                          "lh_hash_fn *, lh_equal_fn *): Assertion `size > 0' failed.\n";
  const std::string why = stages::libraryAssertion(r, out, {}, "lh_kchar_table_new");
  EXPECT_NE(why.find("lh_kchar_table_new() stops at the assertion `size > 0` of lh_table_new(): a check the library "
                     "makes on purpose"),
            std::string::npos)
      << why;
  // double-conversion's ToFixed fills a StringBuilder over 3 bytes: its
  // AddCharacter asserts there is room, three frames down.
  const std::string cxx = "harness: utils.h:324: void dc::StringBuilder::AddCharacter(char): Assertion `position_ < "
                          "buffer_.length()' failed.\n";
  const std::vector<exec::Frame> builder{{"dc::StringBuilder::AddCharacter(char)", "utils.h", 324, 0, false},
                                         {"dc::Converter::ToFixed(double) const", "d.cc", 235, 0, false}};
  EXPECT_NE(stages::libraryAssertion(r, cxx, builder, "dc::Converter::ToFixed")
                .find("of dc::StringBuilder::AddCharacter()"),
            std::string::npos);
  // glibc's own malloc assertion is a corrupted heap, not the library's check.
  const std::string heap = "Fatal glibc error: malloc assertion failure in sysmalloc: (old_top == initial_top (av))\n";
  EXPECT_EQ(stages::libraryAssertion(r, heap, builder, "dc::Converter::ToFixed"), "");
  EXPECT_TRUE(stages::heapCorruption(heap));
  EXPECT_FALSE(stages::heapCorruption(cxx));
  // The library's own abort() (DOUBLE_CONVERSION_UNREACHABLE), with no
  // message: as deliberate. glibc's fortify check is not the library's.
  const std::vector<exec::Frame> bignum{{"dc::Bignum::EnsureCapacity(int)", "bignum.h", 116, 0, false},
                                        {"dc::Bignum::Square()", "bignum.cc", 358, 0, false}};
  EXPECT_NE(stages::libraryAssertion(r, "", bignum, "dc::Bignum::Square").find("an abort() of dc::Bignum::EnsureCapacity()"),
            std::string::npos);
  EXPECT_EQ(stages::libraryAssertion(r, "*** buffer overflow detected ***: terminated\n", bignum, "dc::Bignum::Square"),
            "");
  EXPECT_EQ(stages::libraryAssertion(r, "", {}, "dc::Bignum::Square"), "");
}

TEST_F(Claims, AHangOrAnExitOnAPublicPathIsRobustness) {
  const auto t = m->call("claims_ratio", {std::int64_t{1}, std::int64_t{2}});
  EXPECT_EQ(classify(t, exec::Outcome::Timeout).kind, stages::FailureClass::Robustness);
  EXPECT_EQ(classify(t, exec::Outcome::Exit).kind, stages::FailureClass::Robustness);
  EXPECT_EQ(classify(t, exec::Outcome::Abort).kind, stages::FailureClass::Defect);
}

TEST_F(Claims, AFileStoppedAtTheSandboxsSizeLimitIsRobustness) {
  // SIGXFSZ is the sandbox's limit, not the library's crash.
  const auto t = m->call("claims_ratio", {std::int64_t{1}, std::int64_t{2}});
  exec::RunResult r = crashAtEnd(t, exec::Outcome::Crash);
  r.signal = SIGXFSZ;
  const auto c = stages::classify(*m->catalog, t, r, {});
  EXPECT_EQ(c.kind, stages::FailureClass::Robustness);
  EXPECT_NE(c.why.find("size limit"), std::string::npos) << c.why;
  r.signal = SIGSEGV;
  EXPECT_EQ(stages::classify(*m->catalog, t, r, {}).kind, stages::FailureClass::Defect);
}

TEST_F(Claims, ASiteIsTheKindAndTheTopThreeFramesInTheProject) {
  exec::RunResult r;
  r.outcome = exec::Outcome::Crash;
  r.signal = SIGSEGV;
  std::vector<exec::Frame> frames{{"strlen_like", "a.c", 3}, {"claims_length", "claims.c", 30}, {"outer", "b.c", 9},
                                  {"main", "m.c", 1}};
  EXPECT_EQ(stages::failureSite(r, "", frames, "claims_length"),
            "crash 11 at strlen_like:3 < claims_length:30 < outer:9");
  EXPECT_EQ(stages::failureSite(r, "", {}, "claims_length"), "crash 11 in claims_length");
  r.outcome = exec::Outcome::Sanitizer;
  EXPECT_EQ(stages::failureSite(r, "==1==ERROR: AddressSanitizer: heap-buffer-overflow on address", {}, "f"),
            "sanitizer heap-buffer-overflow in f");
  EXPECT_EQ(stages::failureSite(r, "x.c:3:5: runtime error: signed integer overflow: 1 + 2", {}, "f"),
            "sanitizer signed integer overflow in f");
}

TEST_F(Claims, ClassifyingMergesFailuresOfOneSiteIntoTheMostTrusted) {
  // Two ways to the same crash: through the internal helper (misuse) and
  // through claims_length(NULL) (robustness); and a division by zero.
  stages::Work work;
  auto failure = [&](testcase::TestCase t) {
    stages::Failure f;
    f.test = std::move(t);
    f.result = crashAtEnd(f.test);
    f.result.stack = {0x1234}; // named by the frames function below
    f.where = "x";
    f.count = 1;
    f.confirmed = true;
    return f;
  };
  work.failures["a"] = failure(m->call("first_of", {nullptr}));
  work.failures["b"] = failure(m->call("claims_length", {nullptr}));
  work.failures["c"] = failure(m->call("claims_ratio", {std::int64_t{1}, std::int64_t{0}}));
  work.failures["d"] = failure(m->call("claims_ratio", {std::int64_t{5}, std::int64_t{0}}));
  work.failures["d"].reproducible = false;
  // Runs alone fail as they did; the frames say where.
  FakeExecutor isolated([&](const testcase::TestCase &t) {
    search::Execution e;
    e.result = crashAtEnd(t);
    return std::optional(e);
  });
  FakeExecutor none([](const testcase::TestCase &) { return std::optional<search::Execution>(); });
  const search::Goals goals(fourBlocks());
  stages::Context c{p(), *m->catalog, goals, none, isolated, nullptr, {}, {}, nullptr, {}, {}};
  c.frames = [&](const exec::RunResult &, std::string_view, bool) {
    return std::vector<exec::Frame>{{"deref", "claims.c", 8}};
  };
  stages::classifyFailures()->run(work, c);
  EXPECT_EQ(isolated.runs, 3); // the reproducible ones
  ASSERT_EQ(work.failures.size(), 2u); // one site, and the unreproducible one on its own
  const stages::Failure &kept = work.failures.begin()->second;
  EXPECT_EQ(kept.site, "crash 11 at deref:8");
  EXPECT_EQ(kept.kind, stages::FailureClass::Defect) << kept.why;
  EXPECT_EQ(kept.duplicates, 2u);
  EXPECT_EQ(kept.count, 3u);
  ASSERT_EQ(kept.frames.size(), 1u);
}

namespace {

// A sanitized harness that reports on every test, with `report` as what
// the test printed (its trace's output area).
class ReportingExecutor final : public search::Executor {
public:
  /// Reports on every test but those `clean` accepts, which end normally.
  explicit ReportingExecutor(const std::string &report,
                             std::function<bool(const testcase::TestCase &)> clean = nullptr)
      : memory_(mosaic_trace_size(0, 0, 0)), clean_(std::move(clean)) {
    auto *h = reinterpret_cast<mosaic_trace_header *>(memory_.data());
    mosaic_trace_layout(h, 0, 0, 0);
    std::memcpy(memory_.data() + h->output_off, report.data(), report.size());
    h->output_len = static_cast<std::uint32_t>(report.size());
    trace_.emplace(h);
  }
  std::optional<search::Execution> run(const testcase::TestCase &t) override {
    ++runs;
    search::Execution e;
    e.result.outcome = clean_ && clean_(t) ? exec::Outcome::Ok : exec::Outcome::Sanitizer;
    e.result.statement = 1;
    return e;
  }
  const exec::Trace *trace() const override { return &*trace_; }
  int runs = 0;

private:
  std::vector<char> memory_;
  std::optional<exec::Trace> trace_;
  std::function<bool(const testcase::TestCase &)> clean_;
};

} // namespace

TEST_F(Claims, AFailureOnlyTheSanitizersSeeIsClassedWithWhatThePlainRunObserved) {
  // claims_length(claims_new("x")) where claims_new returned NULL: only the
  // sanitized harness reports it; the plain harness runs it to its end and
  // observes the NULL (json_object_to_file_ext(json_util_get_last_err(),
  // ...) with no error yet).
  testcase::TestCase t;
  const Ref doc = newDoc(t);
  call(t, "claims_length", {doc});
  stages::Work work;
  stages::Failure f;
  f.test = t;
  f.result.outcome = exec::Outcome::Sanitizer;
  f.result.statement = 2;
  f.reproducible = true;
  f.sanitizerOnly = true;
  f.sanitizerReport = "x.c:3:5: runtime error: null pointer passed as argument 1\n";
  work.failures["sanitized"] = f;
  FakeExecutor none([](const testcase::TestCase &) { return std::optional<search::Execution>(); });
  FakeExecutor plain([&](const testcase::TestCase &) {
    search::Execution e;
    e.observations.push_back(exec::Observation{.statement = static_cast<std::uint32_t>(doc), .kind = MOSAIC_OBS_NULL,
                                               .target = MOSAIC_OBS_RESULT, .field = -1, .integer = 1});
    return std::optional<search::Execution>(e);
  });
  const search::Goals goals(fourBlocks());
  stages::Context c{p(), *m->catalog, goals, none, plain, nullptr, {}, {}, nullptr, {}, {}};
  stages::classifyFailures()->run(work, c);
  ASSERT_EQ(work.failures.size(), 1u);
  const stages::Failure &kept = work.failures.begin()->second;
  EXPECT_EQ(plain.runs, 1);
  EXPECT_EQ(kept.kind, stages::FailureClass::Robustness) << kept.why;
  EXPECT_NE(kept.why.find("claims_length() given NULL as doc (the result of claims_new())"), std::string::npos)
      << kept.why;
}

TEST_F(Claims, AnIntegerTriedAtZeroOrOneKeepsAFailureOnlyWhereTheSanitizersReportTheSame) {
  // libmodbus's modbus_new_rtu(dev, 9600000, ...) overflows a signed int;
  // with 0 as the baud it returns NULL and a later call is reported
  // instead. Another statement's report is not the failure surviving.
  stages::Work work;
  stages::Failure f;
  f.test = m->call("claims_ratio", {std::int64_t{5}, std::int64_t{7}});
  const auto at = static_cast<std::int32_t>(f.test.statements.size() - 1);
  f.result.outcome = exec::Outcome::Sanitizer;
  f.result.statement = at;
  f.reproducible = true;
  f.sanitizerOnly = true;
  f.sanitizerReport = "x.c:3:5: runtime error: signed integer overflow: 5 * 2147483647\n";
  work.failures["sanitized"] = f;
  FakeExecutor none([](const testcase::TestCase &) { return std::optional<search::Execution>(); });
  FakeExecutor plain([](const testcase::TestCase &) { return std::optional<search::Execution>(search::Execution{}); });
  // The original reports at its call; with a 0 or a 1 the run reports
  // later (after the test's last statement).
  FakeExecutor sanitized([&](const testcase::TestCase &t) {
    search::Execution e;
    e.result.outcome = exec::Outcome::Sanitizer;
    e.result.statement = t == f.test ? at : -1;
    return std::optional<search::Execution>(e);
  });
  const search::Goals goals(fourBlocks());
  stages::Context c{p(), *m->catalog, goals, none, plain, nullptr, {}, {}, &sanitized, {}, {}};
  stages::classifyFailures()->run(work, c);
  ASSERT_EQ(work.failures.size(), 1u);
  const stages::Failure &kept = work.failures.begin()->second;
  EXPECT_EQ(kept.kind, stages::FailureClass::Robustness) << kept.why;
  EXPECT_EQ(kept.why.rfind("fails only with 5 as", 0), 0u) << kept.why;
  EXPECT_EQ(kept.test, f.test);
}

TEST_F(Claims, TheSanitizerCheckAttachesReportsAndFindsWhatThePlainRunMissed) {
  stages::Work work;
  stages::Failure crash;
  crash.test = m->call("claims_ratio", {std::int64_t{1}, std::int64_t{0}});
  crash.result = crashAtEnd(crash.test);
  crash.confirmed = true;
  work.failures["crash"] = crash;
  stages::Candidate quiet;
  quiet.test = m->call("claims_first", {std::string("a")});
  work.passing.push_back(quiet);
  FakeExecutor none([](const testcase::TestCase &) { return std::optional<search::Execution>(); });
  const search::Goals goals(fourBlocks());
  // UBSan: the regression test stays, and is a failure too.
  {
    stages::Work ub = work;
    ReportingExecutor sanitized("x.c:3:5: runtime error: signed integer overflow: 1 + 2147483647\n");
    stages::Context c{p(), *m->catalog, goals, none, none, nullptr, {}, {}, &sanitized, {}, {}};
    stages::sanitizeCheck()->run(ub, c);
    EXPECT_EQ(sanitized.runs, 2);
    ASSERT_EQ(ub.failures.size(), 2u);
    EXPECT_EQ(ub.passing.size(), 1u);
    int sanitizerOnly = 0;
    for (const auto &[key, f] : ub.failures) {
      sanitizerOnly += f.sanitizerOnly;
      EXPECT_NE(f.sanitizerReport.find("signed integer overflow"), std::string::npos);
    }
    EXPECT_EQ(sanitizerOnly, 1);
  }
  // ASan: a memory error takes it out of the regression suite.
  ReportingExecutor sanitized("==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6020\n");
  stages::Context c{p(), *m->catalog, goals, none, none, nullptr, {}, {}, &sanitized, {}, {}};
  {
    // A report about mosaic's own code (an observation that read past a
    // buffer) is no claim: the test stays, the crash gets no report.
    stages::Work own = work;
    stages::Context o{p(), *m->catalog, goals, none, none, nullptr, {}, {}, &sanitized, {}, {}};
    o.mosaicsOwn = [](std::string_view report) { return report.find("heap-buffer-overflow") != std::string::npos; };
    stages::sanitizeCheck()->run(own, o);
    EXPECT_EQ(own.passing.size(), 1u);
    ASSERT_EQ(own.failures.size(), 1u);
    EXPECT_TRUE(own.failures.begin()->second.sanitizerReport.empty());
  }
  // ASan ended the run at statement 1: a call after it is not the failure's.
  test::appendCall(p(), work.passing[0].test, "claims_first", {std::string("b")});
  stages::sanitizeCheck()->run(work, c);
  EXPECT_TRUE(work.passing.empty());
  EXPECT_EQ(work.failures.size(), 2u);
  for (const auto &[key, f] : work.failures)
    if (f.sanitizerOnly) EXPECT_EQ(f.test.statements.size(), 2u) << testcase::toCode(p(), f.test);
}

TEST_F(Claims, ARegressionTestWhoseBufferASanSawOverrunIsGivenALargerOne) {
  // libmodbus's modbus_get_float(const uint16_t *src) given one register
  // reads a second: with two it runs cleanly, and asserts what it read in
  // bounds (GrowBuffers runs before Observe).
  const model::Callable &get = callable("claims_get_float");
  stages::Candidate k;
  const Ref value = integer(k.test, "unsigned short", 258);
  const Ref src = push(k.test, Statement{.op = Op::Array, .type = get.params[0].type, .refs = {value}});
  call(k.test, "claims_get_float", {src});
  FakeExecutor plain([](const testcase::TestCase &) { return std::optional<search::Execution>(search::Execution{}); });
  const search::Goals goals(fourBlocks());
  const std::string asan = "==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6020\n";
  {
    stages::Work work;
    work.passing.push_back(k);
    ReportingExecutor sanitized(asan, [&](const testcase::TestCase &t) { return t.statements[src].refs.size() >= 2; });
    stages::Context c{p(), *m->catalog, goals, plain, plain, nullptr, {}, {}, &sanitized, {}, {}};
    stages::growBuffers()->run(work, c);
    ASSERT_EQ(work.passing.size(), 1u);
    const Statement &grown = work.passing[0].test.statements[src];
    EXPECT_EQ(grown.op, Op::Array);
    EXPECT_EQ(grown.refs, (std::vector<Ref>{value, value}));
    EXPECT_EQ(work.counts.grown, 1);
    EXPECT_EQ(sanitized.runs, 2); // as it was, then twice as large
  }
  // Never clean however large: the test stays as it was, for SanitizeCheck.
  stages::Work work;
  work.passing.push_back(k);
  ReportingExecutor sanitized(asan);
  stages::Context c{p(), *m->catalog, goals, plain, plain, nullptr, {}, {}, &sanitized, {}, {}};
  stages::growBuffers()->run(work, c);
  EXPECT_EQ(work.passing[0].test, k.test);
  EXPECT_EQ(work.counts.grown, 0);
  EXPECT_EQ(sanitized.runs, 7); // as it was, then 2, 4, ... 64 times as large
}

TEST(StubClaims, AnElementOfAnEmptyContainerIsMisuseAndOneByAnUncheckedIndexIsRobustness) {
  // taglib's `List<String> a; List<String> b(a); String s(b.back());` and
  // `l.prepend(s); l[1].size()`: unchecked accessors, as std::list's.
  const auto m = UnitModel::make(MOSAIC_FIXTURE_DB_DIR,
                                 std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/analysis/inventory.cpp");
  const model::Program &p = m->program;
  const auto id = [&](const std::string &signature) { return bySignature(p, signature).id; };
  const model::CallableId at = id("shop::Inventory::operator[](std::size_t) const");
  const model::CallableId price = id("shop::Item::price() const");
  const model::Callable &subscript = p.callable(at);
  testcase::TestCase empty;
  empty.statements = {Statement{.op = Op::Construct, .callable = id("shop::Inventory::Inventory()")},
                      Statement{.op = Op::Primitive, .type = subscript.params[0].type, .bits = 0},
                      Statement{.op = Op::MethodCall, .callable = at, .refs = {0, 1}},
                      Statement{.op = Op::MethodCall, .callable = price, .refs = {2}}};
  auto c = stages::classify(*m->catalog, empty, crashAtEnd(empty), {});
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("shop::Inventory::operator[]() takes an element of a shop::Inventory nothing was put into "
                       "(made by shop::Inventory::Inventory())"),
            std::string::npos)
      << c.why;
  // Whatever is done with it, a failure at the end follows from it (taglib's
  // `a.front().swap(s)`, then s destroyed at the end of the test).
  testcase::TestCase later = empty;
  later.statements.back() = Statement{.op = Op::Construct, .callable = id("shop::Item::Item()")};
  exec::RunResult atExit = crashAtEnd(later);
  atExit.statement = -1;
  c = stages::classify(*m->catalog, later, atExit, {});
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("and earlier shop::Inventory::operator[]() takes an element of"), std::string::npos) << c.why;
  // With an item added first, index 3 is the caller's to keep in bounds.
  const model::Callable &add = p.callable(id("shop::Inventory::add(const shop::Item &, shop::Count)"));
  testcase::TestCase filled;
  filled.statements = {Statement{.op = Op::Construct, .callable = id("shop::Inventory::Inventory()")},
                       Statement{.op = Op::Construct, .callable = id("shop::Item::Item()")},
                       Statement{.op = Op::Primitive, .type = add.params[1].type, .bits = 1},
                       Statement{.op = Op::MethodCall, .callable = add.id, .refs = {0, 1, 2}},
                       Statement{.op = Op::Primitive, .type = subscript.params[0].type, .bits = 3},
                       Statement{.op = Op::MethodCall, .callable = at, .refs = {0, 4}},
                       Statement{.op = Op::MethodCall, .callable = price, .refs = {5}}};
  c = stages::classify(*m->catalog, filled, crashAtEnd(filled), {});
  EXPECT_EQ(c.kind, stages::FailureClass::Robustness) << c.why;
  EXPECT_NE(c.why.find("takes an element 3 through shop::Inventory::operator[](), which checks no bound"),
            std::string::npos)
      << c.why;
}

TEST(ClassifyTables, AZeroedTableOfFunctionsIsMisuseWhereTheProjectFillsOneWithItsDefaults) {
  // arena_funcs funcs = {}; tokens_alloc(&funcs, 0) calls a NULL `take`:
  // the test's doing, as yajl_lex_alloc given a zeroed yajl_alloc_funcs,
  // when the project's arena_set_default_funcs (model::defaultsFilled)
  // fills one.
  const auto m = UnitModel::make(MOSAIC_FIXTURE_SEARCH_DB_DIR, kClassifyFixtures + "tokens.c");
  const model::Program &p = m->program;
  auto typeNamed = [&](const std::string &spelling) {
    for (const model::Type &t : p.types)
      if (t.spelling == spelling) return t.id;
    throw std::runtime_error("no type " + spelling);
  };
  testcase::TestCase t;
  t.statements.push_back({.op = Op::Aggregate, .type = typeNamed("arena_funcs")});
  t.statements.push_back({.op = Op::AddressOf, .type = typeNamed("const arena_funcs *"), .refs = {0}});
  t.statements.push_back({.op = Op::Primitive, .type = typeNamed("int")});
  t.statements.push_back({.op = Op::Call, .callable = bySignature(p, "tokens_alloc(const arena_funcs *, int)").id,
                          .refs = {1, 2}});
  const auto c = stages::classify(*m->catalog, t, crashAtEnd(t), {});
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("gives tokens_alloc() a arena_funcs it never initialised (arena_set_default_funcs initialises one)"),
            std::string::npos)
      << c.why;
}

TEST(ClassifyInitialisers, TheLibrarysInitialiserRunsFirstWithZeroesAndTheTestAfterIt) {
  // registry_initialize() takes no object to initialise: the library's
  // own, which ClassifyFailures calls before a likely defect, the test's
  // statements after it (their references moved on by the call).
  const auto m = UnitModel::make(MOSAIC_FIXTURE_SEARCH_DB_DIR, kClassifyFixtures + "registry.c");
  const model::Program &p = m->program;
  const model::Callable &name = bySignature(p, "registry_name(int)");
  testcase::TestCase t;
  t.statements.push_back({.op = Op::Primitive, .type = p.type(name.params[0].type).value, .bits = 1});
  t.statements.push_back({.op = Op::Call, .callable = name.id, .refs = {0}});
  const auto found = stages::libraryInitialisers(*m->catalog, t);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(p.callable(found[0]).name, "registry_initialize");
  const testcase::TestCase after = stages::afterInitialiser(p, found[0], t);
  ASSERT_EQ(after.statements.size(), 3u);
  EXPECT_EQ(after.statements[0].callable, found[0]);
  EXPECT_EQ(after.statements[2].refs, std::vector<testcase::Ref>{1});
  // Not when the test calls it itself.
  EXPECT_TRUE(stages::libraryInitialisers(*m->catalog, after).empty());
}

TEST(ClassifyLengths, ALengthBeyondTheBytesRightAfterItIsMisuseWhicheverBufferItWasPairedWith) {
  // hexify(dst, 52, src) with 3 bytes of src (nettle's
  // base64_encode_raw(dst, length, src), where length is src's): the
  // length may describe src, so the read past it is the test's doing.
  const auto m = UnitModel::make(MOSAIC_FIXTURE_SEARCH_DB_DIR, kClassifyFixtures + "hexify.c");
  const model::Program &p = m->program;
  const model::Callable &hexify = bySignature(p, "hexify(char *, size_t, const unsigned char *)");
  testcase::TestCase t;
  t.statements.push_back({.op = Op::Buffer, .type = p.type(hexify.params[0].type).value, .bytes = std::string(200, '\0')});
  t.statements.push_back({.op = Op::Primitive, .type = p.type(hexify.params[1].type).value, .bits = 52});
  t.statements.push_back({.op = Op::Buffer, .type = p.type(hexify.params[2].type).value, .bytes = "abc"});
  t.statements.push_back({.op = Op::Call, .callable = hexify.id, .refs = {0, 1, 2}});
  const auto c = stages::classify(*m->catalog, t, crashAtEnd(t), {});
  EXPECT_EQ(c.kind, stages::FailureClass::Misuse) << c.why;
  EXPECT_NE(c.why.find("passes 52 as length, beyond the 3 of src, which it may describe"), std::string::npos) << c.why;
}
