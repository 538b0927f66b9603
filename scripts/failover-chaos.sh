#!/usr/bin/env bash
# Failover chaos with a real etcd: runs the FailoverEtcdTest rounds (1 master + 2 replicas,
# SYNC_MASTER + SYNC_FLUSH, one sender recording every ack; kill -9, SIGSTOP, a cut
# master-etcd link, the old master returning, two failovers in a row) ROUNDS times each and
# prints, per fault, the lost / duplicated / out-of-order totals and the unavailability
# window per round (p50 / max; the gap between the last ack before the fault and the first
# ack from the new master).
#
#   ROUNDS=20 scripts/failover-chaos.sh              # 4 x 20 rounds, about 16 min on 2 busy cores
#   FAULT=kill ROUNDS=5 scripts/failover-chaos.sh    # kill | stop | cut | twice | async
#   BUILD_DIR=build/release (default) must hold a built failover_integration_tests and the apps.
#
# FAULT=all (the default) runs the four SYNC_MASTER faults; FAULT=async runs kill -9 of an
# ASYNC_MASTER, whose "lost" is the measured un-replicated tail (not a failure).
#
# Every "lost" must be 0 and every window at most 10000 ms; duplicates are the at-least-once
# retries of sends that were stored but not acknowledged, and are reported.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build/release}
ROUNDS=${ROUNDS:-5}
FAULT=${FAULT:-all}
BIN=${BIN:-"$BUILD_DIR/tests/integration/failover_integration_tests"}
if [[ ! -x "$BIN" ]]; then
  echo "no $BIN: build it first (cmake --build $BUILD_DIR --target failover_integration_tests)" >&2
  exit 2
fi
case "$FAULT" in
  kill) FILTER='FailoverEtcdTest.KillMinus9*' ;;
  stop) FILTER='FailoverEtcdTest.Sigstopped*' ;;
  cut) FILTER='FailoverEtcdTest.CutMasterEtcdLink*' ;;
  twice) FILTER='FailoverEtcdTest.TwoKillFailovers*' ;;
  async) FILTER='FailoverEtcdTest.AsyncMaster*' ;;
  *) FILTER='FailoverEtcdTest.KillMinus9*:FailoverEtcdTest.Sigstopped*:FailoverEtcdTest.CutMasterEtcdLink*:FailoverEtcdTest.TwoKillFailovers*' ;;
esac
LOG=$(mktemp /tmp/failover-chaos.XXXXXX.log)
echo "running $ROUNDS round(s) of $FILTER; full log: $LOG"
set +e
APOGEE_FAILOVER_ROUNDS="$ROUNDS" "$BIN" --gtest_filter="$FILTER" 2>&1 | tee "$LOG" |
  grep --line-buffered '^\[failover-chaos\] fault='
status=${PIPESTATUS[0]}
set -e
awk '
  /^\[failover-chaos\] fault=/ {
    delete v
    for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    f = v["fault"]; n = ++rounds[f]
    for (k in v) if (k != "fault" && k != "round" && k != "window_ms") sum[f, k] += v[k]
    win[f, n] = v["window_ms"]
  }
  END {
    for (f in rounds) {
      n = rounds[f]
      # sort the windows (insertion sort; n is small)
      for (i = 1; i <= n; i++) w[i] = win[f, i] + 0
      for (i = 2; i <= n; i++) { x = w[i]; j = i - 1; while (j > 0 && w[j] > x) { w[j + 1] = w[j]; j-- } w[j + 1] = x }
      p50 = w[int((n + 1) / 2)]; max = w[n]
      printf "%s: rounds=%d acked=%d lost=%d duplicated=%d out_of_order=%d mismatched=%d window_ms p50=%d max=%d\n",
        f, n, sum[f, "acked"], sum[f, "lost"], sum[f, "duplicated"], sum[f, "out_of_order"],
        sum[f, "mismatched"], p50, max
    }
  }' "$LOG"
if [[ $status -ne 0 ]]; then
  echo "FAILED (gtest exit $status); see $LOG" >&2
  exit "$status"
fi
