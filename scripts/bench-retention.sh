#!/usr/bin/env bash
# bench-retention.sh: retention (issue 16, item 3; `make bench-retention`), in one run on a
# throwaway PostgreSQL of its own (PGDATA_DIR=.pgdata-bench-retention, --fast, deleted at
# the end):
#   1. the database's size per finished game: for each ruleset, BENCH_SIZE_GAMES games of
#      two computer players (random) played to their end by a server's job workers; rows
#      and bytes (pg_total_relation_size, tables with their indexes and TOAST, after VACUUM
#      FULL so that dead row versions do not count) of every table, before and after,
#      divided by the games;
#   2. BENCH_RETENTION_GAMES (100,000) old finished games: copies (SQL, generate_series, in
#      chunks of 10,000) of one finished classic game of step 1 with all its rows (seats,
#      actions, events), ended 30 days ago;
#   3. the committed turn rate of live play (tests/bench/turns.lua, as bench-http's (c), on
#      a server without job workers) for BENCH_SECONDS without deletion, then while a second
#      server (RETENTION_DAYS=1, its job workers, RETENTION_BATCH) deletes the old games,
#      in BENCH_SECONDS runs of wrk until none is left, then again without; prints both
#      rates, p99 of the turn requests, and how long the deletion took.
# Environment (defaults): BENCH_RETENTION_GAMES (100000), BENCH_SIZE_GAMES (20),
# BENCH_SECONDS (10), BENCH_TURN_CONNS (16), BENCH_GAMES (200), BENCH_PORT (18095, and the
# next port), THREADS (the number of cores), RETENTION_BATCH (500), TILEHALL_BIN,
# BENCH_KEEP=1 keeps the cluster.
# shellcheck source=scripts/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"
nold=${BENCH_RETENTION_GAMES:-100000}
nsize=${BENCH_SIZE_GAMES:-3}
ncopies=${BENCH_SIZE_COPIES:-2000}
knobs BENCH seconds=10 turn_conns=16
ngames=${BENCH_GAMES:-200}
batch=${RETENTION_BATCH:-500}
out=build/bench-retention
bench_init bench-retention 18095 bench-retention wrk curl jq psql
port2=$((port + 1))
bench_port_free "$port2"
bench_pg_start tilehall_bench pg-start.log -c synchronous_commit=on
sql() { psql "$url" -X -q -At -v ON_ERROR_STOP=1 "$@"; }

# copies SRC N: N copies of finished game SRC with all its rows (seats, actions, events),
# ended 30 days ago (and a second apart), written in chunks of 10,000 games.
copies() {
    local src=$1 total=$2 chunk=10000 done_ n
    for ((done_ = 0; done_ < total; done_ += chunk)); do
        n=$((total - done_ < chunk ? total - done_ : chunk))
        sql -v src="$src" -v n="$n" <<'EOF'
-- The columns to copy as they are, by table (every one but the game's id and times).
SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position) AS cols
    FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'games'
    AND is_generated = 'NEVER' AND column_name NOT IN
    ('id', 'created_at', 'updated_at', 'ended_at', 'rematch_of', 'watched_until') \gset g
SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position) AS cols
    FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'players'
    AND column_name <> 'game_id' \gset p
SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position) AS cols
    FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'actions'
    AND column_name <> 'game_id' \gset a
SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position) AS cols
    FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'events'
    AND column_name <> 'game_id' \gset e
BEGIN;
CREATE TEMP TABLE ids ON COMMIT DROP AS
    SELECT gen_random_uuid() AS id, now() - interval '30 days' - i * interval '1 second' AS at
    FROM generate_series(1, :n) AS i;
INSERT INTO games (id, created_at, updated_at, ended_at, :gcols)
    SELECT x.id, x.at - interval '1 hour', x.at, x.at, :gcols
    FROM ids x, games g WHERE g.id = :'src';
INSERT INTO players (game_id, :pcols) SELECT x.id, :pcols
    FROM ids x, players p WHERE p.game_id = :'src';
INSERT INTO actions (game_id, :acols) SELECT x.id, :acols
    FROM ids x, actions a WHERE a.game_id = :'src';
INSERT INTO events (game_id, :ecols) SELECT x.id, :ecols
    FROM ids x, events e WHERE e.game_id = :'src';
COMMIT;
EOF
    done
}

# ---- 1. Size per finished game, by ruleset: BENCH_SIZE_GAMES games of two computer
# players each, played to their end; their rows counted; then BENCH_SIZE_COPIES copies of
# the first of them measured (bytes of each table with its indexes and TOAST, grown by the
# copies, divided by them: the page size does not blur it).
tables="games players actions events"
sizes() {
    for t in $tables; do
        echo "$t $(sql -c "SELECT count(*), pg_total_relation_size('$t') FROM $t" | tr '|' ' ')"
    done
}
bench_server sizes.log BOT_WORKERS=2 JOBS_POLL_MS=20 LOG_LEVEL=warn
setups=(
    'classic|"ruleset":"classic"'
    'classic+river|"ruleset":"classic","options":{"river":true}'
    'hills|"ruleset":"hills"'
    'discovery|"ruleset":"discovery"'
    'discovery+hand|"ruleset":"discovery","options":{"draw":"hand"}'
)
bot_seats='[{"bot":"random","think_ms":10},{"bot":"random","think_ms":10}]'
for setup in "${setups[@]}"; do
    name=${setup%%|*}
    body="{${setup#*|},\"players\":$bot_seats}"
    for _ in $(seq 1 "$nsize"); do
        curl -s -X POST "$base/v1/games" -H 'Content-Type: application/json' -d "$body" | jq -r .id
    done >"$out/ids-$name.txt"
done
for _ in $(seq 1 2400); do
    [ "$(sql -c "SELECT count(*) FROM games WHERE status <> 'finished'")" = 0 ] && break
    sleep 0.5
done
bench_stop_servers
sql -c "VACUUM FULL" >/dev/null
: >"$out/sizes.txt"
for setup in "${setups[@]}"; do
    name=${setup%%|*}
    ids="{$(paste -sd, "$out/ids-$name.txt")}"
    rows=$(sql -v ids="$ids" <<'EOF'
SELECT 'games 1 players ' || (SELECT count(*) FROM players WHERE game_id = ANY(:'ids'::uuid[]))::float / cardinality(:'ids'::uuid[])
    || ' actions ' || (SELECT count(*) FROM actions WHERE game_id = ANY(:'ids'::uuid[]))::float / cardinality(:'ids'::uuid[])
    || ' events ' || (SELECT count(*) FROM events WHERE game_id = ANY(:'ids'::uuid[]))::float / cardinality(:'ids'::uuid[]);
EOF
)
    sizes >"$out/before.txt"
    copies "$(head -n 1 "$out/ids-$name.txt")" "$ncopies"
    sizes >"$out/after.txt"
    join "$out/before.txt" "$out/after.txt" | awk -v n="$ncopies" -v r="$name" -v rows="$rows" '
        BEGIN { k = split(rows, w, " "); for (i = 1; i < k; i += 2) per[w[i]] = w[i + 1] }
        { bytes = ($5 - $3) / n; tb += bytes; tr += per[$1]
          line = line sprintf(" %s %.1f rows %.0f B;", $1, per[$1], bytes) }
        END { printf "  %-15s %6.0f B a game (%.0f rows):%s\n", r, tb, tr, line }' |
        tee -a "$out/sizes.txt"
done
src=$(head -n 1 "$out/ids-classic.txt")

# ---- 2. Old finished games: BENCH_RETENTION_GAMES more copies of a classic game.
t0=$(date +%s.%N)
copies "$src" "$nold"
sql -c "VACUUM ANALYZE" >/dev/null
t1=$(date +%s.%N)
fill_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }')
old_count=$(sql -c "SELECT count(*) FROM games WHERE ended_at < now() - interval '1 day'")
db_size=$(sql -c "SELECT pg_size_pretty(pg_database_size(current_database()))")
echo "bench-retention: $old_count old finished games written in $fill_s s (database $db_size)"

# ---- 3. Turns without and while deleting.
bench_server turns.log BOT_WORKERS=0 LOG_LEVEL=warn
# turns NAME: one wrk run of BENCH_SECONDS on BENCH_GAMES new games (bench-lib.sh);
# prints "turns seconds p99_ms".
turns() {
    bench_turns "$1" "$turn_conns"
}
read -r b1_turns b1_s b1_p99 < <(turns before)

bench_server sweeper.log PORT="$port2" BOT_WORKERS=1 RETENTION_DAYS=1 RETENTION_INTERVAL=1 RETENTION_BATCH="$batch" \
    LOG_LEVEL=warn
sql -c "UPDATE jobs SET due_at = now(), claimed_until = NULL WHERE kind = 'retention'" >/dev/null
d0=$(date +%s.%N)
rm -f "$out/deleted-at"
(
    while [ "$(sql -c "SELECT count(*) FROM games WHERE ended_at < now() - interval '1 day'")" != 0 ]; do
        sleep 0.2
    done
    date +%s.%N >"$out/deleted-at"
) &
watcher=$!
d_turns=0 d_s=0 d_p99=0 runs=0
while [ ! -e "$out/deleted-at" ]; do
    read -r t s p < <(turns "during-$runs")
    d_turns=$((d_turns + t))
    d_s=$((d_s + s))
    d_p99=$(awk -v a="$d_p99" -v b="$p" 'BEGIN { print (b > a ? b : a) }')
    runs=$((runs + 1))
    [ "$runs" -ge 200 ] && break
done
wait "$watcher" 2>/dev/null || true
d1=$(cat "$out/deleted-at" 2>/dev/null || date +%s.%N)
read -r b2_turns b2_s b2_p99 < <(turns after)
metrics=$(curl -s "http://127.0.0.1:$port2/metrics")
m() { awk -v k="$1" '$1 == k { print $2 }' <<<"$metrics"; }
del_s=$(awk -v a="$d0" -v b="$d1" 'BEGIN { printf "%.1f", b - a }')
echo "bench-retention: $(nproc) cores, THREADS=$threads, RETENTION_BATCH=$batch, $turn_conns turn connections"
echo "  size per finished game (rows and bytes with indexes, $nsize games each):"
cat "$out/sizes.txt"
echo "  deletion of $old_count old games: $del_s s ($(m tilehall_retention_games_deleted_total) deleted," \
    "$(m tilehall_retention_batches_total) batches, $(m tilehall_retention_run_seconds_total) s in the" \
    "sweep's runs, last run $(m tilehall_retention_last_run_seconds) s)"
awk -v t="$b1_turns" -v s="$b1_s" -v p="$b1_p99" 'BEGIN { printf "  turns before:   %7.0f committed/s  p99 %s ms\n", t / s, p }'
awk -v t="$d_turns" -v s="$d_s" -v p="$d_p99" -v r="$runs" 'BEGIN { printf "  turns deleting: %7.0f committed/s  p99 %s ms (worst of %d runs)\n", t / s, p, r }'
awk -v t="$b2_turns" -v s="$b2_s" -v p="$b2_p99" 'BEGIN { printf "  turns after:    %7.0f committed/s  p99 %s ms\n", t / s, p }'
