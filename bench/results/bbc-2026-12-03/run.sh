#!/bin/bash
# BBC on/off for unit generation, as run on 2026-12-03: the same command with two builds of mosaic,
# each built in its own git worktree so its pass and runtime stay fixed during the runs.
# M_NEW: mosaic of ecf7fee (BBC's first scenario); M_OLD: mosaic of e029c47 (the commit before).
# CACHE: subjects built by bench/benchlib/build.py.
set -u
CACHE=${CACHE:-/work/cache}
UNITS=json-c:json_object.c,libconfig:lib/libconfig.c,cjson:cJSON.c
python3 bench/bbc.py --mosaic "$M_NEW" --cache "$CACHE" --budget 60 -j 2 --seeds 1,2,3 --out OUT-ecf7fee --units $UNITS
python3 bench/bbc.py --mosaic "$M_OLD" --cache "$CACHE" --budget 60 -j 2 --seeds 1,2,3 --out OUT-e029c47 --units $UNITS
