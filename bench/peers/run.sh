#!/usr/bin/env bash
# `make bench-peers`: Apogee beside NATS JetStream, Redis Streams and a RabbitMQ quorum queue,
# same workload, same machine, one run (bench/peers/README.md).
#
#   DURATION=10      seconds per timed mode (publish, produce+consume, sync one at a time)
#   BACKLOG_MIB=2048 catch-up backlog per system that runs catch-up
#   SIZE=1024        message body bytes;  INFLIGHT=256  publishes in flight
#   SYSTEMS="nats redis-everysec redis-always rabbitmq apogee-async apogee-sync mqbench"
#   WRITE_DOCS=1     replace the generated section of docs/benchmarks.md (0 = print only)
#   BUILD_DIR=build/release  where mqbroker / mqadmin / mqbench are built
#   SKIP_BUILD=1     use the binaries in BUILD_DIR as they are (e.g. another worktree's build,
#                    to compare two commits run by run)
#   KEEP_SCRATCH=1   keep the scratch folder (data, server logs, raw results) afterwards
#
# Every server listens on 127.0.0.1 only, on free ports, with its data in a scratch folder
# that is removed at the end. Results: one JSON line per (system, mode) in
# $SCRATCH/results.jsonl, turned into the table by bench/peers/table.py.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD

DURATION=${DURATION:-10}
BACKLOG_MIB=${BACKLOG_MIB:-2048}
SIZE=${SIZE:-1024}
INFLIGHT=${INFLIGHT:-256}
SYSTEMS=${SYSTEMS:-"nats redis-everysec redis-always rabbitmq apogee-async apogee-sync mqbench"}
WRITE_DOCS=${WRITE_DOCS:-1}
BUILD_DIR=${BUILD_DIR:-build/release}
PEERS_BUILD=${PEERS_BUILD:-build/peers}

log() { echo "bench-peers: $*" >&2; }
. bench/peers/lib.sh

# ---- install and build ----
bash bench/peers/install.sh
case "${SKIP_BUILD:-0} $SYSTEMS " in
  1*) ;;
  *" apogee-"*|*" mqbench "*)
    cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$BUILD_DIR" --target mqbroker mqadmin mqbench ;;
esac
cmake -S bench/peers -B "$PEERS_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$PEERS_BUILD"

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/apogee-peers.XXXXXX")
RESULTS=$SCRATCH/results.jsonl
: > "$RESULTS"
PIDS=()
cleanup() {
  for p in "${PIDS[@]:-}"; do
    [ -n "$p" ] && kill "$p" 2>/dev/null || true
  done
  if [ -n "${RABBIT_ENV:-}" ]; then stop_rabbitmq; fi
  wait 2>/dev/null || true
  if [ "${KEEP_SCRATCH:-0}" = 1 ]; then log "scratch kept in $SCRATCH"; else rm -rf "$SCRATCH"; fi
}
trap cleanup EXIT

# CPU ticks (user + system) of process `pid` and all its descendants (RabbitMQ's node is a
# child of the script we start).
cpu_ticks() {
  local total=0 t c
  [ -r "/proc/$1/stat" ] && total=$(awk '{print $14 + $15}' "/proc/$1/stat")
  for c in $(pgrep -P "$1" || true); do
    t=$(cpu_ticks "$c")
    total=$((total + t))
  done
  echo "$total"
}

# run_harness <system label> <harness> <port> <mode> <server pid>
run_harness() {
  local label=$1 harness=$2 port=$3 mode=$4 pid=$5 before after line
  before=$(cpu_ticks "$pid")
  line=$("$PEERS_BUILD/${harness}_harness" --system "$label" --port "$port" --mode "$mode" \
    --duration "$DURATION" --inflight "$INFLIGHT" --size "$SIZE" --backlog-mib "$BACKLOG_MIB")
  after=$(cpu_ticks "$pid")
  # Server CPU seconds spent during the mode (ticks at 100 Hz).
  line="${line%\}},\"server_cpu_s\":$(awk -v a="$after" -v b="$before" 'BEGIN{printf "%.2f", (a-b)/100}')}"
  echo "$line" >> "$RESULTS"
  log "$line"
}

modes_for() {  # catch-up only once per system family (its page-cache / default config)
  case "$1" in
    redis-always|apogee-sync) echo "publish pubsub sync" ;;
    *) echo "publish pubsub sync catchup" ;;
  esac
}

# ---- fsync probe (before) ----
mkdir -p "$SCRATCH/probe"
echo "{\"probe\":\"before\",$("$PEERS_BUILD/fsync_probe" "$SCRATCH/probe" | sed 's/^{//')" >> "$RESULTS"

run_nats() {
  local dir=$SCRATCH/nats port
  port=$(free_port)
  mkdir -p "$dir"
  nats-server -a 127.0.0.1 -p "$port" -js -sd "$dir" > "$dir.log" 2>&1 &
  PIDS+=($!)
  local pid=$!
  wait_port "$port" 20
  for m in $(modes_for nats); do run_harness nats nats "$port" "$m" "$pid"; done
  kill "$pid"; wait "$pid" 2>/dev/null || true
  rm -rf "$dir"
}

run_redis() {  # label, appendfsync policy
  local dir=$SCRATCH/$1 port
  port=$(free_port)
  mkdir -p "$dir"
  redis-server --port "$port" --bind 127.0.0.1 --dir "$dir" --appendonly yes --appendfsync "$2" \
    --save "" --protected-mode yes --logfile "$dir.log" &
  PIDS+=($!)
  local pid=$!
  wait_port "$port" 20
  for m in $(modes_for "$1"); do run_harness "$1" redis "$port" "$m" "$pid"; done
  kill "$pid"; wait "$pid" 2>/dev/null || true
  rm -rf "$dir"
}

# Stops the node, then the epmd started for it, which outlives it (exactly that one: our
# port); epmd refuses while the node is still registered, so retry for a while.
stop_rabbitmq() {
  (
    . "$RABBIT_ENV"
    /usr/lib/rabbitmq/bin/rabbitmqctl stop >/dev/null 2>&1 || true
    for _ in $(seq 40); do
      epmd -kill >/dev/null 2>&1 && break
      sleep 0.25
    done
  )
}

run_rabbitmq() {
  local dir=$SCRATCH/rabbitmq port
  port=$(free_port)
  mkdir -p "$dir/home"
  echo "[]." > "$dir/enabled_plugins"
  printf 'loopback_users = none\nlisteners.tcp.default = 127.0.0.1:%s\n' "$port" > "$dir/rabbitmq.conf"
  RABBIT_ENV=$dir/env.sh
  cat > "$RABBIT_ENV" <<ENV
export HOME=$dir/home
export RABBITMQ_NODENAME=apogeebench@localhost
export RABBITMQ_NODE_IP_ADDRESS=127.0.0.1
export RABBITMQ_NODE_PORT=$port
export RABBITMQ_DIST_PORT=$(free_port)
export ERL_EPMD_ADDRESS=127.0.0.1
export ERL_EPMD_PORT=$(free_port)
export RABBITMQ_MNESIA_BASE=$dir/mnesia
export RABBITMQ_LOG_BASE=$dir/log
export RABBITMQ_ENABLED_PLUGINS_FILE=$dir/enabled_plugins
export RABBITMQ_CONFIG_FILE=$dir/rabbitmq
ENV
  (. "$RABBIT_ENV"; exec /usr/lib/rabbitmq/bin/rabbitmq-server > "$dir.log" 2>&1) &
  PIDS+=($!)
  local pid=$!
  # The AMQP listener opens once the node has booted.
  wait_port "$port" 180
  for m in $(modes_for rabbitmq); do run_harness rabbitmq rabbitmq "$port" "$m" "$pid"; done
  stop_rabbitmq
  wait "$pid" 2>/dev/null || true
  RABBIT_ENV=
  rm -rf "$dir"
}

# start_apogee <label> <flushDiskType>; sets APOGEE_PORT, APOGEE_NS, APOGEE_PID, APOGEE_DIR
start_apogee() {
  APOGEE_DIR=$SCRATCH/$1
  APOGEE_PORT=$(free_port)
  APOGEE_NS=$(free_port)
  mkdir -p "$APOGEE_DIR/logs"
  write_broker_conf "$APOGEE_DIR/broker.conf" "$APOGEE_DIR/store" "$APOGEE_PORT" "$2" \
    "namesrvListenPort=$APOGEE_NS" "namesrvAddr=127.0.0.1:$APOGEE_NS"
  APOGEE_LOG_DIR=$APOGEE_DIR/logs "$BUILD_DIR/apps/mqbroker" -c "$APOGEE_DIR/broker.conf" --with-namesrv \
    > "$APOGEE_DIR.log" 2>&1 &
  APOGEE_PID=$!
  PIDS+=($APOGEE_PID)
  wait_port "$APOGEE_PORT" 30
  sleep 1
  # Idle footprint, for the notes under the table.
  echo "{\"idle\":\"$1\",\"threads\":$(ls "/proc/$APOGEE_PID/task" | wc -l),\"rss_kib\":$(awk '/VmRSS/{print $2}' "/proc/$APOGEE_PID/status")}" >> "$RESULTS"
}

stop_apogee() {
  kill "$APOGEE_PID"; wait "$APOGEE_PID" 2>/dev/null || true
  rm -rf "$APOGEE_DIR"
}

run_apogee() {  # label, flushDiskType
  start_apogee "$1" "$2"
  for m in $(modes_for "$1"); do run_harness "$1" apogee "$APOGEE_PORT" "$m" "$APOGEE_PID"; done
  stop_apogee
}

# The same modes through the client library: mqbench (async window = INFLIGHT, sync -w 1,
# a producer and a consumer together, a consumer reading a backlog from the start).
run_mqbench() {
  start_apogee mqbench ASYNC_FLUSH
  local ns=127.0.0.1:$APOGEE_NS bench=$BUILD_DIR/apps/mqbench admin=$BUILD_DIR/apps/mqadmin
  local common=(-n "$ns" -s "$SIZE" -d "$DURATION" --json -r 100000)
  for t in mq_publish mq_sync mq_pubsub mq_catchup; do
    "$admin" updateTopic -n "$ns" -c DefaultCluster -t "$t" -r 8 -w 8 >/dev/null
  done
  record() {  # mode, json line from mqbench
    local before=$3 after
    after=$(cpu_ticks "$APOGEE_PID")
    echo "$2" | python3 -c "
import json, sys
d = json.loads(sys.stdin.read())
print(json.dumps({'system': 'mqbench', 'mode': '$1', 'rate': d['tps'], 'seconds': d['elapsedSeconds'],
                  'p50_us': d['latencyMs']['p50'] * 1000, 'p99_us': d['latencyMs']['p99'] * 1000,
                  'p999_us': d['latencyMs']['p999'] * 1000, 'mib_s': d['mibPerSecond'],
                  'server_cpu_s': ($after - $before) / 100}))" >> "$RESULTS"
    log "$(tail -1 "$RESULTS")"
  }
  local b out
  b=$(cpu_ticks "$APOGEE_PID")
  out=$("$bench" producer "${common[@]}" -t mq_publish -w 1 -m async -a "$INFLIGHT" | grep '^{')
  record publish "$out" "$b"
  b=$(cpu_ticks "$APOGEE_PID")
  "$bench" producer "${common[@]}" -t mq_pubsub -w 1 -m async -a "$INFLIGHT" > "$APOGEE_DIR/pubsub-producer.out" &
  local prod=$!
  out=$("$bench" consumer "${common[@]}" -t mq_pubsub -g mq_pubsub_cg | grep '^{')
  wait "$prod"
  record pubsub "$out" "$b"
  b=$(cpu_ticks "$APOGEE_PID")
  out=$("$bench" producer "${common[@]}" -t mq_sync -w 1 -m sync | grep '^{')
  record sync "$out" "$b"
  # Backlog of BACKLOG_MIB written through the library, then read from the start.
  "$bench" producer -n "$ns" -s "$SIZE" -t mq_catchup -w 1 -m async -a "$INFLIGHT" --json -r 100000 \
    -q $((BACKLOG_MIB * 1024 * 1024 / SIZE)) > /dev/null
  # The read stops when the backlog is read (-q), so its rate covers the read alone; a
  # fixed duration would divide the backlog by the duration once the read ends early.
  b=$(cpu_ticks "$APOGEE_PID")
  out=$("$bench" consumer -n "$ns" -s "$SIZE" --json -r 100000 -q $((BACKLOG_MIB * 1024 * 1024 / SIZE)) \
    -d $((DURATION * 12)) -t mq_catchup -g mq_catchup_cg --fromStart | grep '^{')
  record catchup "$out" "$b"
  stop_apogee
}

for s in $SYSTEMS; do
  log "== $s"
  case "$s" in
    nats) run_nats ;;
    redis-everysec) run_redis redis-everysec everysec ;;
    redis-always) run_redis redis-always always ;;
    rabbitmq) run_rabbitmq ;;
    apogee-async) run_apogee apogee-async ASYNC_FLUSH ;;
    apogee-sync) run_apogee apogee-sync SYNC_FLUSH ;;
    mqbench) run_mqbench ;;
    *) log "unknown system $s"; exit 2 ;;
  esac
done

echo "{\"probe\":\"after\",$("$PEERS_BUILD/fsync_probe" "$SCRATCH/probe" | sed 's/^{//')" >> "$RESULTS"

args=(--results "$RESULTS" --duration "$DURATION" --backlog-mib "$BACKLOG_MIB" --size "$SIZE"
      --inflight "$INFLIGHT")
if [ "$WRITE_DOCS" = 1 ]; then args+=(--docs docs/benchmarks.md); fi
python3 bench/peers/table.py "${args[@]}"
