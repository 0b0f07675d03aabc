#!/usr/bin/env bash
# The dashboard's and the network's reads at growing sizes of history (issue 54;
# docs/performance-at-scale.md "The dashboard and the network at growing sizes"): one throwaway
# PostgreSQL cluster, the tenants created, then for each size of SIZES (cumulative; 0 is the
# empty database) the history seeded by complyd-seedhistory (transactions, their aggregates,
# cases and rollups, over the tenants sharing the tables), and under each of SCALE_PG's settings
# (after a restart: a cold cache for every size alike) BenchmarkReadsSeeded over /api/v1: the
# queue, a case page and its workspace, the transactions list and search, the overview's
# aggregates and the account network, p50/p95/p99 per call.
#
#   SIZES="0 10000000" bash scripts/bench-reads-sizes.sh        # just bench-reads-sizes
#
# Settings: SIZES (default "0 1000000"), SCALE_PG (default "default recommended"), ACCOUNTS
# (senders per tenant, 200000), HISTORY_DAYS (365), EXTRA_TENANTS (2, beside "bench"),
# BENCHTIME (100x), BENCH_CLUSTER_PORT (5497), BENCH_OUT (bench-results/<time>-reads).
set -euo pipefail
cd "$(dirname "$0")/.."

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
SIZES=${SIZES:-0 1000000}
SCALE_PG=${SCALE_PG:-default recommended}
ACCOUNTS=${ACCOUNTS:-200000}
HISTORY_DAYS=${HISTORY_DAYS:-365}
EXTRA_TENANTS=${EXTRA_TENANTS:-2}
BENCHTIME=${BENCHTIME:-100x}
CPORT=${BENCH_CLUSTER_PORT:-5497}
OUT=${BENCH_OUT:-bench-results/$(date -u +%Y%m%dT%H%M%SZ)-reads}
# The settings of docs/reference/configuration.md, as in scripts/bench-screening-ramp.sh.
RECOMMENDED_OPTS="-c shared_buffers=1GB -c max_wal_size=8GB -c checkpoint_timeout=15min -c wal_compression=lz4 -c wal_init_zero=off"

WORK=$(mktemp -d)
BIN=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
mkdir -p "$OUT"
as_pg=()
if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$WORK"; chmod 755 "$WORK"; as_pg=(runuser -u postgres --); fi
CLUSTER=$WORK/pg
cleanup() {
  if [ -f "$CLUSTER/postmaster.pid" ]; then
    "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$CLUSTER" -m immediate stop >/dev/null 2>&1 || true
  fi
  cp "$WORK/pg.log" "$OUT/pg.log" 2>/dev/null || true
  rm -rf "$WORK" "$BIN"
}
trap cleanup EXIT

# start_pg OPTS...: PostgreSQL (re)started with initdb's settings plus OPTS.
start_pg() {
  if [ -f "$CLUSTER/postmaster.pid" ]; then "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$CLUSTER" -m fast -w stop >/dev/null; fi
  # shellcheck disable=SC2086
  "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$CLUSTER" -l "$WORK/pg.log" -w -o "-c listen_addresses=127.0.0.1 -p $CPORT -k $WORK \
    -c max_connections=100 $*" start >/dev/null
}

"${as_pg[@]}" "$PG_BIN/initdb" -D "$CLUSTER" -U postgres -A trust -E UTF8 --no-locale >/dev/null
start_pg
PG_URL=postgres://postgres@127.0.0.1:$CPORT/postgres
DB_URL=postgres://postgres@127.0.0.1:$CPORT/complyd
psql "$PG_URL" -qc "create database complyd"
{
  echo "machine: $(nproc) cores, $(awk '/MemTotal/{print int($2/1048576)}' /proc/meminfo) GiB; commit $(git rev-parse --short HEAD)"
  echo "PostgreSQL $(psql "$PG_URL" -Atc 'show server_version'); sizes: $SIZES; settings: $SCALE_PG"
  echo "history: $ACCOUNTS senders per tenant, $HISTORY_DAYS days, tenants bench + $EXTRA_TENANTS; $BENCHTIME calls each"
} | tee "$OUT/setup.txt"

GOTMPDIR=$BIN go build -o "$BIN/complyd" ./cmd/complyd
GOTMPDIR=$BIN go build -o "$BIN/seedhistory" ./cmd/complyd-seedhistory
GOTMPDIR=$BIN go test -c -o "$BIN/app.test" ./internal/app
export DATABASE_URL=$DB_URL COMPLYD_JWT_SECRET=bench-secret-bench-secret-bench-secret
"$BIN/complyd" migrate >/dev/null 2>&1
"$BIN/complyd" tenant create --name "Bench Bank" --slug bench --admin-email bench@bank.test --admin-password bench-password-1 >/dev/null
for i in $(seq "$EXTRA_TENANTS"); do
  "$BIN/complyd" tenant create --name "Other Bank $i" --slug "other$i" --admin-email "admin$i@other.test" \
    --admin-password bench-password-1 >/dev/null
done

seeded=0
for size in $SIZES; do
  if [ "$size" -gt "$seeded" ]; then
    echo "== seeding history to $size transactions ($((size - seeded)) more, over $HISTORY_DAYS days)"
    /usr/bin/time -f "seed: %e s wall, %U s user, %S s system (seeder)" nice -n 10 "$BIN/seedhistory" -db "$DB_URL" \
      -rows $((size - seeded)) -days "$HISTORY_DAYS" -accounts "$ACCOUNTS" -run "h$size" 2>&1 | tail -n 2 | tee "$OUT/seed-$size.txt"
    psql "$DB_URL" -qc "vacuum (analyze)" 2>&1 | tee -a "$OUT/seed-$size.txt"
    seeded=$size
  fi
  psql "$DB_URL" -Atc "select format('database %s: transactions %s, cases %s (%s open), accounts %s', pg_size_pretty(pg_database_size(current_database())),
    (select count(*) from transactions), (select count(*) from cases), (select count(*) from cases where status = 'OPEN'),
    (select count(*) from account_versions))" | tee -a "$OUT/seed-$size.txt"
  for setting in $SCALE_PG; do
    case $setting in
    default) start_pg ;;
    recommended) start_pg "$RECOMMENDED_OPTS" ;;
    *) echo "SCALE_PG holds default or recommended" >&2; exit 2 ;;
    esac
    echo "== $size transactions, $setting settings"
    COMPLYD_BENCH_DATABASE_URL=$DB_URL COMPLYD_BENCH_EMAIL=bench@bank.test COMPLYD_BENCH_PASSWORD=bench-password-1 \
      "$BIN/app.test" -test.run '^$' -test.bench BenchmarkReadsSeeded -test.benchtime "$BENCHTIME" -test.timeout 60m \
      2>&1 | tee "$OUT/$size-$setting.txt" | grep -E "^Benchmark|FAIL|panic|sampled" || true
    grep -q "^ok\|^PASS" "$OUT/$size-$setting.txt" || { echo "benchmark failed: $OUT/$size-$setting.txt" >&2; exit 1; }
  done
done

# The table: p95 per call at each size and setting, and each size's ratio to the empty database's.
python3 - "$OUT" "$SIZES" "$SCALE_PG" <<'PY'
import os, re, sys
out, sizes, settings = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
res = {}
for size in sizes:
    for s in settings:
        f = os.path.join(out, f"{size}-{s}.txt")
        for line in open(f):
            m = re.match(r"BenchmarkReadsSeeded/(\S+?)(-\d+)?\s+\d+\s+.*?([\d.]+) p50-ms\s+([\d.]+) p95-ms\s+([\d.]+) p99-ms", line)
            if m:
                res[(size, s, m.group(1))] = (float(m.group(3)), float(m.group(4)), float(m.group(5)))
calls = sorted({k[2] for k in res}, key=lambda c: min(i for i, k in enumerate(res) if k[2] == c))
print(f"== p95 ms per call ({out}); in brackets the ratio to the empty database's")
print("| call | " + " | ".join(f"{size} {s}" for size in sizes for s in settings) + " |")
print("|---|" + "---|" * (len(sizes) * len(settings)))
for c in calls:
    cells = []
    for size in sizes:
        for s in settings:
            v = res.get((size, s, c))
            base = res.get((sizes[0], s, c))
            if v is None:
                cells.append("—")
            elif base and size != sizes[0] and base[1] > 0:
                cells.append(f"{v[1]:.1f} ({v[1] / base[1]:.2f}x)")
            else:
                cells.append(f"{v[1]:.1f}")
    print(f"| {c} | " + " | ".join(cells) + " |")
PY
