#include "broker/schedule_processors.h"

#include "broker/broker_context.h"

namespace apogee::broker {

// Nothing registered yet: the family is being built (issue #5).
void RegisterScheduleProcessors(BrokerContext& context, remoting::RemotingServer& server,
                           env::Env* env) {
  (void)context;
  (void)server;
  (void)env;
}

}  // namespace apogee::broker
