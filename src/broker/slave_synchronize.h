// SlaveSynchronize: a slave copies its master's metadata over remoting (Java's
// SlaveSynchronize; docs/protocol/store_ha.md §7.5): topic configs (GET_ALL_TOPIC_CONFIG),
// consumer offsets (GET_ALL_CONSUMER_OFFSET), delay offsets (GET_ALL_DELAY_OFFSET, written
// verbatim to config/delayOffset.json) and subscription groups
// (GET_ALL_SUBSCRIPTIONGROUP_CONFIG), and persists each.
//
// The master's remoting address comes from the registration result (masterAddr) or, when
// only haMasterAddress is configured, from it (the remoting port is the HA port - 1, as
// the default haListenPort = listenPort + 1). SyncAll skips when the address is unknown or
// is this broker's own.
//
// Thread-safety: SyncAll runs on one thread (the controller's "SlaveSynchronize" loop);
// SetMasterAddr may be called from any thread.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "base/status.h"
#include "broker/broker_context.h"
#include "protocol/topic_config.h"

namespace apogee::env {
class Env;
}  // namespace apogee::env

namespace apogee::remoting {
class RemotingClient;
}  // namespace apogee::remoting

namespace apogee::broker {

class SlaveSynchronize {
 public:
  // `context`, `env` and `client` (started) must outlive this.
  SlaveSynchronize(BrokerContext* context, env::Env* env, remoting::RemotingClient* client);

  void SetMasterAddr(const std::string& addr);
  std::string master_addr() const;

  // Runs the four steps (each is attempted); errors name the step and the master.
  Status SyncAll();
  Status SyncTopicConfig();
  Status SyncConsumerOffset();
  Status SyncDelayOffset();
  Status SyncSubscriptionGroupConfig();

  // "host:port" of the remoting server for an HA address "host:haPort" (haPort - 1).
  static Result<std::string> RemotingAddrFromHaAddr(const std::string& ha_addr);

 private:
  Result<std::string> Fetch(int32_t code, const char* what);

  BrokerContext* context_;
  env::Env* env_;
  remoting::RemotingClient* client_;
  mutable std::mutex mu_;
  std::string master_addr_;  // guarded by mu_
  // The versions last taken from the master (sync thread only).
  std::optional<protocol::DataVersion> topics_version_;
  std::string groups_text_;
};

}  // namespace apogee::broker
