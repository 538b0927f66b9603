#!/usr/bin/env bash
# Runs the libFuzzer targets of a fuzz build (make build-fuzz), one at a time.
#
#   scripts/run-fuzzers.sh [BUILD_DIR]             smoke (make test-fuzz): every target for
#                                                  FUZZ_SECONDS (default 5) on a throw-away copy
#                                                  of its corpus tests/fuzz/corpus/<name>/
#   scripts/run-fuzzers.sh --campaign [BUILD_DIR]  campaign (make fuzz-campaign): every target
#                                                  for FUZZ_SECONDS (default 600) under nice -n 19
#                                                  (FUZZ_NICE=n sets it; 5 when no build runs)
#                                                  on a corpus kept in BUILD_DIR/campaign/<name>/
#                                                  across runs; one line per target is appended to
#                                                  BUILD_DIR/campaign/results.tsv
# Knobs: FUZZ_TARGETS="a_fuzz b_fuzz" (default: all; run in the order given), FUZZ_RUNS=N
# (also stop after N execs), FUZZ_MERGE=1 (campaign: merge the inputs that add coverage into
# tests/fuzz/corpus/<name>/ with -merge=1; inputs are capped at FUZZ_MAX_LEN bytes, default
# 4096, to keep it small), FUZZ_FLAGS="-entropic=0 ..." (extra libFuzzer flags). Campaign only: FUZZ_GOAL=N runs each target until its executions
# over all runs in results.tsv reach N (a target already there is skipped);
# FUZZ_UNTIL=HH:MM (UTC, today) ends every run by then and starts none after it.
# scripts/fuzz-summary.sh prints the cumulative figures per target.
# A crash, leak, timeout or sanitizer report fails the run; the reproducer is kept in the
# target's artifacts/ directory (campaign) or work directory (smoke). A run interrupted from
# outside (SIGINT) is recorded as "interrupted", not as a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=smoke
if [ "${1:-}" = "--campaign" ]; then mode=campaign; shift; fi
dir=${1:-build/fuzz}
if [ $mode = smoke ]; then secs=${FUZZ_SECONDS:-5}; else secs=${FUZZ_SECONDS:-600}; fi
max_len=${FUZZ_MAX_LEN:-4096}
# Sanitizer reports stop the process (the build also compiles with -fno-sanitize-recover=all).
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

targets=()
if [ -n "${FUZZ_TARGETS:-}" ]; then
  for name in $FUZZ_TARGETS; do
    if [ -x "$dir/tests/fuzz/$name" ]; then targets+=("$name"); else echo "fuzz: no $dir/tests/fuzz/$name"; exit 1; fi
  done
else
  for bin in "$dir"/tests/fuzz/*_fuzz; do
    [ -x "$bin" ] && targets+=("$(basename "$bin")")
  done
fi
if [ ${#targets[@]} -eq 0 ]; then echo "fuzz: no targets in $dir/tests/fuzz"; exit 1; fi

stat() {  # stat NAME LOG: a -print_final_stats value
  sed -n "s/^stat::$1: *//p" "$2" | tail -1
}

total_execs() {  # total_execs NAME: the target's executions over all runs in results.tsv
  awk -F'\t' -v t="$1" 'NR > 1 && $2 == t { s += $4 } END { print s + 0 }' "$results"
}

until_s=0
if [ -n "${FUZZ_UNTIL:-}" ]; then until_s=$(date -u -d "$FUZZ_UNTIL" +%s); fi

passed=0; failed=0
results="$dir/campaign/results.tsv"
if [ $mode = campaign ] && [ ! -f "$results" ]; then
  mkdir -p "$dir/campaign"
  printf 'date\ttarget\tseconds\texecs\texec_per_s\tnew_units\tcorpus_files\tcorpus_bytes\tpeak_rss_mb\tresult\n' > "$results"
fi
for name in "${targets[@]}"; do
  bin=$(cd "$dir/tests/fuzz" && pwd)/$name
  seed="tests/fuzz/corpus/$name"
  if [ $mode = smoke ]; then
    work="$dir/fuzz-work/$name"
    rm -rf "$work"
  else
    work="$dir/campaign/$name"
  fi
  mkdir -p "$work/corpus" "$work/artifacts"
  if [ -d "$seed" ]; then cp -r "$seed/." "$work/corpus/"; fi
  run_secs=$secs
  runs=${FUZZ_RUNS:-}
  if [ $mode = campaign ] && [ "$until_s" -gt 0 ]; then
    left=$(( until_s - $(date +%s) ))
    if [ "$left" -le 0 ]; then echo "fuzz: past FUZZ_UNTIL=$FUZZ_UNTIL, stopping"; break; fi
    [ "$left" -lt "$run_secs" ] && run_secs=$left
  fi
  if [ $mode = campaign ] && [ -n "${FUZZ_GOAL:-}" ]; then
    done_execs=$(total_execs "$name")
    if [ "$done_execs" -ge "$FUZZ_GOAL" ]; then
      echo "fuzz: $name has $done_execs execs (goal $FUZZ_GOAL), skipped"; continue
    fi
    remaining=$(( FUZZ_GOAL - done_execs ))
    if [ -z "$runs" ] || [ "$remaining" -lt "$runs" ]; then runs=$remaining; fi
  fi
  args=(-max_total_time="$run_secs" -rss_limit_mb=2048 -timeout=25 -print_final_stats=1
        -artifact_prefix=artifacts/)
  [ -n "$runs" ] && args+=(-runs="$runs")
  # shellcheck disable=SC2206  # FUZZ_FLAGS is a list of flags, split on spaces on purpose
  [ -n "${FUZZ_FLAGS:-}" ] && args+=(${FUZZ_FLAGS})
  prefix=()
  if [ $mode = campaign ]; then
    args+=(-max_len="$max_len")
    prefix=(nice -n "${FUZZ_NICE:-19}")
  fi
  started=$(date +%s)
  if (cd "$work" && "${prefix[@]}" "$bin" "${args[@]}" corpus > log.txt 2>&1); then
    result=ok; passed=$((passed + 1))
  elif grep -q 'libFuzzer: run interrupted' "$work/log.txt" &&
       ! grep -q 'Test unit written' "$work/log.txt"; then
    result=interrupted
  else
    result=FAILED; failed=$((failed + 1))
  fi
  elapsed=$(( $(date +%s) - started ))
  execs=$(stat number_of_executed_units "$work/log.txt"); rate=$(stat average_exec_per_sec "$work/log.txt")
  echo "fuzz: $name $result (${elapsed}s, ${execs:-?} execs, ${rate:-?} exec/s)"
  if [ $result = FAILED ]; then
    echo "fuzz: log $work/log.txt, reproducer in $work/artifacts/"; tail -40 "$work/log.txt"
  fi
  if [ $mode = campaign ]; then
    files=$(find "$work/corpus" -type f | wc -l)
    bytes=$(find "$work/corpus" -type f -printf '%s\n' | awk '{s += $1} END {print s + 0}')
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$name" "$elapsed" \
      "${execs:-0}" "${rate:-0}" "$(stat new_units_added "$work/log.txt")" "$files" "$bytes" \
      "$(stat peak_rss_mb "$work/log.txt")" "$result" >> "$results"
    if [ "${FUZZ_MERGE:-0}" = 1 ] && [ $result = ok ]; then
      mkdir -p "$seed"
      before=$(find "$seed" -type f | wc -l)
      (cd "$work" && "$bin" -merge=1 -max_len="$max_len" "$OLDPWD/$seed" corpus > merge.log 2>&1)
      echo "fuzz: $name merged $(( $(find "$seed" -type f | wc -l) - before )) new inputs into $seed"
    fi
  fi
done
echo "fuzz: $passed passed, $failed failed"
if [ $mode = campaign ]; then bash scripts/fuzz-summary.sh "$dir"; fi
[ $failed -eq 0 ]
