#!/usr/bin/env bash
# Fuzzes fencesim's readers with libFuzzer (issue 8; `make fuzz`).
#
#   tools/fuzz.sh [TARGET...]          default: every target of Fuzz/Sources/FencesimFuzz
#   FUZZ_SECONDS=60                     time per target
#   FUZZ_JOBS=1                         parallel fuzzing processes per target (2 cores here)
#   FUZZ_BUILD=.build-fuzz              scratch path of the instrumented build
#
# Each target starts from its seed corpus (Fuzz/corpus/TARGET, committed) and a working corpus
# that grows across runs ($FUZZ_BUILD/corpus/TARGET, git-ignored). An input that crashes, hangs
# (-timeout) or runs out of memory (-rss_limit_mb) is saved by libFuzzer under
# $FUZZ_BUILD/artifacts/TARGET/ and copied into the regression corpus Fuzz/regressions/TARGET/,
# which `make test` replays (Tests/fencesimTests/FuzzRegressionTests.swift). Exits 1 when any
# target found something, after running the others.
set -uo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_TARGET="${FUZZ_SECONDS:-60}"
JOBS="${FUZZ_JOBS:-1}"
BUILD="${FUZZ_BUILD:-.build-fuzz}"
ALL_TARGETS=(gpx csv nmea plt geojson scenario filter rules)
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=("${ALL_TARGETS[@]}")

# The longest input each target tries: large enough for deep nesting and long lines, small enough
# to keep executions fast. Huge inputs are the bad-input corpus's job (Tests/BadInputs).
max_len() {
  case "$1" in
    filter) echo 16384 ;;
    scenario|rules|geojson|gpx) echo 65536 ;;
    *) echo 16384 ;;
  esac
}

echo "== building the fuzz targets (libFuzzer + AddressSanitizer) in $BUILD"
# (ld.gold warns about every ASan register helper it cannot export: noise, filtered out.)
(cd Fuzz && swift build --scratch-path "../$BUILD" -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library 2>&1) \
  | grep -v "Cannot export local symbol"
[ "${PIPESTATUS[0]}" -eq 0 ] || exit 2
BIN="$BUILD/debug/FencesimFuzz"

# The trace and scenario targets read from files: keep them in a folder of their own.
SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/fencesim-fuzz-run-XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT

found=0
summary=()
for target in "${TARGETS[@]}"; do
  seeds="Fuzz/corpus/$target"
  work="$BUILD/corpus/$target"
  artifacts="$BUILD/artifacts/$target"
  regressions="Fuzz/regressions/$target"
  [ -d "$seeds" ] || { echo "error: no seed corpus $seeds" >&2; exit 64; }
  mkdir -p "$work" "$artifacts" "$regressions"
  before=$(find "$artifacts" -type f 2>/dev/null | wc -l)
  log="$BUILD/fuzz-$target.log"
  echo "== $target: ${SECONDS_PER_TARGET}s from $seeds (log: $log)"
  # ASan's leak checker is off: a reader that throws midway may leave caches that are freed at
  # exit, and LeakSanitizer findings belong to `make leakcheck`.
  TMPDIR="$SCRATCH" ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1" \
    "$BIN" "$target" "$work" "$seeds" \
      -max_total_time="$SECONDS_PER_TARGET" -max_len="$(max_len "$target")" \
      -timeout=25 -rss_limit_mb=4096 -malloc_limit_mb=4096 \
      $( [ "$JOBS" -gt 1 ] && echo "-jobs=$JOBS -workers=$JOBS" ) \
      -artifact_prefix="$artifacts/" -print_final_stats=1 >"$log" 2>&1
  status=$?
  runs=$(grep -h '^stat::number_of_executed_units' "$log" fuzz-*.log 2>/dev/null | awk '{s+=$2} END {print s+0}')
  cov=$(grep -ho 'cov: [0-9]*' "$log" | tail -1)
  new=0
  for f in $(find "$artifacts" -type f 2>/dev/null); do
    sum=$(sha1sum "$f" | cut -c1-16)
    kind=$(basename "$f" | cut -d- -f1)
    dest="$regressions/$kind-$sum"
    if [ ! -e "$dest" ]; then cp "$f" "$dest"; new=$((new + 1)); fi
  done
  after=$(find "$artifacts" -type f 2>/dev/null | wc -l)
  if [ "$after" -gt "$before" ] || [ $status -ne 0 ]; then
    found=1
    summary+=("$target: FOUND (exit $status; $new new regression input(s) in $regressions; see $log)")
    grep -m3 -E 'ERROR|SUMMARY|Fatal error|crashed' "$log" | sed 's/^/    /'
  else
    summary+=("$target: ok, $runs executions, $cov, corpus $(ls "$work" | wc -l) files")
  fi
  rm -f fuzz-*.log
done

echo
echo "== fuzzing summary (${SECONDS_PER_TARGET}s per target)"
printf '%s\n' "${summary[@]}"
exit $found
