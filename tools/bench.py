#!/usr/bin/env python3
"""Times fencesim against the shapely/GEOS reference on the same files, in one run.

Used by `make bench` and `make bench-scaling`. Every command is timed as a whole process under
/usr/bin/time -v (wall time and peak RSS), and the commands compared with each other run
alternately (A B A B ...), so that a drift in the machine's speed weighs on both alike; ratios
are the median of the ratios of those pairs, with their range. Before each timed command, and
outside its time, the file it writes is removed if an earlier round left it (every round writes
a new file, as the first does) and dirty pages are written out (`sync`). `make bench` (issue 20
item 6):

(a) the event log, large workload, feeds point and accuracy:
    `reference_shapely.py DIR --mode M --events-out REF.csv` against
    `fencesim replay DIR/trace.csv --fences DIR/fences.geojson --crs PROJ --feed M
    --gap-policy ignore --format csv --out FS.csv`; the two files must hold the same multiset of
    (time, fence, event) rows (fencesim's `type` enter/exit is the reference's `event`, times are
    compared as UTC instants to the millisecond), and fencesim's log must be byte-identical from
    run to run;
(b) the count-only summary, medium and large workloads, both feeds: the reference against
    `fencesim replay ... --summary`, with identical counts and checksums;
(c) `fencesim report DIR/trace.csv --fences DIR/fences.geojson --crs PROJ --feed M --gap-policy
    ignore --json FILE --quiet` of the large workload (truth: the clean trace itself), run in the
    same rounds as (a): its time and peak RSS and its ratio to the event-log replay of (a);
(d) `fencesim sweep bench-sweep.yaml --vary buffer=0,10,20 --vary feed=point,accuracy --json FILE
    --quiet` (6 combinations) over the medium workload, alternating with `fencesim report` of the
    same scenario (one combination): time, peak RSS and sweep / report. bench-sweep.yaml is
    written into the workload's folder (its trace and fences, PROJ, gapPolicy ignore, its zones).
A report or sweep still running after --timeout seconds (default 600) is stopped, shown as
stopped and not run again. The reference writes exactly the --events-out path with one --mode.

Then `fencesim replay --parse-only`, the floor of a replay. `--scaling` (`make bench-scaling`)
times the event log (point feed, written to a file) on the large workload's 100,000 fences at 1M,
4M and 8M fixes, with the growth of time and peak RSS against 1M, then `replay --summary` over
growing traces and fence sets, the reference beside it over the fence sets, and 8 traces on one
and on every core.

`--compare BASE` times another fencesim binary against this build instead (`make bench-compare
BASE=...`), in back-to-back pairs, for changes too small for single runs to show.

The fencesim binary is --fencesim PATH, else $FENCESIM, else this checkout's
.build/release/fencesim. Workloads are generated with ../shared/bench/gen_workload.py outside
the repository (in $TMPDIR/geofence-bench, as DIR/{medium,large}-s1 and DIR/scale-fF-xX) when
missing; event logs and reports are written to a temporary folder there and removed at the end.
Absolute times depend on the machine and its load; the ratios are what to compare.
"""
import argparse
import collections
import csv
import datetime
import hashlib
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED_BENCH = os.path.join(os.path.dirname(ROOT), "shared", "bench")
REFERENCE = os.path.join(SHARED_BENCH, "reference_shapely.py")
# Set from --fencesim (default: $FENCESIM, else this checkout's release build) in main().
FENCESIM = os.path.join(ROOT, ".build", "release", "fencesim")
PROJ = "+proj=tmerc +lat_0=37.75 +lon_0=-122.20 +k=1 +x_0=0 +y_0=0 +ellps=WGS84"
SUMMARY = re.compile(r"^mode=(\w+)\s+inside_pairs=(\d+) enter=(\d+) exit=(\d+) enter_checksum=(\d+) exit_checksum=(\d+)", re.M)
# gen_workload.py's standard sizes: a scaling case of the same (fences, fixes) reuses that workload
# (the same seed gives byte-identical files).
SIZES = {(1_000, 10_000): "small", (10_000, 100_000): "medium", (100_000, 1_000_000): "large"}
SWEEP = ["--vary", "buffer=0,10,20", "--vary", "feed=point,accuracy"]


def workload(root, name, args):
    d = os.path.join(root, name)
    if not os.path.exists(os.path.join(d, "manifest.json")):
        print("generating %s ..." % name, file=sys.stderr, flush=True)
        subprocess.run([sys.executable, os.path.join(SHARED_BENCH, "gen_workload.py")] + args + ["--out", d],
                       check=True, stdout=subprocess.DEVNULL)
    return d


def scale_workload(root, fences, fixes):
    """The seed-1 workload of `fences` fences and `fixes` fixes: a standard size's folder when it
    is one (large-s1 is 100,000 × 1,000,000), else scale-f{fences}-x{fixes}."""
    size = SIZES.get((fences, fixes))
    if size:
        return workload(root, "%s-s1" % size, ["--size", size, "--seed", "1"])
    return workload(root, "scale-f%d-x%d" % (fences, fixes), ["--fences", str(fences), "--fixes", str(fixes), "--seed", "1"])


def timed(cmd):
    """Wall seconds, peak RSS in KiB and standard output of `cmd` (see ``profiled``)."""
    measures, out = profiled(cmd)
    return measures["wall s"], measures["peak RSS MiB"] * 1024, out


def summaries(text):
    return [m.groups() for m in SUMMARY.finditer(text)]


def compare(d, mode, runs, python):
    ref_cmd = [python, REFERENCE, d, "--mode", mode]
    fs_cmd = [FENCESIM, "replay", os.path.join(d, "trace.csv"), "--fences", os.path.join(d, "fences.geojson"),
              "--crs", PROJ, "--feed", mode, "--summary"]
    ref_t, ref_rss, fs_t, fs_rss = [], [], [], []
    ref_out = fs_out = None
    for _ in range(runs):
        t, rss, out = timed(ref_cmd)
        ref_t.append(t)
        ref_rss.append(rss)
        ref_out = summaries(out)
        t, rss, out = timed(fs_cmd)
        fs_t.append(t)
        fs_rss.append(rss)
        fs_out = summaries(out)
    same = ref_out == fs_out and len(fs_out) == 1
    # Each pair ran back to back, so a drift in the machine's speed over minutes weighs on both
    # sides of a pair alike: the ratio is the median of the pairs' ratios, with their range.
    ratios = [r / f for r, f in zip(ref_t, fs_t)]
    return {
        "ref": statistics.median(ref_t), "fs": statistics.median(fs_t),
        "ratio": statistics.median(ratios), "low": min(ratios), "high": max(ratios),
        "ref_rss": max(ref_rss) / 1024, "fs_rss": max(fs_rss) / 1024,
        "same": same, "summary": fs_out[0] if fs_out else None, "ref_summary": ref_out,
    }


def rounds(cmds, runs, timeouts={}, after=None):
    """Runs the named commands in turn, round after round (A B C A B C ...), and `after(name)`
    after each; returns, for each name, the list of ``profiled`` measures, and the set of names
    stopped after their time limit in `timeouts` (seconds; not run again in later rounds)."""
    measures = {name: [] for name, _ in cmds}
    stopped = set()
    for _ in range(runs):
        for name, cmd in cmds:
            if name in stopped:
                continue
            try:
                measures[name].append(profiled(cmd, timeouts.get(name))[0])
            except Stopped:
                print("stopped after %g s: %s" % (timeouts[name], " ".join(cmd)), file=sys.stderr, flush=True)
                stopped.add(name)
                continue
            if after:
                after(name)
    return measures, stopped


def median_of(ms, key="wall s"):
    return statistics.median(m[key] for m in ms)


def peak_of(ms):
    return max(m["peak RSS MiB"] for m in ms)


def pair_ratios(num, den, key="wall s"):
    """The median of the ratios num/den of the runs of the same round, and their range."""
    ratios = [n[key] / d[key] for n, d in zip(num, den) if d[key] > 0]
    return statistics.median(ratios), min(ratios), max(ratios)


def file_digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def instant(text, cache={}):
    """An ISO-8601 time as a UTC instant to the millisecond, `YYYY-MM-DDTHH:MM:SS.mmmZ`."""
    got = cache.get(text)
    if got is None:
        t = datetime.datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
        if t.tzinfo is None:
            t = t.replace(tzinfo=datetime.timezone.utc)
        t = t.astimezone(datetime.timezone.utc)
        got = cache[text] = t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000)
    return got


def reference_events(path):
    """The reference's events CSV (`time,fence,event`) as a multiset of (instant, fence, event)."""
    with open(path, newline="") as f:
        rows = csv.reader(f)
        header = next(rows)
        if header != ["time", "fence", "event"]:
            sys.exit("%s: unexpected header %s" % (path, header))
        return collections.Counter((instant(t), fence, event) for t, fence, event in rows)


def fencesim_events(path):
    """fencesim's CSV event log as a multiset of (instant, fence, type) over its enter and exit
    events, and the count of every other event type."""
    events, others = collections.Counter(), collections.Counter()
    with open(path, newline="") as f:
        rows = csv.reader(f)
        header = next(rows)
        t, ty, fe = header.index("time"), header.index("type"), header.index("fence")
        for row in rows:
            kind = row[ty]
            if kind in ("enter", "exit"):
                events[(instant(row[t]), row[fe], kind)] += 1
            else:
                others[kind] += 1
    return events, others


def same_events(ref_path, fs_path, label):
    """Compares the two event logs as multisets of (time, fence, event) rows; prints what differs
    (a few rows of each side) to standard error. Returns (rows, mismatches, text for the table)."""
    ref = reference_events(ref_path)
    fs, others = fencesim_events(fs_path)
    instant.__defaults__[0].clear()
    missing, extra = ref - fs, fs - ref
    n_missing, n_extra = sum(missing.values()), sum(extra.values())
    rows = "%d / %d" % (sum(ref.values()), sum(fs.values()))
    if others:
        print("%s: fencesim also wrote %s (not compared)" % (
            label, ", ".join("%d %s" % (n, k) for k, n in sorted(others.items()))), file=sys.stderr)
    if n_missing or n_extra:
        print("%s: %d rows only in the reference, %d only in fencesim" % (label, n_missing, n_extra), file=sys.stderr)
        for name, rows_ in (("reference only", missing), ("fencesim only", extra)):
            for row in sorted(rows_)[:10]:
                print("  %s: %s" % (name, ",".join(row)), file=sys.stderr)
        return rows, n_missing + n_extra, "NO: %d only in reference, %d only in fencesim" % (n_missing, n_extra)
    return rows, 0, "yes"


def event_log_and_report(d, mode, runs, python, out, timeout):
    """Jobs (a) and (c) on one workload and feed, in rounds of: the reference's event log,
    fencesim's event log, fencesim's report of the same inputs."""
    trace, fences = os.path.join(d, "trace.csv"), os.path.join(d, "fences.geojson")
    ref_file = os.path.join(out, "reference.%s.csv" % mode)
    fs_file = os.path.join(out, "fencesim.%s.csv" % mode)
    cmds = [
        ("ref", [python, REFERENCE, d, "--mode", mode, "--events-out", ref_file]),
        ("fs", [FENCESIM, "replay", trace, "--fences", fences, "--crs", PROJ, "--feed", mode,
                "--gap-policy", "ignore", "--format", "csv", "--out", fs_file]),
        ("report", [FENCESIM, "report", trace, "--fences", fences, "--crs", PROJ, "--feed", mode,
                    "--gap-policy", "ignore", "--json", os.path.join(out, "report.%s.json" % mode), "--quiet"]),
    ]
    digests = set()

    def after(name):
        if name == "fs":
            digests.add(file_digest(fs_file))

    # Only the report has a time limit: the event logs are what (a) compares.
    measures, stopped = rounds(cmds, runs, {"report": timeout}, after)
    rows, mismatches, verdict = same_events(ref_file, fs_file, "%s %s event log" % (os.path.basename(d), mode))
    if len(digests) != 1:
        verdict += "; fencesim's log DIFFERS between runs"
    return measures, stopped, rows, mismatches == 0 and len(digests) == 1, verdict


def sweep_scenario(d):
    """Writes DIR/bench-sweep.yaml: the workload's trace and fences, PROJ, the accuracy feed and
    gapPolicy ignore, and the zones its fences name (declared, so that the run notes nothing)."""
    zones = set()
    with open(os.path.join(d, "fences.geojson")) as f:
        for line in f:
            zones.update(re.findall(r'"zone":\s*"([^"]+)"', line))
    path = os.path.join(d, "bench-sweep.yaml")
    text = "\n".join([
        "# Written by fencesim's tools/bench.py: the scenario of `make bench`'s sweep.",
        "name: bench-sweep",
        "traces: [trace.csv]",
        "fences: fences.geojson",
        'crs: "%s"' % PROJ,
        "geotrigger:",
        "  feed: accuracy",
        "  gapPolicy: ignore",
        "zones:",
    ] + ["  - {id: %s, name: %s}" % (z, z) for z in sorted(zones)]) + "\n"
    if not os.path.exists(path) or open(path).read() != text:
        with open(path, "w") as f:
            f.write(text)
    return path


def sweep(d, runs, out, timeout):
    """Job (d): the sweep of 6 combinations, alternating with the report of its scenario."""
    scenario = sweep_scenario(d)
    cmds = [("sweep", [FENCESIM, "sweep", scenario] + SWEEP + ["--json", os.path.join(out, "sweep.json"), "--quiet"]),
            ("report", [FENCESIM, "report", scenario, "--json", os.path.join(out, "sweep-report.json"), "--quiet"])]
    return rounds(cmds, runs, {"sweep": timeout, "report": timeout})


def parse_floor(d, runs):
    cmd = [FENCESIM, "replay", os.path.join(d, "trace.csv"), "--fences", os.path.join(d, "fences.geojson"), "--parse-only"]
    return statistics.median(timed(cmd)[0] for _ in range(runs))


def main():
    global FENCESIM, OUTPUT_DIR
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.join(tempfile.gettempdir(), "geofence-bench"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--python", default=sys.executable, help="the interpreter with numpy, shapely and pyproj")
    ap.add_argument("--fencesim", metavar="PATH", default=os.environ.get("FENCESIM") or FENCESIM,
                    help="the fencesim binary to time (default: $FENCESIM, else .build/release/fencesim)")
    ap.add_argument("--scaling", action="store_true", help="the event log at 1M, 4M and 8M fixes, then fencesim over growing workloads, the reference beside it over growing fence sets, then 8 traces on 1 and on every core")
    ap.add_argument("--compare", metavar="BASE", help="time another fencesim binary (BASE) against this build, in pairs")
    ap.add_argument("--timeout", type=float, default=600, metavar="SECONDS",
                    help="stop a report or sweep still running after this long and print it as stopped (default 600)")
    ap.add_argument("--workload", default="large", choices=["small", "medium", "large"],
                    help="the workload of --compare and of the event-log and report jobs (default large; medium for a quick try)")
    a = ap.parse_args()
    FENCESIM = os.path.abspath(a.fencesim)
    if not os.path.exists(FENCESIM):
        sys.exit("no fencesim at %s: build it first (swift build -c release) or give --fencesim PATH" % FENCESIM)
    print("fencesim: %s (sha256 %s…)" % (FENCESIM, file_digest(FENCESIM)[:16]), flush=True)
    if a.compare:
        return compare_builds(a)
    os.makedirs(a.root, exist_ok=True)
    out = tempfile.mkdtemp(prefix="bench-out-", dir=a.root)
    OUTPUT_DIR = os.path.abspath(out)
    try:
        if a.scaling:
            return scaling(a, out)
        return bench(a, out)
    finally:
        shutil.rmtree(out, ignore_errors=True)


def bench(a, out):
    failed = []
    medium = workload(a.root, "medium-s1", ["--size", "medium", "--seed", "1"])
    large = workload(a.root, "large-s1", ["--size", "large", "--seed", "1"])
    size = a.workload
    events_dir = workload(a.root, "%s-s1" % size, ["--size", size, "--seed", "1"])

    print()
    print("(a) event log: reference --events-out against fencesim replay --gap-policy ignore --format csv --out (%d runs each, alternating)" % a.runs)
    print()
    print("| workload | mode | reference s | fencesim s | ratio | ratio, lowest–highest pair | reference RSS MiB | fencesim RSS MiB | fencesim / reference RSS | rows reference / fencesim | same (time, fence, event) rows |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    reports = []
    for mode in ["point", "accuracy"]:
        m, stopped, rows, same, verdict = event_log_and_report(events_dir, mode, a.runs, a.python, out, a.timeout)
        if not same:
            failed.append("event log %s %s" % (size, mode))
        ratio = pair_ratios(m["ref"], m["fs"])
        print("| %s | %s | %.2f | %.2f | %.1f× | %.1f–%.1f× | %.0f | %.0f | %.2f | %s | %s |" % (
            size, mode, median_of(m["ref"]), median_of(m["fs"]), ratio[0], ratio[1], ratio[2],
            peak_of(m["ref"]), peak_of(m["fs"]), peak_of(m["fs"]) / peak_of(m["ref"]), rows, verdict), flush=True)
        reports.append((mode, m, stopped))

    print()
    print("(c) fencesim report --json of the same inputs (truth: the clean trace; in the rounds of (a))")
    print()
    print("| workload | mode | report s | report RSS MiB | event log s | report / event log | lowest–highest pair |")
    print("|---|---|---|---|---|---|---|")
    for mode, m, stopped in reports:
        if "report" in stopped:
            print("| %s | %s | > %.0f (stopped) | ? | %.2f | > %.0f× | |" % (
                size, mode, a.timeout, median_of(m["fs"]), a.timeout / median_of(m["fs"])), flush=True)
            continue
        ratio = pair_ratios(m["report"], m["fs"])
        print("| %s | %s | %.2f | %.0f | %.2f | %.2f× | %.2f–%.2f× |" % (
            size, mode, median_of(m["report"]), peak_of(m["report"]), median_of(m["fs"]), ratio[0], ratio[1], ratio[2]), flush=True)

    print()
    print("(b) count-only: reference against fencesim replay --summary (%d runs each, alternating)" % a.runs)
    print()
    print("| workload | mode | reference s | fencesim s | ratio | ratio, lowest–highest pair | reference RSS MiB | fencesim RSS MiB | identical |")
    print("|---|---|---|---|---|---|---|---|---|")
    floors = []
    for size_, d in [("medium", medium), ("large", large)]:
        for mode in ["point", "accuracy"]:
            r = compare(d, mode, a.runs, a.python)
            if not r["same"]:
                failed.append("summary %s %s" % (size_, mode))
            print("| %s | %s | %.2f | %.2f | %.1f× | %.1f–%.1f× | %.0f | %.0f | %s |" % (
                size_, mode, r["ref"], r["fs"], r["ratio"], r["low"], r["high"], r["ref_rss"], r["fs_rss"],
                "yes" if r["same"] else "NO"), flush=True)
        floors.append((size_, parse_floor(d, a.runs)))

    print()
    print("(d) fencesim sweep %s on medium (6 combinations), alternating with the report of its scenario" % " ".join(SWEEP))
    print()
    print("| workload | combinations | sweep s | sweep RSS MiB | report s | report RSS MiB | sweep / report | lowest–highest pair |")
    print("|---|---|---|---|---|---|---|---|")
    m, stopped = sweep(medium, a.runs, out, a.timeout)
    if stopped:
        print("| medium | 6 | stopped after %.0f s: %s | | | | | |" % (a.timeout, " and ".join(sorted(stopped))), flush=True)
    else:
        ratio = pair_ratios(m["sweep"], m["report"])
        print("| medium | 6 | %.2f | %.0f | %.2f | %.0f | %.2f× | %.2f–%.2f× |" % (
            median_of(m["sweep"]), peak_of(m["sweep"]), median_of(m["report"]), peak_of(m["report"]),
            ratio[0], ratio[1], ratio[2]), flush=True)

    print()
    for size_, t in floors:
        print("fencesim --parse-only on %s: %.2f s (reading the fences and the trace, no evaluation)" % (size_, t))
    if failed:
        sys.exit("fencesim and the reference differ: %s" % ", ".join(failed))


TIMING = re.compile(r"^timing: ([\w-]+) ([\d.]+) s", re.M)


# The flags naming a file a timed command writes, and the bench's temporary folder they point
# into (set in main): `profiled` removes such a file left by an earlier round before timing.
OUTPUT_FLAGS = {"--out", "--json", "--html", "--events-out"}
OUTPUT_DIR = None


class Stopped(Exception):
    """A command ran longer than its time limit and was stopped."""


def profiled(cmd, timeout=None):
    """Wall and CPU seconds, peak RSS, the phases of `--timings` and standard output of `cmd`.
    With `timeout`, a command still running after that many seconds is killed (with every
    process of its own session) and Stopped raised.

    Untimed, before it starts: the file it writes into the bench's own output folder is removed
    when an earlier round left it there, so that every round writes a new file as the first does
    (replacing a file frees the old one's blocks inside the write: 25–35 ms of fencesim's rename
    over last round's 119 MB event log, 75–95 ms over a 272 MB report, a truncation at the
    reference's open of its 27 MB); and dirty pages are written out (`sync`): the reference leaves
    its event log in the page cache, fencesim fsyncs its own outputs (atomic files), and the
    kernel's writeback of one command's file must not run in the time of the next."""
    for flag, path in zip(cmd, cmd[1:]):
        if flag in OUTPUT_FLAGS and OUTPUT_DIR and os.path.dirname(os.path.abspath(path)) == OUTPUT_DIR \
                and os.path.isfile(path):
            os.remove(path)
    os.sync()
    p = subprocess.Popen(["/usr/bin/time", "-v"] + cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, start_new_session=True)
    try:
        stdout, stderr = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        raise Stopped(" ".join(cmd))
    p = subprocess.CompletedProcess(p.args, p.returncode, stdout, stderr)
    if p.returncode != 0:
        sys.exit("command failed (%d): %s\n%s" % (p.returncode, " ".join(cmd), p.stderr[-2000:]))
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", p.stderr)
    h, m, sec = wall.groups()
    cpu = sum(float(re.search(r"%s time \(seconds\): ([\d.]+)" % k, p.stderr).group(1)) for k in ["User", "System"])
    out = {"wall s": (int(h) * 3600 if h else 0) + int(m) * 60 + float(sec), "CPU s": cpu,
           "peak RSS MiB": int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr).group(1)) / 1024}
    for phase, t in TIMING.findall(p.stderr):
        out[phase + " s"] = float(t)
    return out, p.stdout


def compare_builds(a):
    """This build against BASE on one workload, both modes: pairs run back to back, in the order
    base-new then new-base (so neither always runs second), at least 8 pairs; for each measure the
    medians and the median of the pairs' ratios new/base, with the lowest and highest pair. Meant
    for changes of a few percent, which single runs on a shared machine cannot show."""
    if not os.path.exists(a.compare):
        sys.exit("no such binary: %s" % a.compare)
    d = workload(a.root, "%s-s1" % a.workload, ["--size", a.workload, "--seed", "1"])
    pairs = max(a.runs, 8)
    for mode in ["point", "accuracy"]:
        args = ["replay", os.path.join(d, "trace.csv"), "--fences", os.path.join(d, "fences.geojson"),
                "--crs", PROJ, "--feed", mode, "--summary", "--timings"]
        runs = {"base": [], "new": []}
        outputs = set()
        for k in range(pairs):
            order = [("base", a.compare), ("new", FENCESIM)]
            for name, binary in (order if k % 2 == 0 else order[::-1]):
                measures, out = profiled([binary] + args)
                runs[name].append(measures)
                outputs.add(out)
        print()
        print("%s %s, %d pairs: %s" % (a.workload, mode, pairs, "identical summaries" if len(outputs) == 1 else "SUMMARIES DIFFER"))
        print("| measure | base | new | new / base | lowest–highest pair |")
        print("|---|---|---|---|---|")
        for key in runs["base"][0]:
            if not all(key in r for r in runs["base"] + runs["new"]):
                continue
            base = [r[key] for r in runs["base"]]
            new = [r[key] for r in runs["new"]]
            ratios = [n / b for b, n in zip(base, new) if b > 0]
            if not ratios:
                continue
            print("| %s | %.3f | %.3f | %.3f | %.3f–%.3f |" % (key, statistics.median(base), statistics.median(new),
                                                          statistics.median(ratios), min(ratios), max(ratios)), flush=True)
        if len(outputs) != 1:
            sys.exit("the two builds print different summaries")


def scaling(a, out):
    event_log_scaling(a, out)
    print()
    print("| fences | fixes | mode | fencesim s | peak RSS MiB | per million fixes s |")
    print("|---|---|---|---|---|---|")
    cases = [(100_000, 100_000), (100_000, 1_000_000), (100_000, 4_000_000),
             (10_000, 1_000_000), (400_000, 1_000_000)]
    commands = []
    for fences, fixes in cases:
        d = scale_workload(a.root, fences, fixes)
        for mode in ["point", "accuracy"]:
            commands.append(((fences, fixes, mode), [FENCESIM, "replay", os.path.join(d, "trace.csv"), "--fences",
                                                     os.path.join(d, "fences.geojson"), "--crs", PROJ, "--feed", mode, "--summary",
                                                     "--timings"]))
    # Round after round over every case (not each case's runs back to back), so that a drift in
    # the machine's speed weighs on every row alike: the rows are compared with each other.
    runs = {key: [] for key, _ in commands}
    for _ in range(a.runs):
        for key, cmd in commands:
            runs[key].append(profiled(cmd)[0])
    for (fences, fixes, mode), _ in commands:
        t = statistics.median(r["wall s"] for r in runs[(fences, fixes, mode)])
        rss = max(r["peak RSS MiB"] for r in runs[(fences, fixes, mode)])
        print("| %d | %d | %s | %.2f | %.0f | %.2f |" % (fences, fixes, mode, t, rss, t / (fixes / 1e6)), flush=True)
    fence_phases(runs)
    fence_growth(a)
    parallel_traces(a)


def event_log_scaling(a, out):
    """The event log (point feed, CSV to a file, as in `make bench`'s job (a)) on the 100,000
    fences of the large workload at 1M, 4M and 8M fixes, round after round over the three: median
    time and peak RSS of each, and their growth against 1M (issue 20 item 3: the peak at 4M within
    15 % of 1M's). The traces are gen_workload.py's (the first 1M fixes of the 4M trace are the
    1M trace); the 8M one takes a while and about 500 MB to generate, once."""
    fixes = [1_000_000, 4_000_000, 8_000_000]
    cmds = []
    for n in fixes:
        d = scale_workload(a.root, 100_000, n)
        cmds.append((n, [FENCESIM, "replay", os.path.join(d, "trace.csv"), "--fences", os.path.join(d, "fences.geojson"),
                         "--crs", PROJ, "--feed", "point", "--gap-policy", "ignore", "--format", "csv",
                         "--out", os.path.join(out, "events-x%d.csv" % n)]))
    measures, _ = rounds(cmds, a.runs)
    print()
    print("event log to a file (replay --feed point --gap-policy ignore --format csv --out), 100,000 fences, %d rounds" % a.runs)
    print()
    print("| fences | fixes | mode | fencesim s | peak RSS MiB | per million fixes s | time / 1M's | peak RSS / 1M's |")
    print("|---|---|---|---|---|---|---|---|")
    base = measures[fixes[0]]
    for n in fixes:
        m = measures[n]
        print("| 100000 | %d | point | %.2f | %.0f | %.2f | %.2f× | %.2f× |" % (
            n, median_of(m), peak_of(m), median_of(m) / (n / 1e6), median_of(m) / median_of(base),
            peak_of(m) / peak_of(base)), flush=True)
    growth = {n: peak_of(measures[n]) / peak_of(base) - 1 for n in fixes[1:]}
    print()
    print("peak RSS against 1M fixes: %+.1f %% at 4M (issue 20: within 15 %%: %s), %+.1f %% at 8M" % (
        growth[4_000_000] * 100, "yes" if growth[4_000_000] <= 0.15 else "NO", growth[8_000_000] * 100), flush=True)


def fence_phases(runs):
    """Where the time goes as the fences grow (1M fixes): the medians of the `--timings` phases
    (reading the fences, indexing them, replaying; the trace is read on its own thread meanwhile)
    and of the whole process's CPU time, then what each further 100,000 fences cost between
    100,000 and 400,000 and what a replay would take without fences at that rate (the intercept):
    time grows sub-linearly in the fences exactly as far as that intercept weighs."""
    phases = ["read-fences s", "index-fences s", "replay s", "wall s", "CPU s"]
    print()
    print("| fences | fixes | mode | read fences s | index s | replay s | whole run s | CPU s |")
    print("|---|---|---|---|---|---|---|---|")
    for mode in ["point", "accuracy"]:
        med = {}
        for fences in [10_000, 100_000, 400_000]:
            rows = runs[(fences, 1_000_000, mode)]
            med[fences] = [statistics.median(r.get(k, 0.0) for r in rows) for k in phases]
            print("| %d | 1000000 | %s | %s |" % (fences, mode, " | ".join("%.2f" % v for v in med[fences])), flush=True)
        step = [(b - c) / 3 for b, c in zip(med[400_000], med[100_000])]
        print("| each 100,000 more | 1000000 | %s | %s |" % (mode, " | ".join("%+.2f" % v for v in step)))
        print("| none (intercept) | 1000000 | %s | %s |" % (mode, " | ".join("%.2f" % (c - d) for c, d in zip(med[100_000], step))))


def fence_growth(a):
    """The reference and fencesim over the growing fence sets (1M fixes, point mode), in pairs:
    how much of the growth in time comes with the workload itself. The box is fixed, so the pairs
    inside and the events grow with the fences, whoever evaluates them."""
    print()
    print("| fences | fixes | mode | reference s | fencesim s | reference growth | fencesim growth | ratio | identical |")
    print("|---|---|---|---|---|---|---|---|---|")
    previous = None
    for fences in [10_000, 100_000, 400_000]:
        d = scale_workload(a.root, fences, 1_000_000)
        r = compare(d, "point", a.runs, a.python)
        growth = ("%.2f× for %d×" % (r["ref"] / previous["ref"], fences // previous["fences"]),
                  "%.2f× for %d×" % (r["fs"] / previous["fs"], fences // previous["fences"])) if previous else ("", "")
        print("| %d | 1000000 | point | %.2f | %.2f | %s | %s | %.1f× | %s |" % (
            fences, r["ref"], r["fs"], growth[0], growth[1], r["ratio"], "yes" if r["same"] else "NO"), flush=True)
        previous = {"fences": fences, "ref": r["ref"], "fs": r["fs"]}


def parallel_traces(a):
    """Eight traces at once: the large workload's trace cut into 8 files of 125,000 fixes, replayed
    on one core (one worker, pinned with taskset, so that no phase uses a second core) and with
    one worker per core (`replay --summary` reads the traces on one thread and hands chunks of
    fixes to every worker)."""
    d = workload(a.root, "large-s1", ["--size", "large", "--seed", "1"])
    parts = os.path.join(a.root, "large-s1-8traces")
    paths = [os.path.join(parts, "part%d.csv" % k) for k in range(8)]
    if not all(os.path.exists(p) for p in paths):
        os.makedirs(parts, exist_ok=True)
        with open(os.path.join(d, "trace.csv")) as f:
            header = f.readline()
            rows = f.readlines()
        per = (len(rows) + 7) // 8
        for k, p in enumerate(paths):
            with open(p, "w") as out:
                out.write(header)
                out.writelines(rows[k * per:(k + 1) * per])
    cores = os.cpu_count() or 1
    print()
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    print("| traces | mode | cores | workers | fencesim s | peak RSS MiB | time / one core's | lowest–highest pair |")
    print("|---|---|---|---|---|---|---|---|")
    for mode in ["point", "accuracy"]:
        cmds = []
        for workers in [1, cores]:
            cmd = [FENCESIM, "replay"] + paths + ["--fences", os.path.join(d, "fences.geojson"), "--crs", PROJ,
                                                   "--feed", mode, "--summary", "--workers", str(workers)]
            cmds.append(pin + cmd if workers == 1 else cmd)
        # In back-to-back pairs, one core first in every other pair and all cores first in the
        # rest, so that a drift in the machine's speed, or whatever a run leaves behind for the
        # next, weighs on both alike.
        # The fraction is the median over the pairs of all cores' time over one core's, with its
        # range; at least 15 pairs (on this shared host single pairs have ranged from 0.43 to
        # 0.80 in one run, and medians of 9 pairs by ±0.03 between runs).
        runs = [[], []]
        for pair in range(max(a.runs, 15)):
            for k in ([0, 1] if pair % 2 == 0 else [1, 0]):
                runs[k].append(timed(cmds[k]))
        fractions = [many[0] / one[0] for one, many in zip(runs[0], runs[1])]
        for k, workers in enumerate([1, cores]):
            t = statistics.median(r[0] for r in runs[k])
            fraction = "1.00" if k == 0 else "%.2f" % statistics.median(fractions)
            spread = "" if k == 0 else "%.2f–%.2f" % (min(fractions), max(fractions))
            print("| 8 | %s | %s | %d | %.2f | %.0f | %s | %s |" % (mode, 1 if (workers == 1 and pin) else cores, workers, t,
                                                                 max(r[1] for r in runs[k]) / 1024, fraction, spread), flush=True)


if __name__ == "__main__":
    main()
