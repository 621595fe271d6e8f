#!/usr/bin/env bash
# shellcheck disable=SC2154 # the settings are set by knobs (scripts/knobs.sh)
# failover.sh: failover to a PostgreSQL standby with nothing acknowledged lost, proven on
# this machine. Two throwaway clusters (slots a and b, Unix sockets in build/failover): a
# primary and a standby made by pg_basebackup -R; two tilehall servers whose DATABASE_URL
# names both hosts (host=A,B target_session_attrs=read-write); a load (tests/failover/
# load.js) of clients making moves with Idempotency-Key, recording every 2xx, and SSE
# followers reconnecting with Last-Event-ID. Each round: load, kill -9 of every process
# of the primary, promotion of the standby (pg_ctl promote, as an operator or Patroni
# would), more load on the new primary, then the check (tests/failover/check.js) against
# the new primary's tables: every acknowledged move is there, event sequences have no
# gap or repeat, every key replays its first answer byte for byte, no answer took longer
# than the outage plus BOUND_MS, every follower saw every event exactly once, every rated
# game that ended (two clients, one on each server, end rated games of the same two
# players) had its ratings changed exactly once, and (the first round) a tournament whose
# round 1 ended just before the kill has its round 2 paired once on the new primary
# (tests/failover/tourney.sh). The old
# primary's slot then gets a new standby of the new primary for the next round.
#
# Rounds: FAILOVER_ROUNDS (1) with synchronous replication (synchronous_standby_names='*',
# synchronous_commit=on), then FAILOVER_FENCE (1) rounds where the primary is not killed
# but fenced (default_transaction_read_only=on, as a demoted primary left running: the
# servers meet 25006 read_only_sql_transaction; the promotion waits until one has) before
# the promotion, and stopped a second after it, checked the same way; then
# FAILOVER_CONTROL (1) rounds of the negative control with asynchronous replication, where
# the standby's walreceiver is stopped (SIGSTOP) 1.5 s before the kill: the same checker
# must find lost moves there (or the round says why none were lost). Prints each round's
# kill -> first 2xx on the new primary, and the p50/max over the synchronous rounds at the
# end.
#
# Usage: scripts/failover.sh   (make test-failover: 1 + 1 rounds; make failover: 10 + 1)
# Environment: FAILOVER_ROUNDS, FAILOVER_CONTROL, FAILOVER_BEFORE (s of load before the
# kill, 4), FAILOVER_AFTER (s after the promotion, 4), FAILOVER_CLIENTS (12),
# FAILOVER_FOLLOWERS (4), FAILOVER_BOUND_MS (3000), TILEHALL_BIN (build/tilehall),
# FAILOVER_DIR (build/failover).
# As root the clusters are owned by and run as `postgres` (as scripts/pg-start.sh does).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
bin=${TILEHALL_BIN:-build/tilehall}
# shellcheck source=scripts/knobs.sh
. "$top/scripts/knobs.sh"
knobs FAILOVER rounds=1 control=1 fence=1 before=4 after=4 clients=12 followers=4 bound_ms=3000 \
    dir="$top/build/failover"
[ -x "$bin" ] || { echo "failover: $bin is missing (make $bin)" >&2; exit 1; }

# shellcheck source=scripts/pg-lib.sh
. "$top/scripts/pg-lib.sh"
. "$top/tests/failover/tables.sh"
# shellcheck source=tests/failover/tourney.sh
. "$top/tests/failover/tourney.sh"
pg_find_bindir failover
pg_owner_and_dir tilehall-failover

log() { echo "failover: $*"; }
ms() { date +%s%3N; }
log_count() { # log_count PATTERN: the servers' log lines that match PATTERN so far
    grep -c "$1" "$dir/server.log" || true
}
psql_at() { # psql_at SLOT SQL: one query on the cluster of SLOT, unaligned
    "$bindir/psql" -X -q -At -h "$dir/$1" -p 5432 -U postgres -d "${PSQL_DB:-postgres}" \
        -v ON_ERROR_STOP=1 -c "$2"
}
pg_ctl_slot() { # pg_ctl_slot SLOT ARGS...
    local slot=$1
    shift
    "${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/$slot/data" -l "$dir/$slot/server.log" "$@"
}
start_slot() {
    pg_ctl_slot "$1" -w -t 60 -o "-k $dir/$1 -c listen_addresses= -p 5432 \
        -c max_connections=200 -c fsync=off -c wal_level=replica -c max_wal_senders=4 \
        -c wal_sender_timeout=5s -c wal_receiver_status_interval=1s \
        -c wal_retrieve_retry_interval=100ms" start >/dev/null ||
        { tail -n 20 "$dir/$1/server.log" >&2; return 1; }
}
# Every process of the cluster in SLOT, killed at once with SIGKILL (a machine that dies):
# the postmaster and its children, by their ids.
# slot_pids SLOT: their ids (looked up first, so that the kill itself is one quick step).
slot_pids() {
    local pm
    pm=$(pg_live_postmaster "$dir/$1/data")
    if [ -n "$pm" ]; then
        # shellcheck disable=SC2046 # one id a word
        echo "$pm" $(ps -o pid= --ppid "$pm")
    fi
}
kill_slot() {
    # shellcheck disable=SC2046
    kill -9 $(slot_pids "$1") 2>/dev/null || true
}
# A standby of the primary in slot $1 made in slot $2 (its folder emptied first; the lock
# of its socket that a killed postmaster left goes too: its PID may be another process's by
# now, and PostgreSQL would refuse to start beside it).
make_standby() {
    local from=$1 to=$2
    kill_slot "$to"
    rm -rf "$dir/$to/data" "$dir/$to/.s.PGSQL.5432.lock"
    "${as_pg[@]}" "$bindir/pg_basebackup" -h "$dir/$from" -p 5432 -U postgres \
        -D "$dir/$to/data" -R -X stream -c fast >"$dir/$to/basebackup.log" 2>&1 ||
        { cat "$dir/$to/basebackup.log" >&2; return 1; }
    # Once promoted it has no standby of its own: it must not wait for one.
    echo "synchronous_standby_names = ''" | "${as_pg[@]}" tee -a \
        "$dir/$to/data/postgresql.auto.conf" >/dev/null
    start_slot "$to"
}
# Sets the replication of the primary in slot $1 ('*': synchronous, '': asynchronous) and
# waits until its standby streams (and, synchronous, is the synchronous one).
set_replication() {
    local slot=$1 names=$2 want=async i
    [ -n "$names" ] && want=sync
    psql_at "$slot" "ALTER SYSTEM SET synchronous_standby_names = '$names'" >/dev/null
    psql_at "$slot" "SELECT pg_reload_conf()" >/dev/null
    for i in $(seq 1 300); do
        [ "$(psql_at "$slot" "SELECT sync_state FROM pg_stat_replication \
            WHERE state = 'streaming' LIMIT 1")" = "$want" ] && return 0
        sleep 0.1
    done
    echo "failover: the standby of $slot does not stream ($want)" >&2
    return 1
}

servers=()
load_pid=
cleanup() {
    [ -n "$load_pid" ] && kill "$load_pid" 2>/dev/null || true
    for pid in "${servers[@]}"; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    for slot in a b; do
        if [ -n "$(pg_live_postmaster "$dir/$slot/data")" ]; then
            pg_ctl_slot "$slot" -m immediate -w stop >/dev/null 2>&1 || true
        fi
    done
}
trap cleanup EXIT

# Fresh clusters: a primary in slot a, its standby in slot b.
for slot in a b; do
    [ -f "$dir/$slot/data/postmaster.pid" ] && pg_ctl_slot "$slot" -m immediate -w stop \
        >/dev/null 2>&1 || true
done
rm -rf "$dir"
mkdir -p "$dir/a" "$dir/b" "$dir/runs"
if [ "$owner" != "$(id -un)" ]; then chown "$owner" "$dir" "$dir/a" "$dir/b"; fi
chmod 700 "$dir/a" "$dir/b"
"${as_pg[@]}" "$bindir/initdb" -D "$dir/a/data" -A trust -U postgres -E UTF8 --no-locale \
    --no-sync >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
start_slot a
psql_at a "CREATE DATABASE tilehall" >/dev/null
make_standby a b
primary=a
standby=b
url="host=$dir/a,$dir/b port=5432 user=postgres dbname=tilehall target_session_attrs=read-write"
log "primary in $dir/a, standby in $dir/b; DATABASE_URL='$url'"

# Two servers on the multi-host URL (scripts/start-server.sh).
# shellcheck source=scripts/start-server.sh
. scripts/start-server.sh
: >"$dir/server.log"
start_servers failover 2 "$bin" "$dir/server.log" DATABASE_URL="$url" \
    LOG_LEVEL="${LOG_LEVEL:-warn}" CREATE_LIMIT_PER_MINUTE=0 WEBHOOK_ALLOW_PRIVATE=1
# A tournament whose round 1 ends just before the first kill (tests/failover/tourney.sh).
tourney_setup "${bases[0]}" || exit 1
psql_tilehall() { PSQL_DB=tilehall psql_at "$@"; }

status=0
times=()
fence_times=()
total=$((rounds + fence + control))
for round in $(seq 1 "$total"); do
    mode=sync
    [ "$round" -gt "$rounds" ] && mode=fence
    [ "$round" -gt $((rounds + fence)) ] && mode=async
    run="$dir/runs/$round-$mode"
    mkdir -p "$run"
    if [ "$mode" = async ]; then set_replication "$primary" ''; else set_replication "$primary" '*'; fi
    ro_before=$(log_count '"database is read-only"')
    log_before=$(wc -l <"$dir/server.log")
    doubt_before=$(log_count '"msg":"database connection lost".*"op":"commit"')
    log "round $round ($mode): primary $primary, standby $standby; load ${before}s before the kill"
    failover_load_start "$run"
    sleep "$before"
    if [ "$mode" = async ]; then
        # The negative control: the standby stops receiving WAL 1.5 s before the kill,
        # so what the primary acknowledged meanwhile exists nowhere else.
        wr=$(PSQL_DB=postgres psql_at "$standby" "SELECT pid FROM pg_stat_wal_receiver")
        kill -STOP "$wr"
        sleep 1.5
    fi
    if [ "$mode" = fence ]; then
        # Fenced, not killed: it keeps running but takes no more writes (new transactions
        # are read-only), while the standby is promoted; stopped a second later.
        psql_at "$primary" "ALTER SYSTEM SET default_transaction_read_only = on" >/dev/null
        psql_at "$primary" "SELECT pg_reload_conf()" >/dev/null
        t_kill=$(ms)
        # A backend takes the new setting at its next command, and the reload reaches the
        # backends a little after pg_reload_conf() returns: promoted at once, the standby
        # could stop taking WAL before any server's transaction found the primary
        # read-only, and every COMMIT then waiting for it would hang until the stop (a
        # kill, not a fence). As a failover manager fences and then promotes, the
        # promotion waits (up to 5 s) until a server has met the read-only primary.
        for _ in $(seq 1 500); do
            [ "$(log_count '"database is read-only"')" -gt "$ro_before" ] && break
            sleep 0.01
        done
        t_met=$(ms)
        pg_ctl_slot "$standby" -w -t 60 promote >/dev/null
        t_promoted=$(ms)
        sleep 1
        pg_ctl_slot "$primary" -m fast -w -t 60 stop >/dev/null
        log "round $round: fenced the primary at $t_kill, a server met it read-only $((t_met - t_kill)) ms later, the standby promoted $((t_promoted - t_kill)) ms after the fence"
    else
        # Round 1's games end (one server pairs round 2 at once) just before the kill.
        [ "$round" = 1 ] && tourney_end_round "${bases[1]}"
        pids=$(slot_pids "$primary")
        # shellcheck disable=SC2086
        kill -9 $pids
        t_kill=$(ms)
        [ "$mode" = async ] && kill -CONT "$wr"
        pg_ctl_slot "$standby" -w -t 60 promote >/dev/null
        t_promoted=$(ms)
        log "round $round: killed the primary at $t_kill, the standby promoted $((t_promoted - t_kill)) ms later"
    fi
    echo "$t_kill $t_promoted" >"$run/times"
    sleep "$after"
    failover_load_stop failover "$run" || status=1
    # The new primary's tables, as the checker reads them.
    PSQL_DB=tilehall failover_tables "$run" psql_at "$standby"
    doubt=$(($(log_count '"msg":"database connection lost".*"op":"commit"') - doubt_before))
    log "round $round: $doubt COMMITs lost their answer with the primary (in doubt: answered 503, then retried with their key)"
    rc=0
    node tests/failover/check.js --run "$run" --mode "$mode" --bound "$bound_ms" | tee "$run/check.out" || rc=$?
    t=$(sed -n 's/^check: kill to first 2xx on the new primary: \([0-9]*\) ms.*/\1/p' "$run/check.out")
    if [ "$round" = 1 ] && [ "$mode" = sync ]; then
        tourney_check "${bases[0]}" psql_tilehall "$standby" || status=1
    fi
    if [ "$mode" = sync ]; then
        [ "$rc" -eq 0 ] || status=1
        [ -n "$t" ] && times+=("$t")
    elif [ "$mode" = fence ]; then
        [ "$rc" -eq 0 ] || status=1
        [ -n "$t" ] && fence_times+=("$t")
        ro=$(($(log_count '"database is read-only"') - ro_before))
        log "round $round: the servers found the fenced primary read-only $ro times (25006 or its ParameterStatus)"
        if [ "$ro" -eq 0 ]; then
            echo "failover: the servers never met the read-only primary; what they logged in the round:" >&2
            tail -n +"$((log_before + 1))" "$dir/server.log" |
                sed -n 's/.*"level":"\([a-z]*\)","msg":"\([^"]*\)".*"op":"\([^"]*\)".*/\1 \2 (\3)/p;
                        t; s/.*"level":"\([a-z]*\)","msg":"\([^"]*\)".*/\1 \2/p' |
                sort | uniq -c | sort -rn | head -n 20 >&2
            status=1
        fi
    else
        # 3: lost moves found (what the control must show); 0: none lost, explained.
        if [ "$rc" -ne 3 ] && [ "$rc" -ne 0 ]; then status=1; fi
    fi
    # The old primary's slot gets a new standby of the new primary for the next round.
    old=$primary
    primary=$standby
    standby=$old
    if [ "$round" -lt "$total" ]; then make_standby "$primary" "$standby"; fi
done

# Every server must still be ready and stop cleanly.
stop_servers failover /readyz || status=1
if [ "${#times[@]}" -gt 0 ]; then
    sorted=$(printf '%s\n' "${times[@]}" | sort -n)
    n=${#times[@]}
    p50=$(echo "$sorted" | sed -n "$(((n + 1) / 2))p")
    max=$(echo "$sorted" | tail -n 1)
    log "kill -> first 2xx on the new primary over $n synchronous failovers: p50 $p50 ms, max $max ms"
fi
if [ "${#fence_times[@]}" -gt 0 ]; then
    log "fence -> first 2xx on the new primary: ${fence_times[*]} ms"
fi
if [ "$status" -eq 0 ]; then log "passed"; else echo "failover: FAILED" >&2; fi
exit "$status"
