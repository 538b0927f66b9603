#include "broker/processors/processor_table.h"

#include <cstdlib>
#include <utility>

#include "base/logging.h"
#include "broker/broker_context.h"
#include "protocol/request_code.h"
#include "remoting/remoting_server.h"

namespace apogee::broker {

namespace req = protocol::request_code;

void ProcessorTable::Add(int32_t request_code, std::shared_ptr<remoting::RequestProcessor> handler,
                         std::shared_ptr<remoting::Executor> executor, RowPorts ports) {
  if (Find(request_code) != nullptr) {
    // Two rows for one code: the second would silently replace the first on the server.
    GetLogger("broker")->critical("processor table: request code {} listed twice", request_code);
    std::abort();
  }
  rows_.push_back(ProcessorRow{request_code, std::move(handler), std::move(executor), ports});
}

void ProcessorTable::AddChannelListener(
    std::shared_ptr<remoting::ChannelEventListener> listener) {
  channel_listeners_.push_back(std::move(listener));
}

const ProcessorRow* ProcessorTable::Find(int32_t request_code) const {
  for (const ProcessorRow& row : rows_) {
    if (row.request_code == request_code) return &row;
  }
  return nullptr;
}

void ProcessorTable::ApplyTo(remoting::RemotingServer& server, ServerPort port) const {
  for (const ProcessorRow& row : rows_) {
    if (Serves(row, port)) server.RegisterProcessor(row.request_code, row.handler, row.executor);
  }
  for (const auto& listener : channel_listeners_) server.AddChannelEventListener(listener);
}

const std::vector<int32_t>& AdminRequestCodes() {
  static const std::vector<int32_t> codes = {
      req::kUpdateAndCreateTopic,             req::kDeleteTopicInBroker,
      req::kGetAllTopicConfig,                req::kUpdateBrokerConfig,
      req::kGetBrokerConfig,                  req::kGetBrokerRuntimeInfo,
      req::kUpdateAndCreateSubscriptiongroup, req::kGetAllSubscriptiongroupConfig,
      req::kDeleteSubscriptiongroup,          req::kGetTopicStatsInfo,
      req::kGetConsumeStats,                  req::kGetConsumerConnectionList,
      req::kGetProducerConnectionList,        req::kGetAllConsumerOffset,
      req::kGetAllDelayOffset,                req::kQueryTopicConsumeByWho,
      req::kInvokeBrokerToResetOffset,        req::kCloneGroupOffset,
      req::kGetBrokerEpochCache,              req::kViewBrokerStatsData,
      req::kGetBrokerConsumeStats,
  };
  return codes;
}

ProcessorTable BuildProcessorTable(const BrokerProcessors& p, const BrokerExecutors& ex) {
  ProcessorTable table;
  // A family a unit test did not wire has null processors and adds nothing.
  auto add = [&table](int32_t code, const std::shared_ptr<remoting::RequestProcessor>& handler,
                      const std::shared_ptr<remoting::Executor>& executor,
                      RowPorts ports = RowPorts::kMainAndFast) {
    if (handler) table.Add(code, handler, executor, ports);
  };

  // Client management (Java's ClientManageProcessor; the locks are AdminBrokerProcessor's
  // in Java, hence the admin executor).
  add(req::kHeartBeat, p.heart_beat, ex.heartbeat);
  add(req::kUnregisterClient, p.unregister_client, ex.client_manage);
  add(req::kCheckClientConfig, p.check_client_config, ex.client_manage);
  add(req::kGetConsumerListByGroup, p.consumer_list_by_group, ex.consumer_manage);
  add(req::kLockBatchMq, p.lock_batch_mq, ex.admin);
  add(req::kUnlockBatchMq, p.unlock_batch_mq, ex.admin);
  if (p.client_housekeeping) table.AddChannelListener(p.client_housekeeping);

  // Sends run inline on the connection's IO thread (no executor hop, issue 13) under every
  // flush type and role: the put only copies into mapped memory and never waits for the
  // disk or a slave. Under ASYNC_FLUSH the answer is queued with the other answers of the
  // same read and written once; under SYNC_FLUSH / SYNC_MASTER it is sent from the group
  // commit / replication callback once the bytes are durable / replicated. (The send pool,
  // sendMessageThreadPoolNums, serves CONSUMER_SEND_MSG_BACK and END_TRANSACTION.)
  add(req::kSendMessage, p.send, nullptr);
  add(req::kSendMessageV2, p.send, nullptr);
  add(req::kSendBatchMessage, p.send, nullptr);

  // Pulls: the main port only (Java's fastRemotingServer has no pull processor; the hold
  // service answers the long-polled ones).
  add(req::kPullMessage, p.pull, ex.pull, RowPorts::kMainOnly);
  add(req::kLitePullMessage, p.pull, ex.pull, RowPorts::kMainOnly);

  // Offsets: Java answers the last four from the admin (default) processor.
  add(req::kQueryConsumerOffset, p.consumer_manage, ex.consumer_manage);
  add(req::kUpdateConsumerOffset, p.consumer_manage, ex.consumer_manage);
  add(req::kSearchOffsetByTimestamp, p.consumer_manage, ex.admin);
  add(req::kGetMaxOffset, p.consumer_manage, ex.admin);
  add(req::kGetMinOffset, p.consumer_manage, ex.admin);
  add(req::kGetEarliestMsgStoretime, p.consumer_manage, ex.admin);

  // Admin and message queries.
  for (int32_t code : AdminRequestCodes()) add(code, p.admin, ex.admin);
  add(req::kQueryMessage, p.query_message, ex.query_message);
  add(req::kViewMessageById, p.query_message, ex.query_message);

  // Retry / DLQ and transactions.
  add(req::kConsumerSendMsgBack, p.send_back, ex.send);
  add(req::kEndTransaction, p.end_transaction, ex.send);
  add(req::kApogeeRedriveDlqMessage, p.dlq_redrive, ex.admin);
  return table;
}

}  // namespace apogee::broker
