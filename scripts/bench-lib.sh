# bench-lib.sh: what the benchmarks that start one server on a throwaway PostgreSQL share
# (sourced, not run). The caller sets top, out, base, port and PGDATA_DIR first.

# Exits unless every tool named after $1 (the caller's name) is on PATH and $port is free;
# makes $out.
bench_check() {
    local name=$1 tool
    shift
    for tool in "$@"; do
        command -v "$tool" >/dev/null || { echo "$name: $tool is missing (make deps)" >&2; exit 1; }
    done
    mkdir -p "$out"
    if curl -s -o /dev/null --max-time 1 "$base/healthz"; then
        echo "$name: port $port is taken (set BENCH_PORT)" >&2
        exit 1
    fi
}

# The EXIT trap: stops the server ($server) and the cluster, and deletes the cluster unless
# BENCH_KEEP=1.
server=
bench_cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true; fi
    "$top/scripts/pg-stop.sh" >/dev/null 2>&1 || true
    if [ "${BENCH_KEEP:-0}" != 1 ]; then rm -rf "$PGDATA_DIR"; fi
}

# Waits up to 10 s for the server ($server, logging to $1) to answer /healthz; exits with
# the log's last lines if it stops first.
bench_wait_server() {
    for _ in $(seq 1 100); do
        curl -s -o /dev/null --max-time 1 "$base/healthz" && return 0
        kill -0 "$server" 2>/dev/null || { tail -n 5 "$1" >&2; exit 1; }
        sleep 0.1
    done
}
