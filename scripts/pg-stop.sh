#!/usr/bin/env bash
# Stops the throwaway PostgreSQL cluster started by scripts/pg-start.sh (if it runs).
# Usage: scripts/pg-stop.sh [--purge]   (--purge also deletes the cluster's folder)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${PGDATA_DIR:-$top/.pgdata}
# shellcheck source=scripts/pg-lib.sh
. "$top/scripts/pg-lib.sh"
pg_owner_and_dir tilehall-pgdata
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
[ -n "$bindir" ] || bindir=$(dirname "$(command -v pg_ctl)")
if [ -f "$dir/data/PG_VERSION" ] && "${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
    "${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    echo "pg-stop: stopped PostgreSQL in $dir" >&2
fi
if [ "${1:-}" = "--purge" ]; then rm -rf "$dir"; fi
