# fencesim — two commands for a new user: `make demo` and `make test`.
# Every target depends on `setup`, which installs the Debian packages fencesim links against when
# they are missing (as root, or through sudo).

SWIFT      ?= swift
APT_PKGS   := libgeos-dev libproj-dev proj-data zlib1g-dev pkg-config
BIN_DEBUG  := .build/debug/fencesim
BIN        := .build/release/fencesim
SHARED     ?= ../shared

.PHONY: setup setup-browser setup-slurm test-slurm build release test update-goldens demo leakcheck bench bench-scaling bench-compare fuzz sanitize soak clean help lint-docs check-tour format lint-style

help:
	@echo "make demo       build fencesim and run it on the bundled example"
	@echo "make test       run the whole test suite"
	@echo "make leakcheck  create and free GEOS objects under valgrind; fails on a definite leak"
	@echo "make bench      fencesim against the shapely reference: event log (same rows), count-only summary, report, sweep (ratios, peak memory)"
	@echo "make bench-scaling  the event log at 1M/4M/8M fixes, then fencesim over growing traces and fence sets (the reference beside it)"
	@echo "make bench-compare BASE=path  this build against another fencesim binary, in pairs"
	@echo "make fuzz       libFuzzer on every reader, FUZZ_SECONDS (60) each; new crashes go to Fuzz/regressions"
	@echo "make sanitize   the test suite under AddressSanitizer, then ThreadSanitizer (SANITIZERS=\"address thread\")"
	@echo "make soak       a 20-million-fix trace against 100k fences: peak memory within 10% of a 1-million-fix replay"
	@echo "make setup      install the Debian packages fencesim needs (run by every target)"
	@echo "make setup-browser  install Debian's chromium, which the HTML report test loads the report in"
	@echo "make setup-slurm    install Debian's slurm-wlm and munge, which the Slurm job-array test runs a one-node cluster with"
	@echo "make test-slurm     sharded report and sweep through a one-node Slurm cluster started here (as root; skipped without Slurm)"
	@echo "make lint-docs  every relative link and anchor in the Markdown pages resolves (run by make test)"
	@echo "make check-tour run every command of the README's five-minute tour with the debug build"
	@echo "make format     swift format rewrites Sources, Tests and Package.swift in place (.swift-format)"
	@echo "make lint-style swift format lint --strict: fails on any formatting finding"

setup:
	@missing=""; for p in $(APT_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null || exit 1; \
	fi
	@command -v $(SWIFT) >/dev/null || { echo "error: swift is not on PATH (fencesim needs Swift 6.1 or later)"; exit 1; }

# The HTML report test loads a report in headless Chromium; without it that test says it is skipped.
setup-browser:
	@command -v chromium >/dev/null || { echo "installing chromium"; if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

# The job-array test (deploy/slurm/test-cluster.sh) starts a one-node Slurm cluster; without these
# packages (or as another user than root) it says it is skipped.
setup-slurm:
	@missing=""; for p in slurm-wlm munge; do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null || exit 1; \
	fi

# Sharded report and sweep through sbatch on a one-node cluster, merged outputs compared with
# single runs byte for byte (at most a few minutes; says SKIPPED where Slurm cannot start).
test-slurm: setup
	$(SWIFT) build
	timeout 600 deploy/slurm/test-cluster.sh $(BIN_DEBUG)

build: setup
	$(SWIFT) build

# The release binary carries the Swift runtime and Foundation (as deploy/Dockerfile's does): it
# runs on a machine without a Swift toolchain, starts in a third of the time (no dynamic symbol
# lookups across a dozen libraries), and calls the runtime without going through the PLT.
release: setup
	$(SWIFT) build -c release --static-swift-stdlib

# The memory-growth tests measure the whole process's resident memory: they run in a process of
# their own, after the others, where no other suite allocates beside them. The tests' temporary
# folders go to one scratch folder, removed when the tests end, pass or fail (many tests leave
# theirs, and thousands of entries in /tmp slow every tool that lists it).
test: setup
	$(SWIFT) build
	@scratch=$$(mktemp -d "$${TMPDIR:-/tmp}/fencesim-test.XXXXXX") && trap 'rm -rf "$$scratch"' EXIT && \
	  echo "TMPDIR=$$scratch $(SWIFT) test --skip SpatialTests.MemoryTests" && \
	  TMPDIR="$$scratch" $(SWIFT) test --skip SpatialTests.MemoryTests && \
	  echo "TMPDIR=$$scratch $(SWIFT) test --skip-build --filter SpatialTests.MemoryTests" && \
	  TMPDIR="$$scratch" $(SWIFT) test --skip-build --filter SpatialTests.MemoryTests
	$(BIN_DEBUG) check scenarios/
	$(MAKE) --no-print-directory lint-docs
	timeout 600 deploy/slurm/test-cluster.sh $(BIN_DEBUG)

# Rewrites the bundled scenarios' golden event logs; review the diff before committing it.
update-goldens: build
	$(BIN_DEBUG) check scenarios/ --update

demo: release
	@echo "== fencesim inspect traces/demo-drive.gpx traces/demo-fences.geojson"
	$(BIN) inspect traces/demo-drive.gpx traces/demo-fences.geojson
	@echo
	@echo "== fencesim run scenarios/demo.yaml --format table"
	$(BIN) run scenarios/demo.yaml --format table
	$(BIN) run scenarios/demo.yaml --out out
	@echo "the event log (JSON Lines) is in out/demo-delivery.events.jsonl"
	@echo
	@echo "== fencesim report scenarios/demo-degraded.yaml --html demo-report.html --json demo-report.json"
	$(BIN) report scenarios/demo-degraded.yaml --html demo-report.html --json demo-report.json
	@echo "the accuracy report is in $$(pwd)/demo-report.html"

# valgrind 3.19 cannot read clang's DWARF 5 (Yams' C sources), so C is built with DWARF 4 in a
# scratch path of its own; the leak scenario runs through the XCTest entry point because valgrind
# 3.19 crashes on Swift Testing's (async main). tools/valgrind-xctest.supp holds two leaks inside
# XCTest itself.
LEAKCHECK_BUILD := .build-leakcheck
leakcheck: setup
	@command -v valgrind >/dev/null || { echo "installing valgrind"; if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get install -y -qq valgrind >/dev/null; }
	$(SWIFT) build --scratch-path $(LEAKCHECK_BUILD) --build-tests -Xcc -gdwarf-4
	valgrind --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=1 \
	  --suppressions=tools/valgrind-xctest.supp \
	  $(LEAKCHECK_BUILD)/debug/fencesimPackageTests.xctest SpatialTests.LeakcheckTests/testLeakScenario

# The reference's pinned Python packages go into a virtual environment of the project's own
# (git-ignored); workloads are generated outside the repository.
BENCH_VENV := .venv-bench
$(BENCH_VENV)/ok:
	python3 -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/pip install -q numpy==2.4.6 shapely==2.2.0 pyproj==3.7.2
	touch $@

# bench and bench-scaling time FENCESIM (default: this checkout's release build, built first);
# `make bench FENCESIM=path` times that binary instead and builds nothing.
# bench: on the large workload, in both feeds, the event log (reference --events-out against
# replay --gap-policy ignore --format csv --out, same (time, fence, event) rows), the count-only
# summary (and on medium), report --json; a sweep of 6 combinations over the medium workload.
# bench-scaling: the event log at 1M, 4M and 8M fixes over the 100k fences (generated once into
# $$TMPDIR/geofence-bench; 8M takes a while and about 500 MB), then summary scaling.
FENCESIM ?=
BENCH_BIN := $(if $(FENCESIM),$(FENCESIM),$(BIN))
BENCH_BUILD := $(if $(FENCESIM),,release)
BENCH_TIME = @command -v /usr/bin/time >/dev/null 2>&1 || { if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; $$SUDO apt-get install -y -qq time >/dev/null; }

bench: $(BENCH_BUILD) $(BENCH_VENV)/ok
	$(BENCH_TIME)
	$(BENCH_VENV)/bin/python tools/bench.py --python $(BENCH_VENV)/bin/python --fencesim "$(BENCH_BIN)" --runs 3

bench-scaling: $(BENCH_BUILD) $(BENCH_VENV)/ok
	$(BENCH_TIME)
	$(BENCH_VENV)/bin/python tools/bench.py --python $(BENCH_VENV)/bin/python --fencesim "$(BENCH_BIN)" --runs 3 --scaling

# bench-compare: this build against another fencesim binary, BASE=path (for example a copy of
# .build/release/fencesim made before a change), in back-to-back pairs on the large workload.
bench-compare: $(BENCH_BUILD) $(BENCH_VENV)/ok
	@test -n "$(BASE)" || { echo "usage: make bench-compare BASE=path/to/other/fencesim [PAIRS=8] [FENCESIM=path]"; exit 64; }
	$(BENCH_TIME)
	$(BENCH_VENV)/bin/python tools/bench.py --python $(BENCH_VENV)/bin/python --fencesim "$(BENCH_BIN)" --compare "$(BASE)" --runs $(or $(PAIRS),8)

# Hardening (SECURITY.md). Each uses a scratch path of its own, so none disturbs `make test`'s build.
# fuzz: the Fuzz/ package built with -sanitize=fuzzer,address in .build-fuzz, each target run for
# FUZZ_SECONDS from its seeds in Fuzz/corpus/TARGET; every input that crashes, hangs or runs out
# of memory is copied into Fuzz/regressions/TARGET (replayed by `make test`) and the target fails.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
fuzz: setup
	FUZZ_SECONDS=$(FUZZ_SECONDS) tools/fuzz.sh $(FUZZ_TARGETS)

# sanitize: `swift test --sanitize=address` in .build-asan, then `--sanitize=thread` in .build-tsan.
SANITIZERS ?= address thread
sanitize: setup
	tools/sanitize.sh $(SANITIZERS)

# soak: the workloads are generated with ../shared/bench/gen_workload.py outside the repository
# (SOAK_DIR, default $$TMPDIR/geofence-bench) and kept between runs.
soak: release
	@command -v /usr/bin/time >/dev/null 2>&1 || { if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; $$SUDO apt-get install -y -qq time >/dev/null; }
	SHARED=$(SHARED) tools/soak.sh

# Relative links and anchors in every Markdown page (scripts/check-doc-links.sh; needs python3).
# DOC_LINKS_PENDING names pages another branch adds: a link to one that is absent is a note until
# the branch is merged. Empty it once they are.
DOC_LINKS_PENDING ?=
lint-docs:
	@command -v python3 >/dev/null 2>&1 || { echo "installing python3"; if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get install -y -qq python3 >/dev/null; }
	DOC_LINKS_PENDING="$(DOC_LINKS_PENDING)" scripts/check-doc-links.sh

# Every command of the README's tour, as written, in a scratch copy of the repository.
check-tour: build
	scripts/check-readme-tour.sh $(dir $(BIN_DEBUG))

# swift-format (in the Swift 6 toolchain) with the rules in .swift-format. `format` rewrites in
# place; `lint-style` prints every finding as file:line:col: and exits non-zero on one.
STYLE_PATHS := Sources Tests Package.swift
format:
	$(SWIFT) format format --in-place --recursive --parallel $(STYLE_PATHS)

lint-style:
	$(SWIFT) format lint --strict --recursive --parallel $(STYLE_PATHS)

clean:
	rm -rf .build .build-fuzz .build-asan .build-tsan
