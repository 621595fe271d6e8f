#!/usr/bin/env bash
# bench-rated-turns.sh: committed turns with ratings on (issue 25: "committed turns per
# second unchanged"; the third part of `make bench-ratings`): a throwaway PostgreSQL, the
# real server, and wrk playing whole games to their end (tests/bench/rated_turns.lua: each
# connection its own pair of players, who create a game, join it and play it out, then the
# next), in alternating runs of unrated and rated games, BENCH_ROUNDS rounds of two runs in
# one server (the order turned every round, ABBA, so that a drift of the machine's load
# weighs on both alike). The games differ only in "rated": a rated game's last placement
# also updates both seats' ratings in its transaction (api/store/store_ratings.c). Prints
# each run's committed turns/s, game ends and latencies, then each kind's totals and the
# ratio rated / unrated, with the load average; checks that every rated game that ended
# has its two history rows and no unrated one has any. Exits 1 on an unexpected answer or
# a missing rating change; the ratio is reported, not judged (on a shared machine a few
# percent is noise: compare the runs).
#
# Environment (defaults): BENCH_SECONDS (10), BENCH_TURN_CONNS (4), BENCH_ROUNDS (3),
# BENCH_PORT (18094), THREADS (the number of cores), TILEHALL_BIN (build/tilehall),
# BENCH_KEEP=1 keeps the cluster (in .pgdata-bench-rated).
# shellcheck source=scripts/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"
seconds=${BENCH_SECONDS:-10}
conns=${BENCH_TURN_CONNS:-4}
rounds=${BENCH_ROUNDS:-3}
bench_init bench-rated-turns 18094 bench-rated wrk curl jq psql
bench_pg_start tilehall_bench_rated pg-start-rated.log -c synchronous_commit=on
bench_server server-rated.log

# A pair of players per connection (two games ending at once never wait for each other's
# rating rows).
: >"$out/pairs.txt"
for i in $(seq 1 "$conns"); do
    a=$(curl -s -X POST "$base/v1/players" -H 'Content-Type: application/json' -d "{\"name\":\"A$i\"}" | jq -r .token)
    b=$(curl -s -X POST "$base/v1/players" -H 'Content-Type: application/json' -d "{\"name\":\"B$i\"}" | jq -r .token)
    echo "$a $b" >>"$out/pairs.txt"
done

# One run of kind $1 (false or true), round $2: its RESULT fields into the totals.
declare -A turns ended secs
turns[false]=0 turns[true]=0 ended[false]=0 ended[true]=0 secs[false]=0 secs[true]=0
failed=0
one_run() {
    local kind=$1 name="rated-turns-$1-$2"
    local r
    r=$(bench_wrk "$name" "" -t"$conns" -c"$conns" -d"${seconds}s" -s tests/bench/rated_turns.lua "$base" -- \
        "$out/pairs.txt" "$conns" "$kind") || exit 1
    local rps p50_ms p99_ms non2xx errors seconds_run=0 requests turns_n=0 turns_per_s ended_n=0 created f=0
    eval "$(sed 's/seconds=/seconds_run=/; s/turns=/turns_n=/; s/ended=/ended_n=/; s/failed=/f=/' <<<"$r")"
    turns[$kind]=$((turns[$kind] + turns_n))
    ended[$kind]=$((ended[$kind] + ended_n))
    secs[$kind]=$(awk -v a="${secs[$kind]}" -v b="$seconds_run" 'BEGIN { print a + b }')
    failed=$((failed + f + non2xx))
    printf '  round %d %-8s %7.1f turns/s  %3d games ended  p50 %7s ms  p99 %7s ms  load %s\n' \
        "$2" "$([ "$kind" = true ] && echo rated || echo unrated)" "$turns_per_s" "$ended_n" \
        "$p50_ms" "$p99_ms" "$(cut -d' ' -f1 /proc/loadavg)"
}

echo "bench-rated-turns: $(nproc) cores, THREADS=$threads, $conns conns (a pair of players each)," \
    "${seconds} s a run, $rounds rounds (ABBA)"
for r in $(seq 1 "$rounds"); do
    if [ $((r % 2)) = 1 ]; then one_run false "$r"; one_run true "$r"; else one_run true "$r"; one_run false "$r"; fi
done

rated_games=$(psql "$url" -X -At -c "SELECT count(*) FROM games WHERE rated AND status = 'finished'")
unrated_games=$(psql "$url" -X -At -c "SELECT count(*) FROM games WHERE NOT rated AND status = 'finished'")
rated_rows=$(psql "$url" -X -At -c "SELECT count(*) FROM rating_history h JOIN games g ON g.id = h.game_id WHERE g.rated")
unrated_rows=$(psql "$url" -X -At -c "SELECT count(*) FROM rating_history h JOIN games g ON g.id = h.game_id WHERE NOT g.rated")
tu=$(awk -v t="${turns[false]}" -v s="${secs[false]}" 'BEGIN { printf "%.1f", (s > 0 ? t / s : 0) }')
tr=$(awk -v t="${turns[true]}" -v s="${secs[true]}" 'BEGIN { printf "%.1f", (s > 0 ? t / s : 0) }')
echo "  unrated: ${turns[false]} turns in ${secs[false]} s = $tu turns/s, ${ended[false]} games ended ($unrated_games finished, $unrated_rows rating rows)"
echo "  rated:   ${turns[true]} turns in ${secs[true]} s = $tr turns/s, ${ended[true]} games ended ($rated_games finished, $rated_rows rating rows)"
echo "  rated / unrated turns/s: $(awk -v a="$tr" -v b="$tu" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')" \
    "(load average $(cut -d' ' -f1-3 /proc/loadavg) at the end)"
if [ "$failed" != 0 ]; then
    echo "bench-rated-turns: $failed unexpected answers (see $out/rated-turns-*.txt, $out/server-rated.log)" >&2
    exit 1
fi
if [ "$rated_rows" != $((2 * rated_games)) ] || [ "$unrated_rows" != 0 ]; then
    echo "bench-rated-turns: $rated_games rated games finished but $rated_rows rating rows ($unrated_rows for unrated games)" >&2
    exit 1
fi
