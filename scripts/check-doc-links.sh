#!/usr/bin/env bash
# Checks every relative link in the repository's Markdown files: the file or folder it names must
# exist, and an anchor (`page.md#heading`, `#heading`) must be a heading of that page, slugged as
# GitHub does. Exits 1 on a broken link, printing each as `file:line: error: ...`.
#
# usage: scripts/check-doc-links.sh [ROOT] [FILE.md...]
#   ROOT defaults to the repository holding this script; FILE.md defaults to every *.md under
#   ROOT outside build and tool folders.
# DOC_LINKS_PENDING="docs/a.md docs/b.md" names pages another branch adds: a link to one that is
# absent is a note, not an error (its anchors are not checked until it exists).
set -euo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
shift || true
command -v python3 >/dev/null || { echo "error: check-doc-links needs python3" >&2; exit 2; }
exec python3 - "$root" "$@" <<'PY'
import os, re, sys, unicodedata

root = os.path.abspath(sys.argv[1])
pending = set(os.environ.get("DOC_LINKS_PENDING", "").split())
skip_dirs = {".build", ".git", ".venv-bench", ".build-fuzz", ".build-asan", ".build-tsan",
             ".build-leakcheck", "node_modules", ".swiftpm"}

def markdown_files():
    if len(sys.argv) > 2:
        return [os.path.abspath(p) for p in sys.argv[2:]]
    found = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in skip_dirs and not x.startswith(".build"))
        found += [os.path.join(d, f) for f in sorted(files) if f.endswith(".md")]
    return found

def prose_lines(path):
    """Yields (line number, text) outside fenced code blocks, with code spans blanked."""
    fence = None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            stripped = line.lstrip()
            marker = re.match(r"(`{3,}|~{3,})", stripped)
            if marker:
                if fence is None:
                    fence = marker.group(1)[0] * len(marker.group(1))
                elif stripped.startswith(fence):
                    fence = None
                continue
            if fence is None:
                yield n, line

def slug(heading):
    # GitHub: lower case, drop everything but letters, marks, numbers, `_`, `-` and spaces,
    # spaces become hyphens; a repeated slug gets -1, -2, ...
    text = re.sub(r"<[^>]+>", "", heading.strip().lower())
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in "-_" or cat[0] in "LMN":
            out.append(ch)
        elif ch == " ":
            out.append("-")
    return "".join(out)

anchor_cache = {}
def anchors(path):
    if path not in anchor_cache:
        seen, result = {}, set()
        for _, line in prose_lines(path):
            m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            base = slug(m.group(1))
            k = seen.get(base, 0)
            seen[base] = k + 1
            result.add(base if k == 0 else f"{base}-{k}")
        for _, line in prose_lines(path):
            for a in re.findall(r'<a\s+(?:name|id)="([^"]+)"', line):
                result.add(a)
        anchor_cache[path] = result
    return anchor_cache[path]

link = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
errors = notes = checked = 0
for md in markdown_files():
    rel_md = os.path.relpath(md, root)
    for n, line in prose_lines(md):
        line = re.sub(r"(`+)(?:(?!\1).)+\1", "", line)  # code spans
        for target in link.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                continue  # http:, https:, mailto:, ...
            checked += 1
            path_part, _, anchor = target.partition("#")
            dest = md if path_part == "" else os.path.normpath(
                os.path.join(os.path.dirname(md), path_part))
            rel_dest = os.path.relpath(dest, root)
            if not os.path.exists(dest):
                if rel_dest in pending:
                    notes += 1
                    print(f"{rel_md}:{n}: note: {target}: {rel_dest} is pending (DOC_LINKS_PENDING)")
                    continue
                errors += 1
                print(f"{rel_md}:{n}: error: {target}: no file {rel_dest}")
                continue
            if rel_dest.startswith(".."):
                errors += 1
                print(f"{rel_md}:{n}: error: {target}: points outside the repository")
                continue
            if anchor and dest.endswith(".md") and os.path.isfile(dest):
                if anchor not in anchors(dest):
                    errors += 1
                    print(f"{rel_md}:{n}: error: {target}: no heading #{anchor} in {rel_dest}")
print(f"check-doc-links: {checked} links checked, {errors} broken"
      + (f", {notes} pending" if notes else ""))
sys.exit(1 if errors else 0)
PY
