# bench-lib.sh: what the benchmarks that start servers on a throwaway PostgreSQL share
# (sourced first, not run). It stops at the first error, makes the checkout the working
# folder, defines knobs (scripts/knobs.sh) and sets top (the checkout), threads (THREADS, else the number of cores), bin
# (TILEHALL_BIN, else build/tilehall) and out (build/bench; the caller may change it before
# bench_init).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
# shellcheck source=scripts/knobs.sh
. "$top/scripts/knobs.sh"
threads=${THREADS:-$(nproc)}
bin=${TILEHALL_BIN:-build/tilehall}
out=build/bench

# bench_init NAME PORT CLUSTER TOOL...: the caller's NAME (for messages), port (BENCH_PORT,
# else PORT) and base, the throwaway cluster's folder .pgdata-CLUSTER; exits unless every
# TOOL is on PATH and the port is free; makes $out; sets the EXIT trap (bench_cleanup).
bench_init() {
    bench_name=$1
    port=${BENCH_PORT:-$2}
    base=http://127.0.0.1:$port
    export PGDATA_DIR=$top/.pgdata-$3
    shift 3
    local tool
    for tool in "$@"; do
        command -v "$tool" >/dev/null || { echo "$bench_name: $tool is missing (make deps)" >&2; exit 1; }
    done
    mkdir -p "$out"
    bench_port_free "$port"
    trap bench_cleanup EXIT
}

# bench_port_free PORT: exits when a server already answers on PORT.
bench_port_free() {
    if curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$1/healthz"; then
        echo "$bench_name: port $1 is taken (set BENCH_PORT)" >&2
        exit 1
    fi
}

# bench_pg_start DATABASE LOG [OPTION...]: starts the cluster (--fast: no fsync, asynchronous
# commits, no full-page writes; a benchmark of the server should not measure the disk) with
# a fresh DATABASE, its server options BENCH_PG_OPTS, else the defaults and OPTIONs; pg-start's
# messages in $out/LOG. Sets url.
bench_pg_start() {
    local db=$1 log=$2
    shift 2
    local opts="-c shared_buffers=256MB -c max_wal_size=4GB -c checkpoint_timeout=30min${*:+ $*}"
    url=$(PG_SERVER_OPTS="${BENCH_PG_OPTS:-$opts}" scripts/pg-start.sh --fast --fresh "$db" 2>"$out/$log")
}

# bench_server LOG [VAR=value...]: a server in the background on the cluster (port, THREADS,
# LOG_LEVEL warn, no creation limit, no per-address connection limit, then the VARs, which
# may change any of these), logging to $out/LOG; waits for it. Sets server (its id) and adds
# it to servers.
server=
servers=()
bench_server() {
    local log=$out/$1 at=$port arg
    shift
    for arg in "$@"; do [[ $arg == PORT=* ]] && at=${arg#PORT=}; done
    env PORT="$port" THREADS="$threads" DATABASE_URL="$url" LOG_LEVEL="${LOG_LEVEL:-warn}" \
        CREATE_LIMIT_PER_MINUTE=0 MAX_CONNECTIONS_PER_IP=0 "$@" "$bin" 2>"$log" &
    server=$!
    servers+=("$server")
    bench_wait_server "$log" "http://127.0.0.1:$at"
}

# Waits up to 10 s for the server ($server, logging to $1) to answer /healthz on its PORT
# (the base's unless given as $2); exits with the log's last lines if it stops first.
bench_wait_server() {
    local url=${2:-$base}/healthz
    for _ in $(seq 1 100); do
        curl -s -o /dev/null --max-time 1 "$url" && return 0
        kill -0 "$server" 2>/dev/null || { tail -n 5 "$1" >&2; exit 1; }
        sleep 0.1
    done
    tail -n 5 "$1" >&2
    exit 1
}

# Stops every server started here.
bench_stop_servers() {
    local s
    for s in "${servers[@]}"; do kill "$s" 2>/dev/null && wait "$s" 2>/dev/null || true; done
    servers=()
    server=
}

# The EXIT trap: stops the servers and the cluster, and deletes the cluster unless
# BENCH_KEEP=1.
bench_cleanup() {
    bench_stop_servers
    "$top/scripts/pg-stop.sh" >/dev/null 2>&1 || true
    if [ "${BENCH_KEEP:-0}" != 1 ]; then rm -rf "$PGDATA_DIR"; fi
}

# bench_wrk NAME PREFIX ARG...: one wrk run (--latency ARGs), its output in $out/NAME.txt
# (shown, and the script ended, when wrk fails); prints its RESULT line's fields as shell
# assignments, each name after PREFIX (with h_: h_rps=123 h_p99_ms=1.2 ...).
bench_wrk() {
    local name=$1 prefix=$2
    shift 2
    wrk --latency "$@" >"$out/$name.txt" 2>&1 || { cat "$out/$name.txt" >&2; exit 1; }
    grep '^RESULT' "$out/$name.txt" | sed "s/^RESULT //; s/\([a-z0-9_]*\)=/$prefix\1=/g"
}

# bench_new_game: one classic game of $base as a line of a games file ("<id> <token> <token>").
bench_new_game() {
    curl -s -X POST "$base/v1/games" -H 'Content-Type: application/json' \
        -d '{"ruleset":"classic","players":[{"name":"Ann"},{"name":"Bob"}]}' |
        jq -r '[.id] + [.players[].token] | join(" ")'
}

# bench_turns NAME CONNS: one wrk run of $seconds with CONNS connections on $ngames new games
# of $base (each run plays its own from their first turn; made 4 at a time;
# tests/bench/turns.lua), wrk's output in $out/NAME.txt; prints "turns seconds p99_ms".
bench_turns() {
    export -f bench_new_game
    export base
    seq 1 "$ngames" | xargs -P 4 -I{} bash -c bench_new_game >"$out/games-$1.txt"
    wrk --latency -t"$2" -c"$2" -d"${seconds}s" -s tests/bench/turns.lua \
        "$base" -- "$out/games-$1.txt" "$2" >"$out/$1.txt" 2>&1 || { cat "$out/$1.txt" >&2; exit 1; }
    local line t p
    line=$(grep '^RESULT' "$out/$1.txt")
    t=$(sed 's/.* turns=\([0-9]*\).*/\1/' <<<"$line")
    p=$(sed 's/.* p99_ms=\([0-9.]*\).*/\1/' <<<"$line")
    echo "$t $seconds $p"
}
