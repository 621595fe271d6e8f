# start-server.sh: sourced by scripts/soak.sh, scripts/failover.sh, scripts/ha-failover.sh and
# tests/itest-bot.sh (bash): starts a server on a port the kernel gives it, as a child of the
# calling shell (so that it can `wait` for its status).
#
# start_server BIN LOG [NAME=VALUE ...]
#   Starts BIN with PORT=0 and PORT_FILE set (the server binds a port the kernel picks and
#   writes it there once it listens: no port is picked here and freed for another program
#   to take first) and the settings NAME=VALUE added to its environment, its output appended
#   to LOG; waits until /healthz answers (30 s in all). Sets server_pid and server_port;
#   returns 1 when no server started (nothing left running).
# shellcheck shell=bash disable=SC2034 # server_pid, server_port and bases are for the caller

start_server() {
    local bin=$1 log=$2 port_file _wait
    shift 2
    server_pid=
    server_port=
    port_file=$(mktemp "${TMPDIR:-/tmp}/tilehall-port.XXXXXX") || return 1
    rm -f "$port_file"
    env PORT=0 PORT_FILE="$port_file" "$@" "$bin" >>"$log" 2>&1 &
    server_pid=$!
    for _wait in $(seq 1 300); do
        if [ -z "$server_port" ] && [ -s "$port_file" ]; then server_port=$(cat "$port_file"); fi
        if [ -n "$server_port" ] &&
            curl -sf -o /dev/null --max-time 1 "http://127.0.0.1:$server_port/healthz"; then
            rm -f "$port_file"
            return 0
        fi
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.1
    done
    rm -f "$port_file"
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=
    server_port=
    return 1
}

# start_servers WHO N BIN LOG [NAME=VALUE ...]
#   N servers by start_server: sets bases (their base URLs) and adds their pids to the
#   caller's array servers; exits the script with "WHO: a server did not start (see LOG)"
#   when one does not (the ones started are in servers, for the caller's trap).
start_servers() {
    local who=$1 n=$2 bin=$3 log=$4 _k
    shift 4
    bases=()
    for _k in $(seq 1 "$n"); do
        start_server "$bin" "$log" "$@" ||
            { echo "$who: a server did not start (see $log)" >&2; exit 1; }
        servers+=("$server_pid")
        bases+=("http://127.0.0.1:$server_port")
    done
}

# stop_servers WHO PATH
#   Checks that each of the caller's servers (pids in servers, base URLs in bases) answers
#   PATH (/healthz, /readyz), stops it with SIGTERM and checks that it exits with status 0;
#   empties servers. Returns 1 when one did not, having said so as WHO.
stop_servers() {
    local who=$1 path=$2 i rc failed=0
    for i in "${!servers[@]}"; do
        curl -sf -o /dev/null "${bases[$i]}$path" ||
            { echo "$who: server ${bases[$i]} does not answer $path at the end" >&2; failed=1; }
        kill "${servers[$i]}"
        rc=0
        wait "${servers[$i]}" || rc=$?
        [ "$rc" -eq 0 ] ||
            { echo "$who: server ${bases[$i]} exited with status $rc on SIGTERM" >&2; failed=1; }
    done
    servers=()
    return "$failed"
}
