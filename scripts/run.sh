#!/usr/bin/env bash
# `make run`: starts the broker with an embedded NameServer in the foreground
# (mqbroker --with-namesrv): NameServer 127.0.0.1:9876, broker 127.0.0.1:10911 (fast port
# 10909, HA 10912), store, config and logs under ./data. Ctrl-C or SIGTERM stops it
# cleanly (offsets and config persisted, store flushed, unregistered).
# Usage: scripts/run.sh <build dir> (default build/release).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build/release}
bin="$build_dir/apps/mqbroker"
if [ ! -x "$bin" ]; then
  echo "run: $bin not found; build first (make build)" >&2
  exit 1
fi

data="$PWD/data"
mkdir -p "$data/logs"
conf="$data/broker.conf"
# Generated each run from conf/broker.conf's defaults: loopback only, everything under ./data.
cat > "$conf" <<CONF
brokerClusterName=DefaultCluster
brokerName=broker-a
brokerId=0
brokerRole=ASYNC_MASTER
flushDiskType=ASYNC_FLUSH
brokerIP1=127.0.0.1
bindAddress=127.0.0.1
listenPort=10911
namesrvListenPort=9876
namesrvAddr=127.0.0.1:9876
storePathRootDir=$data/store
deleteWhen=04
fileReservedTime=48
metricsExporterType=PROM
metricsPromExporterHost=127.0.0.1
metricsPromExporterPort=5557
namesrvMetricsPromExporterPort=5558
CONF

echo "run: mqbroker --with-namesrv: NameServer 127.0.0.1:9876, broker 127.0.0.1:10911 (config $conf, logs $data/logs)"
echo "run: Prometheus metrics: http://127.0.0.1:5557/metrics (broker), http://127.0.0.1:5558/metrics (NameServer)"
export APOGEE_LOG_DIR="$data/logs"
exec "$bin" -c "$conf" --with-namesrv
