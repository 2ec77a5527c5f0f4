#!/usr/bin/env python3
"""Prints the module floors of Package.swift, lowest first: each library and executable target of
this package with the targets it imports directly, less those it also reaches through another
(system libraries and other packages left out). The diagram in docs/architecture.md is its
output: `python3 tools/module-graph.py`."""
import json
import subprocess

package = json.loads(subprocess.check_output(["swift", "package", "dump-package"]))
targets = {t["name"]: t for t in package["targets"] if t["type"] in ("regular", "executable")}


def direct(name):
    out = set()
    for d in targets[name]["dependencies"]:
        for kind in ("byName", "target"):
            if kind in d and d[kind][0] in targets:
                out.add(d[kind][0])
    return out


def reach(name):
    seen, todo = set(), list(direct(name))
    while todo:
        n = todo.pop()
        if n not in seen:
            seen.add(n)
            todo += direct(n)
    return seen


floors = {}


def floor(name):
    if name not in floors:
        floors[name] = 1 + max((floor(d) for d in direct(name)), default=-1)
    return floors[name]


for name in sorted(targets, key=lambda n: (floor(n), n)):
    nearest = [d for d in direct(name) if not any(d in reach(o) for o in direct(name) if o != d)]
    nearest.sort(key=lambda n: (-floor(n), n))
    print("%2d  %-14s <- %s" % (floor(name), name, ", ".join(nearest) if nearest else "(C libraries only)"))
