#!/bin/bash
# Issue 20, a first look: bank.c at 30,000 executions, seeds 1-3 (one process per seed), default criteria,
# default + --filter-assertions, all, smart: llvm-cov branches of the written suite and its mutation score.
M=/work/main/build/tools/mosaic
B=/work/main/build/examples/bank
U=/work/main/examples/bank/bank.c
O=/work/runs/crit-bank
seed=$1
for c in default filter all smart; do
  out=$O/$c-s$seed
  [ -f $out.mutate.json ] && continue
  crit=""; [ $c = all ] || [ $c = smart ] && crit="--criteria $c"; [ $c = filter ] && crit="--filter-assertions"
  $M generate -p $B $U -o $out --max-executions 30000 --budget 10m --seed $seed $crit --json $out.json --no-progress --work-dir $O/work-s$seed > $out.log 2>&1
  $M mutate -p $B $U --suite $out --mutants 0 --json $out.mutate.json --work-dir $O/work-mutate > $out.mutate.log 2>&1
done
