#!/usr/bin/env bash
# bot.sh: plays one whole game of tilehall against a running server, every seat choosing
# uniformly among its legal moves, and prints the final scores.
#
# Usage: examples/bot.sh [-u URL] [-p PLAYERS] [-s SEED] [-r BOTSEED] [-q] RULESET [NAME=VALUE ...]
#
#   RULESET        classic, hills or discovery
#   NAME=VALUE     the ruleset's options (GET /v1/rulesets): classic edition=standard|original
#                  and river=true|false; discovery draw=pile|hand; hills has none
#   -u URL         the server (default: $TILEHALL_URL, else http://127.0.0.1:8080)
#   -p PLAYERS     2 to 5 players (default 2), named "Bot 1", "Bot 2" ...
#   -s SEED        the game's seed (default: the server picks one)
#   -r BOTSEED     seeds the bot's own choices ($RANDOM), so a run can be repeated
#   -q             quiet: no line per turn
#
# Examples:
#   examples/bot.sh classic
#   examples/bot.sh -p 4 -s 42 classic edition=original river=true
#   examples/bot.sh -u http://127.0.0.1:9000 discovery draw=hand
#
# Each turn: read GET /v1/games/{id}/turn (the seat to move, the phase, and in the place
# phase the legal placements); in the draw phase the seat to move draws (there is no draw
# in the discovery hand-of-two variant), whose answer lists the placements; pick one
# at random, pick a follow-up at random among none and those the placement lists
# (follower, stable, hike, withdraw), and post it with that seat's token, guarded by
# If-Match (the version read) and an Idempotency-Key (so a retried request is harmless).
# 429 and 503 answers are retried after their Retry-After (a few times); any other answer
# than the expected one stops the bot with the request, the status and the problem's
# code and detail.
#
# Output: one line per turn (unless -q), then the final scores, one line per seat, and
# last "game ID finished after N turns; winner(s): NAME (SCORE) ...".
# Exit status: 0 when the game finished, 1 on an unexpected answer, 2 on bad usage.
# Needs bash, curl and jq.
set -euo pipefail

# The command line, the requests and the play (examples/play.sh); the usage is lines 5-19.
prog=bot usage_lines=5,19
# shellcheck source=examples/play.sh
. "$(dirname "$0")/play.sh"
start 2 "$@"

# Create the game.
create=$(jq -cn --arg r "$ruleset" --argjson n "$players" --argjson o "$options" \
    --arg seed "$seed" \
    '{ruleset: $r, players: [range($n) | {name: "Bot \(. + 1)"}]}
     + (if $o == {} then {} else {options: $o} end)
     + (if $seed == "" then {} else {seed: ($seed | tonumber)} end)')
request POST /v1/games "" "$create"
expect 201 "POST /v1/games"
id=$(jq -r .id "$tmp/body")
mapfile -t tokens < <(jq -r '.players | sort_by(.seat) | .[].token' "$tmp/body")
mapfile -t names < <(jq -r '.players | sort_by(.seat) | .[].name' "$tmp/body")
if [ -z "$id" ] || [ "$id" = null ] || [ "${#tokens[@]}" -ne "$players" ]; then
    die "POST /v1/games: the answer lacks the id or the tokens"
fi
[ "$quiet" -eq 1 ] || echo "game $id: $ruleset $(jq -c .options "$tmp/body"), $players players"

play_game
