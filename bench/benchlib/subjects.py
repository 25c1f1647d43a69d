"""The benchmark subjects of ../shared/bench/SUBJECTS.md: Debian source
packages, how each builds with its own build system, which files are its
units, how its own tests run, and its own fuzz harnesses.

This is benchmark configuration, not mosaic: mosaic itself knows nothing of
any subject. Paths are relative to the unpacked source.
"""
from dataclasses import dataclass, field


@dataclass
class Fuzzer:
    name: str
    harness: str                     # the shipped LLVMFuzzerTestOneInput file
    sources: list                    # library files compiled with it (their compile-database flags)
    defines: list = field(default_factory=list)


@dataclass
class Subject:
    name: str                        # Debian source package
    version: str                     # its Debian version, as SUBJECTS.md measured it (apt-get source NAME=VERSION)
    units: list                      # unit files, relative to the source
    build: str = "cmake"             # "cmake", "autotools" or "make" (a plain Makefile)
    subdir: str = ""                 # where its CMakeLists.txt or configure.ac is, relative to the source
    cmake_args: list = field(default_factory=list)
    configure_args: list = field(default_factory=list)
    make_targets: list = field(default_factory=list)  # build "make": what both builds make
    pre_make: list = field(default_factory=list)  # build "make": a command run in the copy first (its ./configure)
    # build "make": Makefile variables set on make's command line to the build's flags (empty for
    # build/), for a Makefile that assigns its own CFLAGS and so ignores the environment's
    make_flag_vars: list = field(default_factory=list)
    # a command (a list, or a string for the shell) run in the source before each build, for what
    # debian/rules generates in the tree (a libtool script, a header); it must be idempotent
    prepare: list = field(default_factory=list)
    coverage_flags: str = ""         # more flags for build-cov/, after COVERAGE_FLAGS
    tests: list = field(default_factory=lambda: ["ctest"])  # run in the coverage build
    test_env: dict = field(default_factory=dict)  # environment of the own tests, as debian/rules sets it
    fuzzers: list = field(default_factory=list)
    no_fuzzer: str = "no harness ships"  # why, when `fuzzers` is empty


# re2's Makefile tests (TESTS) and big tests (BIGTESTS), without the _test suffix
RE2_TESTS = ["charclass", "compile", "filtered_re2", "mimics_pcre", "parse", "possible_match", "re2",
             "re2_arg", "regexp", "required_prefix", "search", "set", "simplify", "string_generator"]
RE2_BIGTESTS = ["dfa", "exhaustive1", "exhaustive2", "exhaustive3", "exhaustive", "random"]

SUBJECTS = {
    s.name: s for s in [
        Subject("cjson", "1.7.15-1+deb12u4", ["cJSON.c", "cJSON_Utils.c"],
                cmake_args=["-DENABLE_CJSON_UTILS=ON", "-DENABLE_CJSON_TEST=ON"],
                fuzzers=[Fuzzer("cjson_read_fuzzer", "fuzzing/cjson_read_fuzzer.c", ["cJSON.c"])]),
        # Debian makes `package` and `library` (both HTTP_PARSER_STRICT=0); its tests are `make test`,
        # which also builds test_g, whose copy of the unit has STRICT=1: it cannot be merged with the
        # STRICT=0 copies (SUBJECTS.md), so the own tests are test_fast alone, as SUBJECTS.md measured.
        Subject("http-parser", "2.9.4-5", ["http_parser.c"], build="make",
                make_targets=["package", "library", "test_fast"], tests=["./test_fast"]),
        Subject("tinyxml2", "9.0.0+dfsg-3.1", ["tinyxml2.cpp"], cmake_args=["-Dtinyxml2_BUILD_TESTING=ON"]),
        Subject("json-c", "0.16-2",
                ["arraylist.c", "debug.c", "json_c_version.c", "json_object.c", "json_object_iterator.c",
                 "json_pointer.c", "json_tokener.c", "json_util.c", "json_visit.c", "linkhash.c",
                 "printbuf.c", "random_seed.c", "strerror_override.c"],
                cmake_args=["-DDISABLE_WERROR=ON", "-DBUILD_TESTING=ON"],
                # Its tests run under valgrind when it is installed (and then crash); Debian turns it off.
                test_env={"USE_VALGRIND": "0"},
                no_fuzzer="the shipped harnesses (fuzz/) do not compile against 0.16"),
        Subject("double-conversion", "3.2.1-1",
                ["double-conversion/bignum.cc", "double-conversion/bignum-dtoa.cc",
                 "double-conversion/cached-powers.cc", "double-conversion/double-to-string.cc",
                 "double-conversion/fast-dtoa.cc", "double-conversion/fixed-dtoa.cc",
                 "double-conversion/string-to-double.cc", "double-conversion/strtod.cc"],
                cmake_args=["-DBUILD_TESTING=ON"]),
        Subject("pugixml", "1.13-0.2", ["src/pugixml.cpp"], cmake_args=["-DPUGIXML_BUILD_TESTS=ON"],
                fuzzers=[Fuzzer("fuzz_parse", "tests/fuzz_parse.cpp", ["src/pugixml.cpp"]),
                         Fuzzer("fuzz_xpath", "tests/fuzz_xpath.cpp", ["src/pugixml.cpp"])]),
        Subject("yaml-cpp", "0.7.0+dfsg-8",
                ["src/binary.cpp", "src/convert.cpp", "src/depthguard.cpp", "src/directives.cpp",
                 "src/emit.cpp", "src/emitfromevents.cpp", "src/emitter.cpp", "src/emitterstate.cpp",
                 "src/emitterutils.cpp", "src/exceptions.cpp", "src/exp.cpp", "src/memory.cpp",
                 "src/node.cpp", "src/node_data.cpp", "src/nodebuilder.cpp", "src/nodeevents.cpp",
                 "src/null.cpp", "src/ostream_wrapper.cpp", "src/parse.cpp", "src/parser.cpp",
                 "src/regex_yaml.cpp", "src/scanner.cpp", "src/scanscalar.cpp", "src/scantag.cpp",
                 "src/scantoken.cpp", "src/simplekey.cpp", "src/singledocparser.cpp", "src/stream.cpp",
                 "src/tag.cpp"],
                cmake_args=["-DYAML_CPP_BUILD_TESTS=ON"]),
        # Debian's tarball (dfsg) lacks win32/, which zlib's CMakeLists.txt needs: its own
        # ./configure and Makefile, as debian/rules builds it; `make test` runs example and minigzip.
        Subject("zlib", "1:1.2.13.dfsg-1",
                ["adler32.c", "compress.c", "crc32.c", "deflate.c", "gzclose.c", "gzlib.c", "gzread.c",
                 "gzwrite.c", "infback.c", "inffast.c", "inflate.c", "inftrees.c", "trees.c", "uncompr.c",
                 "zutil.c"],
                build="make", pre_make=["./configure", "--static"], make_targets=["libz.a", "example", "minigzip"],
                tests=["make", "test"]),
        # Debian's tree has the library in expat/ (git's layout) and no generated configure.
        Subject("expat", "2.5.0-1+deb12u2", ["expat/lib/xmlparse.c", "expat/lib/xmltok.c", "expat/lib/xmlrole.c"],
                build="autotools", subdir="expat",
                configure_args=["--without-docbook", "--without-examples"], tests=["make", "check"],
                fuzzers=[Fuzzer("xml_parse_fuzzer", "expat/fuzz/xml_parse_fuzzer.c",
                                ["expat/lib/xmlparse.c", "expat/lib/xmltok.c", "expat/lib/xmlrole.c"],
                                ["-DENCODING_FOR_FUZZING=UTF-8"])]),
        Subject("yajl", "2.1.0-3+deb12u2",
                ["src/yajl.c", "src/yajl_alloc.c", "src/yajl_buf.c", "src/yajl_encode.c", "src/yajl_gen.c",
                 "src/yajl_lex.c", "src/yajl_parser.c", "src/yajl_tree.c", "src/yajl_version.c"],
                # Its tests are shell scripts behind two custom targets (no CTest): Debian's dh_auto_test
                # makes `test` (test/parsing, 31 buffer sizes per case); `test-api` is upstream's other one.
                tests=["cmake", "--build", ".", "--target", "test", "test-api"]),
        # src/muParserTest.cpp (ParserTester, which t_ParserTest runs) is test code compiled into the
        # library: not a unit. OpenMP off: clang-19's libomp is not installed here (it only
        # parallelises bulk evaluation).
        Subject("muparser", "2.3.3-0.1",
                ["src/muParser.cpp", "src/muParserBase.cpp", "src/muParserBytecode.cpp",
                 "src/muParserCallback.cpp", "src/muParserDLL.cpp", "src/muParserError.cpp",
                 "src/muParserInt.cpp", "src/muParserTokenReader.cpp"],
                cmake_args=["-DENABLE_OPENMP=OFF", "-DBUILD_TESTING=ON"]),
        Subject("msgpack-c", "4.0.0-3",
                ["src/objectc.c", "src/unpack.c", "src/version.c", "src/vrefbuffer.c", "src/zone.c"],
                cmake_args=["-DMSGPACK_ENABLE_SHARED=ON", "-DMSGPACK_BUILD_TESTS=ON"]),
        # src/format.cc only instantiates the templates of include/fmt/format-inl.h: no function of
        # its own (llvm-cov finds no code in it), so not a unit; src/fmt.cc is the C++20 module (unbuilt).
        Subject("fmtlib", "9.1.0+ds1-2", ["src/os.cc"],
                cmake_args=["-DFMT_DOC=OFF", "-DFMT_PEDANTIC=ON", "-DCMAKE_POSITION_INDEPENDENT_CODE=ON",
                            "-DBUILD_SHARED_LIBS=ON", "-DFMT_TEST=ON"]),
        # Debian's build: debian/configure.ac makes a libtool script (debian/libtool) for makefile.shared.
        # bn_prime_tab.c is a table with no function: not a unit.
        # Its code relies on dead-code elimination (MP_HAS(...) guards calls of functions that this
        # platform lacks, such as s_read_wincsp): at -O0 ./test does not link, so build-cov/ is -O1.
        Subject("libtommath", "1.2.0-6+deb12u1",
                ["bn_cutoffs.c", "bn_deprecated.c", "bn_mp_2expt.c", "bn_mp_abs.c", "bn_mp_add.c",
                 "bn_mp_add_d.c", "bn_mp_addmod.c", "bn_mp_and.c", "bn_mp_clamp.c", "bn_mp_clear.c",
                 "bn_mp_clear_multi.c", "bn_mp_cmp.c", "bn_mp_cmp_d.c", "bn_mp_cmp_mag.c", "bn_mp_cnt_lsb.c",
                 "bn_mp_complement.c", "bn_mp_copy.c", "bn_mp_count_bits.c", "bn_mp_decr.c", "bn_mp_div.c",
                 "bn_mp_div_2.c", "bn_mp_div_2d.c", "bn_mp_div_3.c", "bn_mp_div_d.c", "bn_mp_dr_is_modulus.c",
                 "bn_mp_dr_reduce.c", "bn_mp_dr_setup.c", "bn_mp_error_to_string.c", "bn_mp_exch.c",
                 "bn_mp_expt_u32.c", "bn_mp_exptmod.c", "bn_mp_exteuclid.c", "bn_mp_fread.c",
                 "bn_mp_from_sbin.c", "bn_mp_from_ubin.c", "bn_mp_fwrite.c", "bn_mp_gcd.c",
                 "bn_mp_get_double.c", "bn_mp_get_i32.c", "bn_mp_get_i64.c", "bn_mp_get_l.c", "bn_mp_get_ll.c",
                 "bn_mp_get_mag_u32.c", "bn_mp_get_mag_u64.c", "bn_mp_get_mag_ul.c", "bn_mp_get_mag_ull.c",
                 "bn_mp_grow.c", "bn_mp_incr.c", "bn_mp_init.c", "bn_mp_init_copy.c", "bn_mp_init_i32.c",
                 "bn_mp_init_i64.c", "bn_mp_init_l.c", "bn_mp_init_ll.c", "bn_mp_init_multi.c",
                 "bn_mp_init_set.c", "bn_mp_init_size.c", "bn_mp_init_u32.c", "bn_mp_init_u64.c",
                 "bn_mp_init_ul.c", "bn_mp_init_ull.c", "bn_mp_invmod.c", "bn_mp_is_square.c",
                 "bn_mp_iseven.c", "bn_mp_isodd.c", "bn_mp_kronecker.c", "bn_mp_lcm.c", "bn_mp_log_u32.c",
                 "bn_mp_lshd.c", "bn_mp_mod.c", "bn_mp_mod_2d.c", "bn_mp_mod_d.c",
                 "bn_mp_montgomery_calc_normalization.c", "bn_mp_montgomery_reduce.c",
                 "bn_mp_montgomery_setup.c", "bn_mp_mul.c", "bn_mp_mul_2.c", "bn_mp_mul_2d.c", "bn_mp_mul_d.c",
                 "bn_mp_mulmod.c", "bn_mp_neg.c", "bn_mp_or.c", "bn_mp_pack.c", "bn_mp_pack_count.c",
                 "bn_mp_prime_fermat.c", "bn_mp_prime_frobenius_underwood.c", "bn_mp_prime_is_prime.c",
                 "bn_mp_prime_miller_rabin.c", "bn_mp_prime_next_prime.c", "bn_mp_prime_rabin_miller_trials.c",
                 "bn_mp_prime_rand.c", "bn_mp_prime_strong_lucas_selfridge.c", "bn_mp_radix_size.c",
                 "bn_mp_radix_smap.c", "bn_mp_rand.c", "bn_mp_read_radix.c", "bn_mp_reduce.c",
                 "bn_mp_reduce_2k.c", "bn_mp_reduce_2k_l.c", "bn_mp_reduce_2k_setup.c",
                 "bn_mp_reduce_2k_setup_l.c", "bn_mp_reduce_is_2k.c", "bn_mp_reduce_is_2k_l.c",
                 "bn_mp_reduce_setup.c", "bn_mp_root_u32.c", "bn_mp_rshd.c", "bn_mp_sbin_size.c",
                 "bn_mp_set.c", "bn_mp_set_double.c", "bn_mp_set_i32.c", "bn_mp_set_i64.c", "bn_mp_set_l.c",
                 "bn_mp_set_ll.c", "bn_mp_set_u32.c", "bn_mp_set_u64.c", "bn_mp_set_ul.c", "bn_mp_set_ull.c",
                 "bn_mp_shrink.c", "bn_mp_signed_rsh.c", "bn_mp_sqr.c", "bn_mp_sqrmod.c", "bn_mp_sqrt.c",
                 "bn_mp_sqrtmod_prime.c", "bn_mp_sub.c", "bn_mp_sub_d.c", "bn_mp_submod.c", "bn_mp_to_radix.c",
                 "bn_mp_to_sbin.c", "bn_mp_to_ubin.c", "bn_mp_ubin_size.c", "bn_mp_unpack.c", "bn_mp_xor.c",
                 "bn_mp_zero.c", "bn_s_mp_add.c", "bn_s_mp_balance_mul.c", "bn_s_mp_exptmod.c",
                 "bn_s_mp_exptmod_fast.c", "bn_s_mp_get_bit.c", "bn_s_mp_invmod_fast.c",
                 "bn_s_mp_invmod_slow.c", "bn_s_mp_karatsuba_mul.c", "bn_s_mp_karatsuba_sqr.c",
                 "bn_s_mp_montgomery_reduce_fast.c", "bn_s_mp_mul_digs.c", "bn_s_mp_mul_digs_fast.c",
                 "bn_s_mp_mul_high_digs.c", "bn_s_mp_mul_high_digs_fast.c", "bn_s_mp_prime_is_divisible.c",
                 "bn_s_mp_rand_jenkins.c", "bn_s_mp_rand_platform.c", "bn_s_mp_reverse.c", "bn_s_mp_sqr.c",
                 "bn_s_mp_sqr_fast.c", "bn_s_mp_sub.c", "bn_s_mp_toom_mul.c", "bn_s_mp_toom_sqr.c"],
                build="make",
                prepare="mkdir -p debian/libtool && cp debian/configure.ac debian/libtool/ && cd debian/libtool"
                        " && LIBTOOLIZE='libtoolize -i' autoreconf -f -i && ./configure",
                make_targets=["-f", "makefile.shared", "LIBTOOL=debian/libtool/libtool", "libtommath.la", "test"],
                coverage_flags="-O1",
                tests=["./test"]),
        # Debian's build: its patched src/Makefile compiles each file with libtool, once as C and once
        # as C++ (liblua5.4-c++), with a libtool script and a header that debian/rules generates;
        # that Makefile sets its own CFLAGS (MYCFLAGS from dpkg-buildflags), so the flags go on make's
        # command line. The upstream test suite is not in the tarball: Debian's `make test` runs `lua -v`.
        # src/lctype.c and src/lopcodes.c are tables with no function: not units.
        Subject("lua5.4", "5.4.4-3+deb12u1",
                ["src/lapi.c", "src/lauxlib.c", "src/lbaselib.c", "src/lcode.c", "src/lcorolib.c",
                 "src/ldblib.c", "src/ldebug.c", "src/ldo.c", "src/ldump.c", "src/lfunc.c", "src/lgc.c",
                 "src/linit.c", "src/liolib.c", "src/llex.c", "src/lmathlib.c", "src/lmem.c", "src/loadlib.c",
                 "src/lobject.c", "src/loslib.c", "src/lparser.c", "src/lstate.c", "src/lstring.c",
                 "src/lstrlib.c", "src/ltable.c", "src/ltablib.c", "src/ltm.c", "src/lundump.c",
                 "src/lutf8lib.c", "src/lvm.c", "src/lzio.c"],
                build="make",
                prepare="mkdir -p debian/libtool && cp debian/configure.ac debian/libtool/"
                        " && (cd debian/libtool && LIBTOOLIZE='libtoolize -i' autoreconf -f -i && ./configure)"
                        " && echo \"#define DEB_HOST_MULTIARCH \\\"$(dpkg-architecture -qDEB_HOST_MULTIARCH)\\\"\""
                        " > src/lua5.4-deb-multiarch.h",
                # -j1: its rule making both .la files at once is not safe in parallel
                make_targets=["-j1", "linux-readline", "LIBTOOL=../debian/libtool/libtool",
                              "CC=clang-19 -std=gnu99", "CXX=clang++-19", "MYLIBS="],
                make_flag_vars=["MYCFLAGS", "MYCXXFLAGS", "MYLDFLAGS"],
                tests=["make", "test", "LIBTOOL=../debian/libtool/libtool"]),
        # Debian builds with the upstream Makefile, REBUILD_TABLES=1: the dfsg tarball lacks the
        # generated tables re2/perl_groups.cc and re2/unicode_*.cc, made in the tree from perl and
        # /usr/share/unicode (unicode-data); data with no function, so not units. Its tests are
        # Debian's `make test` (static and shared tests, and the shared big tests); the Makefile
        # compiles with the environment's flags only in the build, so the build makes the tests.
        Subject("re2", "20220601+dfsg-1",
                ["re2/bitstate.cc", "re2/compile.cc", "re2/dfa.cc", "re2/filtered_re2.cc",
                 "re2/mimics_pcre.cc", "re2/nfa.cc", "re2/onepass.cc", "re2/parse.cc", "re2/prefilter.cc",
                 "re2/prefilter_tree.cc", "re2/prog.cc", "re2/re2.cc", "re2/regexp.cc", "re2/set.cc",
                 "re2/simplify.cc", "re2/stringpiece.cc", "re2/tostring.cc", "util/rune.cc", "util/strutil.cc"],
                build="make",
                prepare=["make", "REBUILD_TABLES=1", "re2/perl_groups.cc", "re2/unicode_casefold.cc",
                         "re2/unicode_groups.cc"],
                make_targets=["obj/libre2.a", "obj/so/libre2.so"] + [f"obj/test/{t}_test" for t in RE2_TESTS]
                + [f"obj/so/test/{t}_test" for t in RE2_TESTS + RE2_BIGTESTS],
                tests=["make", "test"]),
        # Debian's debian/rules configures the CMake build in build/cmake (its top-level Makefile build
        # and long `make test` are not expressible here): its ctest runs fullbench, fuzzer, zstreamtest,
        # playTests. fuzzer and zstreamtest run 30000 and 10000 random cases by default (about 30 min
        # at -O0): they get the time budgets of upstream's `make test`, which Debian runs (-T200s,
        # -T90s; random seeds), and ctest more than its 300 s per test. Units: lib/**/*.c that this
        # build compiles (legacy support on, as Debian sets it) but for lib/common/debug.c,
        # threading.c (empty here) and xxhash.c (its code is in xxhash.h), which have no function.
        Subject("zstd", "1.5.4+dfsg2-5",
                ["lib/common/entropy_common.c", "lib/common/error_private.c", "lib/common/fse_decompress.c",
                 "lib/common/pool.c", "lib/common/zstd_common.c", "lib/compress/fse_compress.c",
                 "lib/compress/hist.c", "lib/compress/huf_compress.c", "lib/compress/zstd_compress.c",
                 "lib/compress/zstd_compress_literals.c", "lib/compress/zstd_compress_sequences.c",
                 "lib/compress/zstd_compress_superblock.c", "lib/compress/zstd_double_fast.c",
                 "lib/compress/zstd_fast.c", "lib/compress/zstd_lazy.c", "lib/compress/zstd_ldm.c",
                 "lib/compress/zstd_opt.c", "lib/compress/zstdmt_compress.c",
                 "lib/decompress/huf_decompress.c", "lib/decompress/zstd_ddict.c",
                 "lib/decompress/zstd_decompress.c", "lib/decompress/zstd_decompress_block.c",
                 "lib/dictBuilder/cover.c", "lib/dictBuilder/divsufsort.c", "lib/dictBuilder/fastcover.c",
                 "lib/dictBuilder/zdict.c", "lib/legacy/zstd_v01.c", "lib/legacy/zstd_v02.c",
                 "lib/legacy/zstd_v03.c", "lib/legacy/zstd_v04.c", "lib/legacy/zstd_v05.c",
                 "lib/legacy/zstd_v06.c", "lib/legacy/zstd_v07.c"],
                subdir="build/cmake",
                cmake_args=["-DZSTD_LEGACY_SUPPORT=ON", "-DZSTD_BUILD_TESTS=ON",
                            "-DZSTD_FUZZER_FLAGS=-T200s", "-DZSTD_ZSTREAM_FLAGS=-T90s"],
                tests=["ctest", "--timeout", "900", "-j2"]),
        # lib/grammar.c and lib/scanner.c are bison and flex output (shipped): not units. The C++
        # wrapper is lib/libconfigcpp.c++. Debian's dh_auto_test makes `test` (tests/libconfig_tests, C
        # only: the C++ wrapper has no own test).
        # Debian's patch touches doc/libconfig.texi, so make remakes the manual: makeinfo (texinfo,
        # not installed here) is replaced by `true`. tests/ finds libconfig.h as -I../lib, which only
        # an in-tree build has (Debian's): CPPFLAGS adds the source's lib/ (make expands ${top_srcdir}).
        # No examples: with coverage, libtool's C++ link of libconfig++.so (-nostdlib) leaves it
        # unlinkable into an executable (hidden `atexit` of libc_nonshared.a), and examples/c++ fails.
        Subject("libconfig", "1.5-0.4",
                ["lib/libconfig.c", "lib/scanctx.c", "lib/strbuf.c", "lib/libconfigcpp.c++"],
                build="autotools",
                configure_args=["MAKEINFO=true", "CPPFLAGS=-I${top_srcdir}/lib", "--disable-examples"],
                # libconfig_tests reads testdata/ from where it runs (tests/ of an in-tree build)
                tests=["sh", "-c", "cp -r ../src/tests/testdata tests/ && make test"]),
    ]
}
