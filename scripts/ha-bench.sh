#!/usr/bin/env bash
# Replication benchmark (docs/benchmarks.md, "High availability"): ASYNC_MASTER then
# SYNC_MASTER, each with a slave on this machine, the same synchronous 1 KiB send load;
# prints sends/s, p50/p99 latency, the SYNC/ASYNC ratios and the slave's lag.
#
#   scripts/ha-bench.sh                          # 10 s per role, 8 senders
#   SECONDS_PER_ROLE=20 THREADS=16 scripts/ha-bench.sh
#   BUILD_DIR=build/release (default) must hold a built integration_tests and the apps.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build/release}
BIN=${BIN:-"$BUILD_DIR/tests/integration/integration_tests"}
if [[ ! -x "$BIN" ]]; then
  echo "no $BIN: build it first (cmake --build $BUILD_DIR --target integration_tests)" >&2
  exit 2
fi
LOG=$(mktemp /tmp/ha-bench.XXXXXX.log)
echo "full log: $LOG"
set +e
APOGEE_HA_BENCH=1 APOGEE_HA_BENCH_SECONDS="${SECONDS_PER_ROLE:-10}" \
  APOGEE_HA_BENCH_THREADS="${THREADS:-8}" \
  "$BIN" --gtest_filter='HaBenchTest.*' >"$LOG" 2>&1
status=$?
set -e
grep -E '^\[ha-bench\]|Failure|FAILED' "$LOG" || true
exit $status
