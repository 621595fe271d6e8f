# play.sh: sourced by examples/bot.sh and examples/invite.sh (bash): the requests, and the
# play of a whole game once every seat is taken.
#
# The sourcing script sets prog first (its name, for messages and Idempotency-Keys) and
# usage_lines (the lines of its own header that are its usage, "5,19"); start reads its
# command line; before play_game it sets id (the game), tokens and names (by seat: the
# token each seat acts with, its name).
# shellcheck shell=bash disable=SC2154 # prog, usage_lines, id, tokens, names: the caller's
# shellcheck disable=SC2034 # seed, ruleset, options: for the caller

# Prints the caller's usage (its header's lines $usage_lines) and exits 2.
usage() {
    sed -n "${usage_lines}p" "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

die() {
    echo "$prog: $*" >&2
    exit 1
}

# start DEFAULT_PLAYERS ARG...: reads the command line as the scripts' usage says (the
# usage on a bad one) into url, players, seed, quiet, ruleset and options (the
# ruleset's options as a JSON object: true/false and numbers as such, anything else a
# string), checks for curl and jq, and makes the scratch folder $tmp (removed at the exit).
start() {
    local opt kv
    OPTIND=1
    url=${TILEHALL_URL:-http://127.0.0.1:8080}
    players=$1
    shift
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
    case $players in [2-5]) ;; *) echo "$prog: PLAYERS must be 2 to 5, not '$players'" >&2; exit 2 ;; esac
    case $seed in '' | [0-9]*) ;; *) echo "$prog: SEED must be a number" >&2; exit 2 ;; esac
    for tool in curl jq; do
        command -v "$tool" >/dev/null || { echo "$prog: $tool is missing" >&2; exit 2; }
    done
    url=${url%/}

    options='{}'
    for kv in "$@"; do
        case $kv in *=*) ;; *) echo "$prog: options are NAME=VALUE, not '$kv'" >&2; exit 2 ;; esac
        options=$(jq -c --arg k "${kv%%=*}" --arg v "${kv#*=}" \
            '. + {($k): ($v | if test("^(true|false|-?[0-9]+)$") then fromjson else . end)}' \
            <<<"$options")
    done

    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
}

# read_headers: the ETag ("7" with its quotes, for If-Match) and the Retry-After of the
# last answer into $answer_etag and $retry_after, read by bash itself (a bot reads them
# twice a turn: no process for it).
read_headers() {
    local line name value
    answer_etag='' retry_after=''
    while IFS= read -r line; do
        line=${line%$'\r'}
        name=${line%%:*}
        value=${line#*:}
        value=${value#"${value%%[! ]*}"}
        case ${name,,} in
        etag) answer_etag=$value ;;
        retry-after) retry_after=$value ;;
        esac
    done <"$tmp/headers"
}

# request METHOD PATH [TOKEN] [JSON] [IF_MATCH] [IDEMPOTENCY_KEY]: the answer's status in
# $status, its body in $tmp/body, its headers in $tmp/headers, its ETag in $answer_etag
# (read_headers). Retries 429 and 503.
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
        read_headers
        case $status in
        429 | 503)
            [ "$attempt" -lt 6 ] || break
            wait=$retry_after
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

# draw30: a number in 0..2^30-1 into $drawn30, from $RANDOM twice; a uniform choice among N
# is drawn30 % N (near enough: N is at most a few hundred). Not in a subshell: the state
# of $RANDOM must advance in this shell for -r to repeat a run.
draw30() {
    drawn30=$((RANDOM * 32768 + RANDOM))
}

# play_game: plays game $id to its end, each seat choosing uniformly among its legal moves
# (one read of /turn a turn, a draw when it must, a placement with a follow-up), then
# prints the final scores, one line a seat, and "game ID finished after N turns; winner(s):
# NAME (SCORE) ...". A turn runs jq twice: once for whose turn it is, once for the move
# (the two choices made in jq from numbers drawn here, so that -r repeats a run).
play_game() {
    local describe choose turns gstatus phase seat number token version after drawn body
    local placement_pick followup_pick winners
    # A turn's body in words.
    # shellcheck disable=SC2016 # jq's own $drawn
    describe='"places \(.tile // $drawn) at (\(.x), \(.y)) turned \(.rotation)"
        + (if .follower then ", follower on \(.follower)"
           elif .stable then ", stable on \(.stable)"
           elif .hike then ", hiker on (\(.hike.x), \(.hike.y)) walks \(.hike.toward)"
           elif .withdraw then ", withdraws from (\(.withdraw.x), \(.withdraw.y)) \(.withdraw.location)"
           else "" end)'
    # From the answer of /turn or of the draw, three lines: the game's status after a draw
    # ("-" after /turn), the tile drawn ("-" when the answer names none), and the move:
    # placement $p of those listed, with follow-up $f among none and each one it lists
    # (follower, stable, hike, withdraw), as the body of POST .../placements ("none"
    # when no placement is listed).
    # shellcheck disable=SC2016 # jq's own $p and $f
    choose='(.game.status // "-"), (.tile // "-"),
        (.placements // [] | if length == 0 then "none" else .[$p % length]
         | ([null] + (.follower // [] | map({follower: .})) + (.stable // [] | map({stable: .}))
            + (.hike // [] | map({hike: .})) + (.withdraw // [] | map({withdraw: .}))) as $fs
         | {x, y, rotation} + (if .tile then {tile} else {} end) + ($fs[$f % ($fs | length)] // {})
         | tojson end)'

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
            request POST "/v1/games/$id/draw" "$token" "" "$answer_etag" "$prog-$id-$number-draw"
            expect 200 "POST /v1/games/$id/draw"
        elif [ "$phase" != place ]; then
            die "GET /v1/games/$id/turn: unknown phase '$phase'"
        fi
        version=$answer_etag
        draw30
        placement_pick=$drawn30
        draw30
        followup_pick=$drawn30
        {
            read -r after
            read -r drawn
            read -r body
        } < <(jq -r --argjson p "$placement_pick" --argjson f "$followup_pick" "$choose" "$tmp/body")
        [ "$after" != finished ] || break
        case $body in "" | none) die "$phase: no placement listed" ;; esac
        request POST "/v1/games/$id/placements" "$token" "$body" "$version" "$prog-$id-$number-place"
        expect 201 "POST /v1/games/$id/placements $body"
        if [ "$quiet" -eq 0 ]; then
            [ "$drawn" != - ] || drawn=
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
}
