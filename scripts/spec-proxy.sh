#!/usr/bin/env bash
# spec-proxy.sh: starts the validating proxy (scripts/spec-proxy.js, built on Prism 5.14.2)
# on PORT in front of the server at UPSTREAM, waits until it answers, and prints its pid and
# the port it listens on ("PID PORT"). PORT 0 takes a port the kernel gives (what the tests
# do: a port picked and freed before the proxy binds it may be taken by then).
#
#   scripts/spec-proxy.sh PORT UPSTREAM [LOGFILE]
#   e.g.  read -r pid port < <(scripts/spec-proxy.sh 0 http://127.0.0.1:8080 build/spec-proxy.log)
#         ... send every test request to http://127.0.0.1:$port ...
#         kill "$pid"
#
# Every request is forwarded unchanged (bad JSON, missing tokens, unknown paths
# included) and every answer is checked against openapi.yaml: status documented for the
# operation, content type, body schema, required headers, and no header that the
# document does not declare for the answer (see the script's header). An answer that does not
# conform is replaced by a 500 application/problem+json whose `type` is
# https://stoplight.io/prism/errors#VIOLATIONS (the list of violations in `validation`,
# the original answer in `upstream`), and a line "spec-proxy: VIOLATION ..." goes to the
# log; so a test that checks statuses fails on any mismatch. `Accept: text/event-stream`
# requests are streamed through unchecked.
#
# Needs node_modules (`npm ci`, done by `make spec-deps`). Exits non-zero, with the log's
# end on stderr, if the proxy is not answering within 30 seconds. The proxy runs in the
# background (detached from this shell) until it is killed; LOGFILE defaults to
# build/spec-proxy.log.
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
port=$1
upstream=$2
root=$(cd "$(dirname "$0")/.." && pwd)
log=${3:-$root/build/spec-proxy.log}
mkdir -p "$(dirname "$log")"

if [ ! -d "$root/node_modules/@stoplight/prism-http" ]; then
    echo "spec-proxy.sh: node_modules missing; run 'make spec-deps' (npm ci) first" >&2
    exit 1
fi

port_file=$(mktemp "${TMPDIR:-/tmp}/spec-proxy-port.XXXXXX")
rm -f "$port_file"
trap 'rm -f "$port_file" "$port_file.tmp"' EXIT
setsid node "$root/scripts/spec-proxy.js" --port "$port" --upstream "$upstream" \
    --spec "$root/openapi.yaml" --port-file "$port_file" >>"$log" 2>&1 </dev/null &
pid=$!

for _ in $(seq 1 300); do
    if ! kill -0 "$pid" 2>/dev/null; then
        echo "spec-proxy.sh: the proxy exited; end of $log:" >&2
        tail -n 20 "$log" >&2
        exit 1
    fi
    # The port it listens on (the one asked for, or the kernel's pick for 0), once it does;
    # any HTTP answer then means it is serving (the upstream may be down).
    if [ -s "$port_file" ]; then port=$(cat "$port_file"); fi
    if [ -s "$port_file" ] && curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$port/healthz"; then
        echo "$pid $port"
        exit 0
    fi
    sleep 0.1
done
echo "spec-proxy.sh: the proxy did not answer on port $port within 30 s; end of $log:" >&2
tail -n 20 "$log" >&2
kill "$pid" 2>/dev/null || true
exit 1
