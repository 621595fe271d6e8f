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

usage() {
    sed -n '5,19p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

url=${TILEHALL_URL:-http://127.0.0.1:8080}
players=2
seed=
quiet=0
while getopts 'u:p:s:r:qh' opt; do
    case $opt in
    u) url=$OPTARG ;;
    p) players=$OPTARG ;;
    s) seed=$OPTARG ;;
    r) RANDOM=$OPTARG ;;
    q) quiet=1 ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
ruleset=$1
shift
case $players in [2-5]) ;; *) echo "bot: PLAYERS must be 2 to 5, not '$players'" >&2; exit 2 ;; esac
case $seed in '' | [0-9]*) ;; *) echo "bot: SEED must be a number" >&2; exit 2 ;; esac
for tool in curl jq; do
    command -v "$tool" >/dev/null || { echo "bot: $tool is missing" >&2; exit 2; }
done
url=${url%/}

# The options as a JSON object: true/false and numbers as such, anything else a string.
options='{}'
for kv in "$@"; do
    case $kv in *=*) ;; *) echo "bot: options are NAME=VALUE, not '$kv'" >&2; exit 2 ;; esac
    options=$(jq -c --arg k "${kv%%=*}" --arg v "${kv#*=}" \
        '. + {($k): ($v | if test("^(true|false|-?[0-9]+)$") then fromjson else . end)}' \
        <<<"$options")
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

die() {
    echo "bot: $*" >&2
    exit 1
}

# header NAME: the value of header NAME (lower case) of the last answer.
header() {
    tr -d '\r' <"$tmp/headers" | awk -F': *' -v h="$1" 'tolower($1) == h {v = $2} END {print v}'
}

# request METHOD PATH [TOKEN] [JSON] [IF_MATCH] [IDEMPOTENCY_KEY]: the answer's status in
# $status, its body in $tmp/body, its headers in $tmp/headers. Retries 429 and 503.
request() {
    local method=$1 path=$2 token=${3:-} data=${4:-} ifmatch=${5:-} key=${6:-}
    local args=(-sS -X "$method" -o "$tmp/body" -D "$tmp/headers" -w '%{http_code}'
        --connect-timeout 10 --max-time 90)
    if [ -n "$token" ]; then
        # From a file, so that the token never shows on a command line.
        printf 'Authorization: Bearer %s\n' "$token" >"$tmp/auth"
        args+=(-H "@$tmp/auth")
    fi
    [ -z "$data" ] || args+=(-H 'Content-Type: application/json' --data-binary "$data")
    [ -z "$ifmatch" ] || args+=(-H "If-Match: $ifmatch")
    [ -z "$key" ] || args+=(-H "Idempotency-Key: $key")
    local attempt wait
    for attempt in 1 2 3 4 5 6; do
        status=$(curl "${args[@]}" "$url$path") ||
            die "$method $path: no answer from $url (curl exit $?)"
        case $status in
        429 | 503)
            [ "$attempt" -lt 6 ] || break
            wait=$(header retry-after)
            case $wait in '' | *[!0-9]*) wait=1 ;; esac
            [ "$wait" -le 30 ] || wait=30
            sleep "$wait"
            ;;
        *) return 0 ;;
        esac
    done
}

# expect STATUS WHAT: stops unless the last answer had this status.
expect() {
    [ "$status" = "$1" ] && return 0
    local why
    why=$(jq -r '"\(.code // "?"): \(.detail // .title // "")"' "$tmp/body" 2>/dev/null) ||
        why=$(head -c 300 "$tmp/body")
    die "$2 answered $status, not $1 ($why)"
}

# The ETag of the last answer ("7" with its quotes), for If-Match.
etag() {
    header etag
}

# pick N: a uniform choice in 0..N-1 (N >= 1) into $picked. Not in a subshell: the state of
# $RANDOM must advance in this shell for -r to repeat a run.
pick() {
    picked=$(((RANDOM * 32768 + RANDOM) % $1))
}

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

# A turn's body in words.
# shellcheck disable=SC2016 # jq's own $drawn
describe='"places \(.tile // $drawn) at (\(.x), \(.y)) turned \(.rotation)"
    + (if .follower then ", follower on \(.follower)"
       elif .stable then ", stable on \(.stable)"
       elif .hike then ", hiker on (\(.hike.x), \(.hike.y)) walks \(.hike.toward)"
       elif .withdraw then ", withdraws from (\(.withdraw.x), \(.withdraw.y)) \(.withdraw.location)"
       else "" end)'

turns=0
while :; do
    # One read per turn: whose turn it is, the drawn tile and its legal placements.
    request GET "/v1/games/$id/turn"
    expect 200 "GET /v1/games/$id/turn"
    read -r gstatus phase seat number < <(jq -r \
        '[.status, .phase, (.seat // "none"), .number] | @tsv' "$tmp/body")
    [ "$gstatus" != finished ] || break
    [ "$gstatus" = active ] || die "GET /v1/games/$id/turn: unknown status '$gstatus'"
    case $seat in [0-9]) ;; *) die "GET /v1/games/$id/turn: no seat to move in an active game" ;; esac
    [ "$seat" -lt "$players" ] || die "GET /v1/games/$id/turn: seat $seat to move of $players"
    token=${tokens[$seat]}
    turns=$((turns + 1))
    [ "$turns" -le 1000 ] || die "more than 1000 turns: the game does not end"
    if [ "$phase" = draw ]; then
        # The draw's answer lists the placements of the tile drawn, like /turn does.
        request POST "/v1/games/$id/draw" "$token" "" "$(etag)" "bot-$id-$number-draw"
        expect 200 "POST /v1/games/$id/draw"
        [ "$(jq -r .game.status "$tmp/body")" != finished ] || break
    elif [ "$phase" != place ]; then
        die "GET /v1/games/$id/turn: unknown phase '$phase'"
    fi
    version=$(etag)
    drawn=$(jq -r '.tile // empty' "$tmp/body")
    n=$(jq '.placements | length' "$tmp/body")
    [ "$n" -gt 0 ] || die "$phase: no placement listed"
    pick "$n"
    jq -c ".placements[$picked]" "$tmp/body" >"$tmp/placement"
    # The follow-ups: none, then each one the placement lists.
    m=$(jq '[.follower, .stable, .hike, .withdraw | length] | add + 1' "$tmp/placement")
    pick "$m"
    body=$(jq -c --argjson k "$picked" \
        '([null] + (.follower // [] | map({follower: .})) + (.stable // [] | map({stable: .}))
          + (.hike // [] | map({hike: .})) + (.withdraw // [] | map({withdraw: .}))) as $f
         | {x, y, rotation} + (if .tile then {tile} else {} end) + ($f[$k] // {})' \
        "$tmp/placement")
    request POST "/v1/games/$id/placements" "$token" "$body" "$version" "bot-$id-$number-place"
    expect 201 "POST /v1/games/$id/placements $body"
    if [ "$quiet" -eq 0 ]; then
        echo "turn $number: ${names[$seat]} $(jq -r --arg drawn "$drawn" "$describe" <<<"$body")"
    fi
done

request GET "/v1/games/$id/scores"
expect 200 "GET /v1/games/$id/scores"
[ "$(jq -r .status "$tmp/body")" = finished ] ||
    die "GET /v1/games/$id/scores: the game is not finished"
jq -r '.players | sort_by(.seat) | .[]
       | "\(.name): \(.score)"
         + (.breakdown // {} | to_entries | map(select(.value != 0) | "\(.key) \(.value)")
            | if length > 0 then " (" + join(", ") + ")" else "" end)' "$tmp/body"
winners=$(jq -r '[.winners[] as $w | .players[] | select(.seat == $w) | "\(.name) (\(.score))"]
                 | join(", ")' "$tmp/body")
echo "game $id finished after $turns turns; winner(s): $winners"
