#!/usr/bin/env bash
# Runs the README's quick start verbatim: every ```sh block that follows a `<!-- quickstart -->`
# line, in order, in one bash, from the checkout's root, against `complyd dev` on a free port
# (COMPLYD_ADDR) and a fresh database (DATABASE_URL), then checks the answers the README shows.
# Called by .ci/run; about a minute once complyd is built.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
if [ -f .complyd/env ]; then
  echo "quickstart: a complyd dev is running from this checkout (.complyd/env); stop it first" >&2
  exit 1
fi
for tool in jq curl python3; do
  if ! command -v "$tool" >/dev/null; then
    if [ "$tool" = jq ] && command -v apt-get >/dev/null; then apt-get update -qq && apt-get install -y -qq jq; else
      echo "quickstart: $tool is required" >&2; exit 1; fi
  fi
done

WORK=$(mktemp -d)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
export COMPLYD_ADDR=127.0.0.1:$(free_port)

# A fresh database: on the server at 127.0.0.1:5432 when one answers, else a throwaway cluster.
PG_DIR=""
DB=""
cleanup() {
  if [ -n "$DB" ]; then psql -h 127.0.0.1 -U postgres -qc "drop database if exists $DB with (force)" >/dev/null 2>&1 || true; fi
  if [ -n "$PG_DIR" ]; then
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- pg_ctl -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
    else pg_ctl -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true; fi
  fi
  rm -rf "$WORK" "$PG_DIR"
}
trap cleanup EXIT
if pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  DB=complyd_quickstart_$$
  psql -h 127.0.0.1 -U postgres -qc "create database $DB"
  export DATABASE_URL="postgres://postgres@127.0.0.1:5432/$DB?sslmode=disable"
else
  PG_DIR=$(mktemp -d)
  PG_PORT=$(free_port)
  as_pg=()
  if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$PG_DIR"; as_pg=(runuser -u postgres --); fi
  "${as_pg[@]}" initdb -D "$PG_DIR/data" -U postgres -A trust -E UTF8 --no-locale --no-sync >/dev/null
  "${as_pg[@]}" pg_ctl -D "$PG_DIR/data" -l "$PG_DIR/log" -w -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_DIR -c fsync=off" start >/dev/null
  export DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres?sslmode=disable"
fi
echo "quickstart: COMPLYD_ADDR=$COMPLYD_ADDR DATABASE_URL=$DATABASE_URL"

# The README's blocks, verbatim, each preceded by a marker line on stdout so that the output can
# be cut per block; the prefix only makes the run stop its background jobs (dev and the webhook
# receiver) however it ends. Each block's stdout is compared whole with the output block the
# README shows right after it (scripts/quickstart-compare.py masks ids and times, nothing else).
python3 scripts/quickstart-compare.py script README.md > "$WORK/quickstart.sh"
blocks=$(grep -c '^<!-- quickstart -->$' README.md)
echo "quickstart: running $blocks blocks of README.md"

start=$(date +%s)
if ! timeout 600 bash "$WORK/quickstart.sh" > "$WORK/out.log" 2> "$WORK/err.log"; then
  cat "$WORK/out.log"; cat "$WORK/err.log" >&2
  echo "quickstart: the README's commands failed; complyd's log:" >&2
  tail -40 .complyd-dev.log >&2 || true
  exit 1
fi
echo "quickstart: ran in $(( $(date +%s) - start ))s"
cat "$WORK/out.log"

fail=0
python3 scripts/quickstart-compare.py compare README.md "$WORK/out.log" || fail=1
if [ -f .complyd/env ]; then echo "quickstart: complyd dev did not remove .complyd/env when it stopped" >&2; fail=1; fi
rm -f .complyd-dev.log .complyd-webhooks.log
[ "$fail" = 0 ] && echo "quickstart: OK"
exit "$fail"
