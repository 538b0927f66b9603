// HA settings, named after the broker.conf keys they come from (docs/protocol/store_ha.md §6.3,
// §7). The broker fills them from BrokerSettings; tests set them directly.
#pragma once

#include <cstdint>
#include <string>

#include "base/tls_config.h"
#include "ha/ha_auth.h"

namespace apogee::ha {

struct HaOptions {
  // Master: where slaves connect (brokerIP2 / bind address, haListenPort). Port 0 picks a
  // free port (tests).
  std::string listen_host = "0.0.0.0";
  uint16_t listen_port = 10912;
  // haSendHeartbeatInterval: slave reports and master heartbeats when idle.
  int64_t heartbeat_interval_ms = 5000;
  // haHousekeepingInterval: a connection silent this long is dropped.
  int64_t housekeeping_interval_ms = 20000;
  // haMaxConnections (Apogee; Java has no cap): connections the master serves at once. Each
  // costs two threads until it closes or haHousekeepingInterval passes in silence, so a
  // client that opens connections in a loop could otherwise exhaust the broker's threads.
  // A connection past the cap is closed at once (logged, counted). A master has a few slaves.
  int32_t max_connections = 16;
  // haTransferBatchSize: the largest frame body.
  int32_t transfer_batch_size = 32768;
  // haSlaveFallbehindMax: SYNC_MASTER puts answer SLAVE_NOT_AVAILABLE past this lag.
  int64_t slave_fallbehind_max = 256LL * 1024 * 1024;
  // slaveTimeout: how long a SYNC_MASTER put waits for a slave's ack.
  int64_t slave_timeout_ms = 3000;
  // mappedFileSizeCommitLog: must be the same on master and slave.
  int64_t commit_log_file_size = 1024LL * 1024 * 1024;
  // haNewSlaveFullCopy (Apogee): a slave that reports 0 gets every CommitLog file the master
  // still has instead of only the last one (Java's choice, the default).
  bool new_slave_full_copy = false;
  // Slave: the first reconnect delay, doubled up to reconnect_max_ms (Java: a flat 5 s).
  int64_t reconnect_min_ms = 100;
  int64_t reconnect_max_ms = 5000;
  // Slave: re-read up to kResumeCheckBytes before its end when resuming and compare
  // (haResumeCheckEnable, Apogee; see ha_format.h).
  bool resume_check = true;
  // TLS (docs/security.md, "TLS"): the master's port follows tls.server.mode (permissive
  // tells a TLS slave from a plain one by the first byte: a report's first byte is 0);
  // the slave connects with TLS when tls.enable. Off unless set.
  TlsConfig tls{.server_mode = "disabled"};
  // Apogee (aclEnable): the challenge handshake before any report or frame, after TLS.
  // Empty functions: RocketMQ's unauthenticated protocol.
  HaAuth auth;
};

}  // namespace apogee::ha
