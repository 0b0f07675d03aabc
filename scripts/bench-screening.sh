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
  psql "$PG_URL" -qc "drop database if exists $DB" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "== machine: $(nproc) cores; PostgreSQL: $(psql "$PG_URL" -Atc 'show server_version'), synchronous_commit=$(psql "$PG_URL" -Atc 'show synchronous_commit'), fsync=$(psql "$PG_URL" -Atc 'show fsync')"
go build -o "$WORK/complyd" ./cmd/complyd
go build -o "$WORK/loadgen" ./cmd/complyd-loadgen
psql "$PG_URL" -qc "create database $DB"

export DATABASE_URL=$DB_URL COMPLYD_JWT_SECRET=bench-secret-bench-secret-bench-secret COMPLYD_ADDR=$ADDR
export COMPLYD_RATE_LIMIT_SCREENING=0 COMPLYD_RATE_LIMIT_API=0
[ -n "${PROFILE:-}" ] && export COMPLYD_PPROF_ADDR=127.0.0.1:18090
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
"$WORK/complyd" serve >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 100); do curl -fs "http://$ADDR/health" >/dev/null 2>&1 && break; sleep 0.2; done

"$WORK/loadgen" -url "http://$ADDR" -db "$DB_URL" -seed-only -accounts "$ACCOUNTS" -run seed-$$
psql "$DB_URL" -qc "vacuum analyze transactions" -qc "checkpoint"
echo "== gRPC ($GRPC_PROTO): $GRPC_RATE/s for $DURATION"
[ -n "${PROFILE:-}" ] && (sleep 8; curl -s "http://127.0.0.1:18090/debug/pprof/profile?seconds=8" -o "$PROFILE") &
"$WORK/loadgen" -url "http://$ADDR" -accounts "$ACCOUNTS" -proto "$GRPC_PROTO" -rate "$GRPC_RATE" \
  -duration "$DURATION" -run grpc-$$ -json "$WORK/grpc.json"
echo "== /api/v1: $REST_RATE/s for $DURATION"
[ -n "${GRPC_ONLY:-}" ] && exit 0
"$WORK/loadgen" -url "http://$ADDR" -accounts "$ACCOUNTS" -proto rest -rate "$REST_RATE" -duration "$DURATION" \
  -run rest-$$ -json "$WORK/rest.json"
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=

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
