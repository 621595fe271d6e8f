#!/usr/bin/env bash
# bench-http.sh: the HTTP benchmark (`make bench-http`): a throwaway PostgreSQL, the real
# server, and wrk, in one run:
#   (a) GET /healthz                       the trivial endpoint
#   (b) GET /v1/games/{id}                 an existing game (mid-game, 30 tiles on the board)
#       (a) and (b) interleaved in BENCH_READ_ROUNDS rounds (below)
#   (c) turns: BENCH_GAMES classic games created beforehand; BENCH_TURN_CONNS connections,
#       each playing its own share of them in turn (draw, then place the tile where the
#       draw's answer lists first); a turn is committed when both answered 2xx
#   (d) pgbench on the same cluster: one-row inserts (a table of its own in a database of
#       its own, BENCH_TURN_CONNS clients on 2 threads, prepared statements, BENCH_SECONDS),
#       the yardstick of (c): the ratio of committed turns to its transactions is printed
# (a) and (b) run BENCH_SECONDS each (in rounds) with BENCH_CONNS connections on 2 wrk threads; (c)
# runs BENCH_SECONDS with one wrk thread per connection (tests/bench/turns.lua says why).
# Prints requests/s and p50/p99 latency of each, and committed turns/s.
#
# Environment (defaults): BENCH_SECONDS (10), BENCH_READ_ROUNDS (5), BENCH_CONNS (64),
# BENCH_TURN_CONNS (32), BENCH_GAMES (200), BENCH_PORT (18090), THREADS (the number of
# cores), LOG_LEVEL (info), TILEHALL_BIN (build/tilehall), BENCH_KEEP=1 keeps the cluster
# (in .pgdata-bench),
# CREATE_LIMIT_PER_MINUTE (0: the creation limit off, as it creates BENCH_GAMES at once),
# MAX_CONNECTIONS_PER_IP (0: wrk opens all its connections from one address),
# BENCH_BOTS (0): that many games of two computer players (greedy and random, think_ms 10,
# or the seats BENCH_BOT_PLAYERS)
# kept playing on the server's BOT_WORKERS during (b) and (c), a new one as each finishes,
# to compare reads and turns with computer players busy against BENCH_BOTS=0.
#
# The cluster is its own (PGDATA_DIR=.pgdata-bench), started --fast (no fsync, asynchronous
# commits, no full-page writes) with BENCH_PG_OPTS (the default: scripts/bench-lib.sh's
# with synchronous_commit=on), and deleted
# at the end: it is throwaway, and a benchmark of the server should not measure the disk.
# shellcheck source=scripts/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"
seconds=${BENCH_SECONDS:-10}
conns=${BENCH_CONNS:-64}
turn_conns=${BENCH_TURN_CONNS:-32}
ngames=${BENCH_GAMES:-200}
bench_init bench-http 18090 bench wrk curl jq pgbench
bench_pg_start tilehall_bench pg-start.log -c synchronous_commit=on
bench_server server.log LOG_LEVEL="${LOG_LEVEL:-info}" CREATE_LIMIT_PER_MINUTE="${CREATE_LIMIT_PER_MINUTE:-0}" \
    MAX_CONNECTIONS_PER_IP="${MAX_CONNECTIONS_PER_IP:-0}"

# The games: one for (b), played 15 turns in; BENCH_GAMES fresh ones for (c).
create() {
    curl -s -X POST "$base/v1/games" -H 'Content-Type: application/json' \
        -d '{"ruleset":"classic","players":[{"name":"Ann"},{"name":"Bob"}]}'
}
game=$(create)
id=$(jq -r .id <<<"$game")
mapfile -t tokens < <(jq -r '.players[].token' <<<"$game")
for turn in $(seq 0 14); do
    tok=${tokens[$((turn % 2))]}
    drawn=$(curl -s -X POST "$base/v1/games/$id/draw" -H "Authorization: Bearer $tok")
    place=$(jq -c '.placements[0] | {x, y, rotation}' <<<"$drawn")
    curl -s -o /dev/null -X POST "$base/v1/games/$id/placements" -H "Authorization: Bearer $tok" \
        -H 'Content-Type: application/json' -d "$place"
done
: >"$out/games.txt"
for _ in $(seq 1 "$ngames"); do
    create | jq -r '[.id] + [.players[].token] | join(" ")' >>"$out/games.txt"
done

# BENCH_BOTS loops, each keeping one game of computer players going (games finished counted).
bots=${BENCH_BOTS:-0}
# The seats of those games; e.g. BENCH_BOT_PLAYERS='[{"bot":"mcts","think_ms":250},
# {"bot":"mcts","think_ms":250}]' keeps the BOT_WORKERS thinking all the time.
bot_players=${BENCH_BOT_PLAYERS:-'[{"bot":"greedy","think_ms":10},{"bot":"random","think_ms":10}]'}
botloops=()
: >"$out/bot-games.txt"
: >"$out/bot-all.txt"
# The sum of the versions of every computer players' game so far: two a turn (draw and
# placement), so its growth over the loads counts the computer players' turns.
bot_versions() {
    local sum=0 bid v
    while read -r bid; do
        v=$(curl -s "$base/v1/games/$bid" | jq -r '.version // 0')
        sum=$((sum + v))
    done <"$out/bot-all.txt"
    echo "$sum"
}
botloop() {
    while :; do
        local bid
        bid=$(curl -s -X POST "$base/v1/games" -H 'Content-Type: application/json' -d \
            "{\"players\":$bot_players}" | jq -r .id)
        echo "$bid" >>"$out/bot-all.txt"
        while curl -s "$base/v1/games/$bid" | grep -q '"status":"active"'; do sleep 1; done
        echo "$bid" >>"$out/bot-games.txt"
    done
}
for _ in $(seq 1 "$bots"); do
    botloop &
    botloops+=($!)
done
[ "$bots" -gt 0 ] && sleep 1
bots_v0=$(bot_versions)
bots_t0=$(date +%s.%N)

# (a) and (b) interleaved: BENCH_READ_ROUNDS rounds (5) of BENCH_SECONDS / rounds each (at
# least 1 s), healthz first in odd rounds and the game first in even ones, so that what else
# the machine does during the run weighs on both loads alike. Why: run one after the other,
# 10 s each, the healthz load alone read anything from 48,000 to 71,000 requests/s in one
# session on the same build, moving the ratio by a fifth with it. Each load's figures are
# the sums of its rounds (requests/s over all of them), its p50 the rounds' median, its
# p99 their highest; the rounds' own ratios are printed too.
rounds=${BENCH_READ_ROUNDS:-5}
[ "$rounds" -ge 1 ] || rounds=1
round_s=$((seconds / rounds))
[ "$round_s" -ge 1 ] || round_s=1
: >"$out/healthz-rounds.txt"
: >"$out/game-rounds.txt"
# read_round NAME URL ROUND: one round of a read load, its RESULT fields a line of
# $out/NAME-rounds.txt ("requests seconds p50_ms p99_ms non2xx errors").
read_round() {
    # shellcheck disable=SC2034 # r_rps: one of bench_wrk's fields, set by the eval, unused
    local r_requests r_seconds r_rps r_p50_ms r_p99_ms r_non2xx r_errors
    eval "$(bench_wrk "$1-$3" r_ -t2 -c"$conns" -d"${round_s}s" -s tests/bench/report.lua "$2")"
    echo "$r_requests $r_seconds $r_p50_ms $r_p99_ms $r_non2xx $r_errors" >>"$out/$1-rounds.txt"
}
for round in $(seq 1 "$rounds"); do
    if [ $((round % 2)) = 1 ]; then
        read_round healthz "$base/healthz" "$round"
        read_round game "$base/v1/games/$id" "$round"
    else
        read_round game "$base/v1/games/$id" "$round"
        read_round healthz "$base/healthz" "$round"
    fi
done
# read_sums NAME PREFIX: the rounds of NAME as shell assignments (requests, rps, p50_ms,
# p99_ms, non2xx, errors) after PREFIX.
read_sums() {
    sort -n -k3 "$out/$1-rounds.txt" | awk -v p="$2" '
        { req += $1; sec += $2; p50[NR] = $3; if ($4 > p99) p99 = $4; non += $5; err += $6 }
        END { printf "%srequests=%d %srps=%.0f %sp50_ms=%s %sp99_ms=%s %snon2xx=%d %serrors=%d\n",
                     p, req, p, (sec > 0 ? req / sec : 0), p, p50[int((NR + 1) / 2)], p, p99,
                     p, non, p, err }'
}
eval "$(read_sums healthz h_)"
eval "$(read_sums game g_)"
# The rounds' own ratios, lowest and highest.
round_ratios=$(paste "$out/game-rounds.txt" "$out/healthz-rounds.txt" | awk '
    { r = ($8 > 0 && $2 > 0) ? ($1 / $2) / ($7 / $8) : 0
      if (NR == 1 || r < lo) lo = r; if (NR == 1 || r > hi) hi = r }
    END { printf "%.2f-%.2f", lo, hi }')
eval "$(bench_wrk turns t_ -t"$turn_conns" -c"$turn_conns" -d"${seconds}s" -s tests/bench/turns.lua \
    "$base" -- "$out/games.txt" "$turn_conns")"

bots_t1=$(date +%s.%N)
bots_v1=$(bot_versions)
for p in "${botloops[@]}"; do kill "$p" 2>/dev/null || true; done
bot_games=$(wc -l <"$out/bot-games.txt")

# (d) The database alone: pgbench's one-row inserts on the same cluster and settings, while
# the server idles (its job workers poll; the computer players' loops are stopped).
pg_url_db() { sed "s|/tilehall_bench?|/$1?|" <<<"$url"; }
PGOPTIONS='-c client_min_messages=warning' psql -X -q -v ON_ERROR_STOP=1 -d "$(pg_url_db postgres)" \
    -c 'DROP DATABASE IF EXISTS bench_pgbench' -c 'CREATE DATABASE bench_pgbench' >/dev/null
psql -X -q -v ON_ERROR_STOP=1 -d "$(pg_url_db bench_pgbench)" -c \
    'CREATE TABLE one_row (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, at timestamptz NOT NULL DEFAULT now())'
echo 'INSERT INTO one_row DEFAULT VALUES;' >"$out/pgbench.sql"
pgbench -n -M prepared -c "$turn_conns" -j 2 -T "$seconds" -f "$out/pgbench.sql" \
    "$(pg_url_db bench_pgbench)" >"$out/pgbench.txt" 2>&1 || { cat "$out/pgbench.txt" >&2; exit 1; }
p_tps=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$out/pgbench.txt" | head -n 1)
p_lat=$(sed -n 's/^latency average = \([0-9.]*\) ms/\1/p' "$out/pgbench.txt")

cores=$(nproc)
echo "bench-http: $cores cores, THREADS=$threads, LOG_LEVEL=${LOG_LEVEL:-info}, ${seconds} s per load"
printf '  %-34s %8s req/s  p50 %7s ms  p99 %7s ms  non-2xx %s, socket errors %s\n' \
    "(a) GET /healthz, $conns conns" "$h_rps" "$h_p50_ms" "$h_p99_ms" "$h_non2xx" "$h_errors" \
    "(b) GET /v1/games/{id}, $conns conns" "$g_rps" "$g_p50_ms" "$g_p99_ms" "$g_non2xx" "$g_errors" \
    "(c) turns, $turn_conns conns" "$t_rps" "$t_p50_ms" "$t_p99_ms" "$t_non2xx" "$t_errors"
printf '  %-34s %8.0f tps    average %5s ms\n' "(d) pgbench one-row inserts, $turn_conns" "$p_tps" "$p_lat"
if [ "$bots" -gt 0 ]; then
    echo "  with $bots games of computer players going: $bot_games finished (143 moves each) in" \
        "$(awk -v a="$bots_t0" -v b="$bots_t1" 'BEGIN { printf "%.1f", b - a }') s;" \
        "$(awk -v a="$bots_t0" -v b="$bots_t1" -v v0="$bots_v0" -v v1="$bots_v1" 'BEGIN {
            n = (v1 - v0) / 2; t = n > 0 ? (b - a) * 1000 / n : 0
            printf "%d turns played, %.0f ms a turn", n, t }')"
fi
ratio=$(awk -v g="$g_rps" -v h="$h_rps" 'BEGIN { printf "%.2f", (h > 0 ? g / h : 0) }')
echo "  GET game / healthz: $ratio (target at least 0.50; $rounds rounds of ${round_s} s each," \
    "interleaved: $round_ratios)"
echo "  committed turns: $t_turns_per_s/s ($t_turns turns, draw 200 + placement 201; $t_created games" \
    "created to replace finished ones; $t_failed unexpected answers)"
turn_ratio=$(awk -v t="$t_turns_per_s" -v p="$p_tps" 'BEGIN { printf "%.3f", (p > 0 ? t / p : 0) }')
echo "  committed turns / pgbench one-row inserts: $turn_ratio (target at least 0.10)"
if [ "$t_failed" != 0 ] || [ "$g_non2xx" != 0 ] || [ "$h_non2xx" != 0 ]; then
    echo "bench-http: unexpected answers (see $out/*.txt and $out/server.log)" >&2
    exit 1
fi
