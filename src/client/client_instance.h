// ClientInstance: everything producers and consumers of one client id share (Java's
// MQClientInstance + MQClientManager). The client id is clientIP@instanceName[@unitName];
// GetOrCreate returns the same instance for the same id, so two producers (or a producer
// and a consumer) with the same id share connections, the route cache and one heartbeat.
//
// What it runs once started:
//  * route refresh from a NameServer every pollNameServerInterval (30 s) for every topic in
//    use (producers' topics in the route table, consumers' subscriptions), updating the
//    broker address table, the publish info cache and consumers' subscribe info;
//  * a heartbeat (HEART_BEAT with every producer group and consumer's subscriptions) to
//    every master every heartbeatBrokerInterval (30 s), to slaves too when a consumer is
//    registered, and at once on each registration;
//  * offset persistence (ConsumerInner::PersistConsumerOffset) every 5 s;
//  * a rebalance thread calling ConsumerInner::DoRebalance every 20 s and at once on
//    NOTIFY_CONSUMER_IDS_CHANGED (RebalanceImmediately);
//  * handlers for broker-initiated requests: NOTIFY_CONSUMER_IDS_CHANGED,
//    CHECK_TRANSACTION_STATE (to the producer named by the half message's PGROUP),
//    RESET_CONSUMER_CLIENT_OFFSET, GET_CONSUMER_RUNNING_INFO, CONSUME_MESSAGE_DIRECTLY.
//
// Lifetime: producers/consumers hold a shared_ptr. Start() is idempotent; Shutdown() stops
// everything only when no producer or consumer is registered any more, and removes the
// instance from the registry.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "apogee/client_config.h"
#include "apogee/message_queue.h"
#include "base/status.h"
#include "client/consumer_inner.h"
#include "client/mq_client_api.h"
#include "client/producer_inner.h"
#include "client/topic_publish_info.h"
#include "protocol/route_data.h"

namespace apogee::client {

struct FindBrokerResult {
  std::string broker_addr;
  bool slave = false;
};

class ClientInstance : public std::enable_shared_from_this<ClientInstance> {
 public:
  // clientIP@instanceName[@unitName], with the IP picked as Java does when config.client_ip
  // is empty.
  static std::string BuildClientId(const ClientConfig& config);
  // Java's tls.* client settings from ClientConfig's tls_* fields (before tls.config.file).
  static TlsConfig TlsFromClientConfig(const ClientConfig& config);
  // The process id, what Java puts in place of instanceName "DEFAULT".
  static std::string PidInstanceName();
  // The instance for `config`'s client id; created (not started) on first use.
  // InvalidArgument when namesrv_addr (or $NAMESRV_ADDR) is empty or malformed.
  static Result<std::shared_ptr<ClientInstance>> GetOrCreate(const ClientConfig& config);

  ~ClientInstance();
  ClientInstance(const ClientInstance&) = delete;
  ClientInstance& operator=(const ClientInstance&) = delete;

  const std::string& client_id() const { return client_id_; }
  const ClientConfig& config() const { return config_; }
  MQClientAPI& api() { return api_; }
  std::chrono::milliseconds api_timeout() const {
    return std::chrono::milliseconds(config_.mq_client_api_timeout_ms);
  }

  // Starts the API and the service threads. Idempotent.
  Status Start();
  // Stops everything when no producer or consumer is registered. Idempotent.
  void Shutdown();

  // AlreadyExists "producer group G already registered in client C" when taken.
  Status RegisterProducer(const std::string& group, ProducerInner* producer);
  // Also sends UNREGISTER_CLIENT for the group to every broker.
  void UnregisterProducer(const std::string& group);
  Status RegisterConsumer(const std::string& group, ConsumerInner* consumer);
  void UnregisterConsumer(const std::string& group);

  // ---- routes ----
  // Fetches `topic`'s route and applies it when it changed. With `is_default`, fetches
  // TBW102's route instead and uses it for `topic` with at most `default_queue_nums`
  // queues per broker (Java's sending to a topic the broker will auto-create).
  Status UpdateTopicRouteInfoFromNameServer(const std::string& topic, bool is_default = false,
                                            int32_t default_queue_nums = 4);
  // The cached publish info of `topic`, fetching the route when there is none (then via
  // TBW102 when the topic itself has no route). NotFound "No route info of this topic: T,
  // NameServers asked: a, b" when there is none at all.
  Result<std::shared_ptr<const TopicPublishInfo>> TryToFindTopicPublishInfo(
      const std::string& topic, int32_t default_queue_nums = 4);
  // Changes whenever a route or a broker address is applied. A sender that read it before a
  // lookup may reuse what it found while it is unchanged, without asking again: the async
  // send path looks up no route and no address per message (acquire; any thread).
  uint64_t RouteVersion() const { return route_version_.load(std::memory_order_acquire); }
  // The cached route, if any.
  std::optional<protocol::TopicRouteData> GetTopicRouteData(const std::string& topic) const;
  // The readable queues of `topic` from a fresh route (pull consumers' fetchSubscribeMessageQueues).
  Result<std::set<protocol::MessageQueue>> FetchSubscribeMessageQueues(const std::string& topic);

  // ---- broker addresses ----
  // The master address of `broker_name`.
  std::optional<std::string> FindBrokerAddressInPublish(std::string_view broker_name) const;
  // `broker_id`'s address; when absent and !only_this_broker, any address of the set
  // (the lowest id, so the master when it is up).
  std::optional<FindBrokerResult> FindBrokerAddressInSubscribe(std::string_view broker_name,
                                                               int64_t broker_id,
                                                               bool only_this_broker) const;
  // Any address of the set, master first.
  std::optional<FindBrokerResult> FindBrokerAddressInAdmin(std::string_view broker_name) const;
  // An address of one broker of `topic` (its route's first broker set, master preferred).
  std::optional<std::string> FindBrokerAddrByTopic(const std::string& topic) const;
  // GET_CONSUMER_LIST_BY_GROUP from a broker of `topic`.
  Result<std::vector<std::string>> FindConsumerIdList(const std::string& topic,
                                                      const std::string& group);

  // ---- periodic work, also callable directly ----
  void SendHeartbeatToAllBrokers();
  void UpdateTopicRouteInfoFromNameServer();  // every topic in use
  void PersistAllConsumerOffset();
  void DoRebalance();
  void RebalanceImmediately();

 private:
  class Scheduler;
  class RebalanceService;

  ClientInstance(ClientConfig config, std::string client_id, TlsConfig tls);
  void RegisterServerRequestHandlers();
  void ApplyRoute(const std::string& topic, const protocol::TopicRouteData& route);
  protocol::HeartbeatData PrepareHeartbeatData() const;
  std::vector<ConsumerInner*> Consumers() const;
  ProducerInner* FindProducer(std::string_view group) const;
  ConsumerInner* FindConsumer(std::string_view group) const;
  bool Unused() const;

  const ClientConfig config_;
  const std::string client_id_;
  MQClientAPI api_;

  mutable std::mutex mu_;
  bool started_ = false;                                     // guarded by mu_
  std::map<std::string, ProducerInner*, std::less<>> producers_;  // guarded by mu_
  std::map<std::string, ConsumerInner*, std::less<>> consumers_;  // guarded by mu_
  std::map<std::string, protocol::TopicRouteData> route_table_;   // guarded by mu_
  std::map<std::string, std::shared_ptr<const TopicPublishInfo>> publish_info_;  // guarded by mu_
  // broker name -> (broker id -> address), from every route seen.
  std::map<std::string, std::map<int64_t, std::string>, std::less<>> broker_addr_table_;
  // Raised (under mu_) each time publish_info_ or broker_addr_table_ changes.
  std::atomic<uint64_t> route_version_{1};

  // Serializes route fetches so concurrent senders do not all ask the NameServer.
  std::mutex route_update_mu_;
  // Serializes heartbeats (scheduler vs registrations).
  std::mutex heartbeat_mu_;
  // Held shared while the instance's threads call into producers and consumers, and
  // exclusively by Unregister*, so that once Unregister* returns no such call is in flight.
  mutable std::shared_mutex inner_use_mu_;

  std::unique_ptr<Scheduler> scheduler_;
  std::unique_ptr<RebalanceService> rebalance_;
};

}  // namespace apogee::client
