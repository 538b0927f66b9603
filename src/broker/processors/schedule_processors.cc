#include "broker/processors/schedule_processors.h"

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "base/logging.h"
#include "broker/broker_config.h"
#include "broker/broker_context.h"
#include "broker/schedule/delay_offset_table.h"
#include "broker/schedule/message_redirect.h"
#include "broker/schedule/schedule_message_service.h"
#include "broker/processors/processor_table.h"
#include "broker/processors/send_message_back_processor.h"
#include "broker/schedule/timer_message_service.h"
#include "broker/topic_config_manager.h"
#include "protocol/system_topics.h"
#include "store/delay_level_table.h"

namespace apogee::broker {

namespace {

// The services of the family, created once and owned by the hooks.
struct ScheduleServices {
  std::unique_ptr<DelayOffsetTable> offsets;
  std::unique_ptr<ScheduleMessageService> schedule;
  std::unique_ptr<TimerMessageService> timer;
};

void InstallServices(BrokerContext& context, env::Env* env) {
  const auto settings = context.config->Get();
  Result<store::DelayLevelTable> levels =
      store::DelayLevelTable::Parse(settings->store.message_delay_level);
  if (!levels.ok()) {
    // The store refuses to open with a bad table, so start-up stops there; say why here too.
    context.AddStartHook([status = levels.status()] { return status; });
    return;
  }
  auto services = std::make_shared<ScheduleServices>();
  services->offsets =
      std::make_unique<DelayOffsetTable>(env, settings->ConfigDir() + "/delayOffset.json");
  services->schedule = std::make_unique<ScheduleMessageService>(
      context.store, std::move(*levels), services->offsets.get(),
      settings->flush_delay_offset_interval);
  services->timer = std::make_unique<TimerMessageService>(
      context.store, env, settings->ConfigDir() + "/timerOffset.json",
      settings->flush_delay_offset_interval);

  // Wake the services when their topics get new messages (after the long-polling hold
  // service, which the send/pull family added first).
  context.arrival_observers.Add(
      "ScheduleMessageService",
      [weak = std::weak_ptr<ScheduleServices>(services)](std::string_view topic, int32_t,
                                                         int64_t) {
        if (topic != protocol::kScheduleTopic) return;
        if (auto s = weak.lock()) s->schedule->NotifyArrival();
      });
  context.arrival_observers.Add(
      "TimerMessageService",
      [weak = std::weak_ptr<ScheduleServices>(services)](std::string_view topic, int32_t,
                                                         int64_t) {
        if (topic != protocol::kTimerTopic) return;
        if (auto s = weak.lock()) s->timer->NotifyArrival();
      });

  // Delivery is a master's job: a slave's delay offsets come from its master (issue #6).
  const bool slave = settings->IsSlave();
  context.AddStartHook([services, slave, ctx = &context]() -> Status {
    if (slave) {
      GetLogger("broker")->info("slave: scheduled and timer messages are delivered by the master");
      return Status::OK();
    }
    APOGEE_RETURN_IF_ERROR(services->schedule->Start(ctx->scheduler));
    return services->timer->Start(ctx->scheduler);
  });
  context.AddShutdownHook([services] {
    Status s = services->schedule->Shutdown();
    if (!s.ok())
      GetLogger("broker")->error("delayOffset.json not written at shutdown: {}", s.ToString());
    s = services->timer->Shutdown();
    if (!s.ok())
      GetLogger("broker")->error("timerOffset.json not written at shutdown: {}", s.ToString());
  });
}

}  // namespace

void CreateScheduleProcessors(BrokerContext& context, BrokerProcessors* out, env::Env* env) {
  InstallServices(context, env);
  out->send_back = std::make_shared<SendMessageBackProcessor>(&context);
}

}  // namespace apogee::broker
