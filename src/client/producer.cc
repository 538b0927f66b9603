// Implements include/apogee/producer.h: a thin facade over client::ProducerImpl.
#include "apogee/producer.h"

#include <cstdlib>

#include "base/java_hash.h"
#include "client/producer_impl.h"

namespace apogee {

const MessageQueue& SelectMessageQueueByHash(const std::vector<MessageQueue>& mqs,
                                             std::string_view key) {
  // Java: int value = arg.hashCode() % mqs.size(); if (value < 0) value = Math.abs(value);
  int32_t value = JavaStringHashCode(key) % static_cast<int32_t>(mqs.size());
  if (value < 0) value = -value;
  return mqs[static_cast<size_t>(value)];
}

Producer::Producer(ProducerConfig config) : impl_(std::make_shared<Impl>(std::move(config))) {}

Producer::~Producer() { Shutdown(); }

Status Producer::Start() { return impl_->core->Start(); }

void Producer::Shutdown() { impl_->core->Shutdown(); }

const ProducerConfig& Producer::config() const { return impl_->core->config(); }

Result<SendResult> Producer::Send(const Message& msg) { return impl_->core->Send(msg); }

Result<SendResult> Producer::Send(const Message& msg, const MessageQueue& mq) {
  return impl_->core->SendToQueue(msg, mq);
}

Result<SendResult> Producer::Send(const Message& msg, const MessageQueueSelector& selector) {
  return impl_->core->SendSelect(msg, selector);
}

Result<SendResult> Producer::SendOrderly(const Message& msg, std::string_view sharding_key) {
  std::string key(sharding_key);
  return impl_->core->SendSelect(
      msg, [key](const std::vector<MessageQueue>& mqs, const Message&) {
        return SelectMessageQueueByHash(mqs, key);
      });
}

Result<SendResult> Producer::Send(const std::vector<Message>& batch) {
  return impl_->core->SendBatch(batch, nullptr);
}

Result<SendResult> Producer::Send(const std::vector<Message>& batch, const MessageQueue& mq) {
  return impl_->core->SendBatch(batch, &mq);
}

void Producer::SendAsync(const Message& msg, SendCallback callback) {
  impl_->core->SendAsync(msg, nullptr, nullptr, std::move(callback));
}

void Producer::SendAsync(const Message& msg, const MessageQueue& mq, SendCallback callback) {
  impl_->core->SendAsync(msg, &mq, nullptr, std::move(callback));
}

void Producer::SendAsync(const Message& msg, const MessageQueueSelector& selector,
                         SendCallback callback) {
  impl_->core->SendAsync(msg, nullptr, &selector, std::move(callback));
}

Status Producer::SendOneway(const Message& msg) { return impl_->core->SendOneway(msg, nullptr); }

Status Producer::SendOneway(const Message& msg, const MessageQueue& mq) {
  return impl_->core->SendOneway(msg, &mq);
}

Result<std::vector<MessageQueue>> Producer::FetchPublishMessageQueues(const std::string& topic) {
  return impl_->core->FetchPublishMessageQueues(topic);
}

}  // namespace apogee
