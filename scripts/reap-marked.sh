#!/usr/bin/env bash
# reap-marked.sh: kills what a test run left running. Every process whose environment holds
# MARK=VALUE (the runner's marker, which the servers and proxies it starts inherit) is
# killed (SIGKILL), but PostgreSQL (a cluster a test restarted is stopped as the stage's
# own, by scripts/pg-stop.sh): so that a runner that crashed, or was killed, leaves nothing
# behind. Prints a line for each process killed; exits 0.
#
#   scripts/reap-marked.sh MARK VALUE
set -u
[ $# -eq 2 ] || { echo "usage: $0 MARK VALUE" >&2; exit 2; }
want="$1=$2"
for dir in /proc/[0-9]*; do
    pid=${dir#/proc/}
    [ "$pid" = "$$" ] && continue
    comm=$(cat "$dir/comm" 2>/dev/null) || continue
    case "$comm" in postgres | postmaster) continue ;; esac
    if { tr '\0' '\n' < "$dir/environ"; } 2>/dev/null | grep -qxF -- "$want"; then
        echo "reap-marked: $comm ($pid) was left running; killed" >&2
        kill -KILL "$pid" 2>/dev/null
    fi
done
exit 0
