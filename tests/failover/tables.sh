# shellcheck shell=bash
# tables.sh: sourced by scripts/failover.sh and scripts/ha-failover.sh. A round's load, and
# the new primary's tables, as tests/failover/check.js reads them from the round's folder.

# failover_tables RUN QUERY...: runs `QUERY... SQL` (a psql command of the caller, one query,
# unaligned, on the new primary's tilehall database) for each table and writes RUN/*.tsv.
failover_tables() {
    local run=$1
    shift
    "$@" "COPY (SELECT game_id, version, kind, body FROM actions) TO STDOUT" >"$run/actions.tsv"
    "$@" "COPY (SELECT game_id, seq, version, payload FROM events) TO STDOUT" >"$run/events.tsv"
    "$@" "COPY (SELECT id, version, last_seq, status FROM games) TO STDOUT" >"$run/games.tsv"
    "$@" "COPY (SELECT w.game_id, d.seq, d.attempts, d.delivered_at IS NOT NULL, \
        (extract(epoch FROM d.next_attempt_at - now()) * 1000)::bigint FROM webhook_deliveries d \
        JOIN webhooks w ON w.id = d.webhook_id) TO STDOUT" >"$run/deliveries.tsv"
    # Rated games and their ratings' history, in the order of the updates (issue 25): every
    # rated game that ended is rated once.
    "$@" "COPY (SELECT g.id, g.status, (SELECT count(*) FROM players p \
        WHERE p.game_id = g.id) FROM games g WHERE g.rated) TO STDOUT" >"$run/rated.tsv"
    "$@" "COPY (SELECT game_id, seat, subject, pool, rating_before, \
        rating_after FROM rating_history ORDER BY rated_at, game_id) TO STDOUT" >"$run/history.tsv"
    "$@" "COPY (SELECT subject, pool, games FROM ratings) TO STDOUT" >"$run/rating_counts.tsv"
}

# failover_load_start RUN: the round's load in the background (tests/failover/load.js:
# $clients clients and $followers followers on the servers $bases), its output in
# RUN/load.out; sets load_pid.
failover_load_start() {
    node tests/failover/load.js --out "$1" --clients "$clients" --followers "$followers" \
        "${bases[@]}" >"$1/load.out" 2>&1 &
    load_pid=$!
}

# failover_load_stop WHO RUN: stops the load (SIGINT) and shows its output; returns 1, having
# said so as WHO, when the load failed.
failover_load_stop() {
    local failed=0
    kill -INT "$load_pid"
    wait "$load_pid" || { echo "$1: the load failed (see $2/load.out)" >&2; cat "$2/load.out" >&2; failed=1; }
    load_pid=
    sed 's/^/  /' "$2/load.out"
    return "$failed"
}
