#!/bin/bash
# Seed 003's BBC on/off for unit generation, as run on 2026-11-26 (binary bf1df75; two cores shared with
# other experiments). CACHE is bench/run's cache of fetched and built subjects.
set -u
CACHE=${CACHE:-build/bench-cache}; OUT=${OUT:-/tmp/bbc}; M=${M:-build/tools/mosaic}
python3 bench/bbc.py --mosaic $M --cache $CACHE --budget 60 -j 1 --out $OUT \
  --units json-c:json_object.c,libconfig:lib/libconfig.c,lua5.4:src/lapi.c,zstd:lib/compress/zstd_compress.c
