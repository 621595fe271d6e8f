#!/usr/bin/env bash
# bench-seeks.sh: play now under load (issue 26, `make bench-seeks`; not in make test): a
# throwaway PostgreSQL and two servers on it, BENCH_SEEKERS (1,000) players.
#   1. Seeks alone: every player seeks at once, half on each server, in groups of 2 to 4
#      (scripts/bench-seeks.js): p50 / p95 of the time from a game's last seek's creation to
#      its game reaching its seekers (target: p95 under 2 s), and the CPU (both servers and
#      the cluster's processes, from /proc) per game made.
#   2. Turns alone: wrk playing other games on the first server (tests/bench/turns.lua, as
#      bench-http's), BENCH_SECONDS.
#   3. Turns and seeks: the same wrk run with a seek round of every player started 2 s in.
# Prints each round's figures, the committed turns/s of 2 and 3 and their ratio, beside the
# load average (a shared machine: read the ratio with it). Exits 1 when a seek is not
# matched, a game has the wrong seats, or a turn answer was unexpected.
#
# Environment (defaults): BENCH_SEEKERS (1000), BENCH_TURNS (1; 0: round 1 only, a quick look
# at the matchmaker), BENCH_SECONDS (20), BENCH_TURN_CONNS (8),
# BENCH_GAMES (64), BENCH_PORT (18096; the second server the next port), THREADS (the number
# of cores), TILEHALL_BIN (build/tilehall), BENCH_KEEP=1 keeps the cluster
# (.pgdata-bench-seeks).
seekers=${BENCH_SEEKERS:-1000} seconds=${BENCH_SECONDS:-20} conns=${BENCH_TURN_CONNS:-8}
ngames=${BENCH_GAMES:-64}

# shellcheck source=scripts/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"
bench_init bench-seeks 18096 bench-seeks wrk curl jq node
port2=$((port + 1))
base2=http://127.0.0.1:$port2
bench_port_free "$port2"

bench_pg_start tilehall_bench_seeks pg-start-seeks.log
bench_server server-seeks-1.log MAX_CONNECTIONS=4000
server1=$server
bench_server server-seeks-2.log PORT="$port2" MAX_CONNECTIONS=4000
server2=$server

# cpu_ticks: the CPU time (clock ticks) used so far by both servers and the cluster's
# processes (the postmaster's children; those that ended are not counted).
cpu_ticks() {
    local pm pids
    pm=$(head -n 1 "$PGDATA_DIR/data/postmaster.pid")
    pids="$server1 $server2 $pm $(ps -o pid= --ppid "$pm" | tr '\n' ' ')"
    for p in $pids; do
        awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null || true
    done | awk '{ s += $1 } END { print s + 0 }'
}
hz=$(getconf CLK_TCK)

node scripts/bench-seeks.js players "$seekers" "$base" "$base2" "$out/seekers.txt"

# seek_round ROUND: a round of every player; prints its JSON line with "cpu_ms_per_game".
seek_round() {
    local c0 c1 line
    c0=$(cpu_ticks)
    line=$(node scripts/bench-seeks.js seek "$out/seekers.txt" "$base" "$base2" "$1" 2>"$out/seeks-$1.err") ||
        { cat "$out/seeks-$1.err" >&2; exit 1; }
    c1=$(cpu_ticks)
    jq -c --argjson cpu "$(( (c1 - c0) * 1000 / hz ))" \
        '. + {cpu_ms: $cpu, cpu_ms_per_game: (if .games > 0 then ($cpu / .games * 10 | round) / 10 else null end)}' <<<"$line"
}

# turns NAME: one wrk run of BENCH_SECONDS on BENCH_GAMES new games (bench-lib.sh);
# prints "turns/s p99_ms".
turns() {
    local t s p
    read -r t s p < <(bench_turns "$1" "$conns")
    echo "$(awk -v t="$t" -v s="$s" 'BEGIN { printf "%.0f", t / s }') $p"
}

echo "bench-seeks: $(nproc) cores, THREADS=$threads, two servers, $seekers players," \
    "$conns turn connections, ${seconds} s turn runs"
alone=$(seek_round 1)
echo "  1. seeks alone:     $alone  load $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "${BENCH_TURNS:-1}" = 0 ]; then
    jq -e '.matched == .seeks and .wrong_tables == 0 and .failed == 0' <<<"$alone" >/dev/null ||
        { echo "bench-seeks: a seek was not matched or a table was wrong (see $out/)" >&2; exit 1; }
    exit 0
fi
read -r t_alone p_alone < <(turns turns-alone)
echo "  2. turns alone:     $t_alone committed turns/s, p99 $p_alone ms  load $(cut -d' ' -f1-3 /proc/loadavg)"
turns turns-seeking >"$out/turns-seeking.result" &
wrk_job=$!
sleep 2
during=$(seek_round 2)
wait "$wrk_job"
read -r t_during p_during <"$out/turns-seeking.result"
echo "  3. seeks (turns on): $during"
echo "     turns meanwhile: $t_during committed turns/s, p99 $p_during ms  load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  turns with seeks / alone: $(awk -v a="$t_during" -v b="$t_alone" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')" \
    "(the seek round lasted $(jq .round_ms <<<"$during") ms of the ${seconds} s run)"
failed=0
for round in "$alone" "$during"; do
    jq -e '.matched == .seeks and .wrong_tables == 0 and .failed == 0' <<<"$round" >/dev/null || failed=1
done
for run in turns-alone turns-seeking; do
    grep -q '^RESULT.* failed=0$' "$out/$run.txt" || failed=1
done
if [ "$failed" != 0 ]; then
    echo "bench-seeks: a seek was not matched, a table was wrong, or a turn failed (see $out/)" >&2
    exit 1
fi
