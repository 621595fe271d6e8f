# shellcheck shell=bash
# tourney.sh: sourced by scripts/failover.sh. A tournament's round change across the
# failover (issue 27 item 3): a swiss of 4 players over 2 rounds is started before the
# first round; just before the kill its round 1 games are resigned (the last resignation's
# commit plans round 2's pairing, which a server may be running when the primary dies);
# after the promotion round 2 must be paired once on the new primary: every entrant at one
# table, every table of two with one game, one round_started a round.

# tourney_post BASE PATH TOKEN: POST with the player's token; the body.
tourney_post() {
    curl -s -X POST "$1$2" -H "Authorization: Bearer $3" -H 'Content-Type: application/json' --data '{}'
}

# tourney_setup BASE: the players, the tournament started, round 1 paired. Sets tourney_id
# and tourney_token (player id -> token).
declare -A tourney_token
tourney_setup() {
    local base=$1 i p org
    org=$(curl -s -X POST "$base/v1/players" -H 'Content-Type: application/json' \
        --data '{"name":"Organiser"}' | jq -r .token)
    tourney_id=$(curl -s -X POST "$base/v1/tournaments" -H "Authorization: Bearer $org" \
        -H 'Content-Type: application/json' \
        --data '{"name":"Failover","format":"swiss","rounds":2}' | jq -r .id)
    for i in 1 2 3 4; do
        p=$(curl -s -X POST "$base/v1/players" -H 'Content-Type: application/json' \
            --data "{\"name\":\"T$i\"}" | jq -r '"\(.id) \(.token)"')
        tourney_token[${p% *}]=${p#* }
        tourney_post "$base" "/v1/tournaments/$tourney_id/join" "${p#* }" >/dev/null
    done
    tourney_post "$base" "/v1/tournaments/$tourney_id/start" "$org" >/dev/null
    for _ in $(seq 1 100); do
        [ "$(curl -s "$base/v1/tournaments/$tourney_id" | jq -r .round)" = 1 ] && return 0
        sleep 0.1
    done
    echo "failover: the tournament's round 1 was not paired" >&2
    return 1
}

# tourney_end_round BASE: every round 1 game resigned by its seat 0.
tourney_end_round() {
    local base=$1 game who
    curl -s "$base/v1/tournaments/$tourney_id" |
        jq -r '.pairings[0].tables[] | select(.game != null) | "\(.game) \(.players[0])"' |
        while read -r game who; do
            tourney_post "$base" "/v1/games/$game/resign" "${tourney_token[$who]}" >/dev/null
        done
}

# tourney_check BASE QUERY...: waits (up to 20 s: a pairing claimed on the dead primary
# waits for its 10 s lease) for round 2, then checks it with `QUERY... SQL` (one query on
# the new primary's tilehall database, unaligned). Returns 0, or 1 (said why).
tourney_check() {
    local base=$1 round=
    shift
    for _ in $(seq 1 200); do
        round=$(curl -s "$base/v1/tournaments/$tourney_id" | jq -r .round)
        [ "$round" = 2 ] && break
        sleep 0.1
    done
    local twice tables games started
    twice=$("$@" "SELECT count(*) FROM (SELECT e FROM tournament_tables x, unnest(x.seats) e \
        WHERE x.tournament_id = '$tourney_id' GROUP BY x.round, e HAVING count(*) > 1) d")
    tables=$("$@" "SELECT count(*) FROM tournament_tables WHERE tournament_id = '$tourney_id' \
        AND round = 2")
    games=$("$@" "SELECT count(*) FROM tournament_tables WHERE tournament_id = '$tourney_id' \
        AND round = 2 AND game_id IS NOT NULL")
    started=$("$@" "SELECT count(*) FROM tournament_events WHERE tournament_id = '$tourney_id' \
        AND type = 'round_started'")
    echo "failover: tournament round change: round $round, round 2 has $tables tables with $games games," \
        "$twice entrants twice in a round, $started round_started"
    [ "$round" = 2 ] && [ "$twice" = 0 ] && [ "$tables" = 2 ] && [ "$games" = 2 ] && [ "$started" = 2 ]
}
