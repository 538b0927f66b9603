#include "apogee/lite_pull_consumer.h"

#include "client/lite_pull_consumer_impl.h"
#include "client/message_convert.h"

namespace apogee {
namespace {
std::vector<protocol::MessageQueue> ToProtocol(const std::vector<MessageQueue>& queues) {
  std::vector<protocol::MessageQueue> out;
  for (const auto& mq : queues) out.push_back(client::ToProtocolQueue(mq));
  return out;
}
}  // namespace

LitePullConsumer::LitePullConsumer(LitePullConsumerConfig config)
    : impl_(std::make_shared<client::LitePullConsumerImpl>(std::move(config))) {}
LitePullConsumer::~LitePullConsumer() { impl_->Shutdown(); }
Status LitePullConsumer::Subscribe(const std::string& topic, const std::string& expression) {
  return impl_->Subscribe(topic, expression);
}
Status LitePullConsumer::Assign(const std::vector<MessageQueue>& queues) {
  return impl_->Assign(ToProtocol(queues));
}
Status LitePullConsumer::Start() { return impl_->Start(); }
void LitePullConsumer::Shutdown() { impl_->Shutdown(); }
std::vector<MessageExt> LitePullConsumer::Poll(int64_t timeout_ms) {
  return impl_->Poll(timeout_ms);
}
Status LitePullConsumer::Seek(const MessageQueue& mq, int64_t offset) {
  return impl_->Seek(client::ToProtocolQueue(mq), offset);
}
Status LitePullConsumer::SeekToBegin(const MessageQueue& mq) {
  APOGEE_ASSIGN_OR_RETURN(int64_t min, impl_->MinOrMaxOffset(client::ToProtocolQueue(mq), false));
  return Seek(mq, min);
}
Status LitePullConsumer::SeekToEnd(const MessageQueue& mq) {
  APOGEE_ASSIGN_OR_RETURN(int64_t max, impl_->MinOrMaxOffset(client::ToProtocolQueue(mq), true));
  return Seek(mq, max);
}
void LitePullConsumer::Pause(const std::vector<MessageQueue>& queues) {
  impl_->SetPaused(ToProtocol(queues), true);
}
void LitePullConsumer::Resume(const std::vector<MessageQueue>& queues) {
  impl_->SetPaused(ToProtocol(queues), false);
}
Status LitePullConsumer::CommitSync() { return impl_->CommitSync(); }
Result<int64_t> LitePullConsumer::Committed(const MessageQueue& mq) {
  return impl_->Committed(client::ToProtocolQueue(mq));
}
Result<std::vector<MessageQueue>> LitePullConsumer::FetchMessageQueues(const std::string& topic) {
  APOGEE_ASSIGN_OR_RETURN(auto mqs, impl_->FetchMessageQueues(topic));
  std::vector<MessageQueue> out;
  for (const auto& mq : mqs) out.push_back(client::ToPublicQueue(mq));
  return out;
}
std::set<MessageQueue> LitePullConsumer::Assignment() const {
  std::set<MessageQueue> out;
  for (const auto& mq : impl_->Assignment()) out.insert(client::ToPublicQueue(mq));
  return out;
}

}  // namespace apogee
