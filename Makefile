# RoboHornets 1209: one Go program, three faces. `make run` and `make test`
# install what they need first (make deps), so both work on a fresh clone.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

GOBIN        := $(shell go env GOPATH)/bin
WAILS        := $(GOBIN)/wails
STATICCHECK  := $(GOBIN)/staticcheck
ERRCHECK     := $(GOBIN)/errcheck
WAILS_VERSION       := v2.15.0
STATICCHECK_VERSION := v0.8.2
ERRCHECK_VERSION    := v1.30.0
DESKTOP_TAGS := webkit2_41
# Test build tags: emulator (needs Java and the Firestore emulator), slow
# (long process and fault tests: SIGKILLs, 1,000 streams, the 65 s soak).
# `go test ./...` (make check) runs without them; make test-go runs both.
TEST_TAGS    := emulator,slow
# Every other build tag at once: the window's, the test suites', race.
# Between them the default set (files marked !emulator, !desktop, !race)
# and this one build every Go file, so make check vets, staticchecks and
# errchecks each of the two once; no file asks for two of these tags to
# be apart.
ALL_TAGS     := desktop,production,$(DESKTOP_TAGS),$(TEST_TAGS),scale,release,image,reliability,race,fit
APT_PACKAGES := libgtk-3-dev libwebkit2gtk-4.1-dev xvfb xauth imagemagick chromium dbus-daemon openbox xdotool x11-utils x11-xserver-utils nginx wrk desktop-file-utils systemd buildah podman runc
VERSION      := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT       := $(shell git rev-parse HEAD 2>/dev/null)
# The build's date, UTC; SOURCE_DATE_EPOCH (reproducible builds) fixes it.
BUILD_DATE   := $(shell date -u -d "@$${SOURCE_DATE_EPOCH:-$$(date +%s)}" +%Y-%m-%dT%H:%M:%SZ)
# What `robohornets version` and /healthz report (expanded when used, so
# that make release can date its builds at the commit).
VERSION_LDFLAGS = -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.date=$(BUILD_DATE)
LDFLAGS      = -s -w $(VERSION_LDFLAGS)
BIN          := build/bin
# The container image's name; make image tags it :$(VERSION) and :latest.
IMAGE        := robohornets
LISTEN       ?= 127.0.0.1:8080
# make check's and make test's parts run in parallel, each with its output
# in build/logs/NAME.log: one line when it passes, the log when it fails.
SUITE        := test/run-suite
CHECK_JOBS   ?= 4
GO_SOURCES   := $(shell find . -name '*.go' -not -path './frontend/*') go.mod go.sum
FRONTEND_SOURCES := $(shell find frontend/src frontend/public frontend/index.html frontend/vite.config.ts frontend/package.json frontend/tsconfig*.json -type f 2>/dev/null)

.PHONY: help
help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

# ---------------------------------------------------------------- dependencies

.PHONY: deps
deps: deps-apt deps-tools frontend/node_modules/.installed ## install everything the build and tests need (idempotent)
	go mod download

.PHONY: deps-apt
deps-apt:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing apt packages: $$missing"; \
	    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	  else \
	    echo "missing Debian packages: $$missing"; \
	    echo "run as root: sudo apt-get install $$missing"; exit 1; \
	  fi; \
	fi

.PHONY: deps-tools
deps-tools:
	@$(WAILS) version 2>/dev/null | grep -q '$(WAILS_VERSION)' || go install github.com/wailsapp/wails/v2/cmd/wails@$(WAILS_VERSION)
	@$(STATICCHECK) -version 2>/dev/null | grep -q '$(STATICCHECK_VERSION)' || go install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	@$(ERRCHECK) -version 2>/dev/null | grep -q '$(ERRCHECK_VERSION)' || go install github.com/kisielk/errcheck@$(ERRCHECK_VERSION)

# npm install, not npm ci: the registry here lacks some optional platform
# packages, which makes npm ci fail its lockfile check.
frontend/node_modules/.installed: frontend/package.json frontend/package-lock.json
	cd frontend && npm install --no-audit --no-fund
	touch $@

# ---------------------------------------------------------------------- builds

frontend/dist/index.html: frontend/node_modules/.installed $(FRONTEND_SOURCES)
	cd frontend && npm run build

# The version and commit the binaries are built with: rewritten only when
# they change, so that a binary is rebuilt when they do (a commit that
# changes no Go file still changes what `version` and the image must say).
$(BIN)/.version: FORCE
	@mkdir -p $(BIN)
	@echo '$(VERSION) $(COMMIT)' | cmp -s - $@ || echo '$(VERSION) $(COMMIT)' > $@

.PHONY: FORCE
FORCE:

$(BIN)/robohornets-server: frontend/dist/index.html $(GO_SOURCES) $(BIN)/.version
	CGO_ENABLED=0 go build -trimpath -ldflags '$(LDFLAGS)' -o $@ .

$(BIN)/robohornets: frontend/dist/index.html $(GO_SOURCES) $(BIN)/.version
	$(WAILS) build -s -skipbindings -trimpath -tags $(DESKTOP_TAGS) -ldflags '$(VERSION_LDFLAGS)' -o robohornets

# The replay server of the event APIs, for the pit display's end-to-end tests.
$(BIN)/replayd: $(GO_SOURCES)
	CGO_ENABLED=0 go build -trimpath -o $@ ./cmd/replayd

.PHONY: build
build: deps $(BIN)/robohornets $(BIN)/robohornets-server ## build the desktop binary and the static serve-only binary

# --------------------------------------------------------------------- release

# make release VERSION=x.y.z rebuilds everything a release ships into
# RELEASE_DIR, dated at the commit (SOURCE_DATE_EPOCH, when set, wins): the
# binaries' build date and the .deb's file times, so a second run of one
# commit gives the same bytes. The desktop binary and the .deb are for this
# machine's architecture (cgo and WebKit do not cross-build here): run it on
# an arm64 Debian 12 for theirs.
RELEASE_DIR  ?= build/release
RELEASE_ARCH := $(shell go env GOARCH)
# x.y.z, then a pre-release and build metadata as semver has them (dot-separated).
SEMVER       := ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$$

.PHONY: release release-version
release: RELEASE_EPOCH = $(or $(SOURCE_DATE_EPOCH),$(shell git log -1 --format=%ct))
release: BUILD_DATE = $(shell date -u -d @$(RELEASE_EPOCH) +%Y-%m-%dT%H:%M:%SZ)
release: release-version deps frontend/dist/index.html ## build/release/: static serve binaries (linux amd64, arm64), the desktop binary, the kiosk .deb, SHA256SUMS (VERSION=x.y.z)
	@test -z "$$(git status --porcelain --untracked-files=no)" || echo "warning: uncommitted changes; the binaries will say commit $(COMMIT)" >&2
	rm -rf $(RELEASE_DIR) && mkdir -p $(RELEASE_DIR)
	for arch in amd64 arm64; do \
	  CGO_ENABLED=0 GOOS=linux GOARCH=$$arch go build -trimpath -ldflags '$(LDFLAGS)' \
	    -o $(RELEASE_DIR)/robohornets-server_$(VERSION)_linux_$$arch .; \
	done
	$(WAILS) build -s -skipbindings -trimpath -tags $(DESKTOP_TAGS) -ldflags '$(VERSION_LDFLAGS)' -o robohornets-release
	mv $(BIN)/robohornets-release $(RELEASE_DIR)/robohornets_$(VERSION)_linux_$(RELEASE_ARCH)
	SOURCE_DATE_EPOCH=$(RELEASE_EPOCH) packaging/build-deb.sh \
	  $(RELEASE_DIR)/robohornets_$(VERSION)_linux_$(RELEASE_ARCH) $(VERSION) $(RELEASE_ARCH) $(RELEASE_DIR)
	cd $(RELEASE_DIR) && sha256sum -- * > .SHA256SUMS && mv .SHA256SUMS SHA256SUMS && cat SHA256SUMS

# First, so that a bad VERSION stops the release before anything is built.
release-version:
	@[[ '$(VERSION)' =~ $(SEMVER) ]] || { echo "make release: VERSION must be x.y.z or x.y.z-pre.release, like VERSION=1.2.3 or VERSION=1.3.0-rc.1 (got \"$(VERSION)\")" >&2; exit 2; }

# The container image, from scratch with buildah (nothing is pulled): the
# static serve-only binary, this machine's CA certificates and time zones,
# a non-root user. packaging/build-image.sh says what is in it.
.PHONY: image
image: $(BIN)/robohornets-server ## build the container image robohornets:VERSION (and :latest) with buildah, from scratch, for Cloud Run (docs/DEPLOY.md)
	packaging/build-image.sh $(BIN)/robohornets-server $(IMAGE)

.PHONY: bindings
bindings: deps ## regenerate frontend/wailsjs after changing the bound Go methods
	$(WAILS) generate module -tags $(DESKTOP_TAGS)

.PHONY: generate
generate: ## regenerate frontend/src/gen/: spec.gen.ts (the spec's constants) and wire.gen.ts (the wire types)
	go run ./cmd/gen

# ------------------------------------------------------------------------- run

.PHONY: run
run: deps $(BIN)/robohornets ## open the app on the embedded local news store (serve mode when there is no display)
	@if [ -n "$${DISPLAY:-}$${WAYLAND_DISPLAY:-}" ]; then \
	  exec $(BIN)/robohornets $(ARGS); \
	else \
	  echo "No display found: serving the website at http://$(LISTEN) instead (Ctrl-C stops it)."; \
	  exec $(BIN)/robohornets serve --listen $(LISTEN) $(ARGS); \
	fi

.PHONY: serve
serve: deps $(BIN)/robohornets-server ## serve the website on $(LISTEN)
	exec $(BIN)/robohornets-server serve --listen $(LISTEN) $(ARGS)

# ------------------------------------------------------------------------ test

# Two tiers. make check (under 2 min on a warm cache, 2 cores): everything
# that needs no browser, window, container or emulator, in parallel. make
# test: make check, then the integration suites in three lanes: the Go lane
# and the browser lane side by side, on one Firestore emulator, then the
# window lane alone (its frame-timing tests fail on 2 cores shared with the
# others).

CHECK_PARTS := check-generated check-gofmt check-vet check-staticcheck check-errcheck check-go-test check-lint check-typecheck check-vitest

.PHONY: check $(CHECK_PARTS)
check: deps-tools frontend/node_modules/.installed ## the fast tier (under 2 min warm): generated files, gofmt, go vet, staticcheck and errcheck (each tag set once), go test ./..., ESLint + Prettier, TypeScript, vitest
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) $(CHECK_PARTS)

# The generated files are what their generators write now.
check-generated:
	@$(SUITE) $@ go run ./cmd/gen -check

check-gofmt:
	@$(SUITE) $@ bash -c 'files=$$(gofmt -l $$(git ls-files "*.go")); test -z "$$files" || { echo "$$files"; echo "gofmt needed: gofmt -w these"; exit 1; }'

check-vet:
	@$(SUITE) $@ bash -c 'go vet ./... && go vet -tags $(ALL_TAGS) ./...'

# One staticcheck run over both tag sets: -matrix merges them, so code
# used under one set only is not reported unused by the other.
check-staticcheck:
	@$(SUITE) $@ bash -c 'printf "default:\nall: -tags=%s\n" $(ALL_TAGS) | $(STATICCHECK) -matrix ./...'

check-errcheck:
	@$(SUITE) $@ bash -c '$(ERRCHECK) ./... && $(ERRCHECK) -tags $(ALL_TAGS) ./...'

# No -race, no emulator, no slow tests: those are make test-go's.
check-go-test:
	@$(SUITE) $@ go test ./...

check-lint:
	@$(SUITE) $@ bash -c 'cd frontend && npm run lint'

check-typecheck:
	@$(SUITE) $@ bash -c 'cd frontend && npm run typecheck'

check-vitest:
	@$(SUITE) $@ bash -c 'cd frontend && npx vitest run'

# The lanes of make test, all three side by side; the suites of one lane run
# one after another. Everything they build is built first, once. The window
# lane's tests time frames (the CSP rotation every 2 s, the memory guard's
# screenshots): the Go and browser lanes run under nice 10, so that on 2
# cores the window gets the CPU when it asks for it and the other two take
# the rest.
TEST_LANES := test-lane-go test-lane-browser test-lane-window
LANE_NICE := nice -n 10

.PHONY: test $(TEST_LANES) test-builds
test: deps ## make check, then every integration suite: the Go suite with race, emulator and slow tests, every benchmark once, the image, scale-out, the release, Chromium end to end, the window
	@$(MAKE) --no-print-directory check
	@$(MAKE) --no-print-directory test-builds
	@go run ./cmd/withemulator $(MAKE) --no-print-directory -k -j3 $(TEST_LANES)

test-builds: $(BIN)/robohornets-server $(BIN)/robohornets $(BIN)/replayd

# The Go lane's suites share one Firestore emulator (cmd/withemulator; the
# one test-go asks for is this one). Under make test it is the one the
# browser lane uses too: withemulator runs its command on the emulator
# ROBOHORNETS_FIRESTORE_EMULATOR_HOST names, when it names one.
test-lane-go:
	@$(LANE_NICE) go run ./cmd/withemulator bash -c 'rc=0; for s in test-go test-scale test-image test-release; do \
	  $(SUITE) $$s $(MAKE) --no-print-directory $$s || rc=1; done; exit $$rc'

test-lane-browser:
	@$(LANE_NICE) $(SUITE) test-e2e $(MAKE) --no-print-directory test-e2e

test-lane-window:
	@$(SUITE) test-desktop $(MAKE) --no-print-directory test-desktop

# The Go suite (about 4 min): the tests with -race, the Firestore emulator
# tests (one emulator for every package, cmd/withemulator) and the long
# process and fault tests; then every benchmark once, so one that no longer
# finishes fails here rather than in make bench; and the builds for the
# window's other platforms. The process tests run serve with the built
# frontend embedded.
.PHONY: test-go
test-go: frontend/dist/index.html ## go test -race with the emulator and slow tests on one shared Firestore emulator, every benchmark once, the Windows and macOS builds
	@echo "== go: the program and its file writing build for the window's other platforms"
	GOOS=windows GOARCH=amd64 go build -o /dev/null .
	GOOS=windows GOARCH=amd64 go build -tags desktop,production -o /dev/null .
	GOOS=windows GOARCH=amd64 go test -c -o /dev/null ./internal/atomicfile
	GOOS=darwin GOARCH=arm64 go build -o /dev/null .
	@echo "== go test -race -tags $(TEST_TAGS), then every benchmark once, on one Firestore emulator"
	go run ./cmd/withemulator bash -c "go test -race -count=1 -tags $(TEST_TAGS) ./... && \
	  go test -count=1 -tags $(TEST_TAGS) -run '^\$$' -bench . -benchtime 1x ./..."

# Scale-out (about 10 s): three serve processes on one Firestore emulator
# behind nginx; one write must reach the viewers of all three within 1 s.
.PHONY: test-scale
test-scale: $(BIN)/robohornets-server ## three serve processes behind nginx on one Firestore emulator: one write reaches all viewers within 1 s
	@echo "== scale-out: three serve processes behind nginx on one Firestore emulator"
	ROBOHORNETS_SERVER_BIN=$(CURDIR)/$(BIN)/robohornets-server go test -tags scale -count=1 -v ./test/scale

# The release (about 25 s after make test's other builds; a machine's first
# arm64 build adds about 40 s): make release with a test version into its own
# directory, then its checks: checksums, static serve binaries, versions, the
# .deb installed into a throwaway root.
.PHONY: test-release
test-release: override VERSION := 0.0.0-test
test-release: RELEASE_DIR := build/release-test
test-release: release ## make release VERSION=0.0.0-test, then check its checksums, binaries and .deb (installed into a throwaway root)
	@echo "== release: checksums, static serve binaries, versions, the .deb in a throwaway root"
	ROBOHORNETS_RELEASE_DIR=$(CURDIR)/$(RELEASE_DIR) ROBOHORNETS_RELEASE_VERSION=$(VERSION) \
	  ROBOHORNETS_RELEASE_DEB_VERSION='0.0.0~test' go test -tags release -count=1 -v ./test/release

# The container image (about 20 s with the build, 3 s the test): it runs under podman
# against the Firestore emulator and must serve, show a post written through
# the emulator within 2 s, report healthy, log for Cloud Logging, run as
# non-root and stop within 10 s of SIGTERM. podman here needs runc, host
# networking and the containers.conf beside the test (no default ulimits).
.PHONY: test-image
test-image: image
	@echo "== image: the container image under podman on the Firestore emulator"
	ROBOHORNETS_IMAGE=localhost/$(IMAGE):$(VERSION) go test -tags image -count=1 -v ./test/image

.PHONY: test-frontend
test-frontend: frontend/node_modules/.installed ## ESLint + Prettier, TypeScript and vitest (part of make check)
	@$(MAKE) --no-print-directory -j3 check-lint check-typecheck check-vitest

.PHONY: test-e2e
# The Chromium suites (frontend/e2e) on @playwright/test, its files side by
# side (frontend/playwright.config.mjs); the news-on-Firestore tests use the
# run's Firestore emulator. A failed test's trace is kept in
# frontend/test-results/ (npx playwright show-trace PATH).
test-e2e: $(BIN)/robohornets-server $(BIN)/replayd
	@echo "== bundle budget"
	cd frontend && node scripts/bundle-budget.mjs
	@echo "== end to end: Chromium against serve (static build), @playwright/test"
	go run ./cmd/withemulator bash -c 'cd frontend && npx playwright test'

.PHONY: test-desktop
test-desktop: $(BIN)/robohornets $(BIN)/replayd
	@echo "== desktop: the real Wails window under Xvfb"
	cd frontend && ROBOHORNETS_DESKTOP_BIN=../$(BIN)/robohornets node --test --test-concurrency=1 e2e-desktop/

.PHONY: bench
# Each part prints its section and writes <part>.json to
# ROBOHORNETS_BENCH_OUT (bench/part); bench/report writes docs/BENCHMARKS.md
# from them in this order (it fails when a part is absent); make bench exits 1
# when a part failed (errors, not only missed goals) or a goal was missed.
BENCH_OUT := $(CURDIR)/build/bench
BENCH_PARTS := go-bench calibration win-chance-vs-tba forecast-speed forecast-calibration bundle serve-vs-nginx lighthouse streams push-latency photos window
bench: deps $(BIN)/robohornets $(BIN)/robohornets-server ## run the benchmarks (about 40 min); figures, with a summary against their goals, go to docs/BENCHMARKS.md
	@rm -rf $(BENCH_OUT); mkdir -p $(BENCH_OUT)
	export ROBOHORNETS_BENCH_OUT=$(BENCH_OUT); st=0; \
	go run ./bench/goparts go-bench || st=1; go run ./bench/goparts calibration || st=1; go run ./bench/goparts bundle || st=1; \
	go test -count=1 -run TestScorecard ./internal/frcstats || st=1; \
	go test -count=1 -tags fit -run 'TestCalibration$$|TestStrengthSpread' -bench '^BenchmarkForecast$$' ./internal/frcstats/forecast || st=1; \
	node bench/serve-vs-nginx.mjs || st=1; node bench/lighthouse.mjs || st=1; bench/streams.sh $(BIN)/robohornets-server || st=1; \
	go test -count=1 -run '^$$' -bench '^BenchmarkQueueCallToPush$$' -benchtime 3x ./internal/follow || st=1; \
	go run ./cmd/photoload -bin $(BIN)/robohornets-server -markdown || st=1; node bench/window.mjs || st=1; \
	go run ./bench/report -dir $(BENCH_OUT) -reading docs/benchmarks-reading.md -out docs/BENCHMARKS.md $(BENCH_PARTS) || st=1; \
	if [ $$st -ne 0 ]; then echo "make bench: a part failed or a goal was not met (see above)" >&2; fi; exit $$st

.PHONY: bench-streams
bench-streams: $(BIN)/robohornets-server ## 10,000 live news viewers on one serve process (Firestore emulator, local store); prints a markdown section
	bench/streams.sh $(BIN)/robohornets-server

.PHONY: bench-photos
bench-photos: $(BIN)/robohornets-server ## serve's peak memory while 4 of the largest accepted photos upload at once; prints a markdown section
	go run ./cmd/photoload -bin $(BIN)/robohornets-server -markdown

# A new interesting input is minimised for at most 10 s: Go's default, a
# minute, can spend a whole run of FuzzRender on one input.
.PHONY: fuzz
FUZZTIME ?= 60s
fuzz: ## run every Go fuzz target (func Fuzz… in internal/) for FUZZTIME each (default 60s); a failing input is saved under testdata/fuzz/: commit it
	@set -e; for file in $$(grep -rl --include='*_test.go' '^func Fuzz' internal); do \
	  for target in $$(grep -o '^func Fuzz[A-Za-z0-9_]*' $$file | cut -d' ' -f2); do \
	    echo "== $$target ($$(dirname $$file), $(FUZZTIME))"; \
	    go test ./$$(dirname $$file) -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 10s; \
	  done; \
	done

# Load and floods (about 2.5 min): a minute of wrk at 200 connections
# across pages, assets and the API, then 500 slow clients beside normal
# ones, against the static binary. make check vets its tests (ALL_TAGS);
# make soak runs them first.
.PHONY: reliability
reliability: deps $(BIN)/robohornets-server ## a minute of wrk at 200 connections (0 errors, memory bounded) and 500 slow clients (normal clients' p99 within 2×) against serve
	@echo "== reliability: wrk flood and slow clients against serve (static build)"
	ROBOHORNETS_SERVER_BIN=$(CURDIR)/$(BIN)/robohornets-server go test -tags reliability -count=1 -v ./test/reliability

.PHONY: soak
SOAK_MINUTES ?= 120
soak: deps reliability $(BIN)/robohornets ## make reliability, then run the kiosk window for SOAK_MINUTES (default 120) and check its memory stays flat; appends to docs/SOAK.md
	SOAK_MINUTES=$(SOAK_MINUTES) node bench/soak.mjs

.PHONY: clean
clean: ## remove build output
	rm -rf $(BIN) build/release build/release-test frontend/dist/assets frontend/dist/index.html frontend/dist/favicon.svg
