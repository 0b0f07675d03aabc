#!/usr/bin/env bash
# The screening benchmark as users run it (issue 15; docs/screening.md "Benchmark as users run
# it"). A throwaway PostgreSQL cluster of its own (so that the stall phase can freeze it without
# touching anything else), `complyd serve` on 127.0.0.1, and the load generator at a fixed
# arrival rate (open model: latency from the scheduled send, no coordinated omission):
#
#   - PostgreSQL with its default settings (BENCH_PG=default: initdb's, nothing tuned) or the
#     recommended ones (BENCH_PG=recommended: docs/configuration.md), fsync and synchronous
#     commit on either way;
#   - from an empty database (BENCH_START=empty: a new tenant, 200 KYC-approved senders, no
#     history) or a seeded one (BENCH_START=seeded: 200,000 senders with 5 earlier
#     transactions each);
#   - for each MODE (proto:auth; default: rest:apikey rest:bearer grpc:apikey grpc-stream:apikey)
#     a step ramp (STEPS, default 500 1000 2000 3000 per second, STEP_DURATION each, default
#     60s), reporting per step the achieved rate, p50/p95/p99, errors by kind and CPU per
#     screening;
#   - then the stall-and-recover phase in STALL_MODE (default: the first of MODES, REST with API
#     keys when MODES is empty) at STALL_RATE, by default half the sustainable rate as issue 15
#     asks: half of the highest rate the run's steps in that mode answered (of any mode's steps
#     when none ran; 500/s when no step ran at all) for
#     STALL_DURATION (40s); STALL_AT (15) seconds in, every process of the cluster is stopped
#     (SIGSTOP) for STALL_SECONDS (2) and resumed (SIGCONT); the run passes when p99 is back at
#     or under 25 ms within 10 seconds of resuming and stays there, every answered screening is
#     stored and none is answered twice.
#   - then, with the server stopped, PostgreSQL's raw limit on the same cluster and database:
#     pgbench (32 clients, PGBENCH_TIME seconds, default 30; 0 skips it) inserting one comparable
#     transaction and reading the account's 24-hour count and sum per transaction, so that each
#     step's achieved rate is also a ratio to what the database does without the service (the
#     comparison issue 3 asked of `just bench-screening`).
#
# No warm-up, no checkpoint and no sync between phases: a production system gets none.
#
#   scripts/bench-screening-ramp.sh
#   BENCH_PG=recommended BENCH_START=seeded MODES=rest:apikey scripts/bench-screening-ramp.sh
#   MODES= scripts/bench-screening-ramp.sh            # the stall phase only
#   STALL=0 STEPS="1000" scripts/bench-screening-ramp.sh
#   PG_EXTRA_OPTS="-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all" ...
#       # any other server option; with pg_stat_statements each step's statements, per screening
#       # answered, go to NAME.statements.txt (trigger statements too with track=all), the
#       # STATEMENTS_LIMIT (default 30) dearest
#   WAL_DETAIL=1 ...   # each step's WAL by relation and record type, per screening answered,
#       # into NAME.wal.txt (pg_waldump over the step's WAL range)
#   STAGES=1 ...   # where each step's screenings waited: the server's stage gauges read from
#       # /metrics every 0.5 s (mean and max) and its refusal counters' growth, into
#       # NAME.stages.txt (scripts/stage-metrics.py; its CPU counts as the machine's "other")
#   REST_CLIENT=nethttp ...   # the REST modes' client: raw (default; a minimal HTTP/1.1 client,
#       # cmd/complyd-loadgen/rest.go) or nethttp (net/http's, which took 250-270 µs of the two
#       # shared cores per request at 1,000/s: the ramp's figures before the twentieth session)
#   MODES="rest:apikey iso:apikey" ...   # ISO 20022 beside JSON in the same run: the iso mode
#       # sends each screening of the same mix as a one-transaction pacs.008.001.09 to
#       # /api/v1/transactions/iso20022 over the raw client (cmd/complyd-loadgen/iso.go;
#       # docs/guide/iso20022.md "Throughput")
#   OFFICERS=2 WEBHOOK=1 ...   # a tenant as a bank runs it: OFFICERS active compliance officers
#       # (every automatic case emails each of them, logged without COMPLYD_SMTP_URL, and notifies
#       # them on the dashboard) and a webhook URL, a local receiver that answers 200, to which the
#       # case.created, transaction.screened and report.created deliveries go. Default 0 and 0:
#       # the issue's workload, a tenant with neither
#   FLOOR=1 STEPS="1000 1000" ...   # the server's floor: complyd built with -tags benchfloor
#       # (internal/admission/benchfloor), whose screenings are answered but never read or stored,
#       # so each step's server CPU is everything but the database's part; no stall phase and no
#       # pgbench (nothing is stored to check or to compare)
set -euo pipefail
cd "$(dirname "$0")/.."

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
BENCH_PG=${BENCH_PG:-default}
BENCH_START=${BENCH_START:-empty}
MODES=${MODES-rest:apikey rest:bearer grpc:apikey grpc-stream:apikey}
STEPS=${STEPS:-500 1000 2000 3000}
STEP_DURATION=${STEP_DURATION:-60s}
STALL=${STALL:-1}
FLOOR=${FLOOR:-0}
STALL_RATE=${STALL_RATE:-} # empty: half of what the steps sustained (below)
STALL_DURATION=${STALL_DURATION:-40s}
STALL_AT=${STALL_AT:-15}
STALL_SECONDS=${STALL_SECONDS:-2}
STALL_MODE=${STALL_MODE:-}
[ -n "$STALL_MODE" ] || read -r STALL_MODE _ <<<"$MODES"
STALL_MODE=${STALL_MODE:-rest:apikey}
STALL_PROTO=${STALL_MODE%%:*} STALL_AUTH=${STALL_MODE##*:}
PGBENCH_TIME=${PGBENCH_TIME:-30}
if [ "$FLOOR" = 1 ]; then
  STALL=0 PGBENCH_TIME=0 # the floor binary stores nothing: no recovery to judge, no database to compare
fi
LISTS=${LISTS:-../shared/data/sanctions}
OFFICERS=${OFFICERS:-0}
WEBHOOK=${WEBHOOK:-0}
CPORT=${BENCH_CLUSTER_PORT:-5498}
ADDR=127.0.0.1:${BENCH_PORT:-18091}
OUT=${BENCH_OUT:-bench-results/$(date -u +%Y%m%dT%H%M%SZ)-$BENCH_PG-$BENCH_START}

RECOMMENDED_OPTS="-c shared_buffers=1GB -c max_wal_size=8GB -c checkpoint_timeout=15min -c wal_compression=lz4 -c wal_init_zero=off"
SIZES=${SIZES:-}                      # e.g. "0 10000000": empty, then seeded (docs/performance-at-scale.md)
SCALE_PG=${SCALE_PG:-default recommended}
HISTORY_DAYS=${HISTORY_DAYS:-365}
HISTORY_TENANTS=${HISTORY_TENANTS:-}  # tenant slugs (default every tenant); EXTRA_TENANTS more are created
EXTRA_TENANTS=${EXTRA_TENANTS:-0}
if [ -n "$SIZES" ]; then
  BENCH_START=scale STALL_RATE=${STALL_RATE:-500} PGBENCH_TIME=${PGBENCH_TIME:-0}
fi
case $BENCH_PG in
default) PG_OPTS="" ;;
recommended) PG_OPTS=$RECOMMENDED_OPTS ;;
*) echo "BENCH_PG is default or recommended" >&2; exit 2 ;;
esac
case $BENCH_START in
empty) ACCOUNTS=${ACCOUNTS:-200}; HISTORY=false ;;
seeded) ACCOUNTS=${ACCOUNTS:-200000}; HISTORY=true ;;
scale) ACCOUNTS=${ACCOUNTS:-200000}; HISTORY=false ;; # KYC only; SIZES seeds the history
*) echo "BENCH_START is empty or seeded" >&2; exit 2 ;;
esac

WORK=$(mktemp -d)
# The binaries are built into memory (/dev/shm where there is one): written to disk, their
# 100 MB were flushed by the kernel 30 s later, in the middle of the first step, and the WAL
# flushes that waited behind that write made a second of p99 over 100 ms that was the
# benchmark's own doing (docs/screening-measurements.md, "Where the single slow seconds come from").
BIN=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
mkdir -p "$OUT"
as_pg=()
if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$WORK"; chmod 755 "$WORK"; as_pg=(runuser -u postgres --); fi
CLUSTER=$WORK/pg
SERVER_PID=
RECEIVER_PID=
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
  [ -n "$RECEIVER_PID" ] && kill "$RECEIVER_PID" 2>/dev/null && wait "$RECEIVER_PID" 2>/dev/null || true
  if [ -f "$CLUSTER/postmaster.pid" ]; then
    kill -CONT $(pgrep -u postgres -f "$CLUSTER" || true) 2>/dev/null || true
    "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$CLUSTER" -m immediate stop >/dev/null 2>&1 || true
  fi
  cp "$WORK/server.log" "$OUT/server.log" 2>/dev/null || true
  cp "$WORK/pg.log" "$OUT/pg.log" 2>/dev/null || true
  rm -rf "$WORK" "$BIN"
}
trap cleanup EXIT

"${as_pg[@]}" "$PG_BIN/initdb" -D "$CLUSTER" -U postgres -A trust -E UTF8 --no-locale >/dev/null
# shellcheck disable=SC2086
"${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$CLUSTER" -l "$WORK/pg.log" -w -o "-c listen_addresses=127.0.0.1 -p $CPORT -k $WORK \
  -c max_connections=200 $PG_OPTS ${PG_EXTRA_OPTS:-}" start >/dev/null
PG_URL=postgres://postgres@127.0.0.1:$CPORT/postgres
DB_URL=postgres://postgres@127.0.0.1:$CPORT/complyd
psql "$PG_URL" -qc "create database complyd"
POSTMASTER=$(head -1 "$CLUSTER/postmaster.pid")
settings=$(psql "$PG_URL" -Atc "select string_agg(name || '=' || current_setting(name), ' ' order by name) from pg_settings
  where name in ('synchronous_commit', 'fsync', 'shared_buffers', 'max_wal_size', 'checkpoint_timeout', 'wal_compression', 'wal_init_zero')")
{
  echo "machine: $(nproc) cores, $(awk '/MemTotal/{print int($2/1048576)}' /proc/meminfo) GiB; commit $(git rev-parse --short HEAD)"
  echo "PostgreSQL $(psql "$PG_URL" -Atc 'show server_version') ($BENCH_PG): $settings"
  echo "start: $BENCH_START ($ACCOUNTS senders, history $HISTORY); steps: $STEPS for $STEP_DURATION; modes: ${MODES:-none}"
  echo "tenant: $OFFICERS compliance officer(s), webhook $([ "$WEBHOOK" = 1 ] && echo "to a local receiver" || echo none)"
  if [ "$FLOOR" = 1 ]; then echo "FLOOR=1: complyd built with -tags benchfloor: screenings answered, never read or stored"; fi
} | tee "$OUT/setup.txt"

floor_tags=()
if [ "$FLOOR" = 1 ]; then floor_tags=(-tags benchfloor); fi
GOTMPDIR=$BIN go build "${floor_tags[@]}" -o "$BIN/complyd" ./cmd/complyd
GOTMPDIR=$BIN go build -o "$BIN/loadgen" ./cmd/complyd-loadgen
GOTMPDIR=$BIN go build -o "$BIN/seedhistory" ./cmd/complyd-seedhistory
export DATABASE_URL=$DB_URL COMPLYD_JWT_SECRET=bench-secret-bench-secret-bench-secret COMPLYD_ADDR=$ADDR
export COMPLYD_RATE_LIMIT_SCREENING=0 COMPLYD_RATE_LIMIT_API=0
"$BIN/complyd" migrate >/dev/null 2>&1
if [ -d "$LISTS" ]; then # screen against the real OFAC SDN and UN lists
  "$BIN/complyd" watchlist import --format ofac-sdn-csv --list OFAC-SDN \
    "$LISTS/ofac_sdn/2023-12-28/sdn.csv" "$LISTS/ofac_sdn/2023-12-28/alt.csv" "$LISTS/ofac_sdn/2023-12-28/add.csv" >/dev/null 2>&1
  "$BIN/complyd" watchlist import --format un-xml --list UN-SC "$LISTS/un_sc/2026-02-27/consolidated.xml" >/dev/null 2>&1
else
  echo "no sanctions lists at $LISTS: screening against empty global lists" >&2
fi
"$BIN/complyd" tenant create --name "Bench Bank" --slug bench --admin-email bench@bank.test \
  --admin-password bench-password-1 >/dev/null
for i in $(seq "$EXTRA_TENANTS"); do # other tenants sharing the tables (SIZES runs)
  "$BIN/complyd" tenant create --name "Other Bank $i" --slug "other$i" --admin-email "admin$i@other.test" \
    --admin-password bench-password-1 >/dev/null
done
seed_opts=(-officers "$OFFICERS")
if [ "$WEBHOOK" = 1 ]; then
  RECEIVER=127.0.0.1:$((${BENCH_PORT:-18091} + 1))
  "$BIN/loadgen" -receive "$RECEIVER" >>"$WORK/server.log" 2>&1 &
  RECEIVER_PID=$!
  seed_opts+=(-webhook "http://$RECEIVER/hook")
  export COMPLYD_WEBHOOK_ALLOW_PRIVATE=true # the receiver is on loopback
fi
"$BIN/complyd" serve >>"$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 150); do curl -fs "http://$ADDR/ready" >/dev/null 2>&1 && break; sleep 0.2; done
"$BIN/loadgen" -url "http://$ADDR" -db "$DB_URL" -seed-only -seed-history="$HISTORY" -accounts "$ACCOUNTS" -run seed "${seed_opts[@]}"
"$BIN/complyd" migrate >/dev/null 2>&1 # seals the seeded KYC BVNs (docs/kyc.md), as an upgrade would
STATEMENTS=0
if [ "$(psql "$DB_URL" -Atc "select count(*) from pg_settings where name = 'shared_preload_libraries' and setting like '%pg_stat_statements%'")" = 1 ]; then
  psql "$DB_URL" -qc "create extension if not exists pg_stat_statements; select pg_stat_statements_reset()" >/dev/null
  STATEMENTS=1
fi

HZ=$(getconf CLK_TCK)
proc_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# The machine's busy time is wall time times cores less idle, I/O wait and steal. /proc/stat's busy
# fields are sampled at the timer tick, and with the idle tick stopped (NO_HZ_IDLE) they miss
# short bursts that start and end between ticks: a process that works 100 µs and sleeps 400 µs
# showed 67 busy ticks there against 84 from the idle time, which the kernel measures exactly.
# The per-process figures lose nothing to sampling (the kernel scales them to the scheduler's run
# time), so with the sampled total the "other" share came out negative at 500/s.
machine_ticks() {
  awk -v hz="$HZ" -v n="$(nproc)" 'FILENAME == "/proc/uptime" {u = $1; next}
    /^cpu / {printf "%d\n", u * hz * n - ($5 + $6 + $9)}' /proc/uptime /proc/stat
}
steal_ticks() { awk '/^cpu /{print $9}' /proc/stat; }
pg_ticks() {
  # a backend can exit between pgrep and the read: its missing stat file is not an error
  for p in $(pgrep -u postgres); do awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || true; done | awk '{s += $1} END {print s + 0}'
}
# wal_stats: the WAL position and pg_stat_wal's records, full-page images and bytes, and the
# checkpoints so far (timed and requested), as one line of numbers.
wal_stats() {
  psql "$DB_URL" -Atc "select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint, w.wal_records, w.wal_fpi,
    w.wal_bytes::bigint, c.checkpoints_timed + c.checkpoints_req from pg_stat_wal w, pg_stat_bgwriter c" | tr '|' ' '
}
# wal_relations NAME LSN0 LSN1: with WAL_DETAIL=1, what the step's WAL is made of, per relation
# and record type, into NAME.wal.txt.
wal_relations() {
  [ "${WAL_DETAIL:-0}" = 1 ] || return 0
  local answered
  answered=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["outcomes"].get("ok", 0))' "$OUT/$1.json")
  psql "$DB_URL" -Atc "select pg_relation_filenode(oid), relname from pg_class where pg_relation_filenode(oid) is not null" >"$WORK/relmap"
  python3 scripts/wal-relations.py "$PG_BIN/pg_waldump" "$CLUSTER/pg_wal" "$2" "$3" "$WORK/relmap" "$answered" "$OUT/$1.wal.txt"
  head -1 "$OUT/$1.wal.txt"
}
# db_stats: the database's shared-buffer reads (from the OS) and hits so far, as one line.
db_stats() {
  psql "$DB_URL" -Atc "select blks_read, blks_hit from pg_stat_database where datname = current_database()" | tr '|' ' '
}
# measure NAME RATE PROTO AUTH DURATION: one loadgen run, then its CPU split and WAL per screening.
measure() {
  local name=$1 rate=$2 proto=$3 auth=$4 dur=$5 s0 m0 p0 w0 st0 s1 m1 p1 w1 st1 wal0 wal1 lsn0 lsn1 stages=
  lsn0=$(psql "$DB_URL" -Atc "select pg_current_wal_lsn()")
  if [ "${STAGES:-0}" = 1 ]; then
    python3 scripts/stage-metrics.py "http://$ADDR/metrics" "$OUT/$name.stages.txt" 0.5 >"$WORK/$name.stages" &
    stages=$!
  fi
  wal0=$(wal_stats)
  db0=$(db_stats)
  s0=$(proc_ticks "$SERVER_PID"); m0=$(machine_ticks); p0=$(pg_ticks); w0=$(date +%s.%N); st0=$(steal_ticks)
  python3 scripts/rusage.py "$WORK/$name.cpu" "$BIN/loadgen" -url "http://$ADDR" -accounts "$ACCOUNTS" -proto "$proto" \
    -auth "$auth" -rest-client "${REST_CLIENT:-raw}" -warmup 0 -rate "$rate" -duration "$dur" -run "$name" -json "$OUT/$name.json" 2>&1 | tee "$OUT/$name.txt"
  s1=$(proc_ticks "$SERVER_PID"); m1=$(machine_ticks); p1=$(pg_ticks); w1=$(date +%s.%N); st1=$(steal_ticks)
  if [ -n "$stages" ]; then
    kill -TERM "$stages" && wait "$stages" || true
    tee -a "$OUT/$name.txt" <"$WORK/$name.stages"
  fi
  python3 scripts/cpu-split.py "$OUT/$name.json" "$(cat "$WORK/$name.cpu")" "$s0" "$s1" "$m0" "$m1" "$p0" "$p1" \
    "$HZ" "$rate" "$dur" "$(nproc)" "$(awk -v a="$w0" -v b="$w1" 'BEGIN {print b - a}')" "$((st1 - st0))" 0 | tee -a "$OUT/$name.txt"
  wal1=$(wal_stats)
  sleep 1 # backends flush their I/O counters to pg_stat_database within a second of going idle
  db1=$(db_stats)
  python3 - "$OUT/$name.json" $db0 $db1 <<'PY' | tee -a "$OUT/$name.txt"
import json, sys
j = json.load(open(sys.argv[1]))
r0, h0, r1, h1 = map(int, sys.argv[2:6])
n = max(1, j.get("completed", 0))
j["buffers"] = {"readPerAnswered": (r1 - r0) / n, "hitPerAnswered": (h1 - h0) / n}
json.dump(j, open(sys.argv[1], "w"), indent=2)
print(f"buffers per answered screening: {(r1 - r0) / n:.2f} read from the OS, {(h1 - h0) / n:.1f} hit in shared buffers")
PY
  lsn1=$(psql "$DB_URL" -Atc "select pg_current_wal_lsn()")
  python3 scripts/wal-split.py "$OUT/$name.json" $wal0 $wal1 | tee -a "$OUT/$name.txt"
  wal_relations "$name" "$lsn0" "$lsn1" | tee -a "$OUT/$name.txt"
  statements "$name"
}
# statements NAME: with pg_stat_statements loaded (PG_EXTRA_OPTS, see above), the step's
# statements by total time, per screening answered, into NAME.statements.txt (with the times
# each was planned: 0 unless pg_stat_statements.track_planning is on); then a reset.
statements() {
  [ "$STATEMENTS" = 1 ] || return 0
  local answered
  answered=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(max(j["outcomes"].get("ok", 0), 1))' "$OUT/$1.json")
  psql "$DB_URL" -Atc "select format('%8s us/screening %9s calls %8s us/call %9s plans  %s', round((total_exec_time * 1000 / $answered)::numeric, 1),
      calls, round((total_exec_time * 1000 / greatest(calls, 1))::numeric, 1), plans, left(regexp_replace(query, '\s+', ' ', 'g'), 160))
    from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
    order by total_exec_time desc limit ${STATEMENTS_LIMIT:-30}" >"$OUT/$1.statements.txt"
  # The same statements by shared-buffer hits per screening (what grows with the stored history:
  # docs/performance-at-scale.md "Extrapolating"), into NAME.buffers.txt.
  psql "$DB_URL" -Atc "select format('%8s hits/screening %7s reads/screening %9s calls %7s hits/call  %s',
      round((shared_blks_hit::numeric / $answered), 2), round((shared_blks_read::numeric / $answered), 3), calls,
      round(shared_blks_hit::numeric / greatest(calls, 1), 1), left(regexp_replace(query, '\s+', ' ', 'g'), 200))
    from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
    order by shared_blks_hit desc limit ${STATEMENTS_LIMIT:-30}" >"$OUT/$1.buffers.txt"
  psql "$DB_URL" -qAtc "select pg_stat_statements_reset()" >/dev/null
}

# phase: the steps of every MODE and the stall phase, their result files named with $PFX first.
phase() {
POSTMASTER=$(head -1 "$CLUSTER/postmaster.pid")
for mode in $MODES; do
  proto=${mode%%:*} auth=${mode##*:}
  for rate in $STEPS; do
    echo "== $proto ($auth): $rate/s for $STEP_DURATION"
    measure "$PFX$proto-$auth-$rate" "$rate" "$proto" "$auth" "$STEP_DURATION"
  done
done

if [ "$STALL" = 1 ]; then
  if [ -z "$STALL_RATE" ]; then
    # Half the sustainable rate: the highest rate the steps of the stall's own mode answered
    # (any mode's when none ran), halved. A fixed 500/s was half of a slow host's and a quarter
    # of a fast one's, which made the phase kinder than the issue's on fast hosts.
    STALL_RATE=$(python3 - "$OUT" "$PFX$STALL_PROTO-$STALL_AUTH" <<'PY'
import glob, json, os, sys
def best(pattern):
    return max((json.load(open(f))["throughput"] for f in glob.glob(os.path.join(sys.argv[1], pattern))), default=0)
top = best(sys.argv[2] + "-[0-9]*.json") or best("*-*-*.json")
print(round(top / 2) if top else 500)
PY
)
    echo "stall rate: $STALL_RATE/s (half of the highest rate the steps answered; STALL_RATE sets it)"
  fi
  echo "== stall and recover: $STALL_PROTO ($STALL_AUTH) at $STALL_RATE/s for $STALL_DURATION; PostgreSQL stopped for ${STALL_SECONDS}s at ${STALL_AT}s"
  (
    sleep "$STALL_AT"
    pids="$POSTMASTER $(pgrep -P "$POSTMASTER" | tr '\n' ' ')" # the postmaster and every backend and worker
    kill -STOP $pids 2>/dev/null || true
    sleep "$STALL_SECONDS"
    kill -CONT $pids 2>/dev/null || true
  ) &
  measure "${PFX}stall" "$STALL_RATE" "$STALL_PROTO" "$STALL_AUTH" "$STALL_DURATION"
  wait || true
  python3 - "$OUT/${PFX}stall.json" "$STALL_AT" "$STALL_SECONDS" "$DB_URL" "${PFX}stall-" <<'PY'
import json, subprocess, sys
j = json.load(open(sys.argv[1]))
at, stall, db, prefix = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
resumed = at + stall
secs = j["seconds"] or []  # a run without a timeline fails the phase below
print("second  due  answered  shed  errors  p50ms  p99ms")
for s in secs:
    print(f"{s['second']:6d} {s['due']:4d} {s['answered']:9d} {s['shed']:5d} {s['errors']:7d} {s['p50ms']:6.1f} {s['p99ms']:7.1f}")
# Recovered: the first second from which every later second (but the run's last, cut short by
# the end of the schedule) has p99 <= 25 ms.
tail = [s for s in secs if s["second"] >= resumed][:-1]
rec = None
for i, s in enumerate(tail):
    if all(t["p99ms"] <= 25 for t in tail[i:]):
        rec = s["second"]
        break
stored = int(subprocess.check_output(["psql", db, "-Atc",
    f"select count(*) from transactions where external_id like '{prefix}%'"]).strip())
ok, dup = j["outcomes"].get("ok", 0), j["outcomes"].get("duplicate", 0)
passed = rec is not None and rec - resumed <= 10 and stored >= ok and dup == 0
print(f"resumed at second {resumed}; p99 <= 25 ms from second {rec} on "
      f"({'never' if rec is None else str(rec - resumed) + ' s after resuming'}); "
      f"answered ok {ok}, stored {stored}, answered twice {dup}, errors {j['errors']} {j.get('errorKinds')}")
# Beside the strict criterion: the seconds from 10 s after resuming on taken together (the p99
# of their per-second p99s is not a p99 of answers, so the count of slow seconds is given too).
later = [s for s in tail if s["second"] >= resumed + 10]
slow = [s["second"] for s in later if s["p99ms"] > 25]
print(f"from 10 s after resuming: {len(later)} seconds, {len(slow)} over 25 ms {slow}, "
      f"worst {max((s['p99ms'] for s in later), default=0):.1f} ms")
print("stall-and-recover:", "PASS" if passed else "FAIL")
PY
fi | tee -a "$OUT/${PFX}stall.txt"
}

# restart_pg OPTS...: the server stopped, PostgreSQL restarted with initdb's settings plus OPTS
# (a cold cache, as after any restart), the server started again (SIZES runs).
restart_pg() {
  kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
  "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$CLUSTER" -m fast -w stop >/dev/null
  # shellcheck disable=SC2086
  "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$CLUSTER" -l "$WORK/pg.log" -w -o "-c listen_addresses=127.0.0.1 -p $CPORT -k $WORK \
    -c max_connections=200 $* ${PG_EXTRA_OPTS:-}" start >/dev/null
  "$BIN/complyd" serve >>"$WORK/server.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 150); do curl -fs "http://$ADDR/ready" >/dev/null 2>&1 && break; sleep 0.2; done
  if [ "$STATEMENTS" = 1 ]; then psql "$DB_URL" -qAtc "select pg_stat_statements_reset()" >/dev/null; fi
}

if [ -z "$SIZES" ]; then
  PFX=
  phase
else
  # SIZES: the same run measures the database empty (size 0) and after each size of history
  # (complyd-seedhistory, cumulative), under each of SCALE_PG's settings, results named
  # SIZE-SETTING-... (docs/performance-at-scale.md).
  seeded=0
  for size in $SIZES; do
    if [ "$size" -gt "$seeded" ]; then
      echo "== seeding history to $size transactions ($((size - seeded)) more, over $HISTORY_DAYS days)"
      /usr/bin/time -f "seed: %e s wall, %U s user, %S s system (seeder)" nice -n 10 "$BIN/seedhistory" -db "$DB_URL" \
        -rows $((size - seeded)) -days "$HISTORY_DAYS" -accounts "$ACCOUNTS" -run "h$size" ${HISTORY_TENANTS:+-tenants "$HISTORY_TENANTS"} \
        2>&1 | tee "$OUT/seed-$size.txt"
      psql "$DB_URL" -qc "vacuum (analyze) transactions" 2>&1 | tee -a "$OUT/seed-$size.txt"
      psql "$DB_URL" -Atc "select format('database %s, transactions %s rows', pg_size_pretty(pg_database_size(current_database())),
        (select count(*) from transactions))" | tee -a "$OUT/seed-$size.txt"
      # The nightly prune of the grains (complyd archive grains) over the seeded accounts, timed:
      # the pass a production database gets once a day (the seeder wrote no bucket it deletes).
      /usr/bin/time -f "grains pass: %e s wall, %U s user, %S s system (complyd)" "$BIN/complyd" archive grains 2>&1 \
        | tee -a "$OUT/seed-$size.txt"
      psql "$DB_URL" -Atc "select format('grains %s rows, %s with indexes', (select count(*) from account_activity_grains),
        pg_size_pretty(pg_total_relation_size('account_activity_grains')))" | tee -a "$OUT/seed-$size.txt"
      seeded=$size
    fi
    for setting in $SCALE_PG; do
      case $setting in
      default) restart_pg ;;
      recommended) restart_pg "$RECOMMENDED_OPTS" ;;
      esac
      PFX="$size-$setting-"
      phase
    done
  done
fi

# What a stored screening costs on disk: each table with its indexes, per transaction stored.
psql "$DB_URL" -Atc "with n as (select count(*) as n from transactions)
  select format('%-28s %8s rows  table %7s  indexes %7s  per stored screening %6s B', c.relname, c.reltuples::bigint,
    pg_size_pretty(pg_relation_size(c.oid)), pg_size_pretty(pg_indexes_size(c.oid)),
    (pg_total_relation_size(c.oid) / greatest(n.n, 1)))
  from pg_class c, n where c.relkind = 'r' and c.relnamespace = 'public'::regnamespace
    and pg_total_relation_size(c.oid) > 1048576 order by pg_total_relation_size(c.oid) desc" | tee "$OUT/storage.txt"

# The side effects the run queued, by state at its end (with OFFICERS or WEBHOOK): what was still
# queued is work the River workers had not caught up with.
if [ "$OFFICERS" != 0 ] || [ "$WEBHOOK" = 1 ]; then
  psql "$DB_URL" -Atc "select format('emails %s: %s', status, count(*)) from emails group by status
    union all select format('webhook deliveries %s: %s', status, count(*)) from webhook_deliveries group by status
    union all select format('notifications: %s', count(*)) from notifications
    union all select format('river jobs %s: %s', state, count(*)) from river_job group by state" | tee "$OUT/effects.txt"
fi

# PostgreSQL's raw limit (PGBENCH_TIME > 0): with the server stopped, pgbench on the same
# database as the run left it (no vacuum, analyze or checkpoint first, as for the steps), one
# insert of a transaction row like the service's (its triggers fire as for a screening) and the
# sender's 24-hour count and sum, per transaction, 32 clients.
if [ "$PGBENCH_TIME" != 0 ]; then
  kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=
  cat >"$WORK/pgbench.sql" <<SQL
\set acct random(1000000000, $((1000000000 + ACCOUNTS - 1)))
BEGIN;
SELECT count(*), coalesce(sum(amount_ngn), 0) FROM transactions
  WHERE tenant_id = :tenant AND sender_account_number = :acct::text
    AND transaction_timestamp >= now() - interval '24 hours' AND transaction_timestamp < now();
INSERT INTO transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn,
  sender_account_number, sender_name, transaction_timestamp, verdict_id, outcome, risk_level, aggregate_score,
  actions, engine_verdicts, total_latency_ms, processed_at, created_at)
VALUES (gen_random_uuid(), :tenant, 'pgb-' || gen_random_uuid(), 'TRANSFER', 'MOBILE_APP', 1234.50, 'NGN', 1234.50,
  :acct::text, 'Customer Adeyemi', now(), 'vrd_pgbench', 'APPROVE', 'LOW', 12.5,
  '{GENERATE_FTR}', '[{"category":"Regulatory Compliance","score":0,"outcome":"APPROVE","latencyMs":0}]', 1, now(), now());
COMMIT;
SQL
  TENANT=$(psql "$DB_URL" -Atc "select id from tenants where slug = 'bench'")
  echo "== pgbench: PostgreSQL's raw limit on this database, ${PGBENCH_TIME}s"
  "$PG_BIN/pgbench" -n -M prepared -c 32 -j 2 -T "$PGBENCH_TIME" -D tenant="$TENANT" -f "$WORK/pgbench.sql" "$DB_URL" \
    >"$OUT/pgbench.txt" 2>&1 || { cat "$OUT/pgbench.txt" >&2; exit 1; }
  grep -E "^(tps|latency average)" "$OUT/pgbench.txt"
fi

python3 - "$OUT" <<'PY'
import glob, json, os, re, sys
tps = 0.0
if os.path.exists(os.path.join(sys.argv[1], "pgbench.txt")):
    m = re.search(r"^tps = ([0-9.]+)", open(os.path.join(sys.argv[1], "pgbench.txt")).read(), re.M)
    tps = float(m.group(1)) if m else 0.0
print("== summary (" + sys.argv[1] + ")")
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json")), key=os.path.getmtime):
    j = json.load(open(f))
    c = j.get("cpuUsPerScreening", {})
    print(f"{os.path.basename(f)[:-5]:28} achieved {j['throughput']:7.0f}/s  p50 {j['p50ms']:7.2f}  p95 {j['p95ms']:7.2f}  "
          f"p99 {j['p99ms']:8.2f} ms  errors {j['errors']} {j.get('errorKinds') or ''}  "
          f"CPU per answered: server {c.get('serverPerAnswered', 0):.0f} us, PostgreSQL {c.get('postgresPerAnswered', 0):.0f} us  "
          f"WAL per answered {j.get('wal', {}).get('bytesPerAnswered', 0):.0f} B ({j.get('wal', {}).get('fpiShare', 0) * 100:.0f}% full-page images)  "
          f"buffers read {j.get('buffers', {}).get('readPerAnswered', 0):.2f} hit {j.get('buffers', {}).get('hitPerAnswered', 0):.1f}"
          + (f"  ratio to pgbench {j['throughput'] / tps:.2f}" if tps else ""))
if tps:
    print(f"pgbench raw limit: {tps:.0f} tx/s (one insert + the account's 24-hour count and sum per transaction, "
          "synchronous commit, 32 clients, after the run on the same database)")
PY
