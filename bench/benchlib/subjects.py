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
    units: list                      # unit files, relative to the source
    build: str = "cmake"             # "cmake" or "autotools"
    cmake_args: list = field(default_factory=list)
    configure_args: list = field(default_factory=list)
    tests: list = field(default_factory=lambda: ["ctest"])  # run in the coverage build
    fuzzers: list = field(default_factory=list)
    no_fuzzer: str = "no harness ships"  # why, when `fuzzers` is empty


SUBJECTS = {
    s.name: s for s in [
        Subject("cjson", ["cJSON.c", "cJSON_Utils.c"],
                cmake_args=["-DENABLE_CJSON_UTILS=ON", "-DENABLE_CJSON_TEST=ON"],
                fuzzers=[Fuzzer("cjson_read_fuzzer", "fuzzing/cjson_read_fuzzer.c", ["cJSON.c"])]),
        Subject("tinyxml2", ["tinyxml2.cpp"], cmake_args=["-Dtinyxml2_BUILD_TESTING=ON"]),
        Subject("json-c",
                ["arraylist.c", "debug.c", "json_c_version.c", "json_object.c", "json_object_iterator.c",
                 "json_pointer.c", "json_tokener.c", "json_util.c", "json_visit.c", "linkhash.c",
                 "printbuf.c", "random_seed.c", "strerror_override.c"],
                cmake_args=["-DDISABLE_WERROR=ON", "-DBUILD_TESTING=ON"],
                no_fuzzer="the shipped harnesses (fuzz/) do not compile against 0.16"),
        Subject("double-conversion",
                ["double-conversion/bignum.cc", "double-conversion/bignum-dtoa.cc",
                 "double-conversion/cached-powers.cc", "double-conversion/double-to-string.cc",
                 "double-conversion/fast-dtoa.cc", "double-conversion/fixed-dtoa.cc",
                 "double-conversion/string-to-double.cc", "double-conversion/strtod.cc"],
                cmake_args=["-DBUILD_TESTING=ON"]),
        Subject("pugixml", ["src/pugixml.cpp"], cmake_args=["-DPUGIXML_BUILD_TESTS=ON"],
                fuzzers=[Fuzzer("fuzz_parse", "tests/fuzz_parse.cpp", ["src/pugixml.cpp"]),
                         Fuzzer("fuzz_xpath", "tests/fuzz_xpath.cpp", ["src/pugixml.cpp"])]),
        Subject("yaml-cpp",
                ["src/binary.cpp", "src/convert.cpp", "src/depthguard.cpp", "src/directives.cpp",
                 "src/emit.cpp", "src/emitfromevents.cpp", "src/emitter.cpp", "src/emitterstate.cpp",
                 "src/emitterutils.cpp", "src/exceptions.cpp", "src/exp.cpp", "src/memory.cpp",
                 "src/node.cpp", "src/node_data.cpp", "src/nodebuilder.cpp", "src/nodeevents.cpp",
                 "src/null.cpp", "src/ostream_wrapper.cpp", "src/parse.cpp", "src/parser.cpp",
                 "src/regex_yaml.cpp", "src/scanner.cpp", "src/scanscalar.cpp", "src/scantag.cpp",
                 "src/scantoken.cpp", "src/simplekey.cpp", "src/singledocparser.cpp", "src/stream.cpp",
                 "src/tag.cpp"],
                cmake_args=["-DYAML_CPP_BUILD_TESTS=ON", "-DYAML_USE_SYSTEM_GTEST=ON"]),
        Subject("expat", ["lib/xmlparse.c", "lib/xmltok.c", "lib/xmlrole.c"], build="autotools",
                configure_args=["--without-docbook", "--without-examples"], tests=["make", "check"],
                fuzzers=[Fuzzer("xml_parse_fuzzer", "fuzz/xml_parse_fuzzer.c",
                                ["lib/xmlparse.c", "lib/xmltok.c", "lib/xmlrole.c"],
                                ["-DENCODING_FOR_FUZZING=UTF-8"])]),
    ]
}
