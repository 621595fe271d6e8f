#!/usr/bin/env bash
# bench-tournament.sh: a tournament played to its end through the HTTP API on two servers
# (issue 27; `make bench-tournament`, not in `make test`): BENCH_ENTRANTS (128) players join
# a swiss of BENCH_ROUNDS (7) rounds, then the top 8 of the final standings play a knockout.
# Every game is played to its end move by move, by the server's computer player for the seat
# to move (scripts/bench-tournament.js: draw, GET .../hint?level=greedy, the hint played as it
# is with the entrant's own token; BENCH_PAR games at once, through the two servers in turn).
# Prints the wall time of each tournament and the entrants' move counts, and for every round
# after the first the time from the end of the round before's last game (games.ended_at) to
# the round's pairing (its round_started event): the target is under 1 s. Then the
# invariants (every entrant once a round, no pair twice, one round_started a round, every
# game bound to one table); exits 1 when one fails or a round change took 1 s or more.
#
# Environment (defaults): BENCH_ENTRANTS (128), BENCH_ROUNDS (7), BENCH_PAR (16),
# BENCH_PORT (18095; the second server BENCH_PORT + 1), TILEHALL_BIN (build/tilehall),
# BENCH_KEEP=1 keeps the cluster (in .pgdata-bench-tourney).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd) && cd "$top"
: "${BENCH_ENTRANTS:=128}" "${BENCH_ROUNDS:=7}" "${BENCH_PAR:=16}" "${BENCH_PORT:=18095}"
entrants=$BENCH_ENTRANTS rounds=$BENCH_ROUNDS par=$BENCH_PAR port=$BENCH_PORT
port2=$((port + 1)) bin=${TILEHALL_BIN:-build/tilehall} out=build/bench
base=http://127.0.0.1:$port base2=http://127.0.0.1:$port2
export PGDATA_DIR=$top/.pgdata-bench-tourney

# shellcheck source=scripts/bench-lib.sh
. "$top/scripts/bench-lib.sh"
bench_init bench-tournament "$port" bench-tourney curl jq psql node
server2=
cleanup() {
    if [ -n "$server2" ]; then kill "$server2" 2>/dev/null && wait "$server2" 2>/dev/null || true; fi
    bench_cleanup
}
trap cleanup EXIT

url=$(scripts/pg-start.sh --fast --fresh tilehall_bench_tourney 2>"$out/pg-start-tourney.log")
: >"$out/server-tourney.log"
run_server() { # port: a server on it (the creation limit off: 128 players from one address)
    PORT=$1 LOG_LEVEL=${LOG_LEVEL:-info} DATABASE_URL="$url" MAX_CONNECTIONS_PER_IP=0 \
        CREATE_LIMIT_PER_MINUTE=0 HINT_QUEUE=$((par * 4)) HINT_PER_ADDRESS=$((par * 2)) \
        "$bin" 2>>"$out/server-tourney.log" &
}
run_server "$port"
server=$!
servers+=("$server") # stopped by bench_cleanup
bench_wait_server "$out/server-tourney.log"
run_server "$port2"
server2=$!
for _ in $(seq 1 100); do curl -s -o /dev/null --max-time 1 "$base2/healthz" && break; sleep 0.1; done

post() { # url token body: the answer
    curl -s -X POST "$1" -H "Authorization: Bearer $2" -H 'Content-Type: application/json' \
        --data "${3:-{\}}"
}
player() { # name: "id token"
    curl -s -X POST "$base/v1/players" -H 'Content-Type: application/json' \
        --data "{\"name\":\"$1\"}" | jq -r '"\(.id) \(.token)"'
}

declare -A token
ids=()
new_players() { # n prefix: their ids into ids[], their tokens into token[]
    local i id tok
    for i in $(seq 1 "$1"); do
        read -r id tok < <(player "$2$i")
        token[$id]=$tok
        ids+=("$id")
        echo "$id $tok" >>"$out/tourney-tokens.txt"
    done
}

# Plays tournament $1 (organiser token $2) to its end: each game played move by move by the
# server's computer player for the seat to move (scripts/bench-tournament.js).
play() {
    post "$base/v1/tournaments/$1/start" "$2" >/dev/null
    node scripts/bench-tournament.js play "$base" "$base2" "$1" "$out/tourney-tokens.txt" "$par"
}

# Prints the tournament's round changes and checks them and its invariants; returns 1 on a
# failure.
report() {
    local id=$1 name=$2 bad=0
    psql "$url" -X -At -F ' ' -v t="$id" <<'SQL' >"$out/tourney-changes.txt"
SELECT (e.data->>'round')::int,
       round(extract(epoch FROM e.created_at - (SELECT max(g.ended_at) FROM tournament_tables x
             JOIN games g ON g.id = x.game_id WHERE x.tournament_id = :'t'::uuid
             AND x.round = (e.data->>'round')::int - 1)) * 1000)
  FROM tournament_events e WHERE e.tournament_id = :'t'::uuid AND e.type = 'round_started'
   AND (e.data->>'round')::int > 1 ORDER BY 1;
SQL
    while read -r r ms; do
        echo "  $name round $r paired $ms ms after the last game of round $((r - 1))"
        if [ "$ms" -ge 1000 ]; then bad=1; fi
    done <"$out/tourney-changes.txt"
    local inv
    inv=$(psql "$url" -X -At -v t="$id" <<'SQL'
SELECT (SELECT count(*) FROM (SELECT x.round, s FROM tournament_tables x, unnest(x.seats) s
          WHERE x.tournament_id = :'t'::uuid GROUP BY 1, 2 HAVING count(*) > 1) a) || ' ' ||
       (SELECT count(*) FROM (SELECT least(a, b), greatest(a, b) FROM tournament_tables x,
          unnest(x.seats) a, unnest(x.seats) b WHERE x.tournament_id = :'t'::uuid AND a < b
          GROUP BY 1, 2 HAVING count(*) > 1) p) || ' ' ||
       (SELECT count(*) FROM tournament_events WHERE tournament_id = :'t'::uuid
          AND type = 'round_started') || ' ' ||
       (SELECT count(DISTINCT round) FROM tournament_tables WHERE tournament_id = :'t'::uuid) || ' ' ||
       (SELECT count(*) FROM tournament_tables WHERE tournament_id = :'t'::uuid
          AND cardinality(seats) > 1 AND game_id IS NULL) || ' ' ||
       (SELECT count(*) FROM tournament_tables WHERE tournament_id = :'t'::uuid
          AND game_id IS NOT NULL);
SQL
)
    read -r twice repeats started nrounds unbound bound <<<"$inv"
    echo "  $name invariants: $twice entrants twice in a round, $repeats repeated pairs," \
        "$started round_started for $nrounds rounds, $unbound tables without a game," \
        "$bound games (each bound to one table)"
    if [ "$twice" != 0 ] || [ "$repeats" != 0 ] || [ "$started" != "$nrounds" ] ||
        [ "$unbound" != 0 ]; then bad=1; fi
    return $bad
}

: >"$out/tourney-tokens.txt"
read -r org_id org < <(player Organiser)
new_players "$entrants" P
swiss=$(post "$base/v1/tournaments" "$org" "{\"name\":\"Bench swiss\",\"format\":\"swiss\",\
\"rounds\":$rounds,\"players_per_game\":2,\"max_players\":256}" | jq -r .id)
for id in "${ids[@]}"; do post "$base/v1/tournaments/$swiss/join" "${token[$id]}" >/dev/null; done
start=$(date +%s.%N)
play "$swiss" "$org"
wall=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
echo "swiss of $entrants over $rounds rounds: $wall s on two servers"
fail=0
report "$swiss" swiss || fail=1

mapfile -t top8 < <(curl -s "$base/v1/tournaments/$swiss" | jq -r '.standings[:8][].player')
ko=$(post "$base/v1/tournaments" "$org" '{"name":"Bench top 8","format":"knockout","players_per_game":2}' |
    jq -r .id)
for id in "${top8[@]}"; do post "$base/v1/tournaments/$ko/join" "${token[$id]}" >/dev/null; done
start=$(date +%s.%N)
play "$ko" "$org"
wall=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
echo "top-8 knockout: $wall s"
report "$ko" knockout || fail=1
# What a round change spent: pairing (reads and the pure pairing) and the games' creation.
grep '"tournament round started"' "$out/server-tourney.log" |
    jq -r '"  round \(.round): pairing \(.pairing_ms) ms, games \(.games_ms) ms"' || true
exit $fail
