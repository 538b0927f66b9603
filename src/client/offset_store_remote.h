// RemoteBrokerOffsetStore (Java's): CLUSTERING consumers keep their offsets on the broker
// that holds the queue. Reads ask QUERY_CONSUMER_OFFSET (14) when the offset is not in
// memory; writes are UPDATE_CONSUMER_OFFSET (15), one-way as Java sends them, from
// PersistAll every 5 s and at shutdown.
#pragma once

#include <memory>
#include <string>

#include "client/offset_store.h"
#include "client/offset_store_table.h"

namespace apogee::client {

// The broker calls the remote store makes; the consumer implements it over MQClientAPI
// and the client instance's broker address table (master of mq.broker_name, refreshing the
// route once when the address is unknown).
class OffsetBrokerAccess {
 public:
  virtual ~OffsetBrokerAccess() = default;
  // NotFound when the broker has no offset for the queue (QUERY_NOT_FOUND, 22).
  virtual Result<int64_t> QueryConsumerOffset(const std::string& group,
                                              const protocol::MessageQueue& mq) = 0;
  virtual Status UpdateConsumerOffset(const std::string& group, const protocol::MessageQueue& mq,
                                      int64_t offset, bool oneway) = 0;
};

class RemoteBrokerOffsetStore final : public OffsetStore {
 public:
  RemoteBrokerOffsetStore(std::string group, std::shared_ptr<OffsetBrokerAccess> broker);

  Status Load() override { return Status::OK(); }
  void UpdateOffset(const protocol::MessageQueue& mq, int64_t offset, bool increase_only) override;
  int64_t ReadOffset(const protocol::MessageQueue& mq, ReadOffsetType type) override;
  void PersistAll(const std::set<protocol::MessageQueue>& mqs) override;
  void Persist(const protocol::MessageQueue& mq) override;
  void RemoveOffset(const protocol::MessageQueue& mq) override;
  std::map<protocol::MessageQueue, int64_t> CloneOffsetTable(std::string_view topic) const override;
  Status UpdateConsumeOffsetToBroker(const protocol::MessageQueue& mq, int64_t offset,
                                     bool oneway) override;

 private:
  const std::string group_;
  std::shared_ptr<OffsetBrokerAccess> broker_;
  OffsetTable table_;
};

}  // namespace apogee::client
