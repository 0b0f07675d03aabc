#!/usr/bin/env bash
# Runs the Go native fuzz targets one after the other (go test takes one -fuzz target per
# package per invocation). Used by `just fuzz` (FUZZTIME=10m each) and .ci/run (10s each).
#
#   scripts/fuzz.sh                      every target for FUZZTIME (default 10m)
#   scripts/fuzz.sh FuzzParseUN ...      only the named targets
#
# FUZZTIME      how long each target runs (go test -fuzztime: 10m, 30s, 5000x), or `ci`: each
#               target's own execution count below (what .ci/run uses). A count has no deadline:
#               go's fuzzing coordinator (go1.26) can fail a timed run that found nothing with
#               "context deadline exceeded" when its workers are slow to stop (golang/go#75804,
#               fixed in go1.27), which a busy CI machine hit.
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

# package:Target:count, one per parser or decoder an outsider can reach; count is the CI budget
# (FUZZTIME=ci), about what a 2-core CI machine runs in 10 s (CI's log of 2026-12-03).
TARGETS=(
  ./internal/sanctions:FuzzParseOFAC:20000
  ./internal/sanctions:FuzzParseUN:5000
  ./internal/sanctions:FuzzFoldName:80000
  ./internal/document:FuzzSniff:150000
  ./internal/document:FuzzCleanFileName:150000
  ./internal/document:FuzzIngest:150000
  ./internal/identity:FuzzDecodeImage:2000
  ./internal/idhttp:FuzzProviderReply:50000
  ./internal/connectapi:FuzzParseISO:30000
  ./internal/connectapi:FuzzScreenTransactionJSON:15000
  ./internal/rules:FuzzCompileEval:30000
  ./internal/restapi:FuzzFacadeJSON:15000
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
      pt=${t%:*}
      if [ "${pt#*:}" = "$want" ] || [ "$pt" = "$want" ]; then selected+=("$t"); found=1; fi
    done
    [ -n "$found" ] || { echo "fuzz.sh: unknown target $want" >&2; exit 2; }
  done
else
  selected=("${TARGETS[@]}")
fi

failed=0
for t in "${selected[@]}"; do
  pkg=${t%%:*} rest=${t#*:}
  name=${rest%%:*} budget=$FUZZTIME
  [ "$FUZZTIME" = ci ] && budget="${rest#*:}x"
  out=$(mktemp)
  start=$(date +%s)
  echo "==> $pkg $name (fuzztime $budget, $FUZZPARALLEL worker)"
  go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$budget" -fuzzminimizetime "$FUZZMINIMIZE" -parallel "$FUZZPARALLEL" 2>&1 | tee "$out"
  rc=${PIPESTATUS[0]}
  secs=$(( $(date +%s) - start ))
  execs=$(grep -o 'execs: [0-9]*' "$out" | tail -1 | grep -o '[0-9]*' || true)
  result=ok
  if [ "$rc" -ne 0 ]; then
    # A timed run (not FUZZTIME=ci) can end with "context deadline exceeded" and no failing
    # input (the coordinator race above): a toolchain artifact, not a crash (a crash always
    # writes its input and says so).
    if grep -q 'context deadline exceeded' "$out" && ! grep -q 'Failing input written to' "$out"; then
      result="ok (the fuzz time ran out in go's coordinator race: no crash)"
    else
      result=FAIL; failed=1
    fi
  fi
  printf '%s\t%s\t%s\tfuzztime=%s\twall=%ss\texecs=%s\t%s\n' \
    "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$pkg" "$name" "$budget" "$secs" "${execs:-0}" "$result" | tee -a "$FUZZLOG"
  rm -f "$out"
done
exit $failed
