#!/usr/bin/env bash
# Screening benchmark (issue 3; docs/screening.md "Benchmark"): a fresh database on the local
# PostgreSQL (synchronous_commit as configured, normally on), `complyd serve` on 127.0.0.1, the
# load generator at a fixed arrival rate over gRPC and over /api/v1, and pgbench's raw limit for
# one comparable insert plus the account's 24-hour sum per transaction, on the same machine in
# the same run, so that the result is a ratio.
#
#   scripts/bench-screening.sh                 # gRPC 3000/s 60 s, REST 1000/s 60 s, pgbench 30 s
#   GRPC_RATE=2000 DURATION=30s scripts/bench-screening.sh
#   GRPC_PROTO=grpc scripts/bench-screening.sh # the gRPC phase with unary calls instead of streams
#
# GRPC_PROTO is the load generator's -proto for the gRPC phase: grpc-stream (default; the
# ScreenTransactionStream RPC a bank core keeps open) or grpc (one unary call per screening).
#
# Needs: Go, a PostgreSQL server at BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres)
# whose user may create databases, psql and pgbench (Debian: apt-get install postgresql-client-15;
# pgbench also lives in /usr/lib/postgresql/15/bin).
set -euo pipefail
cd "$(dirname "$0")/.."

# BENCH_CLUSTER=DIR runs the benchmark on a PostgreSQL cluster of its own in DIR (created on
# first use, kept for the next run with its template database), started with the settings of
# docs/screening.md "Benchmark": synchronous commit and fsync on, shared_buffers 1GB,
# max_wal_size 8GB, checkpoint_timeout 15min, wal_compression lz4, wal_init_zero off. Without it the benchmark
# uses the server at BENCH_PG_URL as it is configured.
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
if [ -n "${BENCH_CLUSTER:-}" ]; then
  CPORT=${BENCH_CLUSTER_PORT:-5499}
  mkdir -p "$BENCH_CLUSTER"
  as_pg=()
  if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$BENCH_CLUSTER"; as_pg=(runuser -u postgres --); fi
  if [ ! -f "$BENCH_CLUSTER/data/PG_VERSION" ]; then
    "${as_pg[@]}" "$PG_BIN/initdb" -D "$BENCH_CLUSTER/data" -U postgres -A trust -E UTF8 --no-locale >/dev/null
  fi
  if ! "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$CPORT"; then
    "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$BENCH_CLUSTER/data" -l "$BENCH_CLUSTER/log" -w -o "-c listen_addresses=127.0.0.1 \
      -p $CPORT -k $BENCH_CLUSTER -c synchronous_commit=on -c fsync=on -c shared_buffers=1GB -c max_connections=200 \
      -c max_wal_size=8GB -c checkpoint_timeout=15min -c wal_compression=lz4 -c wal_init_zero=off" start >/dev/null
  fi
  BENCH_PG_URL=postgres://postgres@127.0.0.1:$CPORT/postgres
fi
PG_URL=${BENCH_PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}
GRPC_RATE=${GRPC_RATE:-3000}
GRPC_PROTO=${GRPC_PROTO:-grpc-stream}
REST_RATE=${REST_RATE:-1000}
DURATION=${DURATION:-60s}
PGBENCH_TIME=${PGBENCH_TIME:-30}
ACCOUNTS=${ACCOUNTS:-200000}
ADDR=127.0.0.1:${BENCH_PORT:-18089}
LISTS=${LISTS:-../shared/data/sanctions}
PGBENCH=$(command -v pgbench || echo /usr/lib/postgresql/15/bin/pgbench)
if [ ! -x "$PGBENCH" ]; then
  echo "pgbench not found: install postgresql-client (Debian: apt-get install postgresql-client-15)" >&2
  exit 1
fi
DB=complyd_bench_$$
base=${PG_URL%/*}
DB_URL="$base/$DB"
WORK=$(mktemp -d)
SERVER_PID=
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
  if [ -n "${KEEP_DB:-}" ]; then
    cp "$WORK/server.log" "/tmp/$DB.server.log" 2>/dev/null || true
    echo "kept database $DB and the server's log in /tmp/$DB.server.log" >&2
  else
    psql "$PG_URL" -qc "drop database if exists $DB" >/dev/null 2>&1 || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "== machine: $(nproc) cores; PostgreSQL $(psql "$PG_URL" -Atc 'show server_version'): $(psql "$PG_URL" -Atc "select string_agg(name || '=' || current_setting(name), ' ' order by name) from pg_settings
  where name in ('synchronous_commit', 'fsync', 'shared_buffers', 'max_wal_size', 'checkpoint_timeout', 'wal_compression')")"
go build -o "$WORK/complyd" ./cmd/complyd
go build -o "$WORK/loadgen" ./cmd/complyd-loadgen
export DATABASE_URL=$DB_URL COMPLYD_JWT_SECRET=bench-secret-bench-secret-bench-secret COMPLYD_ADDR=$ADDR
export COMPLYD_RATE_LIMIT_SCREENING=0 COMPLYD_RATE_LIMIT_API=0
[ -n "${PROFILE:-}" ] && export COMPLYD_PPROF_ADDR=127.0.0.1:18090
start_server() {
  "$WORK/complyd" serve >>"$WORK/server.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 100); do curl -fs "http://$ADDR/health" >/dev/null 2>&1 && break; sleep 0.2; done
}
stop_server() { kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=; }

# BENCH_TEMPLATE=name keeps the seeded database as a template between runs (seeding 200,000
# accounts takes about a minute): the first run creates it, later runs clone it.
TEMPLATE=${BENCH_TEMPLATE:-}
if [ -n "$TEMPLATE" ] && [ "$(psql "$PG_URL" -Atc "select 1 from pg_database where datname = '$TEMPLATE'")" = 1 ]; then
  psql "$PG_URL" -qc "create database $DB template $TEMPLATE"
  "$WORK/complyd" migrate >/dev/null
  start_server
else
  psql "$PG_URL" -qc "create database $DB"
  "$WORK/complyd" migrate >/dev/null
  if [ -d "$LISTS" ]; then # screen against the real OFAC SDN and UN lists
    "$WORK/complyd" watchlist import --format ofac-sdn-csv --list OFAC-SDN \
      "$LISTS/ofac_sdn/2023-12-28/sdn.csv" "$LISTS/ofac_sdn/2023-12-28/alt.csv" "$LISTS/ofac_sdn/2023-12-28/add.csv" >/dev/null
    "$WORK/complyd" watchlist import --format un-xml --list UN-SC "$LISTS/un_sc/2026-02-27/consolidated.xml" >/dev/null
  else
    echo "no sanctions lists at $LISTS: screening against empty global lists" >&2
  fi
  "$WORK/complyd" tenant create --name "Bench Bank" --slug bench --admin-email bench@bank.test \
    --admin-password bench-password-1 >/dev/null
  start_server
  "$WORK/loadgen" -url "http://$ADDR" -db "$DB_URL" -seed-only -accounts "$ACCOUNTS" -run seed-$$
  # The seed writes the KYC applications' BVNs in clear, as rows from before migration 0011 were;
  # migrate seals them (docs/kyc.md), so that screening finds them by their lookup hash.
  "$WORK/complyd" migrate >/dev/null
  psql "$DB_URL" -qc "vacuum analyze transactions" -qc "checkpoint"
  if [ -n "$TEMPLATE" ]; then
    stop_server
    psql "$PG_URL" -qc "drop database if exists $TEMPLATE" -qc "create database $TEMPLATE template $DB"
    start_server
  fi
fi

# CPU accounting: clock ticks of the server process and of the whole machine across a phase;
# the load generator's own CPU comes from its rusage. PostgreSQL and the kernel are the rest.
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
steal_ticks() { awk '/^cpu /{print $9}' /proc/stat; } # CPU time the hypervisor gave to others
# PostgreSQL: every process of the postgres user (backends that exit mid-phase are missed).
pg_ticks() {
  # a backend can exit between pgrep and the read: its missing stat file is not an error
  for p in $(pgrep -u postgres); do awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || true; done | awk '{s += $1} END {print s + 0}'
}
# measure NAME RATE PROTO: one loadgen phase, then its CPU split per screening.
measure() {
  local name=$1 rate=$2 proto=$3 s0 m0 p0 w0 st0 s1 m1 p1 w1 st1
  s0=$(proc_ticks "$SERVER_PID"); m0=$(machine_ticks); p0=$(pg_ticks); w0=$(date +%s.%N); st0=$(steal_ticks)
  python3 scripts/rusage.py "$WORK/$name.cpu" "$WORK/loadgen" -url "http://$ADDR" -accounts "$ACCOUNTS" -proto "$proto" \
    -rate "$rate" -duration "$DURATION" -run "$name-$$" -json "$WORK/$name.json"
  s1=$(proc_ticks "$SERVER_PID"); m1=$(machine_ticks); p1=$(pg_ticks); w1=$(date +%s.%N); st1=$(steal_ticks)
  echo "$name  verdicts stored: $(psql "$DB_URL" -Atc "select string_agg(outcome || ' ' || n || ' (' || round(100.0 * n / total, 1) || '%)', ', ' order by n desc)
    from (select outcome, count(*) n, sum(count(*)) over () total from transactions where external_id like '$name-$$-%' group by outcome) x");\
 automatic cases: $(psql "$DB_URL" -Atc "select count(*) from cases c join transactions t on t.id::text = c.related_transaction_id
    where t.external_id like '$name-$$-%'")"
  python3 scripts/cpu-split.py "$WORK/$name.json" "$(cat "$WORK/$name.cpu")" "$s0" "$s1" "$m0" "$m1" "$p0" "$p1" \
    "$HZ" "$rate" "$DURATION" "$(nproc)" "$(awk -v a="$w0" -v b="$w1" 'BEGIN {print b - a}')" "$((st1 - st0))"
}

PHASES=${PHASES:-grpc rest}
[ -n "${GRPC_ONLY:-}" ] && PHASES=grpc
for phase in $PHASES; do
  case $phase in
  grpc) rate=$GRPC_RATE; proto=$GRPC_PROTO; echo "== gRPC ($proto): $rate/s for $DURATION" ;;
  rest) rate=$REST_RATE; proto=rest; echo "== /api/v1: $rate/s for $DURATION" ;;
  *) echo "unknown phase $phase" >&2; exit 1 ;;
  esac
  # PROFILE=path: an 8-second CPU profile of the server in each phase, to path.<phase>, and the
  # allocation profiles at its start and end (go tool pprof -base path.<phase>.allocs0 ...).
  if [ -n "${PROFILE:-}" ]; then
    (sleep 8; pp=http://127.0.0.1:18090/debug/pprof; curl -s "$pp/allocs" -o "$PROFILE.$phase.allocs0"
     curl -s "$pp/profile?seconds=8" -o "$PROFILE.$phase"; curl -s "$pp/allocs" -o "$PROFILE.$phase.allocs1") &
  fi
  # No checkpoint or sync before a phase (issue 15): a production system gets none, so the
  # kernel's writeback of what the seed dirtied lands inside the phase, as it would.
  measure "$phase" "$rate" "$proto"
done
[ "$PHASES" = "grpc rest" ] || exit 0
stop_server

echo "== pgbench raw limit: one comparable row inserted + the account's 24-hour sum per transaction"
cat >"$WORK/pgbench.sql" <<'SQL'
\set acct random(1000000000, 1000000000 + 199999)
BEGIN;
SELECT count(*), coalesce(sum(amount_ngn), 0) FROM transactions
  WHERE tenant_id = :tenant AND sender_account_number = lpad(:acct::text, 10, '0')
    AND transaction_timestamp >= now() - interval '24 hours' AND transaction_timestamp < now();
INSERT INTO transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn,
  sender_account_number, sender_name, transaction_timestamp, verdict_id, outcome, risk_level, aggregate_score,
  actions, engine_verdicts, total_latency_ms, processed_at, created_at)
VALUES (gen_random_uuid(), :tenant, 'pgb-' || gen_random_uuid(), 'TRANSFER', 'MOBILE_APP', 1234.50, 'NGN', 1234.50,
  lpad(:acct::text, 10, '0'), 'Customer Adeyemi', now(), 'vrd_pgbench', 'APPROVE', 'LOW', 12.5,
  '{GENERATE_FTR}', '[{"category":"Regulatory Compliance","score":0,"outcome":"APPROVE","latencyMs":0}]', 1, now(), now());
COMMIT;
SQL
TENANT=$(psql "$DB_URL" -Atc "select tenant_id from users where email = 'bench@bank.test'")
psql "$DB_URL" -qc "vacuum analyze transactions" -qc "checkpoint"
"$PGBENCH" -n -M prepared -c 32 -j 2 -T "$PGBENCH_TIME" -D tenant="$TENANT" -f "$WORK/pgbench.sql" "$DB_URL" | tee "$WORK/pgbench.txt" | grep -E "tps|latency"
TPS=$(grep -oP 'tps = \K[0-9.]+' "$WORK/pgbench.txt" | head -1)

python3 - "$WORK/grpc.json" "$WORK/rest.json" "$TPS" <<'PY'
import json, sys
g, r, tps = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), float(sys.argv[3])
print("== summary")
for x in (g, r):
    print(f"{x['proto']:11} target {x['targetRate']}/s: achieved {x['throughput']:.0f}/s, p50 {x['p50ms']:.2f} ms, "
          f"p95 {x['p95ms']:.2f} ms, p99 {x['p99ms']:.2f} ms, errors {x['errors']}")
print(f"pgbench raw limit: {tps:.0f} tx/s (one insert + 24 h sum, synchronous commit, 32 clients)")
print(f"ratio gRPC ({g['proto']}) achieved / raw PostgreSQL limit: {g['throughput']/tps:.2f}")
PY
