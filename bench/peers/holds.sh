#!/usr/bin/env bash
# Where the broker's threads are held for milliseconds during a publish (the p99 tail of a
# deep window; docs/benchmarks.md, "The client's request deadlines, routes and frame heads"):
#   bench/peers/holds.sh [build dir]
# starts mqbroker (ASYNC_FLUSH, data in a scratch folder under $TMPDIR, so on the file system
# being measured), drives it with the Apogee harness's publish (256 sends in flight) and records
# the broker with `perf record -F 5000 -g` (timestamps, frame-pointer stacks: the kernel's
# frames are what matter here); then prints, per thread, the stretches of consecutive samples
# spent inside one page fault (bench/peers/holds.py).
#   HOLD_SECONDS=8  FLUSH=ASYNC_FLUSH  MIN_HOLD_MS=3
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/peers/lib.sh
build=${1:-build/release}
seconds=${HOLD_SECONDS:-8}
flush=${FLUSH:-ASYNC_FLUSH}
start_profiled_broker "$build" "$flush" holds

"$peers_build/apogee_harness" --system holds --port "$port" --mode publish \
  --duration "$((seconds + 2))" > "$scratch/publish.json" 2> "$scratch/publish.err" &
harness=$!
sleep 1
perf record -q -F 5000 -g -p "$broker_pid" -o "$scratch/holds.data" -- sleep "$seconds" 2>/dev/null
wait "$harness" || true
echo "== publish: $(cat "$scratch/publish.json")"
# The readahead window of the store's disk (a partition's is its disk's).
disk=$(basename "$(df --output=source "$scratch" | tail -1)")
[ -e "/sys/block/$disk" ] || disk=$(lsblk -no pkname "/dev/$disk" 2>/dev/null | head -1)
echo "== read_ahead_kb of the store's disk ($disk): $(cat "/sys/block/$disk/queue/read_ahead_kb" 2>/dev/null || echo unknown)"
perf script -i "$scratch/holds.data" -F comm,tid,time,ip,sym 2>/dev/null |
  python3 bench/peers/holds.py --min-ms "${MIN_HOLD_MS:-3}"
