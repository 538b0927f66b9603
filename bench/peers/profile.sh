#!/usr/bin/env bash
# Flame graphs of the broker's send and pull paths (docs/perf/, issue 13):
#   bench/peers/profile.sh <label> [build dir]
# starts mqbroker (ASYNC_FLUSH, data in a scratch folder), drives it with the Apogee harness
# (publish: 256 sends in flight; catchup: a backlog read from the start) and records the
# broker with `perf record -e cpu-clock --call-graph dwarf` meanwhile; writes
# docs/perf/<label>-send.svg and docs/perf/<label>-pull.svg (bench/peers/flamegraph.py) and
# prints, per path, the share of samples by thread and the top functions by self time.
#   PROFILE_SECONDS=8  FLUSH=ASYNC_FLUSH  BACKLOG_MIB=512
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/peers/lib.sh
label=${1:?usage: profile.sh <label> [build dir]}
build=${2:-build/release}
seconds=${PROFILE_SECONDS:-8}
flush=${FLUSH:-ASYNC_FLUSH}
backlog=${BACKLOG_MIB:-512}
mkdir -p docs/perf
start_profiled_broker "$build" "$flush" profile

# profile_mode <path name> <harness mode> <extra harness args...>
profile_mode() {
  local name=$1 mode=$2
  shift 2
  "$peers_build/apogee_harness" --system "$label" --port "$port" --mode "$mode" "$@" \
    > "$scratch/$name.json" 2> "$scratch/$name.err" &
  local harness=$!
  if [ "$mode" = catchup ]; then
    # Record the read, not the fill.
    while kill -0 "$harness" 2>/dev/null && ! grep -q "backlog written" "$scratch/$name.err"; do sleep 0.05; done
  else
    sleep 1
  fi
  perf record -q -e cpu-clock -F 499 --call-graph dwarf,16384 -p "$broker_pid" -o "$scratch/$name.data" \
    -- sleep "$seconds" 2>/dev/null
  wait "$harness" || true
  perf script -i "$scratch/$name.data" 2>/dev/null > "$scratch/$name.script"
  python3 bench/peers/flamegraph.py --title "$label: broker, $name path ($(cat "$scratch/$name.json" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.0f msgs/s" % d["rate"])'))" \
    < "$scratch/$name.script" > "docs/perf/$label-$name.svg"
  python3 bench/peers/flamegraph.py --fold-only < "$scratch/$name.script" > "$scratch/$name.folded"
  echo "== $label $name: $(cat "$scratch/$name.json")"
  echo "-- samples by thread"
  awk '{n=$NF; sub(/ [0-9]+$/, ""); split($0, f, ";"); t[f[1]] += n; all += n}
       END {for (k in t) printf "%6.1f%%  %s\n", 100 * t[k] / all, k}' "$scratch/$name.folded" | sort -rn | head -12
  echo "-- samples by what the broker was doing (bench/peers/buckets.py)"
  python3 bench/peers/buckets.py < "$scratch/$name.folded"
  echo "-- top functions by self samples"
  awk '{n=$NF; sub(/ [0-9]+$/, ""); k=split($0, f, ";"); s[f[k]] += n; all += n}
       END {for (x in s) printf "%6.1f%%  %s\n", 100 * s[x] / all, x}' "$scratch/$name.folded" | sort -rn | head -25
}

[ -z "${ONLY_PULL:-}" ] && profile_mode send publish --duration "$((seconds + 2))"
[ -z "${ONLY_SEND:-}" ] && profile_mode pull catchup --duration 1 --backlog-mib "$backlog"
