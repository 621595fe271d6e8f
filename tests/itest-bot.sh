#!/usr/bin/env bash
# itest-bot.sh: whole games of every ruleset played by examples/bot.sh, and through invites
# by examples/invite.sh, against the real server on a fresh database: each must run to its
# end.
#
# Usage: tests/itest-bot.sh   (make test-bot builds the server first)
# Environment: TILEHALL_BIN (default build/tilehall), BOT_SERVER_LOG (default
# build/itest-bot-server.log), PGDATA_DIR as for scripts/pg-start.sh.
# Starts PostgreSQL (scripts/pg-start.sh --fresh tilehall_bot) and the server on a free
# port, runs the games side by side, checks through the API that each game is finished,
# stops the server by its pid. One line per game; the last line is "N passed, M failed".
# Exit status 0 when every game passed.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
bin=${TILEHALL_BIN:-build/tilehall}
log=${BOT_SERVER_LOG:-build/itest-bot-server.log}
[ -x "$bin" ] || { echo "itest-bot: $bin is missing (make $bin)" >&2; exit 1; }
for tool in curl jq; do
    command -v "$tool" >/dev/null || { echo "itest-bot: $tool is missing" >&2; exit 1; }
done

# The games: players, seeds (the deck's and the bot's), ruleset and options.
games=(
    "2 11 1 classic"
    "3 12 2 classic edition=original"
    "4 13 3 classic river=true"
    "5 14 4 classic edition=original river=true"
    "3 15 5 hills"
    "5 16 6 hills"
    "2 17 7 discovery draw=pile"
    "4 18 8 discovery draw=hand"
    "5 19 9 discovery draw=hand"
)

url=$(scripts/pg-start.sh --fresh tilehall_bot)
work=$(mktemp -d)
server_pid= # the server (scripts/start-server.sh sets it)
cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

# Start the server on a free port (scripts/start-server.sh).
mkdir -p "$(dirname "$log")"
: >"$log"
# shellcheck source=scripts/start-server.sh
. scripts/start-server.sh
start_server "$bin" "$log" DATABASE_URL="$url" THREADS=4 LOG_LEVEL=warn ||
    { echo "itest-bot: the server did not start (see $log)" >&2; exit 1; }
port=$server_port
base=http://127.0.0.1:$port

# Games played through invites (examples/invite.sh): a host's seat, open seats taken by
# name and by player token; marked "invite" before the players.
games+=(
    "invite 3 21 1 classic"
    "invite 5 22 2 hills"
    "invite 4 23 3 discovery draw=hand"
)

# Play every game side by side. Each game's exit status goes to a file: `wait PID` can lose
# a job's status when the kernel gives its pid to a later child of this shell first (pid_max
# 32768 wraps within seconds on a busy machine: "wait: pid N is not a child of this shell").
pids=()
for i in "${!games[@]}"; do
    script=examples/bot.sh
    spec=${games[$i]}
    case $spec in invite\ *) script=examples/invite.sh spec=${spec#invite } ;; esac
    read -r players seed botseed ruleset options <<<"$spec"
    # shellcheck disable=SC2086 # the options are separate words
    (
        rc=0
        "$script" -q -u "$base" -p "$players" -s "$seed" -r "$botseed" "$ruleset" $options \
            >"$work/$i.out" 2>&1 || rc=$?
        echo "$rc" >"$work/$i.rc"
    ) &
    pids[i]=$!
done
# Not a bare `wait`: the server is a child too. A pid that is no longer a child has ended.
for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done

passed=0
failed=0
for i in "${!games[@]}"; do
    spec=${games[$i]}
    via=
    case $spec in invite\ *) via=" (invites)" spec=${spec#invite } ;; esac
    read -r players seed botseed ruleset options <<<"$spec"
    what="$ruleset${options:+ $options}, $players players, seed $seed$via"
    rc=$(cat "$work/$i.rc" 2>/dev/null || echo 255)
    last=$(tail -n 1 "$work/$i.out")
    why=
    if [ "$rc" -ne 0 ]; then
        why="the bot stopped ($rc): $last"
    elif ! id=$(sed -n 's/^game \([0-9a-f-]\{36\}\) finished after .*/\1/p' <<<"$last") ||
        [ -z "$id" ]; then
        why="no result line: $last"
    elif ! state=$(curl -sf "$base/v1/games/$id"); then
        why="GET /v1/games/$id failed"
    elif [ "$(jq -r '[.status, .turn.phase, .deck_remaining] | @tsv' <<<"$state")" != \
        "$(printf 'finished\tfinished\t0')" ]; then
        why="the game is not finished: $(jq -c '{status, turn, deck_remaining}' <<<"$state")"
    elif [ "$(jq -r '.ruleset' <<<"$state")" != "$ruleset" ]; then
        why="the game's ruleset is $(jq -r .ruleset <<<"$state")"
    fi
    if [ -z "$why" ]; then
        passed=$((passed + 1))
        echo "ok   $what: ${last#game }"
    else
        failed=$((failed + 1))
        echo "FAIL $what: $why"
        sed 's/^/     | /' "$work/$i.out" | tail -n 5
    fi
done

# The server must still be up, and stop cleanly on SIGTERM.
if ! curl -sf -o /dev/null "$base/healthz"; then
    failed=$((failed + 1))
    echo "FAIL the server is not healthy after the games (see $log)"
fi
kill "$server_pid"
rc=0
wait "$server_pid" || rc=$?
server_pid=
if [ "$rc" -ne 0 ]; then
    failed=$((failed + 1))
    echo "FAIL the server exited with status $rc on SIGTERM (see $log)"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
