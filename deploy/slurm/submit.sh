#!/usr/bin/env bash
# Submits a sharded fencesim run to Slurm: a job array of N shards, then a merge that starts when
# every shard succeeded (afterok). Prints the merge job's id.
#
#   deploy/slurm/submit.sh N PARTS COMMAND ARGS... -- MERGE-OPTIONS...
#
# e.g.  deploy/slurm/submit.sh 4 parts report drives/ --fences stores.geojson -- --html r.html --json r.json
#       deploy/slurm/submit.sh 8 sweep-parts sweep fleet.yaml --vary buffer=0,10,20 -- --plot s.svg --json s.json
#
# Extra sbatch options (partition, account, time) go in SBATCH_OPTIONS, e.g. "--partition=batch
# --time=02:00:00"; sbatch's own SBATCH_* variables work too. Set FENCESIM to the binary's path
# when it is not on PATH on the compute nodes. PARTS must be on a file system every node sees.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 3 ] || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 N PARTS COMMAND ARGS... -- MERGE-OPTIONS..." >&2
  exit 64
fi
shards=$1
parts=$2
shift 2
run=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do run+=("$1"); shift; done
[ $# -gt 0 ] && shift
# Use a fresh PARTS folder for each run: the merge refuses parts of another run found there.
mkdir -p "$parts"
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_OPTIONS:-} --array=0-$((shards - 1)) --export=ALL,FENCESIM_SHARDS="$shards" \
  "$here/shard.sbatch" "$parts" "${run[@]}")
array=${array%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTIONS:-} --dependency=afterok:"$array" --kill-on-invalid-dep=yes --export=ALL \
  "$here/merge.sbatch" "$parts" "$@")
echo "${merge%%;*}"
echo "submitted shards as job array $array (0-$((shards - 1))) and the merge as job ${merge%%;*}" >&2
