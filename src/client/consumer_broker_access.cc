#include "client/consumer_broker_access.h"

#include "base/logging.h"
#include "client/consumer_subscription.h"
#include "protocol/mix_all.h"

namespace apogee::client {

Result<std::string> ConsumerBrokerAccess::MasterAddress(const std::string& broker_name,
                                                        const std::string& topic) {
  auto found = instance_->FindBrokerAddressInSubscribe(broker_name, protocol::kMasterId, true);
  if (!found) {
    (void)instance_->UpdateTopicRouteInfoFromNameServer(topic);
    found = instance_->FindBrokerAddressInSubscribe(broker_name, protocol::kMasterId, true);
  }
  if (!found) return Status::NotFound("The broker[" + broker_name + "] not exist");
  return found->broker_addr;
}

Result<int64_t> ConsumerBrokerAccess::QueryConsumerOffset(const std::string& group,
                                                          const protocol::MessageQueue& mq) {
  APOGEE_ASSIGN_OR_RETURN(std::string addr, MasterAddress(mq.broker_name, mq.topic));
  protocol::QueryConsumerOffsetRequestHeader header;
  header.consumer_group = group;
  header.topic = mq.topic;
  header.queue_id = mq.queue_id;
  return instance_->api().QueryConsumerOffset(addr, header, instance_->api_timeout());
}

Status ConsumerBrokerAccess::UpdateConsumerOffset(const std::string& group,
                                                  const protocol::MessageQueue& mq, int64_t offset,
                                                  bool oneway) {
  APOGEE_ASSIGN_OR_RETURN(std::string addr, MasterAddress(mq.broker_name, mq.topic));
  protocol::UpdateConsumerOffsetRequestHeader header;
  header.consumer_group = group;
  header.topic = mq.topic;
  header.queue_id = mq.queue_id;
  header.commit_offset = offset;
  if (oneway) {
    return instance_->api().UpdateConsumerOffsetOneway(addr, header, instance_->api_timeout());
  }
  return instance_->api().UpdateConsumerOffset(addr, header, instance_->api_timeout());
}

Result<std::vector<std::string>> ConsumerBrokerAccess::FindConsumerIdList(
    const std::string& topic, const std::string& group) {
  return instance_->FindConsumerIdList(topic, group);
}

Result<std::set<protocol::MessageQueue>> ConsumerBrokerAccess::LockBatch(
    const std::string& broker_name, const std::string& group,
    const std::set<protocol::MessageQueue>& mqs) {
  if (mqs.empty()) return std::set<protocol::MessageQueue>{};
  APOGEE_ASSIGN_OR_RETURN(std::string addr, MasterAddress(broker_name, mqs.begin()->topic));
  protocol::LockBatchRequestBody body;
  body.consumer_group = group;
  body.client_id = instance_->client_id();
  body.mq_set = mqs;
  return instance_->api().LockBatchMQ(addr, body, instance_->api_timeout());
}

Status ConsumerBrokerAccess::UnlockBatch(const std::string& broker_name, const std::string& group,
                                         const std::set<protocol::MessageQueue>& mqs, bool oneway) {
  if (mqs.empty()) return Status::OK();
  APOGEE_ASSIGN_OR_RETURN(std::string addr, MasterAddress(broker_name, mqs.begin()->topic));
  protocol::UnlockBatchRequestBody body;
  body.consumer_group = group;
  body.client_id = instance_->client_id();
  body.mq_set = mqs;
  return instance_->api().UnlockBatchMQ(addr, body, instance_->api_timeout(), oneway);
}

int64_t ComputeStartOffset(OffsetStore& store, ClientInstance& instance,
                           ConsumerBrokerAccess& access, const protocol::MessageQueue& mq,
                           protocol::ConsumeFromWhere from_where, int64_t timestamp_ms) {
  const int64_t stored = store.ReadOffset(mq, ReadOffsetType::kReadFromStore);
  if (stored >= 0) return stored;
  if (stored != kOffsetNotFound) return -1;  // the store failed: try again next round
  const bool retry = protocol::IsRetryTopic(mq.topic);
  Result<std::string> addr = access.MasterAddress(mq.broker_name, mq.topic);
  if (!addr.ok()) return -1;
  auto answer = [&](Result<int64_t> r, const char* what) -> int64_t {
    if (r.ok()) return *r;
    GetLogger("client")->warn("{} of {}: {}", what, protocol::ToString(mq), r.status().ToString());
    return -1;
  };
  switch (from_where) {
    case protocol::ConsumeFromWhere::kConsumeFromFirstOffset:
      return 0;
    case protocol::ConsumeFromWhere::kConsumeFromTimestamp:
      if (retry) {
        return answer(
            instance.api().GetMaxOffset(*addr, mq.topic, mq.queue_id, instance.api_timeout()),
            "max offset");
      }
      return answer(instance.api().SearchOffset(*addr, mq.topic, mq.queue_id, timestamp_ms,
                                                instance.api_timeout()),
                    "search offset");
    default:
      break;
  }
  if (retry) return 0;
  return answer(instance.api().GetMaxOffset(*addr, mq.topic, mq.queue_id, instance.api_timeout()),
                "max offset");
}

}  // namespace apogee::client
