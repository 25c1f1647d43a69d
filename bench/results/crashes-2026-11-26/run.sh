#!/bin/sh
# The crash benchmark, mosaic 545c006: BBC on and off with WeightedSum, seed 1, 60 s.
cd /work/main/bench
./reproduce --out /work/runs/crashes/bench4 --mosaic /work/bin-crash/build/tools/mosaic -j 2 --seeds 1 --fitness weighted-sum --secondary bbc,length
