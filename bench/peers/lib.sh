# Shell helpers shared by run.sh, profile.sh, holds.sh and cost.sh (sourced).

# A free loopback port whose neighbours port-2 and port+1 are free too (Apogee's fast and HA
# ports).
free_port() {
  python3 - <<'PY'
import socket, random
def free(p):
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", p)); return True
    except OSError:
        return False
    finally:
        s.close()
while True:
    p = random.randint(20000, 60000)
    if all(free(q) for q in (p - 2, p, p + 1)):
        print(p); break
PY
}

# wait_port <port> <seconds>: until something accepts on 127.0.0.1:<port>.
wait_port() {
  local deadline=$((SECONDS + $2))
  until (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; do
    if [ $SECONDS -ge $deadline ]; then echo "nothing listens on $1 after $2 s" >&2; return 1; fi
    sleep 0.1
  done
}

# write_broker_conf <file> <store dir> <listen port> <flushDiskType> [extra key=value lines]:
# a master on loopback with its store in <store dir>.
write_broker_conf() {
  local file=$1 store=$2 port=$3 flush=$4
  shift 4
  {
    echo "brokerClusterName=DefaultCluster"
    echo "brokerName=bench"
    echo "brokerId=0"
    echo "brokerRole=ASYNC_MASTER"
    echo "flushDiskType=$flush"
    echo "brokerIP1=127.0.0.1"
    echo "bindAddress=127.0.0.1"
    echo "listenPort=$port"
    echo "storePathRootDir=$store"
    for line in "$@"; do echo "$line"; done
  } > "$file"
}

# start_profiled_broker <build dir> <flushDiskType> <scratch name>: builds the harnesses
# (into $PEERS_BUILD, default build/peers), makes a scratch folder under $TMPDIR and starts
# mqbroker with its store there; sets peers_build, scratch, port and broker_pid, and stops the
# broker and removes the folder on exit. For profile.sh and holds.sh.
start_profiled_broker() {
  local build=$1 flush=$2 name=$3
  peers_build=${PEERS_BUILD:-build/peers}
  cmake -S bench/peers -B "$peers_build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$peers_build" >/dev/null
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/apogee-$name.XXXXXX")
  broker_pid=
  trap '[ -n "$broker_pid" ] && kill "$broker_pid" 2>/dev/null && wait "$broker_pid" 2>/dev/null; rm -rf "$scratch"' EXIT
  port=$(free_port)
  write_broker_conf "$scratch/broker.conf" "$scratch/store" "$port" "$flush"
  APOGEE_LOG_DIR=$scratch "$build/apps/mqbroker" -c "$scratch/broker.conf" > "$scratch/broker.log" 2>&1 &
  broker_pid=$!
  wait_port "$port" 30
}
