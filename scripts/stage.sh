#!/usr/bin/env bash
# stage.sh: the stages of `make test`, each timed (the Makefile's `test` target).
#
#   scripts/stage.sh begin FILE          starts the list of times in FILE (emptied)
#   scripts/stage.sh run FILE NAME CMD...  runs CMD, then prints "stage NAME: 12.3 s" (or
#                                        "stage NAME: FAILED after 12.3 s") and adds the
#                                        line to FILE; exits with CMD's status
#   scripts/stage.sh end FILE            prints every stage's time and the total; stops the
#                                        throwaway PostgreSQL (scripts/pg-stop.sh)
set -uo pipefail

what=${1:-} file=${2:-}
if [ -z "$what" ] || [ -z "$file" ]; then
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
now() { date +%s.%N; }
case $what in
begin)
    mkdir -p "$(dirname "$file")"
    : >"$file"
    ;;
run)
    name=$3
    shift 3
    echo "stage $name: started $(date -u +%H:%M:%S)"
    t0=$(now)
    "$@"
    status=$?
    secs=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
    printf '%s\t%s\t%s\n' "$secs" "$status" "$name" >>"$file"
    if [ "$status" -eq 0 ]; then
        echo "stage $name: $secs s"
    else
        echo "stage $name: FAILED after $secs s"
        "$0" end "$file"
    fi
    exit "$status"
    ;;
end)
    echo "stages of make test (seconds):"
    awk -F '\t' '{ printf "  %-28s %8.1f s%s\n", $3, $1, $2 == 0 ? "" : "  FAILED (status " $2 ")"; t += $1 }
        END { printf "  %-28s %8.1f s\n", "total", t }' "$file"
    # The plain closing line CI reads: the stages that passed and failed.
    awk -F '\t' '{ if ($2 == 0) ok++; else bad++ }
        END { printf "stages: %d passed, %d failed\n", ok, bad }' "$file"
    # Nothing left running, pass or fail: the stages share the throwaway cluster that
    # scripts/pg-start.sh starts (test-web's files start it and leave it to the next).
    "$(dirname "$0")/pg-stop.sh" >/dev/null 2>&1 || true
    ;;
*)
    echo "stage.sh: unknown step $what" >&2
    exit 2
    ;;
esac
