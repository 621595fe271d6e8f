#!/usr/bin/env bash
# shellcheck disable=SC2154 # the settings are set by knobs (scripts/knobs.sh)
# ha-failover.sh: failover by a failover manager, pg_auto_failover (Debian's
# postgresql-15-auto-failover), with nothing acknowledged lost, proven on this machine.
# A monitor and two nodes (a primary and its synchronous standby, as pg_auto_failover sets
# them up: synchronous_standby_names 'ANY 1 (...)', synchronous_commit on), each a
# `pg_autoctl run` keeper of its own PostgreSQL, all on Unix sockets in one folder under
# /tmp (no TCP at all); two tilehall servers whose DATABASE_URL names both nodes
# (host=SOCK,SOCK port=A,B target_session_attrs=read-write); the load of scripts/failover.sh
# (tests/failover/load.js: moves with Idempotency-Key and If-Match, retried until a final
# answer; SSE followers; a computer player and a webhook).
#
# Each round: load, then the primary node dies (kill -9 of its keeper and of every process
# of its PostgreSQL, as a machine that stops), pg_auto_failover's monitor finds it
# unhealthy and promotes the standby (no operator step), more load, then the check of
# scripts/failover.sh (tests/failover/check.js, mode sync) on the new primary: every
# acknowledged write is there, event sequences have no gap or repeat, every key replays
# its first answer, no answer took longer than the outage (kill to the monitor's report of
# the new primary) plus HA_BOUND_MS, every follower saw every event once. And the first
# 2xx of a write sent after the kill came within HA_FIRST_2XX_MS of the kill and within
# HA_AFTER_PROMOTION_MS of the monitor's promotion (the servers' own part). The dead
# node's keeper is then started again (its stale pidfiles removed first, as a restarted
# machine has none): pg_auto_failover rewinds it into the new primary's standby, and the
# next round waits until replication is synchronous again.
#
# The timings are quicker than pg_auto_failover's defaults (which take 35 s to fail over
# here; docs/operations.md "High availability with pg_auto_failover" says what each
# protects): the monitor checks every node each second (1 s timeout, 1 retry after 500 ms),
# a node is unhealthy after 3 s without its keeper's report, and the monitor waits 5 s
# (primary_demote_timeout) before it lets the standby take writes, longer than a cut-off
# primary's keeper takes to demote it (network_partition_timeout 3 s on each node).
#
# Usage: scripts/ha-failover.sh   (make test-ha: 1 round; make test-ha ROUNDS=10: ten)
# Environment: HA_ROUNDS (1), HA_BEFORE (s of load before the kill, 4), HA_AFTER (s of load
# after the promotion, 4), HA_CLIENTS (8), HA_FOLLOWERS (2), HA_BOUND_MS (3000),
# HA_FIRST_2XX_MS (20000), HA_AFTER_PROMOTION_MS (3000), TILEHALL_BIN (build/tilehall), HA_LOGS (build/ha: the logs and
# each round's records, kept). The clusters' folder (/tmp/tilehall-ha.XXXXXX) is removed
# at the end, pass or fail, and every process started here is stopped (trap).
# As root the clusters are owned by and run as `postgres` (as scripts/pg-start.sh does).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
bin=${TILEHALL_BIN:-build/tilehall}
# shellcheck source=scripts/knobs.sh
. "$top/scripts/knobs.sh"
knobs HA rounds=1 before=4 after=4 clients=8 followers=2 bound_ms=3000 first_2xx_ms=20000 \
    after_promotion_ms=3000 logs="$top/build/ha"
[ -x "$bin" ] || { echo "ha: $bin is missing (make $bin)" >&2; exit 1; }
command -v pg_autoctl >/dev/null ||
    { echo "ha: pg_autoctl is missing (apt-get install postgresql-15-auto-failover; make deps)" >&2; exit 1; }

# shellcheck source=scripts/pg-lib.sh disable=SC2154 # it sets bindir, as_pg and owner
. "$top/scripts/pg-lib.sh"
. "$top/tests/failover/tables.sh"
pg_find_bindir ha
# The PostgreSQL that the pgautofailover extension was built for (15 on Debian 12).
for lib in /usr/lib/postgresql/*/lib/pgautofailover.so; do
    [ -f "$lib" ] && bindir=$(dirname "$(dirname "$lib")")/bin
done
dir=/tmp/unused # pg_owner_and_dir's folder test (only as_pg and owner are used here)
export dir
pg_owner_and_dir tilehall-ha
# A short path: a Unix socket's path is at most 107 bytes.
data=$(mktemp -d /tmp/tilehall-ha.XXXXXX)
sock=$data/sock
mkdir -p "$sock" "$data/xdg/run"
if [ "$owner" != "$(id -un)" ]; then chown -R "$owner" "$data"; fi
chmod 700 "$data"

log() { echo "ha: $*"; }
ms() { date +%s%3N; }
# Runs pg_autoctl (or another PostgreSQL program) as the clusters' owner, its state under
# $data (XDG folders) and every connection on the sockets in $sock.
as_ac() {
    "${as_pg[@]}" env XDG_CONFIG_HOME="$data/xdg/config" XDG_DATA_HOME="$data/xdg/data" \
        XDG_RUNTIME_DIR="$data/xdg/run" PATH="$bindir:$PATH" PG_CONFIG="$bindir/pg_config" \
        PGHOST="$sock" "$@"
}
psql_at() { # psql_at PORT DB SQL: one query, unaligned
    "$bindir/psql" -X -q -At -h "$sock" -p "$1" -U postgres -d "$2" -v ON_ERROR_STOP=1 -c "$3"
}
monitor_sql() { psql_at 5432 pg_auto_failover "$1"; }

# Each keeper (`pg_autoctl run`) in a session of its own: keeper_pids[NAME] is its
# session, killed whole (the keeper, its services and the PostgreSQL they run).
declare -A keeper_pids=()
start_keeper() { # start_keeper NAME: runs the keeper of $data/NAME, its log in $logs/NAME.log
    setsid "${as_pg[@]}" env XDG_CONFIG_HOME="$data/xdg/config" XDG_DATA_HOME="$data/xdg/data" \
        XDG_RUNTIME_DIR="$data/xdg/run" PATH="$bindir:$PATH" PG_CONFIG="$bindir/pg_config" \
        PGHOST="$sock" pg_autoctl run --pgdata "$data/$1" >>"$logs/$1.log" 2>&1 </dev/null &
    keeper_pids[$1]=$!
    disown "$!" # killed on purpose: no "Killed" line from the shell
}
# Every process of the node NAME at once with SIGKILL: its keeper's session and its
# PostgreSQL's postmaster and children (looked up first, so the kill is one quick step).
# killed_ms is the time of the kill: the wait for the processes to be gone that follows
# (up to 5 s, more on a busy machine) is no part of the outage the check measures (a round
# once took 6.3 s to see them gone, and the check's bound was 6.3 s too tight).
killed_ms=0
kill_node() {
    local pids pm
    pids=$(ps -o pid= -s "${keeper_pids[$1]}" || true)
    pm=$(pg_live_postmaster "$data/$1")
    if [ -n "$pm" ]; then
        pids="$pids $pm $(ps -o pid= --ppid "$pm" || true)"
    fi
    # shellcheck disable=SC2086
    kill -9 $pids 2>/dev/null || true
    killed_ms=$(ms)
    unset "keeper_pids[$1]"
    # Dead once none is left but as a zombie (up to 5 s).
    local pid alive
    for _ in $(seq 1 50); do
        alive=
        for pid in $pids; do
            case $(ps -o stat= -p "$pid" 2>/dev/null) in '' | Z*) ;; *) alive=1 ;; esac
        done
        [ -z "$alive" ] && return 0
        sleep 0.1
    done
}
# The keeper of a node killed by kill_node, started again. The pidfiles the dead processes
# left are removed first: with pid_max 32768 and tens of thousands of processes in a CI run,
# the PID such a file names may by then be another live process (a backend of another
# cluster, say), and pg_autoctl ("already running") and PostgreSQL ("lock file already
# exists", of its data folder and of its socket) would each refuse to start for as long as
# that process lives. A machine that restarts has no keeper pidfile left (its runtime
# folder is emptied), and kill_node has seen every process of the node gone.
restart_keeper() {
    rm -f "$data/xdg/run/pg_autoctl$data/$1/"*.pid "$data/$1/postmaster.pid" \
        "$sock/.s.PGSQL.${node_port[$1]}.lock"
    start_keeper "$1"
}
# A cluster made by initdb in $data/NAME, on the sockets only (pg_autoctl then takes it).
init_cluster() {
    as_ac "$bindir/initdb" -D "$data/$1" -A trust -U postgres -E UTF8 --no-locale --no-sync \
        >>"$logs/$1.log" 2>&1 || { tail -n 20 "$logs/$1.log" >&2; return 1; }
    printf "%s\n" "unix_socket_directories = '$sock'" "listen_addresses = ''" \
        "max_connections = 200" "wal_sender_timeout = 5s" "wal_receiver_status_interval = 1s" \
        "wal_retrieve_retry_interval = 100ms" | as_ac tee -a "$data/$1/postgresql.conf" >/dev/null
}
# Waits up to $2 s until the monitor's SQL $1 answers 't'.
wait_for() {
    local i
    for i in $(seq 1 $(($2 * 10))); do
        [ "$(monitor_sql "$1" 2>/dev/null || true)" = t ] && return 0
        sleep 0.1
    done
    return 1
}
# The formation is whole: one primary and one secondary, each as assigned, and the
# primary's standby synchronous (sync_state quorum: synchronous_standby_names 'ANY 1').
formation_ready() {
    wait_for "SELECT count(*) = 2 AND bool_and(reportedstate = goalstate) AND
        count(*) FILTER (WHERE reportedstate = 'primary') = 1 AND
        count(*) FILTER (WHERE reportedstate = 'secondary') = 1 FROM pgautofailover.node" "$1" ||
        return 1
    local port i
    port=$(monitor_sql "SELECT nodeport FROM pgautofailover.node WHERE reportedstate = 'primary'")
    for i in $(seq 1 $(($1 * 10))); do
        [ "$(psql_at "$port" postgres "SELECT sync_state FROM pg_stat_replication
            WHERE state = 'streaming' LIMIT 1" 2>/dev/null || true)" = quorum ] && return 0
        sleep 0.1
    done
    return 1
}

# What the monitor and NAME's keeper last said, a dozen short lines (the end of CI's log
# is what is kept): each node's states, the monitor's last events, the log's last steps.
formation_report() {
    monitor_sql "SELECT format('  node %s: reported %s, goal %s, health %s, lsn %s',
        nodename, reportedstate, goalstate, health, reportedlsn)
        FROM pgautofailover.node ORDER BY nodeid" 2>&1 | head -n 4 || true
    monitor_sql "SELECT '  event: ' || left(description, 160) FROM
        (SELECT * FROM pgautofailover.event ORDER BY eventid DESC LIMIT 4) e
        ORDER BY eventid" 2>&1 | head -n 4 || true
    grep -E 'FSM transition|ERROR|FATAL|pg_rewind: (error|fatal)|basebackup' "$logs/$1.log" |
        tail -n 5 | cut -c 1-200 | sed 's/^/  log: /' || true
}

servers=()
load_pid=
# shellcheck disable=SC2317 # run by the trap
cleanup() {
    set +e
    [ -n "$load_pid" ] && kill "$load_pid" 2>/dev/null
    for pid in "${servers[@]}"; do
        kill "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    for name in "${!keeper_pids[@]}"; do kill_node "$name"; done
    # Any PostgreSQL left (a keeper may have started one as it died).
    for folder in "$data"/*/; do
        pm=$(pg_live_postmaster "${folder%/}")
        [ -n "$pm" ] && kill -9 "$pm" 2>/dev/null
    done
    sleep 0.5
    rm -rf "$data"
}
trap cleanup EXIT

rm -rf "$logs"
mkdir -p "$logs/runs"
if [ "$owner" != "$(id -un)" ]; then chown "$owner" "$logs"; fi
t0=$(ms)
# The monitor, on port 5432 of the sockets, its health checks quicker (see the header).
init_cluster monitor
as_ac pg_autoctl create monitor --pgdata "$data/monitor" --pgport 5432 --hostname "$sock" \
    --skip-pg-hba --no-ssl >>"$logs/monitor.log" 2>&1 ||
    { tail -n 20 "$logs/monitor.log" >&2; exit 1; }
as_ac pg_autoctl config set --pgdata "$data/monitor" postgresql.listen_addresses "" \
    >>"$logs/monitor.log" 2>&1
start_keeper monitor
wait_for "SELECT true" 30 || { echo "ha: the monitor did not start (see $logs/monitor.log)" >&2; exit 1; }
for setting in health_check_period=1000 health_check_timeout=1000 health_check_max_retries=1 \
    health_check_retry_delay=500 node_considered_unhealthy_timeout=3000 primary_demote_timeout=5000; do
    monitor_sql "ALTER SYSTEM SET pgautofailover.${setting%%=*} = ${setting#*=}" >/dev/null
done
monitor_sql "SELECT pg_reload_conf()" >/dev/null
monitor_url="postgres://autoctl_node@${sock//\//%2F}:5432/pg_auto_failover?sslmode=disable"

# Two nodes, n1 (5433) first: the primary; n2 (5434) copied from it: the standby.
declare -A node_port=([n1]=5433 [n2]=5434)
for name in n1 n2; do
    [ "$name" = n1 ] && init_cluster n1
    as_ac pg_autoctl create postgres --pgdata "$data/$name" --pgport "${node_port[$name]}" \
        --hostname "$sock" --listen "" --name "$name" --skip-pg-hba --no-ssl --dbname tilehall \
        --monitor "$monitor_url" >>"$logs/$name.log" 2>&1 ||
        { tail -n 20 "$logs/$name.log" >&2; exit 1; }
    as_ac pg_autoctl config set --pgdata "$data/$name" timeout.network_partition_timeout 3 \
        >>"$logs/$name.log" 2>&1
    start_keeper "$name"
    if [ "$name" = n1 ]; then
        wait_for "SELECT reportedstate = 'single' FROM pgautofailover.node WHERE nodename = 'n1'" 60 ||
            { echo "ha: n1 did not come up (see $logs/n1.log)" >&2; exit 1; }
    fi
done
formation_ready 120 || { echo "ha: the formation did not become ready (see $logs)" >&2; exit 1; }
url="host=$sock,$sock port=5433,5434 user=postgres dbname=tilehall target_session_attrs=read-write"
log "monitor and two nodes ready in $(($(ms) - t0)) ms (n1 primary, n2 its synchronous standby); DATABASE_URL='$url'"
as_ac pg_autoctl show settings --pgdata "$data/monitor" 2>/dev/null | sed 's/^/  /' || true

# Two servers on the multi-host URL (scripts/start-server.sh).
# shellcheck source=scripts/start-server.sh
. scripts/start-server.sh
start_servers ha 2 "$bin" "$logs/server.log" DATABASE_URL="$url" LOG_LEVEL="${LOG_LEVEL:-warn}" \
    CREATE_LIMIT_PER_MINUTE=0 WEBHOOK_ALLOW_PRIVATE=1

status=0
times=()
promotions=()
for round in $(seq 1 "$rounds"); do
    run="$logs/runs/$round"
    mkdir -p "$run"
    primary=$(monitor_sql "SELECT nodename FROM pgautofailover.node WHERE reportedstate = 'primary'")
    standby=$(monitor_sql "SELECT nodename FROM pgautofailover.node WHERE reportedstate = 'secondary'")
    log "round $round: primary $primary, standby $standby; load ${before}s before the kill"
    failover_load_start "$run"
    sleep "$before"
    kill_node "$primary"
    t_kill=$killed_ms
    # Promoted by the monitor: the standby reports itself primary or wait_primary (a
    # primary whose standby is gone, writing alone until one is back).
    wait_for "SELECT reportedstate IN ('primary', 'wait_primary') FROM pgautofailover.node
        WHERE nodename = '$standby'" 120 ||
        { echo "ha: round $round: the monitor did not promote $standby within 120 s" >&2; status=1; break; }
    t_promoted=$(ms)
    promotions+=($((t_promoted - t_kill)))
    log "round $round: killed $primary at $t_kill, $standby promoted by the monitor $((t_promoted - t_kill)) ms later"
    echo "$t_kill $t_promoted" >"$run/times"
    sleep "$after"
    failover_load_stop ha "$run" || status=1
    port=${node_port[$standby]}
    failover_tables "$run" psql_at "$port" tilehall
    rc=0
    node tests/failover/check.js --run "$run" --mode sync --bound "$bound_ms" | tee "$run/check.out" || rc=$?
    [ "$rc" -eq 0 ] || status=1
    t=$(sed -n 's/^check: kill to first 2xx on the new primary: \([0-9]*\) ms.*/\1/p' "$run/check.out")
    if [ -z "$t" ]; then
        echo "ha: round $round: no 2xx after the kill" >&2
        status=1
    else
        times+=("$t")
        if [ "$t" -gt "$first_2xx_ms" ]; then
            echo "ha: round $round: the first 2xx came $t ms after the kill (bound $first_2xx_ms ms)" >&2
            status=1
        fi
        # The servers' own part: the first 2xx at most HA_AFTER_PROMOTION_MS after the
        # monitor's promotion (the promotion itself is pg_auto_failover's timing).
        late=$((t - promotions[${#promotions[@]} - 1]))
        if [ "$late" -gt "$after_promotion_ms" ]; then
            echo "ha: round $round: the first 2xx came $late ms after the promotion (bound $after_promotion_ms ms)" >&2
            status=1
        fi
    fi
    # The dead node comes back: its keeper rewinds it into the new primary's standby (2 to
    # 4 s here; restart_keeper says why its pidfiles go first). A keeper that has not
    # brought it back within 90 s is stopped and started once more, as an operator would
    # (said in the log); not back 90 s after that fails the round, with what the monitor
    # and the node's log last said.
    restart_keeper "$primary"
    t_back=$(ms)
    if ! formation_ready 90; then
        echo "ha: round $round: $primary not back as a synchronous standby after 90 s; its keeper is started again" >&2
        formation_report "$primary" >&2
        kill_node "$primary"
        restart_keeper "$primary"
        formation_ready 90 || {
            echo "ha: round $round: $primary did not come back as a synchronous standby (see $logs/$primary.log)" >&2
            formation_report "$primary" >&2
            status=1
            break
        }
    fi
    log "round $round: $primary back as the synchronous standby of $standby in $(($(ms) - t_back)) ms"
done

# Every server must still be ready and stop cleanly.
stop_servers ha /readyz || status=1
summary() { # summary NAME VALUES...: n, p50 and max
    local name=$1 sorted n
    shift
    sorted=$(printf '%s\n' "$@" | sort -n)
    n=$#
    log "$name over $n failovers: p50 $(echo "$sorted" | sed -n "$(((n + 1) / 2))p") ms, max $(echo "$sorted" | tail -n 1) ms"
}
[ "${#promotions[@]}" -gt 0 ] && summary "kill -> promoted by the monitor" "${promotions[@]}"
[ "${#times[@]}" -gt 0 ] && summary "kill -> first 2xx on the new primary (bound $first_2xx_ms ms)" "${times[@]}"
log "$(($(ms) - t0)) ms in all"
if [ "$status" -eq 0 ]; then log "passed"; else echo "ha: FAILED (logs in $logs)" >&2; fi
exit "$status"
