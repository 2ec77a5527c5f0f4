#!/usr/bin/env bash
# Runs every command of the README's five-minute tour, as written, in a scratch copy of the
# repository's committed files, with the fencesim binary in BIN_DIR (default .build/debug).
# Exits 1 at the first command that fails, printing its output.
#
# usage: scripts/check-readme-tour.sh [BIN_DIR]
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
bin_dir="$(cd "${1:-$repo/.build/debug}" && pwd)"
[ -x "$bin_dir/fencesim" ] || { echo "error: no fencesim in $bin_dir (run swift build first)" >&2; exit 2; }
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
git -C "$repo" archive HEAD | tar -x -C "$scratch"
cp "$repo/README.md" "$scratch/README.md"   # the README as edited, not only as committed
cd "$scratch"
# The tour is the text between "## A five-minute tour" and the next "## "; its commands are the
# lines of its fenced blocks, with backslash continuations joined.
commands="$(awk '
  /^## A five-minute tour/ { tour = 1; next }
  tour && /^## / { exit }
  tour && /^```/ { block = !block; next }
  tour && block { if (sub(/\\$/, "")) { pending = pending $0; next } print pending $0; pending = "" }
' README.md)"
[ -n "$commands" ] || { echo "error: no tour commands found in README.md" >&2; exit 1; }
export PATH="$bin_dir:$PATH"
count=0
while IFS= read -r cmd; do
  case "$cmd" in export\ PATH=*) continue ;; esac   # the binary is already on PATH
  count=$((count + 1))
  if ! out="$(bash -c "$cmd" 2>&1)"; then
    echo "README tour: command $count failed: $cmd" >&2
    echo "$out" >&2
    exit 1
  fi
  echo "ok  $cmd"
done <<< "$commands"
echo "README tour: $count commands ran"
