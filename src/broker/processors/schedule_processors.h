// The retry / delay family: CONSUMER_SEND_MSG_BACK (36). The services that deliver
// SCHEDULE_TOPIC_XXXX (delay levels, delayOffset.json) and the timer topic (5.x TIMER_*
// properties, __STARTDELIVERTIME) are built, woken and started by the controller
// (broker_services.h); this family only creates the processor.
#pragma once

namespace apogee::broker {

struct BrokerContext;
struct BrokerProcessors;

void CreateScheduleProcessors(BrokerContext& context, BrokerProcessors* out);

}  // namespace apogee::broker
