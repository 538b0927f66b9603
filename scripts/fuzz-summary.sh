#!/usr/bin/env bash
# Cumulative campaign figures per target, from the one-row-per-run BUILD_DIR/campaign/results.tsv
# that `make fuzz-campaign` appends to (scripts/run-fuzzers.sh --campaign):
#
#   scripts/fuzz-summary.sh [BUILD_DIR]      (make fuzz-summary)
#
# Prints per target: runs, total seconds, total executions, exec/s over all runs, the corpus
# after the last run, the failed runs (crash, leak, timeout, sanitizer report; interrupted runs
# are counted but not as failures) and whether FUZZ_GOAL executions (default 10,000,000) are
# reached. The campaign's FUZZ_GOAL mode reads the same totals (run-fuzzers.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build/fuzz}
results="$dir/campaign/results.tsv"
goal=${FUZZ_GOAL:-10000000}
if [ ! -f "$results" ]; then echo "fuzz-summary: no $results (run make fuzz-campaign)"; exit 1; fi
awk -F'\t' -v goal="$goal" '
  NR == 1 { next }
  {
    t = $2
    if (!(t in runs)) order[++n] = t
    runs[t]++; secs[t] += $3; execs[t] += $4
    files[t] = $7; bytes[t] = $8; last[t] = substr($1, 1, 16)
    if ($10 == "FAILED") failed[t]++
  }
  END {
    printf "%-22s %5s %8s %14s %8s %16s %6s %-16s %s\n", "target", "runs", "seconds", "execs",
           "exec/s", "corpus files/B", "failed", "last run (UTC)", "goal"
    for (i = 1; i <= n; i++) {
      t = order[i]
      printf "%-22s %5d %8d %14d %8d %16s %6d %-16s %s\n", t, runs[t], secs[t], execs[t],
             (secs[t] > 0 ? execs[t] / secs[t] : 0), files[t] "/" bytes[t], failed[t] + 0, last[t],
             (execs[t] >= goal ? "reached" : "not reached")
    }
  }' "$results"
