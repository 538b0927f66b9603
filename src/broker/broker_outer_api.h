// BrokerOuterAPI: the broker's calls to the NameServers (Java's BrokerOuterAPI):
// REGISTER_BROKER to every NameServer in parallel (RegisterBrokerBody JSON or its zlib
// form, bodyCrc32 = CRC32 & 0x7FFFFFFF over the exact body bytes) and UNREGISTER_BROKER
// at shutdown (docs/protocol/remoting.md §5.1.1, §5.1.2, §9.1).
//
// Thread-safety: every method may be called from any thread, except that the blocking
// calls (RegisterBrokerAll, UnregisterBrokerAll) must not run on the client's IO threads.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/signature.h"
#include "base/status.h"
#include "protocol/register_broker_body.h"
#include "protocol/remoting_command.h"
#include "protocol/topic_config.h"
#include "remoting/remoting_client.h"

namespace apogee::broker {

struct RegisterBrokerRequest {
  std::string cluster_name;
  std::string broker_addr;
  std::string broker_name;
  int64_t broker_id = 0;
  std::string ha_server_addr;
  protocol::TopicConfigSerializeWrapper topic_config_wrapper;
  std::vector<std::string> filter_server_list;
  bool compressed = false;  // compressedRegister
  std::chrono::milliseconds timeout{6000};
};

// One NameServer's answer.
struct RegisterOutcome {
  std::string namesrv_addr;
  Status status;                          // OK, or why this NameServer did not accept
  protocol::RegisterBrokerResult result;  // valid when status is OK
};

class BrokerOuterAPI {
 public:
  // `options` carry TLS (tls.enable) for the NameServer connections and the ACL signing
  // hook (NameServers with aclEnable accept registrations only from an admin account).
  explicit BrokerOuterAPI(remoting::RemotingClientOptions options = {});
  ~BrokerOuterAPI();  // Shutdown()
  BrokerOuterAPI(const BrokerOuterAPI&) = delete;
  BrokerOuterAPI& operator=(const BrokerOuterAPI&) = delete;

  void Start();
  void Shutdown();

  void UpdateNameServerAddressList(std::vector<std::string> addrs);
  std::vector<std::string> NameServerAddressList() const;

  // The REGISTER_BROKER command sent to each NameServer (identical for all of them).
  static protocol::RemotingCommand BuildRegisterRequest(const RegisterBrokerRequest& request);

  // Sends REGISTER_BROKER to every NameServer at once and waits until each has answered
  // or timed out. One outcome per NameServer, in list order.
  std::vector<RegisterOutcome> RegisterBrokerAll(const RegisterBrokerRequest& request);

  // UNREGISTER_BROKER to every NameServer at once; one Status per NameServer, in order.
  std::vector<Status> UnregisterBrokerAll(const std::string& cluster_name,
                                          const std::string& broker_addr,
                                          const std::string& broker_name, int64_t broker_id,
                                          std::chrono::milliseconds timeout);

 private:
  // Sends `request` to every address in parallel; `handle` turns each reply into a Status.
  struct Reply {
    Status status;
    protocol::RemotingCommand response;
  };
  std::vector<Reply> InvokeAll(const std::vector<std::string>& addrs,
                               const protocol::RemotingCommand& request,
                               std::chrono::milliseconds timeout);

  std::unique_ptr<remoting::RemotingClient> client_;
  mutable std::mutex mu_;
  std::vector<std::string> namesrv_addrs_;  // guarded by mu_
};

}  // namespace apogee::broker
