#!/usr/bin/python3
"""The fourth held-out sweep (2026-11-30, README.md): bench/sweep's record of
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
    Subject("libcbor", "0.8.0-2", ["src/cbor.c", "src/cbor/streaming/decoding.c", "src/cbor/streaming/encoding.c",
                                   "src/cbor/serialization.c", "src/cbor/strings.c", "src/cbor/arrays.c",
                                   "src/cbor/maps.c", "src/cbor/ints.c", "src/cbor/internal/loaders.c",
                                   "src/cbor/internal/builder_callbacks.c"],
            cmake_args=["-DWITH_TESTS=OFF"]),
    Subject("libexif", "0.6.24-1+deb12u1", ["libexif/exif-data.c", "libexif/exif-loader.c", "libexif/exif-entry.c",
                                            "libexif/exif-utils.c", "libexif/exif-mem.c", "libexif/exif-content.c",
                                            "libexif/exif-format.c", "libexif/exif-tag.c"],
            build="autotools"),
    Subject("iniparser", "4.1-6", ["src/dictionary.c", "src/iniparser.c"], build="make", make_targets=["libiniparser.a"]),
]}

sweep.held_out(HELD, sys.argv, os.path.join(BENCH, ".."))
