#!/usr/bin/env bash
# backup-check.sh: a backup is pg_dump alone (`make backup-check`; docs/operations.md). On a
# throwaway PostgreSQL of its own (PGDATA_DIR=.pgdata-backup, deleted at the end): a server
# plays a few turns of a game whose seat 0 is a player (player token) with a webhook, and an
# idempotent draw; `pg_dump -Fc` of its database; the server is stopped and the database
# dropped; `pg_restore` into a new database and a new server on it. Then the game answers
# the same state (body and ETag), the seat token and the player token act as before, the
# player's list holds the game, and the idempotent draw's repeat gets its first answer: no
# state lived outside PostgreSQL.
# Environment: BENCH_PORT (18097), TILEHALL_BIN (build/tilehall).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
port=${BENCH_PORT:-18097}
bin=${TILEHALL_BIN:-build/tilehall}
out=build/backup-check
base=http://127.0.0.1:$port
export PGDATA_DIR=$top/.pgdata-backup
mkdir -p "$out"
server=
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true; fi
    scripts/pg-stop.sh >/dev/null 2>&1 || true
    rm -rf "$PGDATA_DIR"
}
trap cleanup EXIT
fail() { echo "backup-check: FAIL $*" >&2; exit 1; }

url=$(scripts/pg-start.sh --fast --fresh tilehall_backup 2>"$out/pg-start.log")
url2=${url/\/tilehall_backup/\/tilehall_restored}
start() {
    PORT=$port DATABASE_URL="$1" CREATE_LIMIT_PER_MINUTE=0 WEBHOOK_WORKERS=0 "$bin" 2>>"$out/server.log" &
    server=$!
    for _ in $(seq 1 100); do
        curl -s -o /dev/null --max-time 1 "$base/healthz" && return 0
        sleep 0.1
    done
    fail "the server did not start"
}
stop() { kill "$server" && wait "$server" || true; server=; }
json() { curl -s -H 'Content-Type: application/json' "$@"; }

start "$url"
ptoken=$(json -X POST "$base/v1/players" -d '{"name":"Ann"}' | jq -r .token)
game=$(json -X POST "$base/v1/games" -H "Authorization: Bearer $ptoken" \
    -d '{"players":[{"player":"me"},{"name":"Bob"}],"webhook":{"url":"https://example.com/hook"}}')
id=$(jq -r .id <<<"$game")
bob=$(jq -r '.players[1].token' <<<"$game")
# turn AUTH: draw and place the first placement listed.
turn() {
    local drawn place
    drawn=$(curl -s -X POST "$base/v1/games/$id/draw" -H "Authorization: Bearer $1")
    place=$(jq -c '.placements[0] | {x, y, rotation}' <<<"$drawn")
    json -o /dev/null -X POST "$base/v1/games/$id/placements" -H "Authorization: Bearer $1" -d "$place"
}
turn "$ptoken"
turn "$bob"
key='Idempotency-Key: backup-check-0123456789abcdef0123456789abcdef'
first=$(curl -s -X POST "$base/v1/games/$id/draw" -H "Authorization: Bearer $ptoken" -H "$key")
state=$(curl -s -D "$out/headers-before.txt" "$base/v1/games/$id")
stop

pg_dump -Fc -f "$out/tilehall.dump" "$url"
psql "$url" -X -q -c "SELECT 1" >/dev/null
dropdb_url=${url/\/tilehall_backup/\/postgres}
psql "$dropdb_url" -X -q -c "DROP DATABASE tilehall_backup" -c "CREATE DATABASE tilehall_restored"
pg_restore --no-owner -d "$url2" "$out/tilehall.dump"

start "$url2"
after=$(curl -s -D "$out/headers-after.txt" "$base/v1/games/$id")
[ "$after" = "$state" ] || fail "the restored game differs"
etag() { grep -i '^etag:' "$1" | tr -d '\r'; }
[ "$(etag "$out/headers-before.txt")" = "$(etag "$out/headers-after.txt")" ] || fail "another ETag"
again=$(curl -s -X POST "$base/v1/games/$id/draw" -H "Authorization: Bearer $ptoken" -H "$key")
[ "$again" = "$first" ] || fail "the idempotent draw's repeat is not its first answer"
place=$(jq -c '.placements[0] | {x, y, rotation}' <<<"$first")
st=$(json -o /dev/null -w '%{http_code}' -X POST "$base/v1/games/$id/placements" \
    -H "Authorization: Bearer $ptoken" -d "$place")
[ "$st" = 201 ] || fail "the player token's placement answered $st"
turn "$bob"
listed=$(curl -s "$base/v1/players/me/games" -H "Authorization: Bearer $ptoken" | jq -r '.games[0].id')
[ "$listed" = "$id" ] || fail "the player's list does not hold the game"
hooks=$(psql "$url2" -X -At -c "SELECT count(*) FROM webhooks")
[ "$hooks" = 1 ] || fail "the webhook did not come back"
stop
echo "backup-check: pg_dump -Fc ($(stat -c %s "$out/tilehall.dump") bytes) restored into a new" \
    "database: the same game and ETag, tokens, idempotent answer, list and webhook"
