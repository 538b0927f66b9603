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
  // A synchronous call (a sync send, a sync pull) first polls for its answer for up to this
  // many microseconds before it sleeps: a broker nearby answers in less, and the caller then
  // needs no wake-up (p50 68 -> 47 us on the test VM). It polls only while no other call of
  // the client waits, never on one core, and stops when answers take longer; 0 turns it off,
  // for a host where a core busy for that long is worth more than the latency. Not in Java.
  int64_t sync_wait_spin_us = 120;

  // TLS to NameServers and brokers (Java's useTLS / -Dtls.enable=true; docs/security.md,
  // "TLS"). The servers must run tls.server.mode=permissive or enforcing.
  bool use_tls = false;
  // Java's tls.* client settings. Test mode (Java's default) trusts any server and sends
  // no certificate; with it off, the certificate and key (PEM) are presented when given,
  // and the server's certificate is checked against tls_client_trust_cert_path (empty:
  // the system CAs) only with tls_client_auth_server, as in Java. No host name check.
  bool tls_test_mode_enable = true;
  std::string tls_client_cert_path;
  std::string tls_client_key_path;
  std::string tls_client_key_password;
  bool tls_client_auth_server = false;
  std::string tls_client_trust_cert_path;
  // Java's tls.properties: read when it exists; its tls.* keys override the fields above.
  std::string tls_config_file = "/etc/rocketmq/tls.properties";
  // ACL credentials (Java's SessionCredentials in an AclClientRPCHook): when access_key
  // and secret_key are set, every request is signed (HMAC-SHA1 over the header values and
  // the body) for brokers and NameServers that run with aclEnable=true. docs/security.md.
  std::string access_key;
  std::string secret_key;
  // Sent and signed when not empty.
  std::string security_token;
  // Aliyun's OnsChannel header ("ALIYUN" from ali-ons); sent and signed when not empty.
  std::string ons_channel;
};

}  // namespace apogee
