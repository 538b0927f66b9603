#!/usr/bin/env bash
# Kill -9 chaos for replication: runs the HaFailoverTest rounds (a master SIGKILLed at a
# random moment under steady load, its slave read back) ROUNDS times and prints the
# lost / duplicated / out-of-order totals per role.
#
#   ROUNDS=100 scripts/ha-chaos.sh            # both roles, 100 rounds each
#   ROLE=SYNC ROUNDS=20 scripts/ha-chaos.sh   # SYNC_MASTER only (ROLE=ASYNC: ASYNC_MASTER)
#   BUILD_DIR=build/release (default) must hold a built integration_tests and the apps.
#
# SYNC_MASTER must show lost=0; ASYNC_MASTER's "lost" is its loss window (acked, not yet
# replicated when the master died) and is reported, not judged; every other count must be 0.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build/release}
ROUNDS=${ROUNDS:-10}
ROLE=${ROLE:-ALL}
BIN=${BIN:-"$BUILD_DIR/tests/integration/integration_tests"}
if [[ ! -x "$BIN" ]]; then
  echo "no $BIN: build it first (cmake --build $BUILD_DIR --target integration_tests)" >&2
  exit 2
fi
case "$ROLE" in
  SYNC) FILTER='HaFailoverTest.SyncMaster*' ;;
  ASYNC) FILTER='HaFailoverTest.AsyncMaster*' ;;
  *) FILTER='HaFailoverTest.*' ;;
esac
LOG=$(mktemp /tmp/ha-chaos.XXXXXX.log)
echo "running $ROUNDS round(s) of $FILTER; full log: $LOG"
set +e
APOGEE_HA_ROUNDS="$ROUNDS" "$BIN" --gtest_filter="$FILTER" 2>&1 | tee "$LOG" | grep --line-buffered '^\[ha-chaos\] role='
status=${PIPESTATUS[0]}
set -e
awk '
  /^\[ha-chaos\] role=/ {
    role = ""; for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    role = v["role"]; rounds[role]++
    for (k in v) if (k != "role" && k != "round") sum[role, k] += v[k]
    if (v["loss_window_ms"] > worst[role]) worst[role] = v["loss_window_ms"]
  }
  END {
    for (r in rounds) {
      printf "%s: rounds=%d acked=%d lost=%d (in the middle %d) duplicated=%d out_of_order=%d mismatched=%d worst_loss_window_ms=%d\n",
        r, rounds[r], sum[r, "acked"], sum[r, "lost"], sum[r, "lost_in_middle"], sum[r, "duplicated"],
        sum[r, "out_of_order"], sum[r, "mismatched"], worst[r]
    }
  }' "$LOG"
if [[ $status -ne 0 ]]; then
  echo "FAILED (gtest exit $status); see $LOG" >&2
  exit "$status"
fi
echo "all rounds passed"
