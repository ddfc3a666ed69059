# Bindery. `make run` starts a server with demo content; `make test` runs the
# whole suite (on SQLite, and on PostgreSQL too when BINDERY_TEST_DATABASE_URL
# is set).

GO ?= go
BIN := bin/bindery
DB ?= bindery.db
OWNER ?= owner@bindery.local

# Everything `go generate ./...` writes.
GENERATED := ent graph/generated graph/model/models_gen.go graph/model/connections_gen.go rest/openapi.json \
	graph/schema internal/enum/values.go graph/internal/gqlgen/testschema/exec

.PHONY: build release check-release run test lint test-sqlite test-postgres test-norewrite test-race generate check-generate migration check-migrations bench bench-load e2e clean playground-assets lighthouse

# The release, when the checkout is at a tag; `bindery version` shows it with
# the commit (from the build information: -buildvcs).
VERSION ?= $(shell git describe --tags --exact-match 2>/dev/null)
# The commit, for builds without the .git directory (a container build
# passes it as a build argument); a checkout's build information has it too.
COMMIT ?= $(shell git rev-parse HEAD 2>/dev/null)
VERSION_LDFLAGS = -X main.version=$(VERSION) -X main.commit=$(COMMIT)
BUILD_FLAGS = -buildvcs=auto -ldflags "$(VERSION_LDFLAGS)"
# The release leaves out the symbol table and DWARF (-s -w): a debugger needs
# them, a server does not. Stack traces, profiles and the build information
# of `bindery version` do not come from them, and stay.
RELEASE_FLAGS = -buildvcs=auto -trimpath -ldflags "-s -w $(VERSION_LDFLAGS)"

build:
	$(GO) build $(BUILD_FLAGS) -o $(BIN) ./cmd/bindery

# The binary of the container image (Dockerfile): static, without cgo,
# without the paths of the machine that built it, and stripped.
release:
	CGO_ENABLED=0 $(GO) build $(RELEASE_FLAGS) -o $(BIN) ./cmd/bindery

# The owner's API token is kept beside the database ($(DB).token, mode 0600)
# and shown at every start; a new one, valid for TOKEN_TTL (0: forever), is
# minted only when the kept one stops working.
TOKEN_TTL ?= 720h
run: build
	BINDERY_LOG_FORMAT=$${BINDERY_LOG_FORMAT:-text} ./$(BIN) serve --db $(DB) --token-file $(DB).token --token-ttl $(TOKEN_TTL)

test: check-generate check-migrations lint check-release
	$(MAKE) test-sqlite
	@if [ -n "$$BINDERY_TEST_DATABASE_URL" ]; then $(MAKE) test-postgres; \
	else echo "BINDERY_TEST_DATABASE_URL is not set: skipping the PostgreSQL run"; fi
	$(MAKE) test-norewrite

# Hand-written packages: all but ent's generated code (its schema is ours)
# and gqlgen's.
LINT_PKGS = $(shell $(GO) list ./... | grep -v -e '/ent$$' -e '/ent/' -e '/graph/generated$$' -e '/testschema/exec$$') ./ent/schema

# Static checks, each failing on any finding: go.mod and go.sum are tidy,
# every Go file is gofmt'd (generated ones are too), go vet, and staticcheck
# (pinned by the tool line in go.mod).
lint:
	@echo "== lint"
	$(GO) mod tidy -diff
	@unformatted=$$(gofmt -l .); if [ -n "$$unformatted" ]; then \
		echo "not gofmt'd (run gofmt -w on them):"; echo "$$unformatted"; exit 1; \
	fi
	$(GO) vet ./...
	$(GO) tool staticcheck $(LINT_PKGS)

# A package's tests may take longer than go test's default 10 minutes on a
# busy 2-core machine (graph's, on PostgreSQL, take about 7 quietly): the
# timeout is raised so that load alone does not fail the suite.
TEST_TIMEOUT ?= 30m

test-sqlite:
	@echo "== tests on SQLite"
	BINDERY_TEST_DATABASE_URL= $(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./...

test-postgres:
	@echo "== tests on PostgreSQL"
	$(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./...

# The packages whose behaviour the rewrites of generated code could change
# (docs/architecture.md, "Rewrites of generated code"), built with the
# bindery_norewrite tag: gqlgen's output as it is and ent's own reading of
# rows. On SQLite only, to keep `make test`'s time: the rewrites do not
# depend on the database.
NOREWRITE_PKGS = ./graph/... ./server/...
test-norewrite:
	@echo "== tests without the rewrites of generated code, on SQLite"
	BINDERY_TEST_DATABASE_URL= $(GO) test -tags bindery_norewrite -count=1 -timeout $(TEST_TIMEOUT) $(NOREWRITE_PKGS)

test-race:
	$(GO) test -race -count=1 -timeout $(TEST_TIMEOUT) ./...

generate:
	$(GO) generate ./...

# Regenerates everything and fails when the committed output was stale.
# Builds the binary as the Dockerfile does and checks it: CGO-free, and
# `bindery version` names its commit. No Docker daemon needed.
check-release:
	@echo "== release build"
	@$(MAKE) --no-print-directory release BIN=.release/bindery
	@$(GO) version -m .release/bindery | grep -q 'CGO_ENABLED=0' || { echo "the release binary is not CGO-free"; exit 1; }
	@./.release/bindery version | grep -q '^commit [0-9a-f]\{40\}' || { echo "bindery version names no commit:"; ./.release/bindery version; exit 1; }
	@rm -rf .release

check-generate:
	@find $(GENERATED) -type f | LC_ALL=C sort | xargs sha256sum > .generated.before
	@$(GO) generate ./...
	@find $(GENERATED) -type f | LC_ALL=C sort | xargs sha256sum > .generated.after
	@if ! cmp -s .generated.before .generated.after; then \
		diff .generated.before .generated.after; rm -f .generated.before .generated.after; \
		echo "generated code was stale: commit the output of 'go generate ./...'"; exit 1; \
	fi
	@rm -f .generated.before .generated.after

# Writes the migration files of a change to the ent schema, after
# regenerating ent from it: make migration NAME=add_x. One file per dialect
# in internal/store/migrations (docs/development.md); PostgreSQL's is planned
# in a scratch schema of the database of BINDERY_TEST_DATABASE_URL.
migration:
	@if [ -z "$(NAME)" ]; then echo "usage: make migration NAME=describe_the_change"; exit 1; fi
	$(GO) generate ./...
	$(GO) run ./cmd/newmigration -name $(NAME)

# Fails when the ent schema has changes without a migration, or a
# directory's atlas.sum does not match its files: on SQLite always, on
# PostgreSQL too when BINDERY_TEST_DATABASE_URL is set.
check-migrations:
	@echo "== migrations"
	$(GO) test -count=1 -run '^TestDrift$$' ./internal/store/migrations

# Re-fetches the playground's GraphiQL, React and ReactDOM from npm at the
# versions pinned in server/playground/assets.mjs, and rewrites
# server/playground/vendor with its manifest. Needs Node.js and npm; the
# result is committed, so building and running need neither.
playground-assets:
	node server/playground/assets.mjs

# Lighthouse (e2e/lighthouse.mjs) on the demo site of a fresh server: the
# site's home page and LIGHTHOUSE_PAGE, an inner page, with the Chromium of
# the browser checks; fails when a category (performance, accessibility,
# best practices, SEO) scores under 95. bin/bindery runs on a temporary
# SQLite database on a free port and stops at the end. Needs Node.js, npm
# and Chromium. Not part of `make test`: it is slow, and the performance
# score depends on the machine.
LIGHTHOUSE_PAGE ?= installation
lighthouse: build
	@cd e2e && { [ -f node_modules/.package-lock.json ] && [ ! node_modules/.package-lock.json -ot package-lock.json ]; } || \
		npm ci --ignore-scripts --no-audit --no-fund --prefer-offline --cache .npm
	@set -eu; chromium=$$(sh e2e/install-chromium.sh); dir=$$(mktemp -d); \
	port=$$(node -e "const s = require('net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })"); \
	BINDERY_LOG_FORMAT=text BINDERY_SEED=true BINDERY_PUBLIC_URL=http://127.0.0.1:$$port ./$(BIN) serve --addr 127.0.0.1:$$port --db $$dir/bindery.db >$$dir/server.log 2>&1 & pid=$$!; \
	trap 'kill $$pid 2>/dev/null || true; wait $$pid 2>/dev/null || true; rm -rf $$dir' EXIT; \
	for i in $$(seq 300); do \
		grep -qs 'msg="bindery is serving"' $$dir/server.log && break; \
		kill -0 $$pid 2>/dev/null || { cat $$dir/server.log; echo "bindery did not start"; exit 1; }; \
		sleep 0.1; \
	done; \
	site=$$(sed -n 's/.*msg="published a demo site.* site=\([^ ]*\).*/\1/p' $$dir/server.log); \
	if [ -z "$$site" ]; then cat $$dir/server.log; echo "the log names no demo site"; exit 1; fi; \
	CHROMIUM=$$chromium node e2e/lighthouse.mjs "$$site" "$${site}$(LIGHTHOUSE_PAGE)"

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# The load benchmark (docs/performance.md): bin/bindery as a separate
# process on a fresh database (SQLite, or a schema on the PostgreSQL server
# of BINDERY_TEST_DATABASE_URL), seeded through the API, against a minimal
# net/http + database/sql baseline; POSTGRAPHILE=1 adds PostGraphile 4 (from
# npx) and PostGraphile 5 (installed once by npm with a Node.js 24 of its
# own under ~/.cache/bindery-benchload), PostgreSQL only; PROFILE=dir writes
# a CPU profile of Bindery per workload into dir; WORKLOADS=nested,heavy
# runs only those (get, node, nested, list, site, heavy, growth; site reads
# a published site of 500 pages against the same pages served by
# http.FileServer; search, the 100,000-page organization, runs only when
# named);
# VARIANTS='default;GOGC=off GOMEMLIMIT=72MiB' runs
# Bindery's workloads on one server per variant, each with that
# environment added; BENCH_ROUNDS=3 runs the workloads under load three
# times, interleaved, and reports medians. Prints a markdown table.
BENCH_DURATION ?= 10s
BENCH_CONCURRENCY ?= 8
BENCH_ROUNDS ?= 1
POSTGRAPHILE ?=
PROFILE ?=
WORKLOADS ?=
VARIANTS ?=
bench-load: build
	$(GO) build -o bin/benchload ./cmd/benchload
	BENCH_WORKLOADS='$(WORKLOADS)' BENCH_VARIANTS='$(VARIANTS)' ./bin/benchload run --bindery $(BIN) \
		--duration $(BENCH_DURATION) --concurrency $(BENCH_CONCURRENCY) --rounds $(BENCH_ROUNDS) \
		--postgraphile=$(if $(filter 1 true yes,$(POSTGRAPHILE)),true,false) $(if $(PROFILE),--profile $(PROFILE))

clean:
	rm -rf bin
