#include "broker/processors/send_pull_processors.h"

#include <memory>
#include <string>
#include <utility>

#include "base/logging.h"
#include "broker/broker_config.h"
#include "broker/broker_context.h"
#include "broker/stats/broker_stats_manager.h"
#include "broker/processors/consumer_manage_processor.h"
#include "broker/client/consumer_offset_manager.h"
#include "broker/processors/pull_message_processor.h"
#include "broker/longpolling/pull_request_hold_service.h"
#include "broker/processors/send_message_processor.h"
#include "env/env.h"
#include "protocol/request_code.h"
#include "remoting/remoting_server.h"
#include "store/message_store.h"

namespace apogee::broker {

namespace req = protocol::request_code;

namespace {

// The long-polling service of the main server, fed by the store's arrival notifications
// through the context's hook and started / stopped with the broker.
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
  context.message_arriving_hook = [weak = std::weak_ptr<PullRequestHoldService>(hold)](
                                      std::string_view topic, int32_t queue_id,
                                      int64_t next_queue_offset) {
    if (auto h = weak.lock()) h->NotifyMessageArriving(topic, queue_id, next_queue_offset);
  };
  context.AddStartHook([hold] {
    hold->Start();
    return Status::OK();
  });
  context.AddShutdownHook([hold] { hold->Shutdown(); });
  return hold;
}


}  // namespace

void RegisterSendPullProcessors(BrokerContext& context, remoting::RemotingServer& server) {
  RegisterSendPullProcessors(context, server, env::Env::Default());
}

void RegisterSendPullProcessors(BrokerContext& context, remoting::RemotingServer& server,
                                env::Env* env) {
  if (!context.consumer_offset_manager) {
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

  EnsureBrokerStats(context);
  auto send = std::make_shared<SendMessageProcessor>(&context);
  // Sends run inline on the connection's IO thread (no executor hop, issue 13) under every
  // flush type and role: the put only copies into mapped memory and never waits for the
  // disk or a slave. Under ASYNC_FLUSH the answer is queued with the other answers of the
  // same read and written once; under SYNC_FLUSH / SYNC_MASTER it is sent from the group
  // commit / replication callback once the bytes are durable / replicated, as before. (The
  // send pool, sendMessageThreadPoolNums, serves CONSUMER_SEND_MSG_BACK.) Measured: SYNC_FLUSH
  // publish with 256 in flight +20 % against the send pool (docs/benchmarks.md).
  server.RegisterProcessor(req::kSendMessage, send, nullptr);
  server.RegisterProcessor(req::kSendMessageV2, send, nullptr);
  server.RegisterProcessor(req::kSendBatchMessage, send, nullptr);

  auto manage = std::make_shared<ConsumerManageProcessor>(&context);
  server.RegisterProcessor(req::kQueryConsumerOffset, manage, context.executors.consumer_manage);
  server.RegisterProcessor(req::kUpdateConsumerOffset, manage, context.executors.consumer_manage);
  // Java answers these from the admin (default) processor.
  server.RegisterProcessor(req::kSearchOffsetByTimestamp, manage, context.executors.admin);
  server.RegisterProcessor(req::kGetMaxOffset, manage, context.executors.admin);
  server.RegisterProcessor(req::kGetMinOffset, manage, context.executors.admin);
  server.RegisterProcessor(req::kGetEarliestMsgStoretime, manage, context.executors.admin);

  if (!context.IsFastServer(server)) {
    // Java has one main server. Should a second one be registered, its pulls are answered
    // at once: the arrival hook already feeds the first one's hold service.
    std::shared_ptr<PullRequestHoldService> hold =
        context.message_arriving_hook ? nullptr : CreateHoldService(context);
    auto pull = std::make_shared<PullMessageProcessor>(&context, std::move(hold));
    server.RegisterProcessor(req::kPullMessage, pull, context.executors.pull);
    server.RegisterProcessor(req::kLitePullMessage, pull, context.executors.pull);
  }
}

}  // namespace apogee::broker
