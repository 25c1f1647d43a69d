#!/usr/bin/python3
"""The sixth held-out sweep (2026-12-01, README.md): bench/sweep's record of
each unit (benchlib/sweep.py) on Debian libraries that no session had run
mosaic on. Usage: heldout.py LIBRARY[,LIBRARY...] OUT [EXECUTIONS [MOSAIC]];
the fetched and built libraries go to $MOSAIC_HELDOUT_CACHE (default
build/heldout-cache)."""
import os, sys
BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, BENCH)
from benchlib import sweep
from benchlib.subjects import Subject

HELD = {s.name: s for s in [
    Subject("woff2", "1.0.2-2", ["src/font.cc", "src/woff2_common.cc", "src/table_tags.cc", "src/variable_length.cc",
                                 "src/transform.cc", "src/woff2_out.cc", "src/normalize.cc", "src/glyph.cc",
                                 "src/woff2_dec.cc", "src/woff2_enc.cc"],
            cmake_args=["-DBUILD_SHARED_LIBS=OFF", "-DNOISY_LOGGING=OFF"]),
    Subject("tinyobjloader", "2.0.0~rc10+dfsg-2", ["tiny_obj_loader.cc"]),
    Subject("zopfli", "1.0.3-1", ["src/zopfli/deflate.c", "src/zopfli/util.c", "src/zopfli/blocksplitter.c",
                                  "src/zopfli/lz77.c", "src/zopfli/tree.c", "src/zopfli/hash.c",
                                  "src/zopfli/zlib_container.c", "src/zopfli/cache.c", "src/zopfli/gzip_container.c",
                                  "src/zopfli/squeeze.c", "src/zopfli/katajainen.c", "src/zopfli/zopfli_lib.c"],
            cmake_args=["-DZOPFLI_BUILD_SHARED=OFF"]),
    Subject("libspiro", "1:20221101-1", ["spiro.c", "bezctx.c", "spiroentrypoints.c"], build="autotools"),
]}

sweep.held_out(HELD, sys.argv, os.path.join(BENCH, ".."))
