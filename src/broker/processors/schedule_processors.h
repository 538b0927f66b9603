// The retry / delay family: CONSUMER_SEND_MSG_BACK (36), the ScheduleMessageService that
// delivers SCHEDULE_TOPIC_XXXX (delay levels, delayOffset.json) and the timer service for
// arbitrary delivery times (5.x TIMER_* properties, __STARTDELIVERTIME).
//
// RegisterScheduleProcessors is called by BrokerController once per server (main, then fast),
// after the client, send/pull and admin families. Services it creates are started and
// stopped through BrokerContext start/shutdown hooks (added on the first call only).
#pragma once

namespace apogee::remoting {
class RemotingServer;
}  // namespace apogee::remoting

namespace apogee::env {
class Env;
}  // namespace apogee::env

namespace apogee::broker {

struct BrokerContext;

void RegisterScheduleProcessors(BrokerContext& context, remoting::RemotingServer& server,
                                env::Env* env);

}  // namespace apogee::broker
