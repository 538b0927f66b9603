#include "client/consumer_broker_access.h"

namespace apogee::client {

Result<std::string> ConsumerBrokerAccess::MasterAddress(const std::string& broker_name,
                                                        const std::string& topic) {
  auto found = instance_->FindBrokerAddressInSubscribe(broker_name, kMasterId, true);
  if (!found) {
    (void)instance_->UpdateTopicRouteInfoFromNameServer(topic);
    found = instance_->FindBrokerAddressInSubscribe(broker_name, kMasterId, true);
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

Result<std::set<protocol::MessageQueue>> ConsumerBrokerAccess::LockBatch(const std::string& broker_name,
                                                               const std::string& group,
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

}  // namespace apogee::client
