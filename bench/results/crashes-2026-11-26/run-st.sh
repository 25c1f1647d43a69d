#!/bin/sh
cd /work/main/bench
./reproduce --out /work/runs/crashes/bench4 --mosaic /work/bin-crash/build/tools/mosaic -j 2 --seeds 1 --fitness st-distance --secondary bbc
