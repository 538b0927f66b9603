#include "apogee/push_consumer.h"

#include "client/message_convert.h"
#include "client/push_consumer_impl.h"

namespace apogee {

PushConsumer::PushConsumer(PushConsumerConfig config)
    : impl_(std::make_shared<client::PushConsumerImpl>(std::move(config))) {}

PushConsumer::~PushConsumer() { impl_->Shutdown(); }

Status PushConsumer::Subscribe(const std::string& topic, const std::string& expression) {
  return impl_->Subscribe(topic, expression);
}

void PushConsumer::Unsubscribe(const std::string& topic) { impl_->Unsubscribe(topic); }

void PushConsumer::RegisterMessageListener(MessageListenerConcurrently listener) {
  impl_->RegisterMessageListener(std::move(listener));
}

void PushConsumer::RegisterMessageListener(MessageListenerOrderly listener) {
  impl_->RegisterMessageListener(std::move(listener));
}

Status PushConsumer::Start() { return impl_->Start(); }

void PushConsumer::Shutdown() { impl_->Shutdown(); }

void PushConsumer::Suspend() { impl_->Suspend(); }

void PushConsumer::Resume() { impl_->Resume(); }

std::string PushConsumer::client_id() const { return impl_->client_id(); }

std::set<MessageQueue> PushConsumer::AssignedQueues() const {
  std::set<MessageQueue> out;
  for (const auto& mq : impl_->AssignedQueues()) out.insert(client::ToPublicQueue(mq));
  return out;
}

}  // namespace apogee
