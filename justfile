# complyd tasks. `npx --yes rust-just@1.57.0 --list` if just is not installed.
set shell := ["bash", "-euo", "pipefail", "-c"]

default:
    @just --list

# Regenerate protobuf Go and TypeScript code and the OpenAPI document (offline: local plugins, protoc-gen-es from
# web/node_modules, third-party protos in third_party/).
gen:
    cd web && npm ci --no-audit --no-fund
    go tool -modfile=tools/go.mod buf lint
    go tool -modfile=tools/go.mod buf generate

# Vet and lint (depguard enforces the import rules of STYLE.md).
lint:
    go vet ./...
    golangci-lint run ./...

# The test command: a real PostgreSQL (127.0.0.1:5432, or a private cluster), real SMTP/S3/HTTP peers.
test:
    bash scripts/install-test-tools.sh
    go test ./...

# The race detector over the screening path's concurrent packages and internal/app's end-to-end
# tests (scripts/test-race.sh; CI runs it).
test-race:
    bash scripts/test-race.sh

# One-command local run on a private PostgreSQL under ./.complyd (or DATABASE_URL).
dev:
    go run ./cmd/complyd dev

# The README's quick start, verbatim, against complyd dev on a free port and a fresh database.
quickstart:
    bash scripts/quickstart.sh

# Build the binary into ./bin.
build:
    CGO_ENABLED=0 go build -trimpath -o bin/complyd ./cmd/complyd

# Every benchmark the issues ask for.
bench: bench-auth bench-sanctions bench-lookups bench-screening bench-watchlist-import

# 100,000 watchlist rows imported through /api/v1 on a real server and PostgreSQL while another
# tenant screens and searches, then through the CLI's code: import seconds, the other
# tenant's idle and during p99, and the same run's floors (parse, COPY into a temporary table,
# index build alone) (docs/guide/watchlists.md "Import at scale").
bench-watchlist-import:
    go test ./internal/app -run '^$' -bench BenchmarkWatchlistImport100k -benchtime 1x -timeout 20m

# /auth/me over /api/v1, Connect and gRPC side by side.
bench-auth:
    go test ./internal/app -run '^$' -bench BenchmarkMe -benchtime 3000x

# Sanctions matcher: one search over OFAC SDN + UN with all aliases (p50/p99 per op, one core),
# then loading and indexing the lists (s/op) and the index's memory (index-MB), then the search
# over HTTP from one client (p50/p99).
bench-sanctions:
    go test ./internal/sanctions -run '^$' -bench BenchmarkSearch -cpu 1 -benchtime 30000x
    go test ./internal/sanctions -run '^$' -bench BenchmarkBuildIndex -cpu 1 -benchtime 5x
    go test ./internal/app -run '^$' -bench BenchmarkSanctionsSearchHTTP -benchtime 3000x

# Precision, recall and F1 at 0.75/0.85/0.95 on the labelled set against the shared lists.
eval-sanctions:
    go run ./cmd/complyd watchlist eval

# Direct-lookup throughput over REST against the sandbox, and the wallet charge (reserve+settle) p50/p99.
bench-lookups:
    go test ./internal/app -run '^$' -bench 'BenchmarkDirectLookup' -benchtime 2000x
    go test ./internal/postgres -run '^$' -bench 'BenchmarkWalletCharge' -benchtime 2000x
# The screening benchmark as users run it: a throwaway cluster (BENCH_PG=default|recommended),
# an empty or seeded database (BENCH_START=empty|seeded), a 500/1000/2000/3000 per second ramp
# over /api/v1 (API keys, bearer tokens), unary gRPC and the stream, then the stall-and-recover
# phase, then pgbench's raw limit on the same database for the ratio; results in bench-results/
# (docs/guide/screening.md "Benchmark as users run it").
bench-screening:
    bash scripts/bench-screening-ramp.sh

# Fuzz every parser and decoder an outsider can reach (scripts/fuzz.sh lists them), FUZZTIME
# each (default 10m), one after the other; `just fuzz FuzzParseUN` runs only the named targets.
# Crashers land in the package's testdata/fuzz/<Target>/; summaries in .fuzz/fuzz.log.
fuzz *targets:
    FUZZTIME="${FUZZTIME:-10m}" bash scripts/fuzz.sh {{targets}}

# Build the dashboard into web/dist (embedded in the binary; commit the result).
web-build:
    cd web && npm ci --no-audit --no-fund && npm run build

# The dashboard with hot reload on http://localhost:5173, proxying the API to a running complyd
# (COMPLYD_URL, default http://127.0.0.1:8080; start one with `just dev`).
web-dev:
    cd web && npm ci --no-audit --no-fund && npm run dev

# Browser tests: Playwright drives Debian's Chromium against a real complyd serve on a fresh
# database; screenshots land in web/artifacts/screens.
web-test:
    test -x /usr/bin/chromium || (apt-get update && apt-get install -y chromium fonts-liberation)
    cd web && npm ci --no-audit --no-fund && npm run build && npx playwright test

# Seed a tenant with random transactions for the benchmarks at scale (docs/guide/network.md "Benchmark"):
# `just seed-transactions "$DATABASE_URL" <tenant-uuid> 10000000`. The database must be migrated.
seed-transactions url tenant count="10000000" accounts="500000":
    psql "{{url}}" -v tenant={{tenant}} -v count={{count}} -v accounts={{accounts}} -f scripts/seed/transactions.sql

# The dashboard's and the network's reads (queue, case page, transactions, overview, account
# network) at growing sizes of history on a throwaway cluster (docs/performance-at-scale.md):
# `SIZES="0 10000000" just bench-reads-sizes`.
bench-reads-sizes:
    bash scripts/bench-reads-sizes.sh

# The network and customer queries on a seeded tenant (COMPLYD_BENCH_SEEDED_URL, COMPLYD_BENCH_SEEDED_TENANT):
# p50/p99 per query (docs/guide/network.md "Benchmark").
bench-network:
    go test ./internal/postgres/networkstore -run '^$' -bench 'BenchmarkNetworkSeeded|BenchmarkCustomerSeeded' -benchtime 200x
