#!/bin/bash
# A/B of the sanitized harness's children made without fork handlers
# (_Fork) against fork(): `generate --sanitize`, 3,000 tests, seeds 1-3,
# the two ways interleaved, on the units of four subjects of bench/run's
# cache (CACHE). MOSAIC_FORK_HANDLERS=1 is the old way.
B=${MOSAIC:-build/tools/mosaic}; OUT=${OUT:-/tmp/ab-fork}; C=${CACHE:-/work/cache}; mkdir -p $OUT
units="cjson:cJSON.c expat:expat/lib/xmlparse.c yajl:src/yajl_tree.c zlib:inflate.c"
for seed in 1 2 3; do for uf in $units; do u=${uf%%:*}; f=${uf#*:}; for mode in fork _Fork; do
  J=$OUT/$u-$mode-$seed.json
  env $( [ $mode = fork ] && echo MOSAIC_FORK_HANDLERS=1 ) $B generate -p $C/$u/build $C/$u/src/$f -o $OUT/suite \
    --seed $seed --budget 600s --max-executions 3000 --sanitize --json $J --no-progress --work-dir $OUT/work-$u \
    --no-verify > /dev/null 2>&1
  python3 -c "
import json;d=json.load(open('$J'))
print('$u $mode $seed', d['executions'], round(d['search_seconds'],2), round(d['executions']/d['search_seconds']), d['children_forked'])"
done; done; done
