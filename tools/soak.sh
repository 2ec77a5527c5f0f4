#!/usr/bin/env bash
# Long-trace soak test (issue 8; `make soak`): a 20-million-fix trace replays against 100,000
# fences with peak memory within 10% of a 1-million-fix replay of the same fences, because
# traces are streamed (SPEC §8: memory grows with the fences, not with the trace length).
#
#   SHARED=../shared             where bench/gen_workload.py is
#   SOAK_DIR=$TMPDIR/geofence-bench   where the workloads are generated (outside the repository;
#                                kept between runs: generation takes minutes)
#   SOAK_FIXES=20000000          fixes of the long trace
#   SOAK_BASE_FIXES=1000000      fixes of the baseline
#   SOAK_TOLERANCE=1.10          allowed peak-RSS ratio long / baseline
#   SOAK_BIN=.build/release/fencesim   the binary (`make soak` builds it with `make release`)
#
# Prints both peak RSS figures, times and summary lines; exits 1 when the ratio is exceeded.
set -euo pipefail
cd "$(dirname "$0")/.."

SHARED="${SHARED:-../shared}"
SOAK_DIR="${SOAK_DIR:-${TMPDIR:-/tmp}/geofence-bench}"
FIXES="${SOAK_FIXES:-20000000}"
BASE_FIXES="${SOAK_BASE_FIXES:-1000000}"
TOLERANCE="${SOAK_TOLERANCE:-1.10}"
BIN="${SOAK_BIN:-.build/release/fencesim}"
FENCES=100000
CRS="+proj=tmerc +lat_0=37.75 +lon_0=-122.20 +k=1 +x_0=0 +y_0=0 +ellps=WGS84"
GEN="$SHARED/bench/gen_workload.py"

[ -f "$GEN" ] || { echo "error: $GEN not found (set SHARED=path/to/shared)" >&2; exit 66; }
[ -x /usr/bin/time ] || { echo "error: /usr/bin/time is missing (apt-get install time)" >&2; exit 69; }

[ -x "$BIN" ] || { echo "error: $BIN not found (make release)" >&2; exit 66; }

generate() {  # fixes → directory
  local fixes=$1 dir="$SOAK_DIR/f${FENCES}-x$1-s1"
  if [ ! -f "$dir/trace.csv" ] || [ ! -f "$dir/fences.geojson" ]; then
    echo "== generating $fixes fixes against $FENCES fences in $dir" >&2
    rm -rf "$dir.partial"
    python3 "$GEN" --fences "$FENCES" --fixes "$fixes" --seed 1 --out "$dir.partial" >&2
    mv "$dir.partial" "$dir"
  fi
  echo "$dir"
}

replay() {  # directory → prints "peak_kib seconds summary"
  local dir=$1 log
  log=$(mktemp)
  /usr/bin/time -v "$BIN" replay "$dir/trace.csv" --fences "$dir/fences.geojson" --crs "$CRS" --feed point --summary \
    >"$log.out" 2>"$log"
  local peak secs
  peak=$(awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$log")
  secs=$(awk -F': ' '/Elapsed \(wall clock\) time/ {print $2}' "$log")
  echo "$peak|$secs|$(cat "$log.out")"
  rm -f "$log" "$log.out"
}

base_dir=$(generate "$BASE_FIXES")
long_dir=$(generate "$FIXES")
echo "== replay $BASE_FIXES fixes"
IFS='|' read -r base_kib base_time base_summary <<<"$(replay "$base_dir")"
echo "   peak RSS ${base_kib} KiB, ${base_time} wall; $base_summary"
echo "== replay $FIXES fixes"
IFS='|' read -r long_kib long_time long_summary <<<"$(replay "$long_dir")"
echo "   peak RSS ${long_kib} KiB, ${long_time} wall; $long_summary"

ratio=$(awk -v a="$long_kib" -v b="$base_kib" 'BEGIN { printf "%.3f", a / b }')
echo
echo "soak: ${FIXES} fixes peak ${long_kib} KiB vs ${BASE_FIXES} fixes peak ${base_kib} KiB: ratio ${ratio} (limit ${TOLERANCE})"
if awk -v r="$ratio" -v t="$TOLERANCE" 'BEGIN { exit !(r > t) }'; then
  echo "FAIL: peak memory grew with the trace length" >&2
  exit 1
fi
echo "ok: memory does not grow with the trace length"
