// The broker calls of the offset store and rebalance, made through a ClientInstance: the
// master of a broker set from the instance's address table, refreshing the topic's route
// once when the address is unknown (as Java's RemoteBrokerOffsetStore and RebalanceImpl do).
#pragma once

#include <memory>
#include <string>

#include "client/client_instance.h"
#include "client/offset_store.h"
#include "client/offset_store_remote.h"
#include "client/rebalance_impl.h"

namespace apogee::client {

class ConsumerBrokerAccess final : public OffsetBrokerAccess, public RebalanceBrokerAccess {
 public:
  explicit ConsumerBrokerAccess(std::shared_ptr<ClientInstance> instance)
      : instance_(std::move(instance)) {}

  // The master address of `broker_name` (refreshing `topic`'s route once when unknown).
  // NotFound "The broker[B] not exist" otherwise.
  Result<std::string> MasterAddress(const std::string& broker_name, const std::string& topic);

  // OffsetBrokerAccess
  Result<int64_t> QueryConsumerOffset(const std::string& group,
                                      const protocol::MessageQueue& mq) override;
  Status UpdateConsumerOffset(const std::string& group, const protocol::MessageQueue& mq,
                              int64_t offset, bool oneway) override;

  // RebalanceBrokerAccess
  std::string ClientId() const override { return instance_->client_id(); }
  Result<std::vector<std::string>> FindConsumerIdList(const std::string& topic,
                                                      const std::string& group) override;
  Result<std::set<protocol::MessageQueue>> LockBatch(
      const std::string& broker_name, const std::string& group,
      const std::set<protocol::MessageQueue>& mqs) override;
  Status UnlockBatch(const std::string& broker_name, const std::string& group,
                     const std::set<protocol::MessageQueue>& mqs, bool oneway) override;

 private:
  std::shared_ptr<ClientInstance> instance_;
};

// Where a consumer starts on a newly owned queue (Java's RebalancePushImpl
// .computePullFromWhere; docs/protocol/store_ha.md §8.7): the stored offset when there is one;
// with none, LAST_OFFSET takes the queue's max offset (0 for a %RETRY% topic), FIRST_OFFSET
// 0, TIMESTAMP the offset found for `timestamp_ms` (max offset for a %RETRY% topic). -1 when
// the store or the broker could not answer (the caller retries later).
int64_t ComputeStartOffset(OffsetStore& store, ClientInstance& instance,
                           ConsumerBrokerAccess& access, const protocol::MessageQueue& mq,
                           protocol::ConsumeFromWhere from_where, int64_t timestamp_ms);

}  // namespace apogee::client
