#!/usr/bin/env python3
"""Times fencesim against the shapely/GEOS reference on the same files, in one run.

Used by `make bench` and `make bench-scaling`. For each workload and feed mode it runs the
reference (../shared/bench/reference_shapely.py) and `fencesim replay --summary` alternately
(A B A B ...) under /usr/bin/time -v, checks that counts and checksums are identical, and prints
medians of wall time, the ratio reference/fencesim (the median of the ratios of the A B pairs,
and their range), and the peak RSS of both. It also times
`fencesim replay --parse-only`, the floor of a replay.

`--compare BASE` times another fencesim binary against this build instead (`make bench-compare
BASE=...`), in back-to-back pairs, for changes too small for single runs to show.

Workloads are generated with ../shared/bench/gen_workload.py outside the repository (in
$TMPDIR/geofence-bench) when missing. Absolute times depend on the machine and its load; the
ratios are what to compare.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED_BENCH = os.path.join(os.path.dirname(ROOT), "shared", "bench")
FENCESIM = os.path.join(ROOT, ".build", "release", "fencesim")
PROJ = "+proj=tmerc +lat_0=37.75 +lon_0=-122.20 +k=1 +x_0=0 +y_0=0 +ellps=WGS84"
SUMMARY = re.compile(r"^mode=(\w+)\s+inside_pairs=(\d+) enter=(\d+) exit=(\d+) enter_checksum=(\d+) exit_checksum=(\d+)", re.M)


def workload(root, name, args):
    d = os.path.join(root, name)
    if not os.path.exists(os.path.join(d, "manifest.json")):
        print("generating %s ..." % name, file=sys.stderr, flush=True)
        subprocess.run([sys.executable, os.path.join(SHARED_BENCH, "gen_workload.py")] + args + ["--out", d],
                       check=True, stdout=subprocess.DEVNULL)
    return d


def timed(cmd):
    """Wall seconds, peak RSS in KiB and standard output of `cmd` (see ``profiled``)."""
    measures, out = profiled(cmd)
    return measures["wall s"], measures["peak RSS MiB"] * 1024, out


def summaries(text):
    return [m.groups() for m in SUMMARY.finditer(text)]


def compare(d, mode, runs, python):
    ref_cmd = [python, os.path.join(SHARED_BENCH, "reference_shapely.py"), d, "--mode", mode]
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


def parse_floor(d, runs):
    cmd = [FENCESIM, "replay", os.path.join(d, "trace.csv"), "--fences", os.path.join(d, "fences.geojson"), "--parse-only"]
    return statistics.median(timed(cmd)[0] for _ in range(runs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.join(tempfile.gettempdir(), "geofence-bench"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--python", default=sys.executable, help="the interpreter with numpy, shapely and pyproj")
    ap.add_argument("--scaling", action="store_true", help="time fencesim over growing workloads, the reference beside it over growing fence sets, then 8 traces on 1 and on every core")
    ap.add_argument("--compare", metavar="BASE", help="time another fencesim binary (BASE) against this build, in pairs")
    ap.add_argument("--workload", default="large", choices=["small", "medium", "large"], help="with --compare (default large)")
    a = ap.parse_args()
    if not os.path.exists(FENCESIM):
        sys.exit("build fencesim first: swift build -c release")
    if a.compare:
        return compare_builds(a)
    if a.scaling:
        return scaling(a)
    print("| workload | mode | reference s | fencesim s | ratio | ratio, lowest–highest pair | reference RSS MiB | fencesim RSS MiB | identical |")
    print("|---|---|---|---|---|---|---|---|---|")
    failed = False
    floors = []
    for size in ["medium", "large"]:
        d = workload(a.root, "%s-s1" % size, ["--size", size, "--seed", "1"])
        for mode in ["point", "accuracy"]:
            r = compare(d, mode, a.runs, a.python)
            failed |= not r["same"]
            print("| %s | %s | %.2f | %.2f | %.1f× | %.1f–%.1f× | %.0f | %.0f | %s |" % (
                size, mode, r["ref"], r["fs"], r["ratio"], r["low"], r["high"], r["ref_rss"], r["fs_rss"],
                "yes" if r["same"] else "NO"), flush=True)
        floors.append((size, parse_floor(d, a.runs)))
    print()
    for size, t in floors:
        print("fencesim --parse-only on %s: %.2f s (reading the fences and the trace, no evaluation)" % (size, t))
    if failed:
        sys.exit("counts or checksums differ between fencesim and the reference")


TIMING = re.compile(r"^timing: ([\w-]+) ([\d.]+) s", re.M)


def profiled(cmd):
    """Wall and CPU seconds, peak RSS, the phases of `--timings` and standard output of `cmd`."""
    p = subprocess.run(["/usr/bin/time", "-v"] + cmd, capture_output=True, text=True)
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


def scaling(a):
    print("| fences | fixes | mode | fencesim s | peak RSS MiB | per million fixes s |")
    print("|---|---|---|---|---|---|")
    cases = [(100_000, 100_000), (100_000, 1_000_000), (100_000, 4_000_000),
             (10_000, 1_000_000), (400_000, 1_000_000)]
    commands = []
    for fences, fixes in cases:
        d = workload(a.root, "scale-f%d-x%d" % (fences, fixes), ["--fences", str(fences), "--fixes", str(fixes), "--seed", "1"])
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
        d = workload(a.root, "scale-f%d-x%d" % (fences, 1_000_000), ["--fences", str(fences), "--fixes", "1000000", "--seed", "1"])
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
