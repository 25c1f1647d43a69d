#!/usr/bin/python3
"""The held-out sweep of 2026-11-29 (README.md): bench/sweep's record of
each unit (benchlib/sweep.py) on Debian libraries that are not benchmark
subjects. Usage: heldout.py LIBRARY[,LIBRARY...] OUT [EXECUTIONS [MOSAIC]];
the fetched and built libraries go to $MOSAIC_HELDOUT_CACHE (default
build/heldout-cache)."""
import os, sys
BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, BENCH)
from benchlib import sweep
from benchlib.subjects import Subject

HELD = {s.name: s for s in [
    Subject("jansson", "2.14-2",
            ["src/dump.c", "src/error.c", "src/hashtable.c", "src/hashtable_seed.c", "src/load.c",
             "src/memory.c", "src/pack_unpack.c", "src/strbuffer.c", "src/strconv.c", "src/utf.c",
             "src/value.c", "src/version.c"],
            cmake_args=["-DJANSSON_BUILD_DOCS=OFF"]),
    Subject("cmark", "0.30.2-6",
            ["src/blocks.c", "src/buffer.c", "src/cmark.c", "src/cmark_ctype.c", "src/commonmark.c",
             "src/houdini_href_e.c", "src/houdini_html_e.c", "src/houdini_html_u.c", "src/html.c",
             "src/inlines.c", "src/iterator.c", "src/latex.c", "src/man.c", "src/node.c",
             "src/references.c", "src/render.c", "src/scanners.c", "src/utf8.c", "src/xml.c"]),
    Subject("libyaml", "0.2.5-1",
            ["src/api.c", "src/dumper.c", "src/emitter.c", "src/loader.c", "src/parser.c", "src/reader.c",
             "src/scanner.c", "src/writer.c"]),
    Subject("utf8proc", "2.8.0-1", ["utf8proc.c"]),
    Subject("libcsv", "3.0.3+dfsg-6", ["libcsv.c"], build="autotools"),
    Subject("tinyxml", "2.6.2-6+deb12u1", ["tinyxml.cpp", "tinyxmlparser.cpp", "tinyxmlerror.cpp", "tinystr.cpp"],
            build="make", make_targets=["xmltest"], make_flag_vars=["CXXFLAGS"]),
    Subject("libjsoncpp", "1.9.5-4", ["src/lib_json/json_reader.cpp", "src/lib_json/json_value.cpp",
                                      "src/lib_json/json_writer.cpp"]),
    Subject("snappy", "1.1.9-3", ["snappy.cc", "snappy-c.cc", "snappy-sinksource.cc", "snappy-stubs-internal.cc"],
            cmake_args=["-DSNAPPY_BUILD_TESTS=OFF", "-DSNAPPY_BUILD_BENCHMARKS=OFF"]),
    Subject("leveldb", "1.23-4",
            ["util/coding.cc", "util/hash.cc", "util/bloom.cc", "util/arena.cc", "util/cache.cc",
             "table/block_builder.cc", "table/format.cc", "db/dbformat.cc", "db/write_batch.cc", "db/filename.cc"],
            cmake_args=["-DLEVELDB_BUILD_TESTS=OFF", "-DLEVELDB_BUILD_BENCHMARKS=OFF"]),
    Subject("libebml", "1.4.4-1+deb12u1",
            ["src/EbmlBinary.cpp", "src/EbmlString.cpp", "src/EbmlUInteger.cpp", "src/EbmlSInteger.cpp",
             "src/EbmlFloat.cpp", "src/EbmlCrc32.cpp", "src/MemIOCallback.cpp", "src/EbmlUnicodeString.cpp",
             "src/EbmlDate.cpp", "src/EbmlVersion.cpp"]),
    Subject("lz4", "1.9.4-1", ["lib/lz4.c", "lib/lz4hc.c", "lib/lz4frame.c", "lib/xxhash.c"],
            build="make", make_targets=["lib"]),
]}

sweep.held_out(HELD, sys.argv, os.path.join(BENCH, ".."))
