# The two commands a newcomer needs: `make run` and `make test`; `make edge`
# runs the service behind nginx, as it is deployed. `make help` lists every
# target from its ## line.
GO       ?= go
BIN      := bin/events
# A count, not a duration: with a duration, Go 1.26's fuzz coordinator can fail a clean run
# with "context deadline exceeded" as the time runs out on a loaded machine (golang/go#75804).
FUZZTIME ?= 30000x
EVENTS_SCREENSHOTS ?= $(CURDIR)/bin/screenshots

.PHONY: help run edge build test test-short vet fuzz bench soak backup postgres-binaries reset-data clean

## help: list the targets and what each does
help:
	@awk '/^## [a-z-]+:/ { t = $$0; sub(/^## /, "", t); n = index(t, ": "); printf "  %-12s %s\n", substr(t, 1, n - 1), substr(t, n + 2); more = 1; next } \
		/^## / && more { t = $$0; sub(/^## /, "", t); printf "  %-12s %s\n", "", t; next } { more = 0 }' $(MAKEFILE_LIST)

## run: start the service on http://127.0.0.1:3000/events (its own PostgreSQL unless DATABASE_URL is set);
## another port: PORT=3001 make run
run: build postgres-binaries
	@echo "make run: starting $(BIN) serve (its own PostgreSQL in ./.data unless DATABASE_URL is set; Ctrl-C stops it)"
	@exec ./$(BIN) serve

## edge: the service behind nginx on https://127.0.0.1:8443/events, with a self-signed certificate
## (needs nginx and openssl); other ports: EDGE_HTTPS_PORT=9443 EDGE_HTTP_PORT=9080 PORT=3001 make edge
# bash -m runs the script as a job of its own, which alone gets Ctrl-C from
# the terminal: it stops cleanly and exits 0, and make, which would die of
# the signal with "*** Error", exits 0 with it.
edge: build postgres-binaries
	@bash -mc edge/run.sh

## backup: write a backup of the database (the embedded one, running or not, or DATABASE_URL's)
## to backups/events-<UTC time>.dump; events restore FILE loads one into an empty database
backup: build
	./$(BIN) backup

## build: compile the one binary into bin/events (the first build downloads and compiles
## the modules, about 4 minutes on two cores; later ones take seconds)
build:
	@if [ -e $(BIN) ]; then echo "make: building $(BIN)"; \
	else echo "make: building $(BIN) for the first time: downloading the Go modules, then compiling them (about 4 minutes on two cores; later builds take seconds)"; fi
	@$(GO) mod download
	@[ -e $(BIN) ] || echo "make: the modules are here; compiling (the longest part)"
	@$(GO) build -buildvcs=auto -o $(BIN) ./cmd/events

## test: vet, every test against a real PostgreSQL (with the race detector; the browser tests
## drive the installed Chromium and write screenshots to EVENTS_SCREENSHOTS), then a short fuzz
## run; it says what it is doing as it goes, and names the failed tests again at its end
## (about 15 minutes on a quiet two-core machine)
test: postgres-binaries
	@echo "make test: go vet"
	@$(GO) vet ./...
	@$(GO) build -o bin/testlog ./cmd/internal/testlog
	@echo "make test: compiling every package's tests with the race detector (a minute or two), then running them"
	@EVENTS_SCREENSHOTS="$(EVENTS_SCREENSHOTS)" $(GO) test -race -count=1 -timeout 40m -json ./... | bin/testlog \
		|| { echo "screenshots of the pages: $(EVENTS_SCREENSHOTS)"; exit 1; }
	@echo "make test: a short fuzz run of each fuzz target"
	@$(MAKE) --no-print-directory fuzz
	@echo "screenshots of the pages: $(EVENTS_SCREENSHOTS)"

## test-short: the quick loop: vet, then the package tests without the race detector and without
## the browser, edge and fuzz stages; failed tests are named again at the end
test-short: postgres-binaries
	@echo "make test-short: go vet"
	@$(GO) vet ./...
	@$(GO) build -o bin/testlog ./cmd/internal/testlog
	@echo "make test-short: the package tests, without the browser, edge and fuzz stages"
	@$(GO) test -count=1 -timeout 40m -json -skip '$(SHORT_SKIP)' $$($(GO) list ./... | grep -v '/edge$$') | bin/testlog

# The tests make test-short leaves out: the browser suites, and those that run make edge or nginx
# in front of several instances (the edge package is left out whole).
SHORT_SKIP := ^(TestBrowser|TestMakeEdge|TestTwoInstancesBehindTheEdge)

## soak: a steady mixed load through nginx for SOAK_DURATION (10m), then checks for errors, leaks and
## lost writes; not part of make test
SOAK_DURATION ?= 10m
SOAK_RATE     ?= 40
soak: postgres-binaries
	$(GO) run ./cmd/soak -duration $(SOAK_DURATION) -rate $(SOAK_RATE) -out bin/soak.md

## fuzz: run each fuzz target briefly beyond its seed corpus (FUZZTIME=30000x inputs each; 1m works too)
fuzz:
	@for pkg in ./models ./internal/capture; do \
		for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			echo "fuzz $$target for $(FUZZTIME)"; \
			$(GO) test -run '^$$' -fuzz "^$$target$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
		done; \
	done

## bench: the performance harness (cmd/bench: seeds 1,000,000 events, drives the real binary with
## vegeta and the same SQL with pgbench, nine pairs a scenario, writes bin/bench.md; about half an hour),
## then the allocations per listed row.
## Flags through BENCH_FLAGS, e.g. make bench BENCH_FLAGS="-events 100000 -pairs 5 -scenarios inbox,page"
BENCH_FLAGS ?=
bench: postgres-binaries
	$(GO) run ./cmd/bench $(BENCH_FLAGS)
	$(GO) test -run '^$$' -bench BenchmarkListJSON -benchtime 200x ./handlers

# The embedded default database needs the PostgreSQL server programs. When
# they are missing, install them with the system's package manager where we
# can, else say in one sentence what to install.
NEED_POSTGRES := events needs the PostgreSQL server programs (initdb, pg_ctl, postgres): install your system's PostgreSQL server package, or set DATABASE_URL to a database you have.
postgres-binaries:
	@if [ -n "$$DATABASE_URL$$TEST_DATABASE_URL" ] || command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then exit 0; fi; \
	echo "make: PostgreSQL's server programs are missing: installing them with the system's package manager (a minute or two)."; \
	if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	if command -v apt-get >/dev/null 2>&1; then \
		$$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	elif command -v dnf >/dev/null 2>&1; then \
		$$SUDO dnf install -y -q postgresql-server; \
	elif command -v brew >/dev/null 2>&1; then \
		brew install -q postgresql@16 && brew link -q --force postgresql@16; \
	else \
		echo "$(NEED_POSTGRES)"; exit 1; \
	fi || { echo "Installing failed. $(NEED_POSTGRES)"; exit 1; }

## reset-data: delete the embedded database, wherever it is kept, and make edge's files in
## EVENTS_DATA_DIR (./.data), naming each folder first; refused while the service runs.
## A database on DATABASE_URL keeps its data.
reset-data: build
	@./$(BIN) reset-data

## clean: delete bin/ (the binary, screenshots, reports)
clean:
	rm -rf bin
