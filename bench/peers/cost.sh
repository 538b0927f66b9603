#!/usr/bin/env bash
# Per-message cost of the broker that a busy machine does not blur (issue 13): for one build,
#   bench/peers/cost.sh <build dir> [label]
# prints the idle thread count and RSS, then for the publish mode (256 sends in flight, 1 KiB)
# and the catch-up read: context switches per message (all broker threads, /proc), heap
# allocations per message and the sites that make them (heaptrack) and instructions per message
# (valgrind callgrind).
#   COST_SECONDS=5  FLUSH=ASYNC_FLUSH  BACKLOG_MIB=64  HEAP_SITES=12
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/peers/lib.sh
build=${1:?usage: cost.sh <build dir> [label]}
label=${2:-$build}
seconds=${COST_SECONDS:-5}
flush=${FLUSH:-ASYNC_FLUSH}
backlog=${BACKLOG_MIB:-64}
peers_build=${PEERS_BUILD:-build/peers}
cmake -S bench/peers -B "$peers_build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$peers_build" >/dev/null

scratch=$(mktemp -d "${TMPDIR:-/tmp}/apogee-cost.XXXXXX")
pid=
wrapper=
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$wrapper" 2>/dev/null || true; fi
  rm -rf "$scratch"
}
trap cleanup EXIT

# start [wrapper...]: the broker, optionally under a tool; sets pid (the broker's own pid)
# and port.
start() {
  rm -rf "$scratch/store"
  port=$(free_port)
  write_broker_conf "$scratch/broker.conf" "$scratch/store" "$port" "$flush"
  APOGEE_LOG_DIR=$scratch "$@" "$build/apps/mqbroker" -c "$scratch/broker.conf" > "$scratch/broker.log" 2>&1 &
  wrapper=$!
  pid=$wrapper
  for _ in $(seq 600); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      # Under a wrapper script (heaptrack) the broker is a descendant: find it by name.
      pid=$(broker_pid "$wrapper")
      return 0
    fi
    sleep 0.1
  done
  echo "cost: broker did not start" >&2
  cat "$scratch/broker.log" >&2
  return 1
}
broker_pid() {  # the process named mqbroker among $1 and its descendants, else $1
  # Breadth first: heaptrack's wrapper also starts helper processes (its interpreter), and
  # taking the first child found once named one of those, so stop() killed the wrong process
  # and the run waited for ever.
  local queue=("$1") p
  while [ ${#queue[@]} -gt 0 ]; do
    p=${queue[0]}
    queue=("${queue[@]:1}")
    if [ "$(cat "/proc/$p/comm" 2>/dev/null)" = mqbroker ]; then
      echo "$p"
      return
    fi
    # shellcheck disable=SC2207  # pids: no spaces
    queue+=($(pgrep -P "$p"))
  done
  echo "$1"  # under valgrind the broker runs as the tool's own process
}
stop() {
  kill "$pid" 2>/dev/null || true
  # A broker that has not ended after 10 s is killed, so the run goes on.
  for _ in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$wrapper" 2>/dev/null || true
  pid=
}
harness() {  # mode [args]: prints messages handled
  local mode=$1
  shift
  "$peers_build/apogee_harness" --system cost --port "$port" --mode "$mode" "$@" 2>/dev/null |
    python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["consumed"] or d["produced"])'
}
ctx_switches() {
  local total=0 f
  for f in /proc/"$pid"/task/*/status; do
    total=$((total + $(awk '/ctxt_switches/{s += $2} END {print s + 0}' "$f" 2>/dev/null || echo 0)))
  done
  echo "$total"
}

echo "== $label ($flush)"
start
sleep 1
echo "idle: $(ls /proc/$pid/task | wc -l) threads, RSS $(awk '/VmRSS/{print $2}' /proc/$pid/status) KiB"
before=$(ctx_switches)
n=$(harness publish --duration "$seconds")
after=$(ctx_switches)
echo "publish: $n msgs, $(awk -v a="$after" -v b="$before" -v n="$n" 'BEGIN{printf "%.3f", (a-b)/n}') context switches/msg, threads after $(ls /proc/$pid/task | wc -l)"
before=$(ctx_switches)
n=$(harness catchup --backlog-mib "$backlog")
after=$(ctx_switches)
echo "catch-up (incl. fill): $n msgs read, $(awk -v a="$after" -v b="$before" -v n="$((n * 2))" 'BEGIN{printf "%.3f", (a-b)/n}') context switches per message written or read"
stop

if command -v heaptrack >/dev/null; then
  start heaptrack -o "$scratch/heap"
  sleep 1
  n=$(harness publish --duration "$seconds")
  stop
  calls=$(heaptrack_print "$scratch"/heap*.zst 2>/dev/null | awk '/^calls to allocation functions:/{print $5}')
  echo "publish under heaptrack: $n msgs, $calls allocations in the whole run (start-up included): $(awk -v c="${calls:-0}" -v n="$n" 'BEGIN{printf "%.1f", c/n}') per message"
  # Where they come from: the functions that called an allocation function most, per
  # message (the innermost frame heaptrack resolves; start-up sites show as ~0.00).
  echo "allocation sites (calls per message, function):"
  heaptrack_print -f "$scratch"/heap*.zst -p 0 -a 1 -T 0 -l 0 -n "${HEAP_SITES:-12}" 2>/dev/null |
    awk -v n="$n" '/calls to allocation functions with/ {calls = $1; getline; printf "  %6.2f  %s\n", calls / n, substr($0, 1, 150)}'
fi

if command -v valgrind >/dev/null; then
  start valgrind --tool=callgrind --callgrind-out-file="$scratch/cg.%p" --collect-atstart=yes
  sleep 2
  callgrind_control -z "$pid" >/dev/null 2>&1 || true
  n=$(harness publish --duration "$seconds" --inflight 64)
  callgrind_control -d "$pid" >/dev/null 2>&1 || true
  sleep 1
  stop
  # Only the dump taken right after the run (cg.<pid>.1), not the final one at exit.
  ir=$(cat "$scratch"/cg.*.* | awk '/^summary:/{s += $2} END {print s + 0}')
  echo "publish under callgrind: $n msgs, $(awk -v i="$ir" -v n="$n" 'BEGIN{printf "%.0f", i/n}') instructions per message (broker, all threads, after the counters were zeroed)"
fi
