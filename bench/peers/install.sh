#!/usr/bin/env bash
# Bench-only Debian packages for `make bench-peers` (never needed by `make build` or `make test`,
# so they stay out of scripts/install-deps.sh): the peers, the AMQP client library the RabbitMQ
# harness links, and perf for the flame graphs in docs/perf/. Installs only what is missing.
set -euo pipefail
PACKAGES=(nats-server redis-server rabbitmq-server librabbitmq-dev linux-perf)
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bench-peers: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
