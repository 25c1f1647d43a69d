#!/bin/bash
# Function weights on cJSON.c: the riskiest functions' branch goals covered at a short budget, with and without.
M=/work/main/build/tools/mosaic
for seed in 1 2 3; do
  for mode in off on; do
    extra=(); [ $mode = on ] && extra=(--function-weights /tmp/cjson-weights.json)
    $M generate -p /tmp/cjson-git/build /tmp/cjson-git/cJSON.c -o /tmp/fw/s-$mode-$seed --budget 60s --max-executions 4000 --seed $seed \
      --no-verify --work-dir /tmp/fw/work --json /tmp/fw/$mode-$seed.json --no-progress "${extra[@]}" > /tmp/fw/$mode-$seed.log 2>&1
  done
done
