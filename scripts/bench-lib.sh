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
