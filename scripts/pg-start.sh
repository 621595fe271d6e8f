#!/usr/bin/env bash
# Starts (or reuses) a throwaway PostgreSQL cluster in a folder of the checkout and makes
# sure database DB (default "tilehall") exists. Listens only on a Unix socket in that
# folder, so it never collides with another PostgreSQL or another checkout.
# Usage: scripts/pg-start.sh [--fast] [--fresh] [DB]
#   --fresh  drops and recreates DB
#   --fast   for tests and benchmarks: fsync, synchronous_commit and full_page_writes off
#            (a crash of the machine may lose or corrupt the cluster). Without it (make run)
#            the cluster keeps PostgreSQL's durable defaults. Either way the setting is
#            applied to a cluster that already runs (ALTER SYSTEM and a reload), so a
#            cluster the tests left fast is durable again for the next make run.
# PGDATA_DIR: the cluster's folder (default .pgdata of the checkout).
# PG_SERVER_OPTS: more server options ("-c name=value ..."), used when this starts it.
# Prints the DATABASE_URL for libpq as its only line on stdout; progress goes to stderr.
# initdb refuses to run as root: as root the cluster is owned by and run as `postgres`.
set -euo pipefail
fresh=0
fast=0
while [ $# -gt 0 ]; do
    case "$1" in
    --fresh) fresh=1; shift ;;
    --fast) fast=1; shift ;;
    *) break ;;
    esac
done
db=${1:-tilehall}
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${PGDATA_DIR:-$top/.pgdata}

# shellcheck source=scripts/pg-lib.sh
. "$top/scripts/pg-lib.sh"
pg_find_bindir pg-start
pg_owner_and_dir tilehall-pgdata
mkdir -p "$dir"
[ "$owner" = "$(id -un)" ] || chown "$owner" "$dir"
chmod 700 "$dir"

if [ ! -f "$dir/data/PG_VERSION" ]; then
    echo "pg-start: initdb in $dir/data" >&2
    "${as_pg[@]}" "$bindir/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --no-locale \
        --no-sync >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
fi
if ! "${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
    echo "pg-start: starting PostgreSQL on socket $dir" >&2
    rm -f "$dir/data/postmaster.pid"
    "${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-k $dir -c listen_addresses= -p 5432 -c max_connections=200 ${PG_SERVER_OPTS:-}" \
        start >/dev/null || { tail -n 20 "$dir/server.log" >&2; exit 1; }
fi
psql=("$bindir/psql" -X -q -h "$dir" -p 5432 -U postgres -d postgres -v ON_ERROR_STOP=1)
# Durable (the defaults) or fast; settings given on the command line of a running server
# (as an older version of this script did) win over ALTER SYSTEM, so such a server restarts.
nondurable=(fsync synchronous_commit full_page_writes)
if [ -n "$("${psql[@]}" -tAc "SELECT 1 FROM pg_settings WHERE source = 'command line' AND
        name IN ('fsync', 'synchronous_commit', 'full_page_writes') LIMIT 1")" ]; then
    echo "pg-start: restarting PostgreSQL without durability settings on its command line" >&2
    "${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -m fast \
        -o "-k $dir -c listen_addresses= -p 5432 -c max_connections=200 ${PG_SERVER_OPTS:-}" \
        restart >/dev/null || { tail -n 20 "$dir/server.log" >&2; exit 1; }
fi
for name in "${nondurable[@]}"; do
    if [ "$fast" -eq 1 ]; then
        "${psql[@]}" -c "ALTER SYSTEM SET $name = off" >&2
    else
        "${psql[@]}" -c "ALTER SYSTEM RESET $name" >&2
    fi
done
"${psql[@]}" -tAc "SELECT pg_reload_conf()" >/dev/null
if [ "$fresh" -eq 1 ]; then
    "${psql[@]}" -c "DROP DATABASE IF EXISTS \"$db\" WITH (FORCE)" >&2
fi
if [ -z "$("${psql[@]}" -tAc "SELECT 1 FROM pg_database WHERE datname = '$db'")" ]; then
    "${psql[@]}" -c "CREATE DATABASE \"$db\"" >&2
fi
echo "postgresql://postgres@/$db?host=$dir&port=5432"
