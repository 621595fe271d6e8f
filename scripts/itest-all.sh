#!/usr/bin/env bash
# itest-all.sh: the integration tests' three runs at once (make test-itest-all, a stage of
# make test): AddressSanitizer, ThreadSanitizer and plain (through the spec proxy), each
# `make test-itest` of its variant on a PostgreSQL cluster of its own (BUILD_ROOT/pgdata-
# VARIANT: each run's solo tests stop and restart theirs). Alone, a run leaves a core idle
# much of the time (it waits on leases, clocks and timers): on 2 cores the three took 742 s
# at once against 1,011 s one after another, and at once the cores are busy 96% of the time
# (/proc/stat), so what shortens this stage now is CPU saved, not more at once. Each run's
# output goes to BUILD_ROOT/itest-VARIANT.out and is printed whole, in that order, once all
# three have ended; the clusters are stopped then, pass or fail. Exit status 0 when all
# three passed.
#
# Usage: scripts/itest-all.sh   (make test-itest-all builds the three servers first)
# Environment: BUILD_ROOT (build), MAKE (make), ITEST_FILTER as for make test-itest.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
root=${BUILD_ROOT:-build}
make_cmd=${MAKE:-make}
variants=(address thread plain)
# Each make is a make of its own, not a sub-make of the one that runs this script.
unset MAKEFLAGS MFLAGS MAKELEVEL

# An earlier run's status must never stand for this one's (a run killed before it wrote its
# own would pass): a missing status reads as a failure below.
for v in "${variants[@]}"; do rm -f "$root/itest-$v.rc" "$root/itest-$v.out"; done
for v in "${variants[@]}"; do
    san=$v
    [ "$v" = plain ] && san=
    (
        rc=0
        PGDATA_DIR="$top/$root/pgdata-$v" "$make_cmd" --no-print-directory SANITIZE="$san" \
            BUILD="$root${san:+/$san}" test-itest >"$root/itest-$v.out" 2>&1 || rc=$?
        echo "$rc" >"$root/itest-$v.rc"
    ) &
done
# Not `wait PID`: a job's status can be lost when its pid is reused; each writes its own.
wait

status=0
for v in "${variants[@]}"; do
    rc=$(cat "$root/itest-$v.rc" 2>/dev/null || echo 255)
    echo "=== test-itest ($v): $(if [ "$rc" = 0 ]; then echo passed; else echo "FAILED (status $rc)"; fi)"
    cat "$root/itest-$v.out"
    [ "$rc" = 0 ] || status=1
    PGDATA_DIR="$top/$root/pgdata-$v" scripts/pg-stop.sh >/dev/null 2>&1 || true
done
exit "$status"
