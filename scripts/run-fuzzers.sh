#!/usr/bin/env bash
# Runs every libFuzzer target for FUZZ_SECONDS (default 10) on a copy of its corpus in
# tests/fuzz/corpus/<name>/. A crash fails the run and leaves the reproducer in the build dir.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build/fuzz}
secs=${FUZZ_SECONDS:-10}
passed=0; failed=0
for bin in "$dir"/tests/fuzz/*_fuzz; do
  [ -x "$bin" ] || continue
  name=$(basename "$bin")
  work="$dir/fuzz-work/$name"
  rm -rf "$work"; mkdir -p "$work/corpus"
  if [ -d "tests/fuzz/corpus/$name" ]; then cp -r "tests/fuzz/corpus/$name/." "$work/corpus/"; fi
  if (cd "$work" && "$OLDPWD/$bin" -max_total_time="$secs" -rss_limit_mb=2048 -print_final_stats=0 corpus > log.txt 2>&1); then
    echo "fuzz: $name ok ($(grep -c . "$work/log.txt") log lines, ${secs}s)"
    passed=$((passed + 1))
  else
    echo "fuzz: $name FAILED, see $work/log.txt"; tail -30 "$work/log.txt"
    failed=$((failed + 1))
  fi
done
echo "fuzz: $passed passed, $failed failed"
[ $failed -eq 0 ]
