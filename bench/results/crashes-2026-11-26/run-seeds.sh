#!/bin/sh
# Seeds 2 and 3 of WeightedSum and STDistance with BBC, 60 s, mosaic 545c006
# (the same binary as seed 1), then seed 1 of STDistance without BBC.
cd /work/main/bench
./reproduce --out /work/runs/crashes/bench4 --mosaic /work/bin-crash/build/tools/mosaic -j 2 --seeds 2,3 --fitness weighted-sum,st-distance --secondary bbc
./reproduce --out /work/runs/crashes/bench4 --mosaic /work/bin-crash/build/tools/mosaic -j 2 --seeds 1 --fitness st-distance --secondary length
