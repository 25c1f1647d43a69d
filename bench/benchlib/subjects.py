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
    tests: list = field(default_factory=lambda: ["ctest"])  # run in the coverage build
    test_env: dict = field(default_factory=dict)  # environment of the own tests, as debian/rules sets it
    fuzzers: list = field(default_factory=list)
    no_fuzzer: str = "no harness ships"  # why, when `fuzzers` is empty


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
    ]
}
