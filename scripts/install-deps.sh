#!/usr/bin/env bash
# Installs everything Apogee needs to build and test on Debian 12, then the pinned npm
# packages used by the compatibility tests. Safe to run repeatedly: it only installs
# what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config clang libclang-rt-14-dev
  libboost-dev libboost-system-dev rapidjson-dev libfmt-dev libspdlog-dev libcli11-dev
  zlib1g-dev libssl-dev openssl libyaml-cpp-dev libgtest-dev libgmock-dev libbenchmark-dev
  libisal-dev  # CRC-32 with PCLMULQDQ: 10x zlib's on the recovery scan (docs/benchmarks.md)
  nodejs npm python3
  etcd-server  # the failover tests run a real etcd (docs/failover.md)
  chromium     # tests/browser drives it headless (playwright-core never downloads a browser)
)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
for p in "${PACKAGES[@]}"; do
  # node/npm may come from outside Debian (nodesource); accept any working binary.
  case "$p" in
    nodejs) command -v node >/dev/null 2>&1 && continue ;;
    npm) command -v npm >/dev/null 2>&1 && continue ;;
    python3) command -v python3 >/dev/null 2>&1 && continue ;;
  esac
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm packages, each directory pinned in its package-lock.json: ali-ons for tests/compat,
# playwright-core for tests/browser, uPlot for mqdashboard's page (built into the binary).
for dir in tests/compat tests/browser src/dashboard/web; do
  [ -f "$dir/package-lock.json" ] || continue
  stamp=$dir/node_modules/.apogee-lock-stamp
  if [ ! -f "$stamp" ] || ! cmp -s "$dir/package-lock.json" "$stamp"; then
    echo "install-deps: npm ci in $dir"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
    cp "$dir/package-lock.json" "$stamp"
  fi
done
echo "install-deps: ok"
