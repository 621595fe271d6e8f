#!/usr/bin/env bash
# Runs one libFuzzer harness for a while: fuzz-run.sh BUILD_DIR NAME SECONDS.
# It starts from the committed corpus (tests/fuzz/corpus/NAME) and writes new inputs to a
# scratch copy under BUILD_DIR, so the committed corpus changes only on purpose.
# Prints executions and new units; fails (with the crashing input kept) on any finding.
set -euo pipefail
dir=$1 name=$2 seconds=$3
bin="$dir/fuzz_$name"
work="$dir/corpus-$name"
mkdir -p "$work"
rm -f "$dir/crash-$name-"*
log="$dir/fuzz-$name.log"
status=0
# A dictionary of the input's tokens, where the harness has one (tests/fuzz/NAME.dict).
dict=()
if [ -f "tests/fuzz/$name.dict" ]; then dict=(-dict="tests/fuzz/$name.dict"); fi
"$bin" -max_total_time="$seconds" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
    "${dict[@]}" ${FUZZ_ARGS:-} \
    -artifact_prefix="$dir/crash-$name-" "$work" "tests/fuzz/corpus/$name" >"$log" 2>&1 || status=$?
runs=$(grep -m1 '^stat::number_of_executed_units' "$log" | awk '{print $2}')
new=$(grep -m1 '^stat::new_units_added' "$log" | awk '{print $2}')
if [ "$status" -ne 0 ] || ls "$dir/crash-$name-"* >/dev/null 2>&1; then
    grep -E '^(==|SUMMARY|ERROR|Deadly|Test unit|artifact)' "$log" | head -30 >&2
    echo "fuzz_$name: FAILED after ${runs:-?} runs; input kept as $dir/crash-$name-*" >&2
    exit 1
fi
echo "fuzz_$name: ${runs:-0} runs in ${seconds}s, ${new:-0} new inputs, no crash"
