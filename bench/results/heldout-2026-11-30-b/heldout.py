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
    Subject("nettle", "3.8.1-2", ["base64-decode.c", "base64-encode.c", "base16-decode.c", "buffer.c", "cbc.c", "ctr.c",
                                  "hmac.c", "sha256.c", "knuth-lfib.c", "memxor.c"],
            build="autotools", configure_args=["--disable-documentation", "--disable-assembler", "--disable-openssl"]),
    Subject("libonig", "6.9.8-1", ["src/regparse.c", "src/regexec.c", "src/regcomp.c", "src/regerror.c", "src/utf8.c",
                                   "src/regenc.c", "src/onig_init.c"],
            cmake_args=["-DBUILD_TEST=OFF"]),
    Subject("xxhash", "0.8.1-1", ["xxhash.c"], build="make", make_targets=["libxxhash.a"]),
]}

sweep.held_out(HELD, sys.argv, os.path.join(BENCH, ".."))
