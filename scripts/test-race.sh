#!/usr/bin/env bash
# The race detector over the packages whose goroutines share state on the screening path (the
# batcher, the committers, the account gate, admission, streams, caches, jobs), then over
# internal/app's end-to-end tests on their own (about 4 minutes; a test's bound on elapsed time
# is not asserted under the detector: raceEnabled). The other packages were clean under it too,
# but slow (internal/sanctions took 455 s). Called by .ci/run and `just test-race`.
set -euo pipefail
cd "$(dirname "$0")/.."
go test -race -count=1 ./internal/screening ./internal/postgres ./internal/connectapi ./internal/flight ./internal/jobs ./internal/network ./internal/webhook
# The list-scale tests (the evasion corpus over the full OFAC and UN lists, 20,000-row imports) are
# left out under the detector: with its shadow memory the package outgrew the machine's 24 GiB
# (killed by the kernel) once they joined it. They run in `go test ./...`.
go test -race -count=1 -timeout 30m -skip 'TestScreeningEvasionVariantsAllProtocols|TestWatchlistImportLarge|TestFtMImportAndDeltasEndToEnd' ./internal/app
