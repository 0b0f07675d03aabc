#!/usr/bin/env bash
# Runs the Go native fuzz targets one after the other (go test takes one -fuzz target per
# package per invocation). Used by `just fuzz` (FUZZTIME=10m each) and .ci/run (10s each).
#
#   scripts/fuzz.sh                      every target for FUZZTIME (default 10m)
#   scripts/fuzz.sh FuzzParseUN ...      only the named targets
#
# FUZZTIME      how long each target runs (go test -fuzztime: 10m, 30s, 5000x)
# FUZZPARALLEL  fuzzing workers per target (default 1: the machine is shared)
# FUZZLOG       file each run's summary line is appended to (default .fuzz/fuzz.log)
# FUZZMINIMIZE  time spent minimising each new interesting input (go test -fuzzminimizetime,
#               default 10s: short runs explore rather than polish the corpus)
#
# A crash leaves the failing input in <package>/testdata/fuzz/<Target>/ (commit it with the
# fix: it becomes a regression test run by plain `go test`). The script goes on with the other
# targets and exits non-zero at the end if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."

# package:Target, one per parser or decoder an outsider can reach.
TARGETS=(
  ./internal/sanctions:FuzzParseOFAC
  ./internal/sanctions:FuzzParseUN
  ./internal/sanctions:FuzzFoldName
  ./internal/document:FuzzSniff
  ./internal/document:FuzzCleanFileName
  ./internal/document:FuzzIngest
  ./internal/identity:FuzzDecodeImage
  ./internal/idhttp:FuzzProviderReply
  ./internal/connectapi:FuzzParseISO
  ./internal/connectapi:FuzzScreenTransactionJSON
  ./internal/rules:FuzzCompileEval
  ./internal/restapi:FuzzFacadeJSON
)

FUZZTIME=${FUZZTIME:-10m}
FUZZPARALLEL=${FUZZPARALLEL:-1}
FUZZLOG=${FUZZLOG:-.fuzz/fuzz.log}
FUZZMINIMIZE=${FUZZMINIMIZE:-10s}
mkdir -p "$(dirname "$FUZZLOG")"

selected=()
if [ $# -gt 0 ]; then
  for want in "$@"; do
    found=
    for t in "${TARGETS[@]}"; do
      if [ "${t#*:}" = "$want" ] || [ "$t" = "$want" ]; then selected+=("$t"); found=1; fi
    done
    [ -n "$found" ] || { echo "fuzz.sh: unknown target $want" >&2; exit 2; }
  done
else
  selected=("${TARGETS[@]}")
fi

failed=0
for t in "${selected[@]}"; do
  pkg=${t%%:*} name=${t#*:}
  out=$(mktemp)
  start=$(date +%s)
  echo "==> $pkg $name (fuzztime $FUZZTIME, $FUZZPARALLEL worker)"
  go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" -fuzzminimizetime "$FUZZMINIMIZE" -parallel "$FUZZPARALLEL" 2>&1 | tee "$out"
  rc=${PIPESTATUS[0]}
  secs=$(( $(date +%s) - start ))
  execs=$(grep -o 'execs: [0-9]*' "$out" | tail -1 | grep -o '[0-9]*' || true)
  result=ok
  if [ "$rc" -ne 0 ]; then
    # Go's fuzzer can end a run with "context deadline exceeded" and no failing input when the
    # fuzz time runs out while a worker is still minimising a new interesting input: a toolchain
    # artifact, not a crash (a crash always writes its input and says so).
    if grep -q 'context deadline exceeded' "$out" && ! grep -q 'Failing input written to' "$out"; then
      result="ok (the run ended during minimisation: no crash)"
    else
      result=FAIL; failed=1
    fi
  fi
  printf '%s\t%s\t%s\tfuzztime=%s\twall=%ss\texecs=%s\t%s\n' \
    "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$pkg" "$name" "$FUZZTIME" "$secs" "${execs:-0}" "$result" | tee -a "$FUZZLOG"
  rm -f "$out"
done
exit $failed
