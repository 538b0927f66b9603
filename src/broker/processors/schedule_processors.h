// The retry / delay family: CONSUMER_SEND_MSG_BACK (36), the ScheduleMessageService that
// delivers SCHEDULE_TOPIC_XXXX (delay levels, delayOffset.json) and the timer service for
// arbitrary delivery times (5.x TIMER_* properties, __STARTDELIVERTIME).
//
// CreateScheduleProcessors is called once by BrokerController, after the client, send/pull
// and admin families. The services it creates are woken through
// context.arrival_observers and started and stopped through the context's start /
// shutdown hooks.
#pragma once

namespace apogee::env {
class Env;
}  // namespace apogee::env

namespace apogee::broker {

struct BrokerContext;
struct BrokerProcessors;

void CreateScheduleProcessors(BrokerContext& context, BrokerProcessors* out, env::Env* env);

}  // namespace apogee::broker
