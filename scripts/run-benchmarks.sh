#!/usr/bin/env bash
# make bench: runs every Google Benchmark executable of a Release build (one per
# bench/<name>_bench.cc), one after the other, each writing its JSON results next to the
# console table. Not part of `make test`: benchmarks want a quiet machine
# (docs/benchmarks.md says how each figure there was taken).
#   scripts/run-benchmarks.sh [BUILD_DIR]      default build/release
# Knobs: BENCH_FILTER=regex (Google Benchmark's --benchmark_filter), BENCH_ONLY="store_bench
# remoting_bench" (executables to run), BENCH_OUT=dir (default BUILD_DIR/bench-results).
# The plain programs (bench/delay_lateness, bench/restart_after_kill) and the peer comparison
# (make bench-peers) are run on their own; docs/benchmarks.md has their commands.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build/release}
out=${BENCH_OUT:-$dir/bench-results}
mkdir -p "$out"
ran=0
for bin in "$dir"/bench/*_bench; do
  [ -x "$bin" ] || continue
  name=$(basename "$bin")
  if [ -n "${BENCH_ONLY:-}" ] && [[ " $BENCH_ONLY " != *" $name "* ]]; then continue; fi
  echo "== $name"
  args=(--benchmark_out="$out/$name.json" --benchmark_out_format=json)
  [ -n "${BENCH_FILTER:-}" ] && args+=(--benchmark_filter="$BENCH_FILTER")
  "$bin" "${args[@]}"
  ran=$((ran + 1))
done
if [ "$ran" -eq 0 ]; then echo "bench: no *_bench executables in $dir/bench (make build first)"; exit 1; fi
echo "bench: $ran executables, JSON results in $out/"
