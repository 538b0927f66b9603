// RouteInfoManager: the NameServer's route registry (mirrors Java's RouteInfoManager).
// Five tables, all behind one reader/writer lock:
//   topic queues     topic -> broker name -> QueueData
//   broker addresses broker name -> BrokerData {cluster, id -> address}
//   clusters         cluster -> broker names
//   broker liveness  (cluster, broker address) -> last update, timeout, data version,
//                    connection, HA address
//   filter servers   (cluster, broker address) -> filter server addresses
// Brokers register every 30 s; one unseen for its timeout (120 s by default) is removed by
// ScanNotActiveBroker(), and one whose connection closes is removed by OnChannelDestroy().
//
// Thread-safety: every method is safe from any thread. Queries take the lock shared.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "base/status.h"
#include "namesrv/route_types.h"
#include "protocol/route_data.h"
#include "protocol/topic_list.h"

namespace apogee::namesrv {

class RouteInfoManager {
 public:
  // `clock` must outlive the manager. `default_timeout_millis` applies to brokers whose
  // registration names no heartbeatTimeoutMillis.
  RouteInfoManager(Clock* clock, int64_t default_timeout_millis);
  RouteInfoManager(const RouteInfoManager&) = delete;
  RouteInfoManager& operator=(const RouteInfoManager&) = delete;

  void set_default_timeout_millis(int64_t millis);

  // REGISTER_BROKER. Queue data is taken from the topic configs only for a master, and
  // only on its first registration or when its data version changed. A slave gets its
  // master's address and HA address when the master is registered and alive.
  RegisterBrokerOutcome RegisterBroker(const BrokerRegistration& reg);

  // REGISTER_TOPIC_IN_NAMESRV (5.x): adds or replaces the topic's queue data for each
  // broker named. InvalidArgument naming the broker, and nothing changed, when one of
  // them is not registered.
  Status RegisterTopic(const std::string& topic,
                       const std::vector<protocol::QueueData>& queue_datas);

  // UNREGISTER_BROKER: drops the address; when the broker name has no address left, its
  // queue data leaves every topic and its name leaves the cluster.
  void UnregisterBroker(const std::string& cluster_name, const std::string& broker_addr,
                        const std::string& broker_name, int64_t broker_id);

  // GET_ROUTEINFO_BY_TOPIC: nullopt unless the topic has queue data and at least one of
  // its brokers is known (Java answers TOPIC_NOT_EXIST then).
  std::optional<protocol::TopicRouteData> GetTopicRoute(const std::string& topic) const;

  protocol::ClusterInfo GetClusterInfo() const;
  std::vector<std::string> GetAllTopics() const;
  std::vector<std::string> GetTopicsByCluster(const std::string& cluster) const;
  // Java's getSystemTopicList: every cluster name and broker name (each is a topic on the
  // broker), with the address of one broker.
  protocol::TopicList GetSystemTopicList() const;
  std::vector<std::string> GetUnitTopics() const;
  std::vector<std::string> GetHasUnitSubTopics() const;
  std::vector<std::string> GetHasUnitSubUnUnitTopics() const;

  // WIPE_WRITE_PERM_OF_BROKER / ADD_WRITE_PERM_OF_BROKER: the number of topics touched.
  int32_t WipeWritePermOfBroker(const std::string& broker_name);
  int32_t AddWritePermOfBroker(const std::string& broker_name);

  // DELETE_TOPIC_IN_NAMESRV; with a cluster, only that cluster's brokers lose the topic.
  void DeleteTopic(const std::string& topic, const std::optional<std::string>& cluster_name);

  // QUERY_DATA_VERSION support: true when nothing is recorded for the broker or its
  // recorded data version differs.
  bool IsBrokerTopicConfigChanged(const std::string& cluster_name, const std::string& broker_addr,
                                  const protocol::DataVersion& version) const;
  std::optional<protocol::DataVersion> QueryBrokerDataVersion(const std::string& cluster_name,
                                                              const std::string& broker_addr) const;
  // Refreshes a live broker's last-update time (no-op when the broker is unknown).
  void UpdateBrokerInfoUpdateTimestamp(const std::string& cluster_name,
                                       const std::string& broker_addr);

  // Removes every broker whose last update is older than its timeout and returns the
  // connections they used, for the caller to close.
  std::vector<ChannelId> ScanNotActiveBroker();
  // A connection closed: every broker registered over it is removed at once.
  void OnChannelDestroy(ChannelId channel);

  size_t LiveBrokerCount() const;

 private:
  using BrokerAddrKey = std::pair<std::string, std::string>;  // (cluster, broker address)

  struct BrokerLiveInfo {
    int64_t last_update_millis = 0;
    int64_t timeout_millis = 0;
    protocol::DataVersion data_version;
    ChannelId channel = 0;
    std::string ha_server_addr;
  };

  // Drops the liveness and filter entries of `key` and its address from every broker
  // set of that cluster, then cleans up empty broker sets, clusters and topics.
  void RemoveBrokerAddrLocked(const BrokerAddrKey& key);
  void RemoveBrokerNamesLocked(const std::set<std::string>& broker_names);
  int32_t OperateWritePermLocked(const std::string& broker_name, bool wipe);
  template <typename Pred>
  std::vector<std::string> TopicsWhereFirstQueue(Pred pred) const;

  Clock* const clock_;
  mutable std::shared_mutex mu_;
  int64_t default_timeout_millis_;  // guarded by mu_
  std::map<std::string, std::map<std::string, protocol::QueueData>> topic_queue_table_;  // mu_
  std::map<std::string, protocol::BrokerData> broker_addr_table_;                        // mu_
  std::map<std::string, std::set<std::string>> cluster_addr_table_;              // mu_
  std::map<BrokerAddrKey, BrokerLiveInfo> broker_live_table_;                    // mu_
  std::map<BrokerAddrKey, std::vector<std::string>> filter_server_table_;        // mu_
};

}  // namespace apogee::namesrv
