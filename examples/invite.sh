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

usage() {
    sed -n '8,20p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

url=${TILEHALL_URL:-http://127.0.0.1:8080}
players=3
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
case $players in [2-5]) ;; *) echo "invite: PLAYERS must be 2 to 5, not '$players'" >&2; exit 2 ;; esac
case $seed in '' | [0-9]*) ;; *) echo "invite: SEED must be a number" >&2; exit 2 ;; esac
for tool in curl jq; do
    command -v "$tool" >/dev/null || { echo "invite: $tool is missing" >&2; exit 2; }
done
url=${url%/}

options='{}'
for kv in "$@"; do
    case $kv in *=*) ;; *) echo "invite: options are NAME=VALUE, not '$kv'" >&2; exit 2 ;; esac
    options=$(jq -c --arg k "${kv%%=*}" --arg v "${kv#*=}" \
        '. + {($k): ($v | if test("^(true|false|-?[0-9]+)$") then fromjson else . end)}' \
        <<<"$options")
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

die() {
    echo "invite: $*" >&2
    exit 1
}

say() {
    [ "$quiet" -eq 1 ] || echo "$*"
}

header() {
    tr -d '\r' <"$tmp/headers" | awk -F': *' -v h="$1" 'tolower($1) == h {v = $2} END {print v}'
}

# request METHOD PATH [TOKEN] [JSON] [IF_MATCH] [IDEMPOTENCY_KEY]: as in examples/bot.sh
# (the status in $status, the body in $tmp/body; 429 and 503 retried).
request() {
    local method=$1 path=$2 token=${3:-} data=${4:-} ifmatch=${5:-} key=${6:-}
    local args=(-sS -X "$method" -o "$tmp/body" -D "$tmp/headers" -w '%{http_code}'
        --connect-timeout 10 --max-time 90)
    if [ -n "$token" ]; then
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

expect() {
    [ "$status" = "$1" ] && return 0
    local why
    why=$(jq -r '"\(.code // "?"): \(.detail // .title // "")"' "$tmp/body" 2>/dev/null) ||
        why=$(head -c 300 "$tmp/body")
    die "$2 answered $status, not $1 ($why)"
}

pick() {
    picked=$(((RANDOM * 32768 + RANDOM) % $1))
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

# 4. Play (as examples/bot.sh does).
turns=0
while :; do
    request GET "/v1/games/$id/turn"
    expect 200 "GET /v1/games/$id/turn"
    read -r gstatus phase seat number < <(jq -r \
        '[.status, .phase, (.seat // "none"), .number] | @tsv' "$tmp/body")
    [ "$gstatus" != finished ] || break
    [ "$gstatus" = active ] || die "GET /v1/games/$id/turn: status '$gstatus'"
    token=${tokens[$seat]}
    turns=$((turns + 1))
    [ "$turns" -le 1000 ] || die "more than 1000 turns: the game does not end"
    if [ "$phase" = draw ]; then
        request POST "/v1/games/$id/draw" "$token" "" "$(header etag)" "invite-$id-$number-draw"
        expect 200 "POST /v1/games/$id/draw"
        [ "$(jq -r .game.status "$tmp/body")" != finished ] || break
    fi
    version=$(header etag)
    n=$(jq '.placements | length' "$tmp/body")
    [ "$n" -gt 0 ] || die "$phase: no placement listed"
    pick "$n"
    jq -c ".placements[$picked]" "$tmp/body" >"$tmp/placement"
    m=$(jq '[.follower, .stable, .hike, .withdraw | length] | add + 1' "$tmp/placement")
    pick "$m"
    body=$(jq -c --argjson k "$picked" \
        '([null] + (.follower // [] | map({follower: .})) + (.stable // [] | map({stable: .}))
          + (.hike // [] | map({hike: .})) + (.withdraw // [] | map({withdraw: .}))) as $f
         | {x, y, rotation} + (if .tile then {tile} else {} end) + ($f[$k] // {})' \
        "$tmp/placement")
    request POST "/v1/games/$id/placements" "$token" "$body" "$version" "invite-$id-$number-place"
    expect 201 "POST /v1/games/$id/placements $body"
    say "turn $number: ${names[$seat]} $(jq -c . <<<"$body")"
done

request GET "/v1/games/$id/scores"
expect 200 "GET /v1/games/$id/scores"
[ "$(jq -r .status "$tmp/body")" = finished ] || die "the game is not finished"
jq -r '.players | sort_by(.seat) | .[] | "\(.name): \(.score)"' "$tmp/body"
winners=$(jq -r '[.winners[] as $w | .players[] | select(.seat == $w) | "\(.name) (\(.score))"]
                 | join(", ")' "$tmp/body")
echo "game $id finished after $turns turns; winner(s): $winners"
