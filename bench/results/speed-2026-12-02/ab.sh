#!/bin/bash
# A/B of the work traces: fixed executions, interleaved on/off, seeds 1-3
B=${MOSAIC:-build/tools/mosaic}; OUT=${OUT:-/tmp/ab}; mkdir -p $OUT
for seed in 1 2 3; do for u in expat pugixml; do for mode in on off; do
  if [ $u = expat ]; then P=${CACHE:-build/bench-cache}/expat/build; F=${CACHE:-build/bench-cache}/expat/src/expat/lib/xmlparse.c; W=$OUT/work-$u;
  else P=${CACHE:-build/bench-cache}/pugixml/build; F=${CACHE:-build/bench-cache}/pugixml/src/src/pugixml.cpp; W=$OUT/work-$u; fi
  for alg in random dynamosa; do
  J=$OUT/$u-$alg-$mode-$seed.json
  env $( [ $mode = off ] && echo MOSAIC_NO_WORK_TRACES=1 ) perf stat -e page-faults -x, -o $OUT/$u-$alg-$mode-$seed.pf $B generate -p $P $F -o $OUT/suite --seed $seed --budget 600s --max-executions 20000 --json $J --no-progress --work-dir $W --algorithm $alg --no-verify --no-sanitizer-check > /dev/null 2>&1
  python3 -c "
import json;d=json.load(open('$J'));pf=[l for l in open('$OUT/$u-$alg-$mode-$seed.pf') if 'page-faults' in l][0].split(',')[0]
print('$u $alg $mode $seed', d['executions'], round(d['search_seconds'],2), round(d['executions']/d['search_seconds']), d['children_forked'], pf)"
  done
done; done; done
