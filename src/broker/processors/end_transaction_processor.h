// EndTransactionProcessor: END_TRANSACTION (37), a producer's commit or rollback of a
// prepared message (Java's EndTransactionProcessor, 4.9.x; docs/protocol/store_ha.md §8.4,
// docs/protocol/remoting.md §5.2).
//
//   COMMIT (sysFlag 0x8): the half message is looked up by commitLogOffset and checked
//     against the header (producer group, queue offset, physical offset: SYSTEM_ERROR
//     naming the mismatch), the real message is stored (through the DELAY / timer redirect
//     when it asks for one), and once stored an op record marks the half message decided.
//   ROLLBACK (0xC): the same checks, then only the op record.
//   anything else (0 = "unknown"): nothing happens; answered SUCCESS (Java answers
//     nothing; a non-oneway sender would then wait for its timeout).
//   On a slave: SLAVE_NOT_AVAILABLE.
// Java producers send it one-way, ali-ons and the C++ client as a normal request; the
// Responder drops the answer of a one-way request.
//
// Thread-safety: ProcessRequest runs on the send executor, concurrently.
#pragma once

#include <memory>

#include "protocol/remoting_command.h"
#include "remoting/request_processor.h"
#include "store/delay_level_table.h"

namespace apogee::broker {

class BrokerConfig;
class TransactionalMessageService;

class EndTransactionProcessor : public remoting::RequestProcessor {
 public:
  // `config` (role, messageDelayLevel) and `service` must outlive the processor.
  EndTransactionProcessor(const BrokerConfig* config, TransactionalMessageService* service);

  void ProcessRequest(protocol::RemotingCommand request, remoting::Responder responder) override;

 private:
  const BrokerConfig* config_;
  TransactionalMessageService* service_;
  store::DelayLevelTable delay_levels_;  // parsed from messageDelayLevel at construction
};

}  // namespace apogee::broker
