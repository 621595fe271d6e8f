#!/usr/bin/env bash
# image-test.sh: builds the container image of the Dockerfile and tries it (make test-image;
# not in make test: it fetches Debian's packages and takes minutes). Issue 30 item 10.
#   1. the base: debian:bookworm-slim made by mmdebstrap from Debian's packages (minbase,
#      without manuals, documentation but copyrights, and translations), imported by buildah;
#   2. the image: buildah bud of the Dockerfile (chroot isolation, vfs storage), FROM that
#      base only (--pull=never);
#   3. a container of it run as the image says (its CMD, user, folder and environment) on the
#      host's network, with a throwaway PostgreSQL cluster of the host reached through a
#      socket folder of its own mounted at /run/postgresql (DATABASE_URL);
#   4. checks: /healthz; / (the page, with its security headers) and a file of it; a game
#      created and a move played; board.png a PNG; the server's log without "Fontconfig
#      error" and without "cannot open the web client's folder";
#   5. cleans up everything, whatever happened: the container, the images and their storage
#      (all in IMAGE_DIR), the cluster.
# Prints the time of each step. Needs root (mmdebstrap, buildah's chroot isolation),
# buildah, mmdebstrap, curl and jq (make deps does not install buildah and mmdebstrap:
# apt-get install buildah mmdebstrap).
#   IMAGE_DIR     the working folder (default build/image; emptied first, removed at the end)
#   IMAGE_MIRROR  Debian's mirror (default http://deb.debian.org/debian)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
work=${IMAGE_DIR:-$top/build/image}
mirror=${IMAGE_MIRROR:-http://deb.debian.org/debian}
security=${mirror%/debian}/debian-security
base=docker.io/library/debian:bookworm-slim # the Dockerfile's FROM
image=localhost/tilehall:image-test

die() {
    echo "image-test: $*" >&2
    exit 1
}
for tool in buildah mmdebstrap curl jq; do
    command -v "$tool" >/dev/null || die "$tool is missing (apt-get install buildah mmdebstrap curl jq)"
done
[ "$(id -u)" = 0 ] || die "run it as root (mmdebstrap, buildah's chroot isolation)"

export BUILDAH_ISOLATION=chroot
store=(--root "$work/storage" --runroot "$work/run" --storage-driver vfs)
pgdir=$work/pg     # the cluster (scripts/pg-start.sh's PGDATA_DIR)
sock=$work/pgsock  # its second socket folder, the container's /run/postgresql
runner=            # the pid of buildah run
step_t0=$(date +%s.%N)

# Ends the timing of a step: "image-test: NAME 12.3 s".
step() {
    local now
    now=$(date +%s.%N)
    awk -v n="$1" -v a="$step_t0" -v b="$now" 'BEGIN { printf "image-test: %s %.1f s\n", n, b - a }'
    step_t0=$now
}

cleanup() {
    local rc=$?
    if [ -n "$runner" ] && kill -0 "$runner" 2>/dev/null; then
        kill -TERM "$runner" 2>/dev/null || true
        wait "$runner" 2>/dev/null || true
    fi
    if [ -d "$work/storage" ]; then
        buildah "${store[@]}" rm --all >/dev/null 2>&1 || true
        buildah "${store[@]}" rmi --all --force >/dev/null 2>&1 || true
    fi
    PGDATA_DIR=$pgdir "$top/scripts/pg-stop.sh" 2>/dev/null || true
    rm -rf "$work"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

rm -rf "$work"
mkdir -p "$work"

# 1. The base, from Debian's packages.
mmdebstrap --quiet --variant=minbase --aptopt='Acquire::Languages "none"' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/locale/*' \
    bookworm "$work/base.tar" "deb $mirror bookworm main" "deb $mirror bookworm-updates main" \
    "deb $security bookworm-security main" >"$work/mmdebstrap.log" 2>&1 ||
    { tail -n 20 "$work/mmdebstrap.log" >&2; die "mmdebstrap failed"; }
ctr=$(buildah "${store[@]}" from scratch)
buildah "${store[@]}" add --quiet "$ctr" "$work/base.tar" / >/dev/null
buildah "${store[@]}" config --cmd /bin/bash \
    --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$ctr"
buildah "${store[@]}" commit --quiet --rm "$ctr" "$base" >/dev/null
rm -f "$work/base.tar"
step "base (mmdebstrap, buildah import)"

# 2. The image.
buildah "${store[@]}" bud --pull=never --layers=false -t "$image" -f "$top/Dockerfile" "$top" \
    >"$work/build.log" 2>&1 || { tail -n 30 "$work/build.log" >&2; die "buildah bud failed"; }
step "image (buildah bud)"

# 3. The cluster and the container.
# As root, scripts/pg-start.sh runs the cluster as `postgres`: it writes its socket's lock
# file in the folder; the image's user (neither) reaches the socket through it.
mkdir -p "$sock"
chown postgres "$sock"
chmod 755 "$sock"
PGDATA_DIR=$pgdir PG_SERVER_OPTS="-c unix_socket_directories=$pgdir,$sock" \
    "$top/scripts/pg-start.sh" --fast tilehall_image >/dev/null
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mapfile -t cmd < <(buildah "${store[@]}" inspect --format '{{range .OCIv1.Config.Cmd}}{{println .}}{{end}}' "$image" | sed '/^$/d')
[ "${#cmd[@]}" -gt 0 ] || die "the image has no CMD"
ctr=$(buildah "${store[@]}" from --pull-never "$image")
buildah "${store[@]}" run --volume "$sock:/run/postgresql" --env "PORT=$port" \
    --env "DATABASE_URL=postgresql://postgres@/tilehall_image?host=/run/postgresql" \
    "$ctr" -- "${cmd[@]}" >"$work/server.log" 2>&1 &
runner=$!
url=http://127.0.0.1:$port
for _ in $(seq 1 300); do
    curl -sf -o /dev/null "$url/healthz" && break
    kill -0 "$runner" 2>/dev/null || { cat "$work/server.log" >&2; die "the container stopped"; }
    sleep 0.2
done
step "server up (cluster, container, migrations)"

# 4. The checks.
fail() {
    tail -n 20 "$work/server.log" >&2
    die "$*"
}
got=$(curl -sS -o "$work/body" -w '%{http_code}' "$url/healthz")
[ "$got" = 200 ] || fail "/healthz answered $got"
jq -e '.status == "ok"' "$work/body" >/dev/null || fail "/healthz said $(head -c 200 "$work/body")"
got=$(curl -sS -D "$work/head" -o "$work/body" -w '%{http_code} %{content_type}' "$url/")
[ "$got" = "200 text/html; charset=utf-8" ] || fail "/ answered $got"
grep -q '<script type="module" src="web/app.js">' "$work/body" || fail "/ is not the web client's page"
for h in "X-Content-Type-Options: nosniff" "X-Frame-Options: DENY" "Referrer-Policy: no-referrer" \
    "Content-Security-Policy: default-src 'self';"; do
    tr -d '\r' <"$work/head" | grep -qiF "$h" || fail "/ without $h"
done
got=$(curl -sS -o /dev/null -w '%{http_code} %{content_type}' "$url/web/app.js")
[ "$got" = "200 text/javascript; charset=utf-8" ] || fail "/web/app.js answered $got"

# A game of two and its first move: the first placement listed, without a follower.
got=$(curl -sS -o "$work/game" -w '%{http_code}' -H 'Content-Type: application/json' \
    -d '{"ruleset":"classic","players":[{"name":"Ann"},{"name":"Bob"}],"seed":7}' "$url/v1/games")
[ "$got" = 201 ] || fail "POST /v1/games answered $got: $(head -c 300 "$work/game")"
id=$(jq -r .id "$work/game")
auth="Authorization: Bearer $(jq -r '.players[] | select(.seat == 0) | .token' "$work/game")"
got=$(curl -sS -o "$work/turn" -D "$work/head" -w '%{http_code}' -X POST -H "$auth" "$url/v1/games/$id/draw")
[ "$got" = 200 ] || fail "POST draw answered $got: $(head -c 300 "$work/turn")"
etag=$(tr -d '\r' <"$work/head" | awk -F': *' 'tolower($1) == "etag" { print $2 }')
jq -c '.placements[0] | {x, y, rotation}' "$work/turn" >"$work/move"
got=$(curl -sS -o "$work/body" -w '%{http_code}' -H "$auth" -H "If-Match: $etag" \
    -H 'Content-Type: application/json' -d @"$work/move" "$url/v1/games/$id/placements")
[ "$got" = 201 ] || fail "POST placements $(cat "$work/move") answered $got: $(head -c 300 "$work/body")"
version=$(jq -r .version "$work/body")
[ "$version" -ge 2 ] 2>/dev/null || fail "the move left the game at version '$version'"

got=$(curl -sS -o "$work/board.png" -w '%{http_code} %{content_type}' \
    "$url/v1/games/$id/board.png?width=512")
[ "$got" = "200 image/png" ] || fail "board.png answered $got"
[ "$(head -c 8 "$work/board.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
    fail "board.png is no PNG"
if grep -E 'Fontconfig error|cannot open the web client' "$work/server.log" >&2; then
    fail "the server's log says the above"
fi
step "checks (healthz, page, game, move, board.png, log)"
size=$(buildah "${store[@]}" images --format '{{.Size}}' "$image")
echo "image-test: passed (image $size; board.png $(stat -c %s "$work/board.png") bytes)"
