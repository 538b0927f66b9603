// ProducerInner: what a ClientInstance needs from a producer (Java's MQProducerInner).
// Producers register with ClientInstance::RegisterProducer; heartbeats carry their groups,
// and CHECK_TRANSACTION_STATE from a broker is handed to the producer whose group the half
// message names (property PGROUP).
//
// Thread-safety: CheckTransactionState runs on the instance's callback executor.
#pragma once

#include <string>

#include "message/message.h"
#include "protocol/client_headers.h"

namespace apogee::client {

class ProducerInner {
 public:
  virtual ~ProducerInner() = default;

  virtual std::string GroupName() const = 0;
  virtual bool IsUnitMode() const { return false; }
  // A broker at `broker_addr` asks for the state of the half message `msg`; the producer
  // answers with END_TRANSACTION (fromTransactionCheck = true) when it knows it.
  virtual void CheckTransactionState(const std::string& broker_addr,
                                     const message::MessageExt& msg,
                                     const protocol::CheckTransactionStateRequestHeader& header) = 0;
};

}  // namespace apogee::client
