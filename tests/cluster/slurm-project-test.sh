#!/bin/bash
# `mosaic project` as a real Slurm job array: a one-node Slurm (Debian's
# slurmctld and slurmd, with munge for authentication) started here in a
# folder of its own, examples/cluster/slurm-project.sh run by sbatch as a
# 2-task array over a small C project, the shards merged, and the merged
# suites compared with a local run of the same units and seed: the same
# units, every one finished, and the same test files.
#
#   slurm-project-test.sh MOSAIC_EXE SLURM_SCRIPT
#
# Exit 77 (CTest's SKIP_RETURN_CODE) when Slurm is not installed or cannot
# start here, with the reason and the daemons' logs.
set -euo pipefail
MOSAIC=$(readlink -f "$1")
SCRIPT=$(readlink -f "$2")
skip() { echo "skipped: $*"; exit 77; }
for tool in slurmctld slurmd munged sbatch sinfo squeue; do
  command -v "$tool" >/dev/null || skip "$tool is not installed (Debian: slurmctld slurmd slurm-client munge)"
done

DIR=$(mktemp -d /tmp/mosaic-slurm-XXXXXX)
chmod 700 "$DIR"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  sleep 1
  for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  rm -rf "$DIR"
}
trap cleanup EXIT
logs() { for f in "$DIR"/*.log "$DIR"/munge/*.log; do [ -f "$f" ] && { echo "== $f"; tail -20 "$f"; }; done; }

# munge, on a socket and key of this test's own.
mkdir -m 700 "$DIR/munge"
dd if=/dev/urandom of="$DIR/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$DIR/munge/munge.key"
munged --force --key-file="$DIR/munge/munge.key" --socket="$DIR/munge/munge.sock" \
  --pid-file="$DIR/munge/munged.pid" --log-file="$DIR/munge/munged.log" --seed-file="$DIR/munge/seed" ||
  { logs; skip "munged does not start"; }
PIDS+=("$(cat "$DIR/munge/munged.pid")")

# One node, this machine; ports of this run's own (two runs at once do not meet).
HOST=$(hostname -s)
PORT=$((20000 + RANDOM % 20000))
mkdir -p "$DIR/state" "$DIR/spool"
cat >"$DIR/slurm.conf" <<EOF
ClusterName=mosaictest
SlurmctldHost=$HOST
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
AuthType=auth/munge
AuthInfo=socket=$DIR/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
NodeName=$HOST CPUs=$(nproc) State=UNKNOWN
PartitionName=mosaic Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$DIR/slurm.conf"
slurmctld -D -f "$SLURM_CONF" >"$DIR/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -f "$SLURM_CONF" >"$DIR/slurmd.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 60); do
  state=$(sinfo -h -o %T 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.5
done
[ "${state:-}" = idle ] || { logs; cat "$DIR"/*.out; skip "the one-node Slurm did not come up (node state: '${state:-none}')"; }

# The project: two library units and a test program (not a unit), no git
# history (an even split).
P="$DIR/proj"
mkdir -p "$P/lib" "$P/tests" "$P/build"
cat >"$P/lib/sign.c" <<'EOF'
int sign_of(int x) {
  if (x > 0) return 1;
  if (x < 0) return -1;
  return 0;
}
EOF
cat >"$P/lib/clamp.c" <<'EOF'
int clamp(int x, int lo, int hi) {
  if (lo > hi) return lo;
  if (x < lo) return lo;
  if (x > hi) return hi;
  return x;
}
EOF
echo 'int main(void) { return 0; }' >"$P/tests/main.c"
cat >"$P/build/compile_commands.json" <<EOF
[{"directory": "$P", "file": "lib/sign.c", "arguments": ["cc", "-c", "lib/sign.c"]},
 {"directory": "$P", "file": "lib/clamp.c", "arguments": ["cc", "-c", "lib/clamp.c"]},
 {"directory": "$P", "file": "tests/main.c", "arguments": ["cc", "-c", "tests/main.c"]}]
EOF
# Bounded by executions, so that both runs search alike whatever the load.
FLAGS=(--seed 3 --max-executions 400 --no-verify)

# The array: the example script as a user would submit it, mosaic on PATH.
export PATH="$(dirname "$MOSAIC"):$PATH"
sbatch --wait --array=0-1 --chdir="$DIR" --output="$DIR/task-%a.log" --cpus-per-task=1 \
  "$SCRIPT" "$P/build" "$DIR/out" 60s "${FLAGS[@]}" >"$DIR/sbatch.out" 2>&1 || {
  cat "$DIR/sbatch.out"
  # No task ran at all: Slurm cannot launch jobs here (a skip, as when it
  # does not start); a task that ran and failed is mosaic's failure.
  compgen -G "$DIR/task-*.log" >/dev/null || { logs; skip "Slurm accepted the array but ran none of its tasks"; }
  cat "$DIR"/task-*.log; logs; echo "FAIL: the job array failed"; exit 1
}
cat "$DIR"/task-*.log
"$MOSAIC" project --merge "$DIR/out/shard-0,$DIR/out/shard-1" -o "$DIR/out/all" >/dev/null

# The same units and seed, locally.
"$MOSAIC" project -p "$P/build" -o "$DIR/out/local" --budget 60s --no-progress "${FLAGS[@]}" >/dev/null ||
  [ $? -eq 1 ]

fail=0
units() { python3 -c 'import json,sys; print(" ".join(sorted(u["id"] + ":" + u["status"] for u in json.load(open(sys.argv[1]))["units"])))' "$1"; }
merged=$(units "$DIR/out/all/project.json")
local=$(units "$DIR/out/local/project.json")
echo "merged: $merged"
echo "local:  $local"
[ "$merged" = "$local" ] || { echo "FAIL: the merged units differ from the local run's"; fail=1; }
[ "$merged" = "lib_clamp_c:done lib_sign_c:done" ] || { echo "FAIL: not every unit finished once"; fail=1; }
for unit in lib_clamp_c lib_sign_c; do
  for f in "$DIR/out/local/units/$unit"/*_test*.cpp; do
    cmp -s "$f" "$DIR/out/all/units/$unit/$(basename "$f")" ||
      { echo "FAIL: $unit/$(basename "$f") differs between the Slurm run and the local one"; fail=1; }
  done
  grep -q "^TEST" "$DIR/out/all/units/$unit/"*_test.cpp || { echo "FAIL: $unit has no test"; fail=1; }
done
[ $fail -eq 0 ] && echo "the Slurm array's merged suites equal the local run's"
exit $fail
