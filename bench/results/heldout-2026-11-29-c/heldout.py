#!/usr/bin/python3
"""The third held-out sweep of 2026-11-29 (README.md): bench/sweep's record
of each unit (benchlib/sweep.py) on six Debian libraries that are neither
benchmark subjects nor in the two sweeps before. Usage: heldout.py
LIBRARY[,LIBRARY...] OUT [EXECUTIONS [MOSAIC]]; the fetched and built
libraries go to $MOSAIC_HELDOUT_CACHE (default build/heldout-cache)."""
import os, sys
BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, BENCH)
from benchlib import sweep
from benchlib.subjects import Subject

HELD = {s.name: s for s in [
    # C: JSON values, a parser, a printer, and json_pack's variadic formats
    Subject("jansson", "2.14-2",
            ["src/load.c", "src/dump.c", "src/value.c", "src/pack_unpack.c", "src/strconv.c", "src/utf.c",
             "src/strbuffer.c", "src/hashtable.c", "src/error.c"],
            cmake_args=["-DJANSSON_BUILD_DOCS=OFF", "-DJANSSON_WITHOUT_TESTS=ON", "-DJANSSON_EXAMPLES=OFF"]),
    # C: LZ4 block, HC and frame compressors over explicit buffers
    Subject("lz4", "1.9.4-1", ["lib/lz4.c", "lib/lz4hc.c", "lib/lz4frame.c", "lib/xxhash.c", "lib/lz4file.c"],
            subdir="build/cmake", cmake_args=["-DLZ4_BUILD_CLI=OFF", "-DLZ4_BUILD_LEGACY_LZ4C=OFF",
                                              "-DBUILD_SHARED_LIBS=OFF"]),
    # C: Unicode normalisation, case folding and grapheme breaks over UTF-8
    Subject("utf8proc", "2.8.0-1", ["utf8proc.c"], cmake_args=["-DUTF8PROC_ENABLE_TESTING=OFF"]),
    # C: a YAML scanner, parser, emitter and document loader
    Subject("libyaml", "0.2.5-1",
            ["src/api.c", "src/reader.c", "src/scanner.c", "src/parser.c", "src/loader.c", "src/emitter.c",
             "src/writer.c", "src/dumper.c"],
            cmake_args=["-DBUILD_TESTING=OFF", "-DBUILD_SHARED_LIBS=OFF"]),
    # C: CommonMark's block and inline parsers, node tree and renderers
    Subject("cmark", "0.30.2-6",
            ["src/blocks.c", "src/inlines.c", "src/node.c", "src/buffer.c", "src/references.c", "src/utf8.c",
             "src/houdini_html_u.c", "src/html.c", "src/iterator.c", "src/commonmark.c"],
            cmake_args=["-DCMARK_TESTS=OFF", "-DCMARK_SHARED=OFF"]),
    # C++: Snappy's compressor, its sources and sinks, and its C API
    Subject("snappy", "1.1.9-3", ["snappy.cc", "snappy-sinksource.cc", "snappy-c.cc"],
            cmake_args=["-DSNAPPY_BUILD_TESTS=OFF", "-DSNAPPY_BUILD_BENCHMARKS=OFF"]),
]}

sweep.held_out(HELD, sys.argv, os.path.join(BENCH, ".."))
