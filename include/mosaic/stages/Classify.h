// What a failing test claims (issue 19): a failing test is a claim that
// the library has a bug, so it is classed by how the test reached the
// failure, from the test's statements alone (and which pointers were null
// when it ran). The rules, in the order they apply:
//
//  (c) misuse       the failing call, or a call that made one of its
//                   arguments, is internal to the unit (internal());
//                   an argument is an object the test built field by field
//                   of a type the API makes itself (Catalog::madeByApi);
//                   a length beyond its buffer; a release of memory the
//                   API did not allocate; an object of the test's own as a
//                   `void *` the callee reads as its own.
//  (b) robustness   a public function given a null pointer (written, or a
//                   null result of an earlier call), a null field in a
//                   struct the test filled, or an enumeration value outside
//                   its enumerators; a hang, an exit or running out of
//                   memory on a public path (a resource outcome proves no
//                   defect by itself); and (ClassifyFailures, by running
//                   it) a failure that needs an unusual integer: with 0
//                   and with 1 in its place it does not happen (lua's
//                   lua_isinteger(L, 12345): an index outside the stack
//                   the manual says a caller must not pass).
//  (a) defect       anything else: a crash, abort or sanitizer report
//                   through public functions, with plain values and objects
//                   the API made.
#pragma once

#include "mosaic/exec/Outcome.h"
#include "mosaic/exec/Trace.h"
#include "mosaic/stages/Stage.h"
#include "mosaic/testcase/Catalog.h"
#include "mosaic/testcase/TestCase.h"

#include <string>
#include <vector>

namespace mosaic::stages {

struct Classification {
  FailureClass kind = FailureClass::Defect;
  std::string why; ///< one line, e.g. "inflate() given NULL as strm"
};

/// Whether `callable` belongs to the unit's inside rather than its
/// interface: `static` or in an anonymous namespace, a function of the unit
/// file declared in no header, or a member of a class the unit file
/// defines for itself.
bool internal(const testcase::Catalog &catalog, const model::Callable &callable);

/// The class of a failing run of `test` (`result`: where it failed;
/// `observations`: of a run of the same test, for null results; may be
/// empty; `output`: what the run printed, for glibc's heap checks; may be
/// empty).
Classification classify(const testcase::Catalog &catalog, const testcase::TestCase &test,
                        const exec::RunResult &result, const std::vector<exec::Observation> &observations,
                        const std::string &output = {});

/// Whether `output` has glibc's report of a corrupted heap (`malloc():
/// corrupted top size`, `free(): invalid pointer`, `double free detected`).
bool heapCorruption(const std::string &output);

/// The integers a failing run of `test` may depend on (ClassifyFailures
/// tries each with 0 and with 1): Primitive statements of integer type in
/// the failing statement's cone or that of an earlier call on one of its
/// objects, of a value other than 0 and 1, that no call takes as a
/// buffer's length or end (those follow their buffer).
std::vector<size_t> unusualIntegers(const testcase::Catalog &catalog, const testcase::TestCase &test,
                                    const exec::RunResult &result);

/// Why an abort is an assertion of the library rejecting what the test
/// gave it: the run printed glibc's "Assertion `EXPR' failed.". An
/// assertion is a check the library's authors wrote on purpose, as a Java
/// method's explicit `throw`, which EvoSuite does not count as a failure
/// either: robustness, never a likely defect. The message says whose
/// assertion it is: `callable`'s own ("json_object_array_add() rejects its
/// arguments with its own assertion `...`") or, by the innermost project
/// frame (or the function glibc's message names when there is no stack),
/// another function's ("lh_kchar_table_new() stops at the assertion
/// `size > 0` of lh_table_new()"). Names compare without template
/// arguments and parameters (demangled frames spell `char const`). ""
/// when the run printed no assertion. An abort with a project frame on top
/// and no message of glibc's (`***` checks, a corrupted heap), the C++
/// runtime's or a sanitizer's is the library's own abort() call, as
/// deliberate ("Bignum::Square() stops at an abort() of
/// Bignum::EnsureCapacity()").
std::string libraryAssertion(const exec::RunResult &result, const std::string &output,
                             const std::vector<exec::Frame> &frames, const std::string &callable);

/// Why a failure is misuse though its call is not: it happened outside
/// the call the test stopped at, as its stack (whole: shorter than
/// MOSAIC_STACK_CAPACITY, and in the project) never enters that call, or
/// as the sanitizer `report` puts it in another thread than the test's
/// (zstd's POOL worker running the NULL job an earlier call of the
/// internal POOL_add_internal queued, while the test was in
/// ZSTD_createThreadPool); and an earlier call was misuse by its own
/// arguments or of an internal function. "" otherwise.
std::string misuseOutsideTheCall(const testcase::Catalog &catalog, const testcase::TestCase &test,
                                 const exec::RunResult &result, const std::vector<exec::Frame> &frames,
                                 const std::string &report = {});

/// Why a failure through the public API is robustness though its own
/// call was given no null: the sanitizer `report` says it dereferenced a
/// null pointer, and an earlier call was given NULL (a literal, or a
/// result `observations` saw null) together with an object the failing
/// call uses, which it was given to change, so it may have kept the null
/// there: claims_adopt(doc, NULL) then claims_length(doc);
/// claims_buffer_init(NULL, &b) then claims_buffer_peek(&b). Creators
/// given NULL are not counted (yajl_gen_alloc(NULL) is a documented
/// default; ClassifyRobustness.cpp's robustness() has the callbacks a creator keeps),
/// nor failures of any other kind. Also when the null is in a struct the
/// test zero-initialised and gave to no earlier call (libogg's
/// `ogg_page og = {}; ogg_page_bos(&og)`). "" otherwise.
std::string nullKeptEarlier(const testcase::Catalog &catalog, const testcase::TestCase &test,
                            const exec::RunResult &result, const std::vector<exec::Observation> &observations,
                            const std::string &report);

/// Why a failure is robustness after an error an earlier call on one of
/// the failing call's objects returned, which the test went on past
/// (xxhash's XXH3_64bits_reset_withSecret(state, secret, 63) returns
/// XXH_ERROR; XXH3_64bits_digest(state) then reads past the secret): an
/// enumerator named for an error, as `observations` saw it. "" otherwise.
std::string errorReturnedEarlier(const testcase::Catalog &catalog, const testcase::TestCase &test,
                                 const exec::RunResult &result, const std::vector<exec::Observation> &observations);

/// Why a buffer overrun AddressSanitizer `report`s is robustness: the
/// failing call was given a struct the test built by hand around buffers of
/// its own (libogg's ogg_page with a 4-byte header, whose checksum
/// ogg_page_checksum_set writes at bytes 22 to 25 as a page's header has
/// them). A struct the API fills may hold more than the test gave; the
/// callee trusted its shape. "" otherwise.
std::string overrunInABuiltStruct(const testcase::Catalog &catalog, const testcase::TestCase &test,
                                  const exec::RunResult &result, const std::string &report);

/// Why a read past the end of a heap buffer AddressSanitizer `report`s (or
/// a read far past it, into unmapped memory) is misuse: the failing call was given an array the test made (of structs or
/// pointers) with no length (libspiro's TaggedSpiroCPsToBezier0(spiro_cp
/// *spiros, bezctx *bc), whose array ends with a point tagged 'z' or '}'):
/// the call finds the array's end by a mark the test did not put there; or
/// an array a call returned, given with a length of the test's own
/// (spiro_to_bpath(run_spiro(src, 4), 2336, bc)). "" otherwise.
std::string readPastAnArrayWithNoLength(const testcase::Catalog &catalog, const testcase::TestCase &test,
                                        const exec::RunResult &result, const std::string &report);

/// Why a failure UBSan `report`s as a downcast to a type the object is not
/// is robustness: the callee cast what it was given to the kind it takes
/// (muParserX's RPN::AddNewline(tok, n) casts tok to TokenNewline). ""
/// otherwise.
std::string wrongKindDowncast(const testcase::Catalog &catalog, const testcase::TestCase &test,
                              const exec::RunResult &result, const std::string &report);

/// "12345 as idx of lua_isinteger()": integer statement `index` as the
/// first call that takes it.
std::string describeValue(const testcase::Catalog &catalog, const testcase::TestCase &test, size_t index);

/// A buffer the test made (a Buffer statement, or a CString statement given
/// where the callee does not read a string) and handed, up to the failing statement, to a
/// pointer parameter that comes with no length (not half of a pair, not a
/// string the callee only reads): the callee cannot know its size, and a C
/// caller sizes it by the function's contract (libmd's SHA512Data(data,
/// len, buf) writes 129 bytes into buf). ClassifyFailures runs the test
/// again with each such buffer enlarged to kRoomyBuffer bytes: a failure
/// that then does not happen is misuse. Each with the call and the
/// parameter it was given to, for the message.
struct UnsizedBuffer {
  size_t statement;   ///< the Buffer, CString, Array of scalars or address of a scalar
  size_t call;        ///< the first call given it
  std::string param;  ///< "buf", or "argument 3"
  std::string bytes;  ///< what it holds, in memory order (a C string with its NUL)
};
std::vector<UnsizedBuffer> unsizedBuffers(const testcase::Catalog &catalog, const testcase::TestCase &test,
                                          const exec::RunResult &result);
/// The size each unsized buffer gets in the second run (ours: far beyond a
/// digest string, 129 bytes for SHA-512's, or the compression bound of the
/// small inputs a test gives, and well inside a test's encoding).
constexpr size_t kRoomyBuffer = 65536;
/// `test` with each of `buffers` enlarged to kRoomyBuffer bytes (zeros
/// after what it held; a C string keeps its NUL, and it and scalars
/// become bytes).
testcase::TestCase withRoomyBuffers(const testcase::TestCase &test, const std::vector<UnsizedBuffer> &buffers);

/// The library's own initialisers: functions named as initialisers
/// (model::isInitialiserName) that take no object to initialise (each
/// parameter a scalar, or a pointer to anything but a record) and that
/// `test` does not call: libonig's onig_initialize(encodings, n) and
/// onigenc_init(), libcurl's curl_global_init(flags). Most evocative first
/// (a name with `initialize` or `global`), at most kLibraryInitialisers.
/// ClassifyFailures runs a likely defect again after each (every argument 0
/// or NULL): a failure that then does not happen is misuse, of a library
/// that wants its initialiser called first.
std::vector<model::CallableId> libraryInitialisers(const testcase::Catalog &catalog, const testcase::TestCase &test);
constexpr size_t kLibraryInitialisers = 3; // ours: a run each, for each likely defect
/// `test` after a call of `initialiser` with every argument 0 or NULL.
testcase::TestCase afterInitialiser(const model::Program &program, model::CallableId initialiser,
                                    const testcase::TestCase &test);

/// `test` with each of `buffers` `factor` times as large: bytes
/// zero-filled after what they held (a C string becomes its bytes and NUL
/// first), an array of scalars, or the address of one, an array repeating
/// its last element (GrowBuffers).
testcase::TestCase withGrownBuffers(const testcase::TestCase &test, const std::vector<UnsizedBuffer> &buffers,
                                    size_t factor);

/// The error class of a sanitizer report: "heap-buffer-overflow", "SEGV",
/// "signed integer overflow" ("" when none is found).
std::string sanitizerClass(const std::string &output);

/// The site of a failure: its kind (outcome and signal, or the sanitizer's
/// error class) and its top `depth` frames in the project ("crash 11 at
/// inflate:123 < ..."), or the callable it happened in when the stack is
/// unknown. Three frames by default, as ClusterFuzz's crash state; one for
/// robustness, whose cause is an input its innermost frame does not check
/// (lua's index2value given a null state by 40 API functions is one site).
std::string failureSite(const exec::RunResult &result, const std::string &output,
                        const std::vector<exec::Frame> &frames, const std::string &where, size_t depth = 3);

} // namespace mosaic::stages
