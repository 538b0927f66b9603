#include "broker/broker_services.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "base/logging.h"
#include "base/scheduler.h"
#include "broker/broker_config.h"
#include "broker/broker_context.h"
#include "broker/client/broker_to_client.h"
#include "broker/client/client_housekeeping.h"
#include "broker/client/consumer_manager.h"
#include "broker/client/consumer_offset_manager.h"
#include "broker/client/producer_manager.h"
#include "broker/longpolling/pull_request_hold_service.h"
#include "broker/message_arrival_observers.h"
#include "broker/schedule/delay_offset_table.h"
#include "broker/schedule/schedule_message_service.h"
#include "broker/schedule/timer_message_service.h"
#include "broker/subscription_group_manager.h"
#include "broker/transaction/transaction_check_service.h"
#include "broker/transaction/transactional_message_service.h"
#include "protocol/system_topics.h"
#include "store/delay_level_table.h"
#include "store/message_store.h"

namespace apogee::broker {
namespace {

std::shared_ptr<spdlog::logger> Log() { return GetLogger("broker"); }

// Java's DefaultConsumerIdsChangeListener (real-time mode): tells every member of a
// changed group to rebalance, when the broker's and the group's
// notifyConsumerIdsChangedEnable allow it.
class NotifyConsumersListener : public ConsumerIdsChangeListener {
 public:
  NotifyConsumersListener(const BrokerConfig* config, SubscriptionGroupManager* groups)
      : config_(config), groups_(groups) {}

  void OnConsumerIdsChanged(const std::string& group,
                            const std::vector<remoting::ChannelPtr>& channels) override {
    if (!config_->Get()->notify_consumer_ids_changed_enable) return;
    // Select, not Find: a notification must not create the group.
    std::optional<SubscriptionGroupConfig> group_config =
        groups_->SelectSubscriptionGroupConfig(group);
    if (group_config && !group_config->notify_consumer_ids_changed_enable) return;
    for (const remoting::ChannelPtr& channel : channels) {
      // Members whose connection is already closing (broker shutdown) cannot rebalance.
      if (channel->IsActive()) NotifyConsumerIdsChanged(channel, group);
    }
  }

 private:
  const BrokerConfig* config_;
  SubscriptionGroupManager* groups_;
};

message::HostAddress StoreHostOf(const BrokerContext& context) {
  Result<message::HostAddress> host = message::HostAddress::Parse(context.broker_addr);
  if (host.ok()) return *host;
  const int32_t port = context.config->Get()->listen_port;
  GetLogger("transaction")
      ->error("broker address '{}' is not ip:port ({}); transaction records use 127.0.0.1:{}",
              context.broker_addr, host.status().ToString(), port);
  return message::HostAddress::IPv4(127, 0, 0, 1, port);
}

}  // namespace

BrokerServices::BrokerServices() = default;
BrokerServices::~BrokerServices() = default;

Status BrokerServices::Build(BrokerContext& context, env::Env* env) {
  BuildClients(context);
  BuildOffsets(context, env);
  BuildLongPolling(context);
  APOGEE_RETURN_IF_ERROR(BuildSchedule(context, env));
  BuildTransactions(context);
  return Status::OK();
}

void BrokerServices::BuildClients(BrokerContext& context) {
  auto listener = std::make_shared<NotifyConsumersListener>(context.config,
                                                            context.subscription_group_manager);
  consumers = std::make_shared<ConsumerManager>(Clock::Real(), listener);
  producers = std::make_shared<ProducerManager>(Clock::Real());
  // One instance listens to both servers' channels; its scan runs once per broker.
  client_housekeeping = std::make_shared<ClientHousekeeping>(consumers.get(), producers.get());
  context.consumer_manager = consumers;
  context.producer_manager = producers;
}

void BrokerServices::BuildOffsets(BrokerContext& context, env::Env* env) {
  const auto settings = context.config->Get();
  consumer_offsets = std::make_shared<ConsumerOffsetManager>(
      env, settings->ConfigDir() + "/consumerOffset.json");
  consumer_offset_flush_interval_ms = settings->flush_consumer_offset_interval;
  context.consumer_offset_manager = consumer_offsets;
}

void BrokerServices::BuildLongPolling(const BrokerContext& context) {
  const auto settings = context.config->Get();
  PullRequestHoldOptions options;
  options.long_polling_enable = settings->long_polling_enable;
  options.short_polling_time_ms = settings->short_polling_time_mills;
  options.max_held_requests = static_cast<size_t>(settings->pull_hold_max_requests);
  options.max_held_bytes = static_cast<uint64_t>(settings->pull_hold_max_bytes);
  store::MessageStore* store = context.store;
  pull_hold = std::make_shared<PullRequestHoldService>(
      Clock::Real(),
      [store](std::string_view topic, int32_t queue_id) {
        return store->GetMaxOffsetInQueue(topic, queue_id);
      },
      context.executors.pull, options);
}

Status BrokerServices::BuildSchedule(const BrokerContext& context, env::Env* env) {
  const auto settings = context.config->Get();
  Result<store::DelayLevelTable> levels =
      store::DelayLevelTable::Parse(settings->store.message_delay_level);
  // The store refuses to open with a bad table, so start-up stops there first.
  if (!levels.ok()) return levels.status().Prefixed("messageDelayLevel");
  delay_offsets =
      std::make_unique<DelayOffsetTable>(env, settings->ConfigDir() + "/delayOffset.json");
  schedule = std::make_shared<ScheduleMessageService>(context.store, std::move(*levels),
                                                      delay_offsets.get(),
                                                      settings->flush_delay_offset_interval);
  timer = std::make_shared<TimerMessageService>(context.store, env,
                                                settings->ConfigDir() + "/timerOffset.json",
                                                settings->flush_delay_offset_interval);
  return Status::OK();
}

void BrokerServices::BuildTransactions(const BrokerContext& context) {
  store_host = StoreHostOf(context);
  transactions = std::make_unique<TransactionalMessageService>(
      context.store, consumer_offsets.get(), store_host, Clock::Real());
  transaction_check_listener = std::make_unique<DefaultTransactionCheckListener>(
      transactions.get(), producers.get(), context.topic_config_manager);
  transaction_check = std::make_unique<TransactionCheckService>(
      context.config, transactions.get(), transaction_check_listener.get());
}

void BrokerServices::AddArrivalObservers(MessageArrivalObservers* observers) const {
  // Weak: an arrival reported while a test tears its services down finds nobody.
  if (pull_hold) {
    observers->Add("PullRequestHoldService",
                   [hold = std::weak_ptr<PullRequestHoldService>(pull_hold)](
                       std::string_view topic, int32_t queue_id, int64_t next_queue_offset) {
                     if (auto h = hold.lock()) {
                       h->NotifyMessageArriving(topic, queue_id, next_queue_offset);
                     }
                   });
  }
  if (schedule) {
    observers->Add("ScheduleMessageService",
                   [weak = std::weak_ptr<ScheduleMessageService>(schedule)](
                       std::string_view topic, int32_t, int64_t) {
                     if (topic != protocol::kScheduleTopic) return;
                     if (auto s = weak.lock()) s->NotifyArrival();
                   });
  }
  if (timer) {
    observers->Add("TimerMessageService",
                   [weak = std::weak_ptr<TimerMessageService>(timer)](std::string_view topic,
                                                                      int32_t, int64_t) {
                     if (topic != protocol::kTimerTopic) return;
                     if (auto t = weak.lock()) t->NotifyArrival();
                   });
  }
}

Status BrokerServices::Start(Scheduler* scheduler, bool slave) {
  if (client_housekeeping) client_housekeeping->Start(scheduler);
  if (consumer_offsets) {
    APOGEE_RETURN_IF_ERROR(consumer_offsets->Load());
    offsets_loaded_ = true;
    consumer_offsets->StartPeriodicPersist(consumer_offset_flush_interval_ms, scheduler);
  }
  if (pull_hold) pull_hold->Start();
  if (schedule && timer) {
    if (slave) {
      Log()->info("slave: scheduled and timer messages are delivered by the master");
    } else {
      APOGEE_RETURN_IF_ERROR(schedule->Start(scheduler));
      APOGEE_RETURN_IF_ERROR(timer->Start(scheduler));
    }
  }
  if (transaction_check) transaction_check->Start(scheduler);
  return Status::OK();
}

void BrokerServices::Shutdown() {
  if (shut_down_) return;
  shut_down_ = true;
  // Stops checking before the store closes; the progress is in the consumer offsets,
  // written below.
  if (transaction_check) transaction_check->Shutdown();
  if (schedule) {
    Status s = schedule->Shutdown();
    if (!s.ok()) Log()->error("delayOffset.json not written at shutdown: {}", s.ToString());
  }
  if (timer) {
    Status s = timer->Shutdown();
    if (!s.ok()) Log()->error("timerOffset.json not written at shutdown: {}", s.ToString());
  }
  if (pull_hold) pull_hold->Shutdown();
  // Only a loaded table is written back: a start that failed before the load (the store did
  // not start) must not replace consumerOffset.json with an empty table.
  if (consumer_offsets && offsets_loaded_) {
    Status s = consumer_offsets->Shutdown();
    if (!s.ok()) Log()->error("consumer offsets not persisted at shutdown: {}", s.ToString());
  }
  if (client_housekeeping) client_housekeeping->Shutdown();
}

}  // namespace apogee::broker
