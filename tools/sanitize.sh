#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer and ThreadSanitizer (issue 8; `make sanitize`).
#
#   tools/sanitize.sh [address] [thread]     default: both, one after the other
#   SANITIZE_FILTER=REGEX                    pass --filter to swift test (default: every test)
#   SANITIZE_SKIP=REGEX                      pass --skip (default: MemoryTests; empty skips nothing)
#
# Each sanitizer builds in a scratch path of its own (.build-asan, .build-tsan: the sanitized
# build of the package and its dependencies, tests included); the command-line tests then run the
# sanitized fencesim binary built beside the test bundle, so the executable is checked too.
# A sanitizer report makes the process exit non-zero (halt_on_error), which fails its test.
# Slow: expect several times the time of `make test`; the time limits of the tests that run the
# binary are multiplied by FENCESIM_TIME_SCALE, and the generated million-vertex polygons are made smaller.
set -uo pipefail
cd "$(dirname "$0")/.."

SANITIZERS=("$@")
[ ${#SANITIZERS[@]} -eq 0 ] && SANITIZERS=(address thread)
FILTER=()
[ -n "${SANITIZE_FILTER:-}" ] && FILTER=(--filter "$SANITIZE_FILTER")
# SpatialTests.MemoryTests measure resident-memory growth over a million allocations; a sanitizer's
# allocator (quarantine, shadow memory, metadata) grows by design, so they are skipped here. Leaks
# are checked by `make leakcheck` and by those tests in `make test`.
SKIP="${SANITIZE_SKIP-MemoryTests}"
[ -n "$SKIP" ] && FILTER+=(--skip "$SKIP")

# Leaks are `make leakcheck`'s (valgrind, with its suppressions); ASan's leak checker would flag
# every child process for one-time allocations of the Swift runtime and Foundation.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:halt_on_error=1:abort_on_error=0}"
# tools/tsan-suppressions.txt: Synchronization.Mutex on Linux is invisible to TSan (see there).
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/tools/tsan-suppressions.txt}"
export FENCESIM_TIME_SCALE="${FENCESIM_TIME_SCALE:-8}"
export FENCESIM_POLYGON_VERTICES="${FENCESIM_POLYGON_VERTICES:-200000}"

status=0
summary=()
for sanitizer in "${SANITIZERS[@]}"; do
  case "$sanitizer" in
    address) scratch=.build-asan ;;
    thread) scratch=.build-tsan ;;
    *) echo "error: unknown sanitizer $sanitizer (address or thread)" >&2; exit 64 ;;
  esac
  log="$scratch/sanitize-$sanitizer.log"
  mkdir -p "$scratch"
  echo "== $sanitizer: building in $scratch"
  if ! swift build --scratch-path "$scratch" --build-tests --sanitize="$sanitizer"; then
    summary+=("$sanitizer: BUILD FAILED")
    status=1
    continue
  fi
  echo "== $sanitizer: swift test (log: $log)"
  swift test --scratch-path "$scratch" --sanitize="$sanitizer" --skip-build "${FILTER[@]}" 2>&1 | tee "$log"
  result=${PIPESTATUS[0]}
  reports=$(grep -c -E "ERROR: (AddressSanitizer|ThreadSanitizer)|WARNING: ThreadSanitizer" "$log" || true)
  if [ "$result" -ne 0 ] || [ "$reports" -ne 0 ]; then
    summary+=("$sanitizer: FAILED (swift test exit $result, $reports sanitizer report(s); see $log)")
    status=1
  else
    summary+=("$sanitizer: clean")
  fi
done
echo
printf '%s\n' "${summary[@]}"
exit $status
