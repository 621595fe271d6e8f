#!/usr/bin/env bash
# bench-inbox.sh: the "my games" benchmark (`make bench-inbox`, part of `make bench`): a
# throwaway PostgreSQL holding BENCH_INBOX_GAMES games (100,000), seat 0 of each bound to
# one of BENCH_INBOX_PEOPLE players (100: each holds 1,000 games; 7 in 10 active, the seat
# to move alternating), the real server, and wrk asking one player's list over HTTP:
#   (a) GET /v1/players/me/games                    the first page (50 games)
#   (b) GET /v1/players/me/games?status=active&my_turn=true&limit=20
#   (c) GET /v1/players/me/games?cursor=...         a page in the middle of the list
# each for BENCH_SECONDS (5) with BENCH_CONNS (4) connections on 2 wrk threads. Prints
# requests/s and p50/p99 latency of each (target: p99 under 5 ms).
#
# The games are written with SQL (the list never decodes a game's state, so each holds a
# placeholder snapshot); the players' list keys come from the triggers of
# migrations/0012_inbox_my_games.sql (and 0015, 0016), as for games made through the API.
#
# Environment (defaults): BENCH_SECONDS (5), BENCH_CONNS (4), BENCH_INBOX_GAMES (100000),
# BENCH_INBOX_PEOPLE (100), BENCH_PORT (18091), THREADS (the number of cores), TILEHALL_BIN
# (build/tilehall), BENCH_KEEP=1 keeps the cluster (in .pgdata-bench-inbox).
# shellcheck source=scripts/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"
knobs BENCH seconds=5 conns=4
knobs BENCH_INBOX games=100000 people=100
bench_init bench-inbox 18091 bench-inbox wrk curl jq psql
bench_pg_start tilehall_bench_inbox pg-start-inbox.log
bench_server server-inbox.log

# The player whose list is asked for, through the API (its token); the others and the
# games through SQL. Player k (0: Ann) holds seat 0 of games k, k + npeople, ...
ann=$(curl -s -X POST "$base/v1/players" -H 'Content-Type: application/json' -d '{"name":"Ann"}')
ann_id=$(jq -r .id <<<"$ann")
token=$(jq -r .token <<<"$ann")
start=$(date +%s.%N)
psql "$url" -X -q -v ON_ERROR_STOP=1 -v ann="$ann_id" -v games="$games" -v people="$people" <<'SQL'
CREATE TEMP TABLE who AS
    SELECT 0 AS k, :'ann'::uuid AS id
    UNION ALL SELECT k, gen_random_uuid() FROM generate_series(1, :people - 1) AS k;
INSERT INTO people (id, name, token_hash)
    SELECT id, 'P' || k, sha256(id::text::bytea) FROM who WHERE k > 0;
CREATE TEMP TABLE g AS
    SELECT i, gen_random_uuid() AS id FROM generate_series(0, :games - 1) AS i;
INSERT INTO games (id, ruleset, options, seed, version, status, last_seq, snapshot,
                   turn_number, turn_seat, turn_phase, scores, created_at, updated_at)
    SELECT id, 'classic', '{}', i, 1 + i % 60, CASE WHEN i % 10 < 7 THEN 'active' ELSE 'finished' END,
           1 + i % 60, '\x00', 1 + i % 60,
           CASE WHEN i % 10 < 7 THEN (i / :people) % 2 END,
           CASE WHEN i % 10 < 7 THEN 'draw' ELSE 'finished' END, ARRAY[i % 40, i % 30],
           now() - i * interval '7 seconds', now() - i * interval '7 seconds'
    FROM g;
-- Every seat of a game in one transaction, as the API writes them (migrations/0016 takes
-- the listed games' names when the bound seat is written and at the end); the other seat
-- first, so that the names are written once.
BEGIN;
INSERT INTO players (game_id, seat, name, token_hash)
    SELECT id, 1, 'Bob', sha256((id::text || '1')::bytea) FROM g;
INSERT INTO players (game_id, seat, name, token_hash, person_id)
    SELECT g.id, 0, 'P' || w.k, sha256((g.id::text || '0')::bytea), w.id
    FROM g JOIN who w ON w.k = g.i % :people;
COMMIT;
ANALYZE;
SQL
filled=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
auth="Authorization: Bearer $token"
first=$(curl -s "$base/v1/players/me/games" -H "$auth")
mine=$(psql "$url" -X -At -c "SELECT count(*) FROM players WHERE person_id = '$ann_id'")
mid=$(curl -s "$base/v1/players/me/games?limit=100" -H "$auth")
for _ in 1 2 3 4; do
    c=$(jq -r .next_cursor <<<"$mid")
    mid=$(curl -s "$base/v1/players/me/games?limit=100&cursor=$c" -H "$auth")
done
cursor=$(jq -r .next_cursor <<<"$mid")
n_first=$(jq '.games | length' <<<"$first")
turns=$(jq .my_turn_count <<<"$first")
if [ "$n_first" != 50 ] || [ "$mine" != 1000 ] && [ "$games" = 100000 ] || [ "$cursor" = null ]; then
    echo "bench-inbox: unexpected list (first page $n_first games, $mine games, cursor $cursor)" >&2
    exit 1
fi

# CPU time (clock ticks) of process $1, and of the server's PostgreSQL backends: what a
# request costs, whatever else the machine runs (the latency depends on that).
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
backends=$(psql "$url" -X -At -c "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'")
pg_ticks() {
    local t=0 p
    for p in $backends; do t=$((t + $(ticks "$p"))); done
    echo "$t"
}
hz=$(getconf CLK_TCK)
# Runs wrk as bench_wrk NAME PREFIX ARG... does; prints its RESULT line's fields as shell
# assignments after PREFIX, e.g. a_rps=123, and the server's and PostgreSQL's CPU per
# request in microseconds (a_srv_us=, a_pg_us=).
run() {
    local prefix=$2 s0 p0 fields s1 p1 n
    s0=$(ticks "$server")
    p0=$(pg_ticks)
    fields=$(bench_wrk "$@") || exit 1
    s1=$(ticks "$server")
    p1=$(pg_ticks)
    echo "$fields"
    n=$(sed 's/.*requests=\([0-9]*\).*/\1/' <<<"$fields")
    awk -v s=$((s1 - s0)) -v p=$((p1 - p0)) -v n="$n" -v hz="$hz" -v k="$prefix" \
        'BEGIN { printf "%ssrv_us=%.0f %spg_us=%.0f\n", k, s * 1e6 / hz / (n > 0 ? n : 1), k, p * 1e6 / hz / (n > 0 ? n : 1) }'
}
common=(-t"$(( conns < 2 ? conns : 2 ))" -c"$conns" -d"${seconds}s" -s tests/bench/report.lua -H "$auth")
eval "$(run inbox-first a_ "${common[@]}" "$base/v1/players/me/games")"
eval "$(run inbox-turn b_ "${common[@]}" "$base/v1/players/me/games?status=active&my_turn=true&limit=20")"
eval "$(run inbox-mid c_ "${common[@]}" "$base/v1/players/me/games?cursor=$cursor")"

echo "bench-inbox: $(nproc) cores, THREADS=$threads, $games games ($filled s to fill), one player" \
    "holding $mine of them ($turns its turn), ${seconds} s per load, $conns conns"
printf '  %-40s %6s req/s  p50 %7s ms  p99 %7s ms  CPU/request: server %4s us, PostgreSQL %4s us  non-2xx %s\n' \
    "(a) first page (50)" "$a_rps" "$a_p50_ms" "$a_p99_ms" "$a_srv_us" "$a_pg_us" "$a_non2xx" \
    "(b) status=active&my_turn=true&limit=20" "$b_rps" "$b_p50_ms" "$b_p99_ms" "$b_srv_us" "$b_pg_us" "$b_non2xx" \
    "(c) the page after 500 (cursor)" "$c_rps" "$c_p50_ms" "$c_p99_ms" "$c_srv_us" "$c_pg_us" "$c_non2xx"
echo "  (target: p99 under 5 ms; load average $(cut -d' ' -f1-3 /proc/loadavg) at the end)"
if [ "$a_non2xx" != 0 ] || [ "$b_non2xx" != 0 ] || [ "$c_non2xx" != 0 ]; then
    echo "bench-inbox: unexpected answers (see $out/inbox-*.txt and $out/server-inbox.log)" >&2
    exit 1
fi
