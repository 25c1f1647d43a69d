#!/bin/bash
# Issue 20's measurement as run on 2026-11-26 (two cores, the runs of this folder side by side).
# CACHE is bench/run's cache of fetched and built subjects (CACHE/SUBJECT/{src,build}); OUT any folder.
set -u
CACHE=${CACHE:-build/bench-cache}; OUT=${OUT:-/tmp/criteria}; M=${M:-build/tools/mosaic}
# 1. Seed 001's experiment: DynaMOSA and MOSA and whole-suite on eight units; 60 s, seeds 1-3.
python3 bench/criteria.py --cache $CACHE --mosaic $M --budget 60 -j 2 --out $OUT/dynamosa --algorithms dynamosa \
  --units cjson:cJSON.c,tinyxml2:tinyxml2.cpp,json-c:json_object.c,double-conversion:double-conversion/bignum.cc
python3 bench/criteria.py --cache $CACHE --mosaic $M --budget 60 -j 2 --out $OUT/dynamosa-more --algorithms dynamosa \
  --units http-parser:http_parser.c,zlib:inflate.c,yaml-cpp:src/emitterutils.cpp,pugixml:src/pugixml.cpp
python3 bench/criteria.py --cache $CACHE --mosaic $M --budget 60 -j 2 --out $OUT/mosa-ws --algorithms mosa,ws \
  --units cjson:cJSON.c
python3 bench/criteria.py --cache $CACHE --mosaic $M --budget 60 -j 2 --out $OUT/mosa-ws-more --algorithms mosa,ws \
  --units tinyxml2:tinyxml2.cpp,json-c:json_object.c,double-conversion:double-conversion/bignum.cc,http-parser:http_parser.c,zlib:inflate.c,yaml-cpp:src/emitterutils.cpp,pugixml:src/pugixml.cpp
python3 bench/results/criteria-2026-11-26/overall.py   # the statistic over all of them
# 2. Mutation scores, 300 mutants sampled at seed 1: the library's own tests and the DynaMOSA suites.
mut() { $M mutate -p $CACHE/$1/build $CACHE/$1/src/$2 --suite $3 --mutants 300 --seed 1 --json $4.json > $4.log 2>&1; }
mut cjson cJSON.c $CACHE/cjson/src $OUT/cjson-own
mut tinyxml2 tinyxml2.cpp $CACHE/tinyxml2/src $OUT/tinyxml2-own
for s in branch smart; do
  for seed in 1 2; do mut cjson cJSON.c $OUT/dynamosa/runs/cjson/cJSON.c/dynamosa/$s/$seed/suite $OUT/cjson-$s-$seed; done
  mut tinyxml2 tinyxml2.cpp $OUT/dynamosa/runs/tinyxml2/tinyxml2.cpp/dynamosa/$s/1/suite $OUT/tinyxml2-$s-1
done
# 3. Assertions: cJSON.c at 20,000 executions, seed 1, verified, with and without --filter-assertions.
for f in "" --filter-assertions; do
  $M generate -p $CACHE/cjson/build $CACHE/cjson/src/cJSON.c -o $OUT/cjson${f:+-filter} --max-executions 20000 \
    --budget 10m --seed 1 $f --json $OUT/cjson${f:+-filter}.json --no-progress
  mut cjson cJSON.c $OUT/cjson${f:+-filter} $OUT/cjson${f:+-filter}-mutate
done
# 2b. Three more units (json-c's own tests without valgrind; http-parser's and zlib's through their make).
USE_VALGRIND=0 mut json-c json_object.c $CACHE/json-c/src $OUT/json-c-own
mutc() { $M mutate -p $CACHE/$1/build $CACHE/$1/src/$2 --suite $CACHE/$1/src --mutants 300 --seed 1 --json $3.json "${@:4}" > $3.log 2>&1; }
mutc http-parser http_parser.c $OUT/http-parser-own --build 'make test_g test_fast' --test './test_g && ./test_fast'
mutc zlib inflate.c $OUT/zlib-own --build './configure --static && make libz.a example minigzip' --test 'make teststatic'
for s in branch smart; do
  mut json-c json_object.c $OUT/dynamosa/runs/json-c/json_object.c/dynamosa/$s/1/suite $OUT/json-c-$s-1
  mut http-parser http_parser.c $OUT/dynamosa-more/runs/http-parser/http_parser.c/dynamosa/$s/1/suite $OUT/http-parser-$s-1
  mut zlib inflate.c $OUT/dynamosa-more/runs/zlib/inflate.c/dynamosa/$s/1/suite $OUT/zlib-$s-1
done
