#!/usr/bin/env bash
# soak.sh: a sustained mixed load (build/soak, tests/soak/soak.c) against SOAK_SERVERS
# servers on one fresh database for SOAK_SECONDS, then the summary: requests, answers by
# kind, errors by kind, latency percentiles (p50, p90, p99, p99.9, max). Fails when any
# request got an answer other than the one expected, a 5xx or none, or when a server does
# not stop cleanly on SIGTERM.
#
# Usage: scripts/soak.sh   (make soak: 60 s; make test-soak: 5 s)
# Environment: SOAK_SECONDS (60), SOAK_CLIENTS (32), SOAK_SERVERS (2), TILEHALL_BIN
# (build/tilehall), SOAK_BIN (build/soak), SOAK_SERVER_LOG (build/soak-server.log),
# PGDATA_DIR as for scripts/pg-start.sh; the server's own settings (THREADS ...) pass on,
# except that the creation limit is off unless CREATE_LIMIT_PER_MINUTE is set.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
bin=${TILEHALL_BIN:-build/tilehall}
soak=${SOAK_BIN:-build/soak}
log=${SOAK_SERVER_LOG:-build/soak-server.log}
seconds=${SOAK_SECONDS:-60}
clients=${SOAK_CLIENTS:-32}
nservers=${SOAK_SERVERS:-2}
for f in "$bin" "$soak"; do
    [ -x "$f" ] || { echo "soak: $f is missing (make $f)" >&2; exit 1; }
done
url=$(scripts/pg-start.sh --fast --fresh tilehall_soak)
mkdir -p "$(dirname "$log")"
: >"$log"
servers=()
bases=()
cleanup() {
    for pid in "${servers[@]}"; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
}
trap cleanup EXIT
# Each server on a free port (scripts/start-server.sh).
# shellcheck source=scripts/start-server.sh
. scripts/start-server.sh
start_servers soak "$nservers" "$bin" "$log" DATABASE_URL="$url" LOG_LEVEL="${LOG_LEVEL:-warn}" \
    CREATE_LIMIT_PER_MINUTE="${CREATE_LIMIT_PER_MINUTE:-0}"
status=0
"$soak" "$seconds" "$clients" "${bases[@]}" || status=$?
# Every server must still be healthy and stop cleanly.
stop_servers soak /healthz || { echo "soak: see $log" >&2; status=1; }
if [ "$status" -eq 0 ]; then echo "soak: passed"; else echo "soak: FAILED" >&2; fi
exit "$status"
