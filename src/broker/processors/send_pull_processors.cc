#include "broker/processors/send_pull_processors.h"

#include <memory>
#include <string>
#include <utility>

#include "base/logging.h"
#include "broker/broker_config.h"
#include "broker/broker_context.h"
#include "broker/processors/consumer_manage_processor.h"
#include "broker/client/consumer_offset_manager.h"
#include "broker/processors/processor_table.h"
#include "broker/processors/pull_message_processor.h"
#include "broker/longpolling/pull_request_hold_service.h"
#include "broker/processors/send_message_processor.h"
#include "env/env.h"
#include "store/message_store.h"

namespace apogee::broker {

namespace {

// The long-polling service of the main server, fed by the store's arrival notifications
// through the context's arrival observers and started / stopped with the broker.
std::shared_ptr<PullRequestHoldService> CreateHoldService(BrokerContext& context) {
  const auto settings = context.config->Get();
  PullRequestHoldOptions options;
  options.long_polling_enable = settings->long_polling_enable;
  options.short_polling_time_ms = settings->short_polling_time_mills;
  options.max_held_requests = static_cast<size_t>(settings->pull_hold_max_requests);
  options.max_held_bytes = static_cast<uint64_t>(settings->pull_hold_max_bytes);
  store::MessageStore* store = context.store;
  auto hold = std::make_shared<PullRequestHoldService>(
      Clock::Real(),
      [store](std::string_view topic, int32_t queue_id) {
        return store->GetMaxOffsetInQueue(topic, queue_id);
      },
      context.executors.pull, options);
  context.arrival_observers.Add(
      "PullRequestHoldService",
      [weak = std::weak_ptr<PullRequestHoldService>(hold)](
          std::string_view topic, int32_t queue_id, int64_t next_queue_offset) {
        if (auto h = weak.lock()) h->NotifyMessageArriving(topic, queue_id, next_queue_offset);
      });
  context.AddStartHook([hold] {
    hold->Start();
    return Status::OK();
  });
  context.AddShutdownHook([hold] { hold->Shutdown(); });
  return hold;
}

}  // namespace

void CreateSendPullProcessors(BrokerContext& context, BrokerProcessors* out, env::Env* env) {
  {
    const auto settings = context.config->Get();
    auto offsets = std::make_shared<ConsumerOffsetManager>(
        env, settings->ConfigDir() + "/consumerOffset.json");
    context.consumer_offset_manager = offsets;
    const int64_t interval = settings->flush_consumer_offset_interval;
    context.AddStartHook([offsets, interval, ctx = &context] {
      APOGEE_RETURN_IF_ERROR(offsets->Load());
      offsets->StartPeriodicPersist(interval, ctx->scheduler);
      return Status::OK();
    });
    context.AddShutdownHook([offsets] {
      Status s = offsets->Shutdown();
      if (!s.ok()) GetLogger("broker")->error("consumer offsets not persisted at shutdown: {}", s.ToString());
    });
  }

  out->send = std::make_shared<SendMessageProcessor>(&context);
  out->consumer_manage = std::make_shared<ConsumerManageProcessor>(&context);
  // Pulls are served by the main port only (processor_table.h); its hold service is the
  // broker's one long-polling service.
  out->pull = std::make_shared<PullMessageProcessor>(&context, CreateHoldService(context));
}

}  // namespace apogee::broker
