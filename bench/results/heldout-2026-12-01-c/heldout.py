#!/usr/bin/python3
"""The seventh held-out sweep (2026-12-01, third; README.md): bench/sweep's
record of each unit (benchlib/sweep.py) on Debian libraries that no session
had run mosaic on. Usage: heldout.py LIBRARY[,LIBRARY...] OUT [EXECUTIONS
[MOSAIC]]; the fetched and built libraries go to $MOSAIC_HELDOUT_CACHE
(default build/heldout-cache)."""
import os, sys
BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, BENCH)
from benchlib import sweep
from benchlib.subjects import Subject

MXML = ["mxml-attr.c", "mxml-entity.c", "mxml-file.c", "mxml-get.c", "mxml-index.c", "mxml-node.c",
        "mxml-private.c", "mxml-search.c", "mxml-set.c", "mxml-string.c"]
EXIF = ["exif-byte-order.c", "exif-content.c", "exif-data.c", "exif-entry.c", "exif-format.c", "exif-ifd.c",
        "exif-loader.c", "exif-mem.c", "exif-mnote-data.c", "exif-tag.c", "exif-utils.c",
        "canon/exif-mnote-data-canon.c", "olympus/exif-mnote-data-olympus.c"]
SQUISH = ["alpha.cpp", "clusterfit.cpp", "colourblock.cpp", "colourfit.cpp", "colourset.cpp", "maths.cpp",
          "rangefit.cpp", "singlecolourfit.cpp", "squish.cpp"]

HELD = {s.name: s for s in [
    # mxml's Makefile.in is its own (not automake): configured and made in a copy.
    Subject("mxml", "3.3.1-1+deb13u1~deb12u1", MXML, build="make", pre_make=["./configure", "--disable-shared"],
            make_targets=["libmxml.a"]),
    Subject("libexif", "0.6.24-1+deb12u1", ["libexif/" + u for u in EXIF], build="autotools"),
    Subject("libspng", "0.7.3-3", ["spng/spng.c"],
            cmake_args=["-DBUILD_EXAMPLES=OFF"]),
    Subject("libsquish", "1.15-3", SQUISH, cmake_args=["-DBUILD_SHARED_LIBS=OFF"]),
]}

sweep.held_out(HELD, sys.argv, os.path.join(BENCH, ".."))
