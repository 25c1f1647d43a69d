#!/usr/bin/python3
"""The second held-out sweep of 2026-11-29 (README.md): bench/sweep's record
of each unit (benchlib/sweep.py) on nine more Debian libraries that are not
benchmark subjects. Usage: heldout.py LIBRARY[,LIBRARY...] OUT [EXECUTIONS
[MOSAIC]]; the fetched and built libraries go to $MOSAIC_HELDOUT_CACHE
(default build/heldout-cache)."""
import os, sys
BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, BENCH)
from benchlib import sweep
from benchlib.subjects import Subject

HELD = {s.name: s for s in [
    # C: a protocol reader, dynamic strings and a printf-like command formatter
    # (hiredis.c's createArrayObject has the wrong type for its table, an
    # error to clang 19 and a warning to gcc, which Debian builds it with)
    Subject("hiredis", "0.14.1-3", ["read.c", "sds.c", "hiredis.c", "alloc.c", "net.c"],
            build="make", make_targets=["static", "WARNINGS=-Wno-incompatible-function-pointer-types"]),
    # C: GIF decoder and encoder over files and callbacks
    Subject("giflib", "5.2.1-2.5+deb12u1",
            ["dgif_lib.c", "egif_lib.c", "gifalloc.c", "gif_hash.c", "gif_err.c", "quantize.c",
             "openbsd-reallocarray.c"],
            build="make", make_targets=["libgif.a"], make_flag_vars=["CFLAGS"]),
    # C: DEFLATE, zlib and gzip (de)compressors with explicit buffers
    Subject("libdeflate", "1.14-1",
            ["lib/deflate_decompress.c", "lib/deflate_compress.c", "lib/gzip_decompress.c",
             "lib/gzip_compress.c", "lib/zlib_decompress.c", "lib/zlib_compress.c", "lib/adler32.c",
             "lib/crc32.c", "lib/utils.c"],
            build="make", make_targets=["libdeflate.a"]),
    # C and C++: property lists (binary and XML parsers; a C++ class hierarchy over them)
    Subject("libplist", "2.2.0-6",
            ["src/plist.c", "src/bplist.c", "src/xplist.c", "src/base64.c", "src/bytearray.c",
             "src/hashtable.c", "src/ptrarray.c", "src/time64.c", "src/Node.cpp", "src/Array.cpp",
             "src/Dictionary.cpp", "src/String.cpp", "src/Data.cpp", "src/Integer.cpp", "src/Date.cpp"],
            build="autotools", configure_args=["--without-cython"]),
    # C: message digests, and their file helpers
    Subject("libmd", "1.0.4-2",
            ["src/md5.c", "src/sha1.c", "src/sha2.c", "src/rmd160.c", "src/md4.c", "src/md2.c",
             "src/md5hl.c", "src/sha256hl.c"],
            build="autotools"),
    # C: bzip2's library
    Subject("bzip2", "1.0.8-5", ["bzlib.c", "compress.c", "decompress.c", "huffman.c", "blocksort.c"],
            build="make", make_targets=["libbz2.a"], make_flag_vars=["CFLAGS"]),
    # C++: binary-decimal conversions
    Subject("double-conversion", "3.2.1-1",
            ["double-conversion/string-to-double.cc", "double-conversion/double-to-string.cc",
             "double-conversion/strtod.cc", "double-conversion/bignum.cc", "double-conversion/bignum-dtoa.cc",
             "double-conversion/fast-dtoa.cc", "double-conversion/fixed-dtoa.cc",
             "double-conversion/cached-powers.cc"]),
    # C++: formatting
    Subject("fmtlib", "9.1.0+ds1-2", ["src/format.cc", "src/os.cc"],
            cmake_args=["-DFMT_TEST=OFF", "-DFMT_DOC=OFF"]),
    # C++: TagLib's toolkit (strings, byte vectors, streams, maps)
    Subject("taglib", "1.13-2+deb12u1",
            ["taglib/toolkit/tstring.cpp", "taglib/toolkit/tbytevector.cpp", "taglib/toolkit/tbytevectorlist.cpp",
             "taglib/toolkit/tstringlist.cpp", "taglib/toolkit/tpropertymap.cpp",
             "taglib/toolkit/tbytevectorstream.cpp", "taglib/toolkit/tzlib.cpp"],
            cmake_args=["-DBUILD_TESTS=OFF", "-DBUILD_EXAMPLES=OFF", "-DBUILD_BINDINGS=OFF"]),
]}

sweep.held_out(HELD, sys.argv, os.path.join(BENCH, ".."))
