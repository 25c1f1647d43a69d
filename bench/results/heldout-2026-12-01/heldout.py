#!/usr/bin/python3
"""The fifth held-out sweep (2026-12-01, README.md): bench/sweep's record of
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
    Subject("libgsm", "1.0.22-1", ["src/add.c", "src/code.c", "src/decode.c", "src/gsm_explode.c",
                                   "src/gsm_implode.c", "src/long_term.c", "src/lpc.c", "src/short_term.c",
                                   "src/rpe.c", "src/gsm_option.c"],
            build="make", make_targets=["lib/libgsm.a"]),
    Subject("libzip", "1.7.3-1", ["lib/zip_dirent.c", "lib/zip_extra_field.c", "lib/zip_buffer.c", "lib/zip_string.c",
                                  "lib/zip_utf-8.c", "lib/zip_hash.c", "lib/zip_source_buffer.c", "lib/zip_open.c"],
            cmake_args=["-DENABLE_GNUTLS=OFF", "-DENABLE_OPENSSL=OFF", "-DENABLE_MBEDTLS=OFF", "-DENABLE_BZIP2=OFF",
                        "-DENABLE_LZMA=OFF", "-DENABLE_ZSTD=OFF", "-DBUILD_TOOLS=OFF", "-DBUILD_REGRESS=OFF",
                        "-DBUILD_EXAMPLES=OFF", "-DBUILD_DOC=OFF"]),
    Subject("lcms2", "2.14-2+deb12u1", ["src/cmscgats.c", "src/cmsmd5.c", "src/cmshalf.c", "src/cmsnamed.c", "src/cmsio0.c",
                                "src/cmsxform.c"],
            build="autotools", configure_args=["--without-jpeg", "--without-tiff"]),
]}

sweep.held_out(HELD, sys.argv, os.path.join(BENCH, ".."))
