#!/usr/bin/python3
"""The third held-out sweep (2026-11-30, README.md): bench/sweep's record of
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
    Subject("libogg", "1.3.5-3", ["src/bitwise.c", "src/framing.c"]),
    Subject("libmodbus", "3.1.6-2.1+deb12u1", ["src/modbus.c", "src/modbus-data.c", "src/modbus-rtu.c", "src/modbus-tcp.c"],
            build="autotools", configure_args=["--without-documentation"]),
    Subject("libtar", "1.2.20-8+deb12u1", ["lib/append.c", "lib/block.c", "lib/decode.c", "lib/encode.c", "lib/extract.c",
                                   "lib/handle.c", "lib/output.c", "lib/util.c", "lib/wrapper.c"
],
            build="autotools"),
    Subject("lzo2", "2.10-2", ["src/lzo1x_1.c", "src/lzo1x_d1.c", "src/lzo1x_9x.c", "src/lzo_crc.c", "src/lzo_util.c",
                               "src/lzo_init.c"]),
    Subject("muparserx", "4.0.11-2", ["parser/mpParser.cpp", "parser/mpParserBase.cpp", "parser/mpTokenReader.cpp",
                                      "parser/mpValue.cpp", "parser/mpRPN.cpp", "parser/mpFuncStr.cpp",
                                      "parser/mpOprtBinCommon.cpp", "parser/mpValReader.cpp", "parser/mpError.cpp",
                                      "parser/mpVariable.cpp"]),
]}

sweep.held_out(HELD, sys.argv, os.path.join(BENCH, ".."))
