// ClientConfig: the settings every producer and consumer shares (Java's ClientConfig).
// Clients with the same client id (clientIP@instanceName[@unitName]) share one connection
// set, route cache and heartbeat loop.
#pragma once

#include <cstdint>
#include <string>

namespace apogee {

struct ClientConfig {
  // "host:port;host:port". Empty: the NAMESRV_ADDR environment variable, as Java.
  std::string namesrv_addr;
  // "DEFAULT" is replaced by the process id for clients that would otherwise collide
  // (Java's changeInstanceNameToPID).
  std::string instance_name = "DEFAULT";
  // The address this client reports; empty picks one as Java's RemotingUtil.getLocalAddress.
  std::string client_ip;
  // Appended to the client id when set.
  std::string unit_name;
  bool unit_mode = false;
  // Route refresh from a NameServer (pollNameServerInterval).
  int64_t poll_name_server_interval_ms = 30'000;
  // Heartbeat to every broker in use (heartbeatBrokerInterval).
  int64_t heartbeat_broker_interval_ms = 30'000;
  // Consumer offsets persisted to brokers (persistConsumerOffsetInterval).
  int64_t persist_consumer_offset_interval_ms = 5'000;
  // Timeout of client RPCs other than sends and pulls (mqClientApiTimeout).
  int64_t mq_client_api_timeout_ms = 3'000;
  // Threads that run callbacks of asynchronous calls and broker-initiated requests.
  int32_t client_callback_executor_threads = 4;
};

}  // namespace apogee
