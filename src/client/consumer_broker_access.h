// The broker calls of the offset store and rebalance, made through a ClientInstance: the
// master of a broker set from the instance's address table, refreshing the topic's route
// once when the address is unknown (as Java's RemoteBrokerOffsetStore and RebalanceImpl do).
#pragma once

#include <memory>
#include <string>

#include "client/client_instance.h"
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
  Result<int64_t> QueryConsumerOffset(const std::string& group, const protocol::MessageQueue& mq) override;
  Status UpdateConsumerOffset(const std::string& group, const protocol::MessageQueue& mq, int64_t offset,
                              bool oneway) override;

  // RebalanceBrokerAccess
  std::string ClientId() const override { return instance_->client_id(); }
  Result<std::vector<std::string>> FindConsumerIdList(const std::string& topic,
                                                      const std::string& group) override;
  Result<std::set<protocol::MessageQueue>> LockBatch(const std::string& broker_name,
                                           const std::string& group,
                                           const std::set<protocol::MessageQueue>& mqs) override;
  Status UnlockBatch(const std::string& broker_name, const std::string& group,
                     const std::set<protocol::MessageQueue>& mqs, bool oneway) override;

 private:
  std::shared_ptr<ClientInstance> instance_;
};

}  // namespace apogee::client
