// Applies request families to test servers through the broker's one table, as
// BrokerController does (processor_table.h).
#pragma once

#include "broker/broker_context.h"
#include "broker/processors/processor_table.h"
#include "remoting/remoting_server.h"

namespace apogee::broker::testing {

// The table of `processors` (families left null add no rows) on `main` and, when given, on
// `fast`.
inline ProcessorTable ApplyTable(const BrokerContext& context, const BrokerProcessors& processors,
                                 remoting::RemotingServer& main,
                                 remoting::RemotingServer* fast = nullptr) {
  ProcessorTable table = BuildProcessorTable(processors, context.executors);
  table.ApplyTo(main, ServerPort::kMain);
  if (fast != nullptr) table.ApplyTo(*fast, ServerPort::kFast);
  return table;
}

}  // namespace apogee::broker::testing
