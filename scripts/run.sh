#!/usr/bin/env bash
# `make run`: starts the server in the foreground with its data under ./data.
# For now that is the NameServer (mqnamesrv) on 127.0.0.1:9876; Ctrl-C or SIGTERM stops it
# cleanly. Usage: scripts/run.sh <build dir> (default build/release).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build/release}
bin="$build_dir/apps/mqnamesrv"
if [ ! -x "$bin" ]; then
  echo "run: $bin not found; build first (make build)" >&2
  exit 1
fi

data="$PWD/data"
mkdir -p "$data/namesrv" "$data/logs"
conf="$data/namesrv/namesrv.conf"
# Generated each run from the sample's defaults: loopback only, KV config under ./data.
cat > "$conf" <<CONF
listenPort=9876
bindAddress=127.0.0.1
kvConfigPath=$data/namesrv/kvConfig.json
CONF

echo "run: mqnamesrv on 127.0.0.1:9876 (config $conf, logs $data/logs)"
export APOGEE_LOG_DIR="$data/logs"
exec "$bin" -c "$conf"
