#!/usr/bin/env bash
# Runs sharded fencesim jobs through a real Slurm: starts a one-node cluster on this machine
# (munged, slurmctld and slurmd as root, with a generated slurm.conf in a temporary folder and
# ports of their own), submits a 3-shard report and a 4-shard sweep with deploy/slurm/submit.sh
# (job arrays, then merges with --dependency=afterok), waits for them, and compares the merged
# files byte for byte with single runs. Stops the daemons it started, by their process ids.
#
#   deploy/slurm/test-cluster.sh [FENCESIM-BINARY]     (default .build/debug/fencesim)
#
# Says SKIPPED (and exits 0) where Slurm cannot start: not root, Slurm or munge not installed
# (make setup-slurm), or the daemons not coming up. Every wait has a time limit; the whole test
# takes well under a minute on an idle machine.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "$root" && realpath "${1:-.build/debug/fencesim}")
say() { echo "test-cluster: $*"; }
skip() { say "SKIPPED: $*"; exit 0; }

[ -x "$bin" ] || { say "FAILED: no fencesim binary at $bin (swift build first)"; exit 1; }
[ "$(id -u)" = 0 ] || skip "the one-node cluster runs its daemons as root, and this is user $(id -un)"
for tool in munged mungekey slurmctld slurmd sbatch squeue scontrol; do
  command -v "$tool" >/dev/null || skip "$tool is not installed (make setup-slurm installs slurm-wlm and munge)"
done

tmp=$(mktemp -d /tmp/fencesim-slurm.XXXXXX)
pids=()
stop() {
  # Jobs still running on this cluster (after a time limit) end with it.
  if [ -s "$tmp/slurmctld.pid" ]; then SLURM_CONF="$tmp/slurm.conf" timeout 10 scancel --user=root >/dev/null 2>&1 || true; fi
  # The daemons this script started, by the process ids they wrote; nothing else.
  for f in "$tmp/slurmd.pid" "$tmp/slurmctld.pid" "$tmp/munged.pid"; do
    [ -s "$f" ] || continue
    pid=$(cat "$f")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  if [ "${KEEP:-0}" = 1 ]; then say "kept $tmp"; else rm -rf "$tmp"; fi
}
trap stop EXIT
# A time limit (make test's, or TERM from anywhere) still stops the daemons.
trap 'exit 1' TERM INT HUP
logs() {
  for f in "$tmp"/*.log; do echo "--- $f"; tail -n 15 "$f"; done
}

# munge: a key and a socket of our own, so that a system munged (if any) is left alone.
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/work"
chmod 700 "$tmp/munge"
mungekey --create --keyfile="$tmp/munge/munge.key" 2>/dev/null || dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
socket="$tmp/munge/munge.sock"
munged --force --key-file="$tmp/munge/munge.key" --socket="$socket" --pid-file="$tmp/munged.pid" \
  --log-file="$tmp/munged.log" --seed-file="$tmp/munge/munge.seed" >/dev/null 2>&1 || { logs; skip "munged does not start"; }
for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || { logs; skip "munged did not open its socket"; }

# Ports of our own (another cluster of this test may run beside it).
base=$((20000 + ($$ % 4000) * 2))
node=$(hostname -s)
hardware=$(slurmd -C 2>/dev/null | head -n 1 | sed 's/ RealMemory=[0-9]*//')
[ -n "$hardware" ] || hardware="NodeName=$node CPUs=$(nproc)"
cat > "$tmp/slurm.conf" <<CONF
ClusterName=fencesimtest
SlurmctldHost=$node
SlurmctldPort=$base
SlurmdPort=$((base + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
SlurmctldTimeout=30
SlurmdTimeout=30
$hardware State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
# Checked with Debian's Slurm 22.05: cgroup/v1 with nothing constrained (disabled is refused).
cat > "$tmp/cgroup.conf" <<CONF
CgroupPlugin=cgroup/v1
ConstrainCores=no
ConstrainRAMSpace=no
ConstrainSwapSpace=no
ConstrainDevices=no
CONF
export SLURM_CONF="$tmp/slurm.conf"
slurmctld -c -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 || { logs; skip "slurmctld does not start"; }
slurmd -f "$SLURM_CONF" >"$tmp/slurmd.out" 2>&1 || { logs; skip "slurmd does not start"; }
ready=0
deadline=$(($(date +%s) + 30))
while [ "$(date +%s)" -lt "$deadline" ]; do
  state=$(timeout 5 sinfo -h -o %T 2>/dev/null | head -n 1 || true)
  case "$state" in idle*|mixed*|allocated*) ready=1; break ;; esac
  sleep 0.5
done
[ "$ready" = 1 ] || { logs; skip "the node did not become idle in 30 s (state: ${state:-none})"; }
say "one-node Slurm cluster up ($(sinfo -V 2>/dev/null), $hardware)"

# Inputs: six drives of the bundled route at different speeds and intervals, degraded.
cd "$tmp/work"
cp "$root/traces/demo-fences.geojson" fences.geojson
traces=()
intervals=(2 5 1 3 4 2)
for k in 0 1 2 3 4 5; do
  "$bin" synth "$root/traces/demo-route.geojson" --speed $((7 + 2 * k)) --interval "${intervals[$k]}" --noise 3 \
    --seed $((k + 1)) --start "2026-01-0$((k + 1))T08:00:00Z" --out "drive$k.gpx" 2>/dev/null
  traces+=("drive$k.gpx")
done
cat > fleet.yaml <<YAML
name: fleet
traces: [$(IFS=,; echo "${traces[*]}" | sed 's/,/, /g')]
fences: fences.geojson
geotrigger: {feed: accuracy, dwell: 30, debounce: {enterAfter: 0, exitAfter: "2 fixes"}}
zones: [{id: depots, checkOut: true}, {id: stores, checkOut: true}, {id: bridges}]
degrade: {resample: 8, noise: 1, dropout: 0.1, exitLoss: 0.3, seed: 3}
YAML
sweep=(sweep fleet.yaml --vary buffer=0,15,40 --vary resample=5,20 --target "recall>=0.9,precision>=0.8")
"$bin" report fleet.yaml --html single.html --json single.json --quiet 2>/dev/null
set +e
"$bin" "${sweep[@]}" --plot single.svg --json single-sweep.json >single-sweep.txt 2>/dev/null
sweep_status=$?
set -e

export FENCESIM="$bin"
started=$(date +%s)
report_job=$(timeout 60 "$root/deploy/slurm/submit.sh" 3 report-parts report fleet.yaml -- --html merged.html --json merged.json --quiet 2>/dev/null) \
  || { logs; say "FAILED: sbatch of the report"; exit 1; }
sweep_job=$(timeout 60 "$root/deploy/slurm/submit.sh" 4 sweep-parts "${sweep[@]}" -- --plot merged.svg --json merged-sweep.json 2>/dev/null) \
  || { logs; say "FAILED: sbatch of the sweep"; exit 1; }
say "submitted: report merge job $report_job (after a 3-task array), sweep merge job $sweep_job (after a 4-task array)"

# Wait for both merges, at most 180 s.
job_state() { timeout 5 scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -n 1; }
deadline=$(($(date +%s) + 180))
while [ "$(date +%s)" -lt "$deadline" ]; do
  r=$(job_state "$report_job"); s=$(job_state "$sweep_job")
  case "$r" in PENDING|RUNNING|CONFIGURING|COMPLETING|"") ;; *) case "$s" in PENDING|RUNNING|CONFIGURING|COMPLETING|"") ;; *) break ;; esac ;; esac
  sleep 0.5
done
elapsed=$(($(date +%s) - started))
r=$(job_state "$report_job"); s=$(job_state "$sweep_job")
say "report merge: ${r:-gone}, sweep merge: ${s:-gone} after ${elapsed} s"

failed=0
check() {
  if cmp -s "$1" "$2"; then say "ok: $2 == $1"; else say "FAILED: $2 differs from $1 (or is missing)"; failed=1; fi
}
[ "$r" = COMPLETED ] || { say "FAILED: the report's merge job ended $r"; failed=1; }
# The sweep's merge exits as the single sweep does (1 when no setting meets the target).
if [ "$sweep_status" = 0 ]; then
  [ "$s" = COMPLETED ] || { say "FAILED: the sweep's merge job ended $s"; failed=1; }
fi
check single.html merged.html
check single.json merged.json
check single.svg merged.svg
check single-sweep.json merged-sweep.json
check single-sweep.txt "fencesim-merge-$sweep_job.out"
[ "$(ls report-parts | wc -l)" = 3 ] && [ "$(ls sweep-parts | wc -l)" = 4 ] || { say "FAILED: parts: $(ls report-parts sweep-parts)"; failed=1; }
if [ "$failed" != 0 ]; then
  for f in fencesim-*.out; do echo "--- $f"; tail -n 20 "$f"; done
  logs
  exit 1
fi
say "passed: a 3-shard report and a 4-shard sweep through sbatch merge to the bytes of single runs"
