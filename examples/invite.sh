#!/usr/bin/env bash
# invite.sh: a game played through invites against a running server: a host (a player,
# POST /v1/players) creates a game with its own seat and open seats, each guest takes its
# seat with the seat's invite_url (by name, or as a player of its own), the last join
# starts the game, then every seat plays uniformly among its legal moves (with its seat
# token or its player token), and the final scores are printed.
#
# Usage: examples/invite.sh [-u URL] [-p PLAYERS] [-s SEED] [-r BOTSEED] [-q] RULESET [NAME=VALUE ...]
#
#   RULESET        classic, hills or discovery
#   NAME=VALUE     the ruleset's options (GET /v1/rulesets), as for examples/bot.sh
#   -u URL         the server (default: $TILEHALL_URL, else http://127.0.0.1:8080)
#   -p PLAYERS     2 to 5 seats (default 3): the host's, then open ones
#   -s SEED        the game's seed (default: the server picks one)
#   -r BOTSEED     seeds the moves chosen ($RANDOM), so a run can be repeated
#   -q             quiet: no line per turn
#
# Examples:
#   examples/invite.sh classic
#   examples/invite.sh -p 5 -s 42 hills
#
# The lobby, step by step (what a front end does):
#   1. POST /v1/players {"name": "Host"}: the host's player token (shown once).
#   2. POST /v1/games {"players": [{"player": "me"}, {"open": true, "name": "Guest 1"}, ...]}
#      with the host's token: the game is "waiting"; each open seat has an "invite" and
#      its "invite_url" (/v1/games/{id}/join?invite=...), shown once, to send to a guest.
#   3. Guests with an odd number POST the invite_url with {"name": "Guest N"} and get a seat
#      token; the others first become players (POST /v1/players) and POST the invite_url
#      with their player token and no body: the seat is bound to them, their player token
#      acts for it. Each join is a seat_joined event; the last one also game_started, and
#      the game is "active" with seat 0 to move.
#   4. Moves as examples/bot.sh makes them (GET /turn, draw, placements), guarded by
#      If-Match and an Idempotency-Key.
#
# Output: the lobby's steps and one line per turn (unless -q), then the final scores, and
# last "game ID finished after N turns; winner(s): NAME (SCORE) ...".
# Exit status: 0 when the game finished, 1 on an unexpected answer, 2 on bad usage.
# Needs bash, curl and jq.
set -euo pipefail

# The command line, the requests and the play (examples/play.sh); the usage is lines 8-20.
prog=invite usage_lines=8,20
# shellcheck source=examples/play.sh
. "$(dirname "$0")/play.sh"
start 3 "$@"

say() {
    [ "$quiet" -eq 1 ] || echo "$*"
}

# new_player NAME: a new player's token into $ptoken.
new_player() {
    request POST /v1/players "" "$(jq -cn --arg n "$1" '{name: $n}')"
    expect 201 "POST /v1/players"
    ptoken=$(jq -r .token "$tmp/body")
}

# 1. The host, a player.
new_player Host
host=$ptoken

# 2. The game: the host's seat, then open seats with a placeholder name each.
create=$(jq -cn --arg r "$ruleset" --argjson n "$players" --argjson o "$options" \
    --arg seed "$seed" \
    '{ruleset: $r, players: ([{player: "me"}] + [range(1; $n) | {open: true, name: "Guest \(.)"}])}
     + (if $o == {} then {} else {options: $o} end)
     + (if $seed == "" then {} else {seed: ($seed | tonumber)} end)')
request POST /v1/games "$host" "$create"
expect 201 "POST /v1/games"
id=$(jq -r .id "$tmp/body")
[ "$(jq -r .status "$tmp/body")" = waiting ] || die "POST /v1/games: the game is not waiting"
mapfile -t urls < <(jq -r '.players | sort_by(.seat) | .[1:] | .[].invite_url' "$tmp/body")
[ "${#urls[@]}" -eq $((players - 1)) ] || die "POST /v1/games: not one invite_url per open seat"
say "game $id: $ruleset $(jq -c .options "$tmp/body"), waiting for $((players - 1)) guest(s)"
tokens=("$host")
names=(Host)

# 3. The guests take their seats through the invite_urls.
for i in "${!urls[@]}"; do
    n=$((i + 1))
    if [ $((n % 2)) -eq 1 ]; then
        request POST "${urls[$i]}" "" "$(jq -cn --arg n "Guest $n" '{name: $n}')"
        expect 200 "POST ${urls[$i]%%\?*} (by name)"
        tokens[n]=$(jq -r .token "$tmp/body")
        how="by name, with a seat token"
    else
        new_player "Guest $n"
        request POST "${urls[$i]}" "$ptoken"
        expect 200 "POST ${urls[$i]%%\?*} (by player token)"
        tokens[n]=$ptoken
        how="as a player, with its player token"
    fi
    names[n]="Guest $n"
    [ "$(jq -r .seat "$tmp/body")" = "$n" ] || die "join: seat $(jq -r .seat "$tmp/body"), not $n"
    say "seat $n taken $how: the game is $(jq -r .status "$tmp/body")"
done
request GET "/v1/games/$id/events"
expect 200 "GET /v1/games/$id/events"
[ "$(jq -r '.events[-1].type' "$tmp/body")" = game_started ] ||
    die "the last join was not followed by game_started"

# 4. Play (examples/play.sh).
play_game
