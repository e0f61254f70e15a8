# dForge: `make run` starts a node, `make test` runs every test.
SHELL := /bin/bash
.DEFAULT_GOAL := run

GO      ?= go
NPM     ?= npm
BIN     := bin/dforge
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X github.com/dforge/dforge/internal/cli.Version=$(VERSION)
WEB_SRC := $(shell find web/src web/public -type f 2>/dev/null) web/index.html web/vite.config.ts web/package.json

.PHONY: run build web deps i18n-fill release-check test test-short test-go test-web test-e2e interop test-docker fuzz bench-web bench-chain bench-forge bench-gov bench-p2p bench-replication bench-archive music openapi fmt lint lint-go lint-web clean bench-webhook bench-release api-coverage bench-ssh bench-notify bench-dashboard bench-feed bench-bounty bench-forum bench-auth bench-search bench-git-read bench-pages bench-issue-writes

## run: install what is needed, build, and start a node on the embedded defaults
run: build
	./$(BIN) serve

## build: the single binary, with the web app embedded
build: $(BIN)

$(BIN): web/dist/index.html $(shell find cmd internal content web -name '*.go' -o -name '*.md' -o -name '*.sql' 2>/dev/null) go.mod go.sum
	@$(GO) version >/dev/null 2>&1 || { echo "Go is required: https://go.dev/dl/"; exit 1; }
	$(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/dforge

web/node_modules/.installed: web/package.json web/package-lock.json
	@command -v $(NPM) >/dev/null || { echo "Node.js 20 and npm are required (apt-get install nodejs npm)"; exit 1; }
	# Not `npm ci`: with this machine's omit-lockfile-registry-resolved setting the
	# lock lacks other platforms' optional packages, which `npm ci` rejects.
	cd web && $(NPM) install --no-audit --no-fund
	@touch $@

web/dist/index.html: web/node_modules/.installed $(WEB_SRC)
	cd web && $(NPM) run build

web: web/dist/index.html

## test: Go tests (SQLite, and PostgreSQL when available), web unit tests, browser tests
test: test-go test-web test-e2e

test-go: web/dist/index.html
	scripts/ensure-git-lfs.sh
	scripts/with-postgres.sh $(GO) test -race -count=1 -timeout 35m ./...
	# The runner's tests that run jobs with act: act's host mode races on a
	# flag of its own (internal/runner/README.md), so they build without -race.
	$(GO) test -count=1 -timeout 10m ./internal/runner/

## test-short: the inner loop, under 3 minutes: Go tests that start no node, server or process (go test -short, no race detector; make lint runs go vet) and the web unit tests
test-short: web/dist/index.html web/node_modules/.installed
	scripts/ensure-git-lfs.sh
	$(GO) test -short -count=1 -vet=off ./...
	cd web && npx vitest run

test-web: web/node_modules/.installed
	cd web && npx tsc -b && npx vitest run

test-e2e: build
	scripts/ensure-chromium.sh
	cd web && DFORGE_BIN=$(CURDIR)/$(BIN) node --test --test-concurrency=2 e2e/

## i18n-fill: copies each new English string into every other locale and lists it in web/src/i18n/untranslated.json until it is translated
i18n-fill: web/node_modules/.installed
	cd web && node scripts/i18n-fill.mjs

## release-check: what a release would ship unfinished: locale keys missing or extra, and strings still in English (web/src/i18n/untranslated.json)
release-check: web/node_modules/.installed
	cd web && node scripts/i18n-missing.mjs

## lint: go vet, staticcheck and the layering check (lint-go); tsc, ESLint, the import-cycle check and the OpenAPI lint (lint-web)
lint: lint-go lint-web

# staticcheck 2026.2.2, the release that knows Go 1.26. `go run pkg@version`
# fetches it through the module proxy into the module cache, outside go.mod.
STATICCHECK_VERSION ?= v0.8.2

## lint-go: gofmt, go vet, staticcheck (pinned, fetched by go run), and tools/layering: the chain, forge, index and git store never import the API, web, git server or CLI packages
lint-go:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$unformatted" ]; then echo "gofmt would change: $$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...
	GO=$(GO) $(GO) run ./tools/layering

## lint-web: the web app's type check, ESLint with no warnings, no import cycles, the generated API types up to date with the OpenAPI document, and Redocly's recommended rules on that document (web/redocly.yaml; tools from web/package.json)
lint-web: web/node_modules/.installed
	cd web && npx tsc -b && $(NPM) run lint && $(NPM) run cycles
	cd web && npx --no-install openapi-typescript $(OPENAPI_TS_FLAGS) --check >/dev/null || { echo "web/src/lib/apiSchema.gen.ts is not what web/public/openapi.json generates: run make openapi"; exit 1; }
	cd web && REDOCLY_SUPPRESS_UPDATE_NOTICE=true npx --no-install redocly lint --max-problems 1000

## interop: a Kubo v0.42.0 node fetches a pushed public repository's git objects from a dForge node by CID over bitswap (ipfs block get, ipfs dag export); Kubo is built once into ~/.cache/dforge (minutes), so this stays out of make test; then test-docker
interop: build test-docker
	$(GO) run ./tools/interop -bin $(BIN)

## test-docker: the runner runs a docker label's job in its image's container, on a Docker daemon of its own (installs Debian's docker.io; needs root and the rights to run dockerd, which make test cannot count on)
test-docker:
	scripts/with-docker.sh $(GO) test -count=1 -tags docker -run TestAJobRunsInItsImagesContainer ./internal/runner/

## bench-web: Lighthouse (performance and accessibility) on /, /explore, /governance, a repository's home and a pull request's files against the built binary
bench-web: build web/node_modules/.installed
	scripts/ensure-chromium.sh
	bench/web.sh

## bench-chain: signed transfers per second (HTTP relay, direct RPC) and commit latency, against CometBFT's kvstore
bench-chain:
	$(GO) run ./bench/chain

## bench-auth: forge-action throughput with delegation checks against the operator path (same run), one delegated action's commit latency, dforge verify on 100,000 forge actions, issue creation through the API against the code before own-keys (AUTH_BASELINE, built once), and an honest action's commit in blocks during a flood by a relayer of 1,000 accounts (two validator processes), against a quiet chain
# The yardstick of the API figure: the code before the own-keys work.
AUTH_BASELINE ?= 4896c66

bench-auth: build
	scripts/build-rev.sh $(AUTH_BASELINE) $(HOME)/.cache/dforge/dforge-$(AUTH_BASELINE)
	$(GO) run ./bench/auth -bin $(BIN) -old-bin $(HOME)/.cache/dforge/dforge-$(AUTH_BASELINE) $(BENCH_FLAGS)
	DFORGE_FLOOD_HONEST=100 $(GO) test ./internal/cli -run '^TestFloodOfRelayedActionsLeavesRoomForOthers$$' -count=1 -v | grep -E 'flood of|quiet chain|^(ok|FAIL|---)' 

## bench-forge: git clone/push throughput against git http-backend, API latency on 10,000 issues (deep pages, a raw file against a git process per read), the mixed load with 1% and 10% writes, issue creation as issues grow, peak RSS of a 1 GB clone (BENCH_FLAGS=-quick for a smoke run)
bench-forge:
	$(GO) run ./bench/forge $(BENCH_FLAGS)

## bench-ssh: clone throughput over SSH against Smart HTTP from one node, on bench-forge's cached repository (target ratio >= 0.9; BENCH_FLAGS=-quick for a smoke run)
bench-ssh:
	scripts/ensure-ssh.sh
	$(GO) run ./bench/ssh $(BENCH_FLAGS)

## bench-gov: the block that tallies a vote of 100,000 stakers against empty and one-transfer blocks (ABCI, on-disk IAVL)
bench-gov:
	$(GO) run ./bench/gov $(BENCH_FLAGS)

## bench-bounty: the block of a merge that pays a bounty of 1, 10 and 100 funders against the same merge without one (ABCI, on-disk IAVL; median of 31)
bench-bounty:
	$(GO) run ./bench/bounty $(BENCH_FLAGS)

## bench-p2p: resident memory libp2p and bitswap add to a node serving 1,000 blocks to a peer, and the fetch rate (BENCH_FLAGS=-max-size 1048000 for big blocks)
bench-p2p:
	$(GO) run ./bench/p2p $(BENCH_FLAGS)

## bench-replication: replication lag of small pushes (p50, p99), the bench repository replicated to a fresh node from dForge peers and over bitswap against git clone, each node's RSS (BENCH_FLAGS=-quick for a smoke run)
bench-replication:
	$(GO) run ./bench/replication $(BENCH_FLAGS)

## bench-search: code search on a node: index time and size for -mb MB of generated source, search p50/p99 on 16 connections, a 10-file push re-indexed (BENCH_FLAGS=-quick for a smoke run)
bench-search:
	$(GO) run ./bench/search $(BENCH_FLAGS)

## bench-git-read: a blob read through the pool of long-lived cat-file processes against a git process started per read (the code before), same run, browse cache off; and a page of 50 commits with files, at page 1 and 40 of 3,000, from cached parts against git log --skip (the code before)
bench-git-read:
	$(GO) test ./internal/gitstore -run '^$$' -bench '^BenchmarkBlobRead$$' -benchtime 2000x
	$(GO) test ./internal/gitstore -run '^$$' -bench '^BenchmarkCommitPage$$' -benchtime 200x

## bench-archive: archive downloads (zip, tar.gz) through the node against git archive on the same bare repository (BENCH_FLAGS=-quick for a smoke run)
bench-archive:
	$(GO) run ./bench/archive $(BENCH_FLAGS)

## bench-webhook: webhook delivery latency after the event's block (p50, p99) at 100 issues/s for 30 s into a local receiver (BENCH_FLAGS=-duration 5s for a smoke run)
bench-webhook:
	$(GO) run ./bench/webhook $(BENCH_FLAGS)

## bench-release: download rate (MB/s) of a 50 MB release asset at its browser_download_url and from the gateway as a CAR, against a static file over local HTTP (BENCH_FLAGS=-mb 10 for a smoke run)
bench-release:
	$(GO) run ./bench/release $(BENCH_FLAGS)

## bench-notify: (a) a comment on an issue with 1,000 watchers projected with its notifications; (b) the notification list with 100,000 notifications: each page's first read, then 64 connections (p50, p99), then the same pages read again on one connection (p50); (c) a comment to the author's SSE badge; (d) 20 of 500 users reading their list and badge after each block that notifies another, the read cache per user (now) against moved on for everyone (each write before). Set DFORGE_TEST_PG (or use scripts/with-postgres.sh) for PostgreSQL too
bench-notify:
	$(GO) test ./internal/index -run '^$$' -bench BenchmarkNotifyWatchers -benchtime 20x -count=1
	$(GO) test ./internal/index -run '^$$' -bench BenchmarkNotificationsAmongUsers -benchtime 300x -count=1
	$(GO) test ./internal/api -run '^$$' -bench 'BenchmarkNotify(List|Badge)' -benchtime 1x -count=1

## bench-actions: Actions on one node with protocol clients polling as dforge runner does: a push to its job's start (p50, p99), a log row to the run's stream (p50), 200 queued jobs across 4 runners (time per job), the RSS growth
bench-actions:
	$(GO) test ./internal/actions -run '^$$' -bench BenchmarkActions -benchtime 1x -count=1

## bench-dashboard: GET /user/dashboard for a user of a node with 500 repositories, 10,000 issues and 100,000 notifications of others, under 64 connections (p50, p99). Set DFORGE_TEST_PG (or use scripts/with-postgres.sh) for PostgreSQL too
bench-dashboard:
	$(GO) test ./internal/api -run '^$$' -bench BenchmarkDashboard -benchtime 1x -count=1

## bench-pages: page 1 against page 150 of a 10,000-issue repository's open issues: rows before the page skipped with OFFSET and the total counted (the first code), by seeking with the total counted (readdb.SeekPage, the code before), and by seeking with the total from the counters (now), same run, read cache moved on before each read; and page 1 against page 2,500 of a user's 100,000 notifications, page 2,500 read alone (OFFSET over the index) and after page 2,499 (from right after its last thread); and one repository's pages of those notifications with the index by repository and without it
bench-pages:
	$(GO) test ./internal/index -run '^$$' -bench '^Benchmark(IssuePages|NotificationPages|NotificationRepoPages)$$' -benchtime 2s -count=1

## bench-feed: pages of the activity projection with 200,000 actions: Home's first page and its page 50, a feed's first page and its page 50, each page 50 read alone and after page 49, read cache bypassed; and Gitea's activity feed of a user with 20 repositories through the API: each page's first read, read again on one connection (p50), and under 64 connections (p50, p99). Set DFORGE_TEST_PG (or use scripts/with-postgres.sh) for PostgreSQL too
bench-feed:
	$(GO) test ./internal/index -run '^$$' -bench BenchmarkActivity -benchtime 20x -count=1
	$(GO) test ./internal/api -run '^$$' -bench BenchmarkFeedList -benchtime 1x -count=1

## bench-issue-writes: the projection's write of a block (8 new issues, 8 closed) in a repository of 10,000 issues, statements prepared as the node runs them, with forge_issue_counts' triggers and without them, in turn in one run
bench-issue-writes:
	$(GO) test ./internal/index -run '^$$' -bench BenchmarkIssueWrites -benchtime 400x -count=1

## bench-forum: the forum with 100,000 topics: its lists (first pages, categories, a search) and a topic with 1,000 replies, each under 64 connections (p50, p99). Set DFORGE_TEST_PG (or use scripts/with-postgres.sh) for PostgreSQL too
bench-forum:
	$(GO) test ./internal/api -run '^$$' -bench 'BenchmarkForum(Topics|Posts)' -benchtime 1x -count=1 -v

## fuzz: fuzz transaction decoding, CheckTx, the SIWE parser and the forge module (FUZZTIME each; make test runs their seeds)
FUZZTIME ?= 30s
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeVerify$$' -fuzztime $(FUZZTIME) ./internal/chain/tx
	$(GO) test -run '^$$' -fuzz '^FuzzCheckTx$$' -fuzztime $(FUZZTIME) ./internal/chain/app
	$(GO) test -run '^$$' -fuzz '^FuzzParseMessage$$' -fuzztime $(FUZZTIME) ./internal/auth
	$(GO) test -run '^$$' -fuzz '^FuzzApply$$' -fuzztime $(FUZZTIME) ./internal/chain/forge

## music: regenerate the four original tracks (needs lame)
music:
	$(GO) run ./tools/musicgen -out web/public/music

## api-coverage: how many of Gitea 1.22's API operations (less admin, ActivityPub, packages and Actions) web/public/openapi.json serves, and which are missing
api-coverage:
	$(GO) run ./tools/giteacoverage -spec web/public/openapi.json

# The document marks no struct field required, yet encoding/json sends every
# field without omitempty, so the types take each property as required; the
# few a server leaves out are made optional in the feature that reads them.
OPENAPI_TS_FLAGS := --properties-required-by-default

## openapi: regenerate web/public/openapi.json (shown at /docs/api, served at /openapi.json) from internal/api, and from it the web app's API types, web/src/lib/apiSchema.gen.ts (openapi-typescript, output named in web/redocly.yaml); a Go test and lint-web fail when either is out of date
openapi: web/node_modules/.installed
	$(GO) run ./tools/openapi/gen -dir internal/api -o web/public/openapi.json
	cd web && npx --no-install openapi-typescript $(OPENAPI_TS_FLAGS) >/dev/null

fmt:
	gofmt -w cmd internal content web/*.go tools

clean:
	rm -rf bin web/dist/assets web/dist/*.html web/dist/*.js web/dist/*.webmanifest
