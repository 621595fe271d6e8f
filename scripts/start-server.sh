# start-server.sh: sourced by scripts/soak.sh and tests/itest-bot.sh (bash): starts a server
# on a free port, as a child of the calling shell (so that it can `wait` for its status).
#
# start_server BIN LOG [NAME=VALUE ...]
#   Starts BIN with PORT set to a free port and the settings NAME=VALUE added to its
#   environment, its output appended to LOG; waits until /healthz answers (10 s). Skips
#   ports something answers on and tries again when the server cannot bind or start (up
#   to 10 ports). Sets server_pid and server_port; returns 1 when no server started.
# shellcheck shell=bash disable=SC2034 # server_pid and server_port are for the caller

start_server() {
    local bin=$1 log=$2 p _try _wait
    shift 2
    server_pid=
    server_port=
    for _try in 1 2 3 4 5 6 7 8 9 10; do
        p=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
        if curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$p/"; then continue; fi
        env PORT="$p" "$@" "$bin" >>"$log" 2>&1 &
        server_pid=$!
        for _wait in $(seq 1 100); do
            if curl -sf -o /dev/null --max-time 1 "http://127.0.0.1:$p/healthz"; then
                server_port=$p
                return 0
            fi
            kill -0 "$server_pid" 2>/dev/null || break
            sleep 0.1
        done
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
        server_pid=
    done
    return 1
}
