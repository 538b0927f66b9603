// ProcessorTable: what the broker serves, in one list of rows {request code, handler,
// executor or inline, ports}, built once by BrokerController and applied to both the main
// server (listenPort) and the fast "VIP" server (listenPort - 2), so the two ports cannot
// drift apart (Java's BrokerController.registerProcessor registers each code twice by hand).
//
// BuildProcessorTable is the one place that says which code goes to which processor and
// executor; the request families only create their processors (BrokerProcessors).
//
// Thread-safety: built and applied before the servers start; read-only afterwards.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace apogee::remoting {
class ChannelEventListener;
class Executor;
class RemotingServer;
class RequestProcessor;
}  // namespace apogee::remoting

namespace apogee::broker {

struct BrokerExecutors;

// Which server a table is applied to.
enum class ServerPort { kMain, kFast };

// Which servers serve a row.
enum class RowPorts {
  kMainAndFast,  // Java registers it on remotingServer and fastRemotingServer
  kMainOnly,     // remotingServer only (PULL_MESSAGE, LITE_PULL_MESSAGE: long polling)
};

struct ProcessorRow {
  int32_t request_code = 0;
  std::shared_ptr<remoting::RequestProcessor> handler;
  // Null: the handler runs inline on the connection's IO thread (it never blocks).
  std::shared_ptr<remoting::Executor> executor;
  RowPorts ports = RowPorts::kMainAndFast;
};

class ProcessorTable {
 public:
  // A code appears once; a second row for it is a wiring bug and aborts (tests catch it).
  void Add(int32_t request_code, std::shared_ptr<remoting::RequestProcessor> handler,
           std::shared_ptr<remoting::Executor> executor, RowPorts ports = RowPorts::kMainAndFast);
  // Channel events (close, idle) of both servers go to `listener`.
  void AddChannelListener(std::shared_ptr<remoting::ChannelEventListener> listener);

  const std::vector<ProcessorRow>& rows() const { return rows_; }
  // The row of `request_code`, or null.
  const ProcessorRow* Find(int32_t request_code) const;
  // Whether `port` serves the row.
  static bool Serves(const ProcessorRow& row, ServerPort port) {
    return port == ServerPort::kMain || row.ports == RowPorts::kMainAndFast;
  }

  // Registers every row `port` serves, and the channel listeners, on `server`.
  void ApplyTo(remoting::RemotingServer& server, ServerPort port) const;

 private:
  std::vector<ProcessorRow> rows_;
  std::vector<std::shared_ptr<remoting::ChannelEventListener>> channel_listeners_;
};

// The processors the request families create, once per broker (the Create*Processors
// functions of client_processors.h, send_pull_processors.h, admin_processors.h,
// schedule_processors.h, transaction_processors.h). One processor object serves both ports.
struct BrokerProcessors {
  // client management (client_processors.h)
  std::shared_ptr<remoting::RequestProcessor> heart_beat;
  std::shared_ptr<remoting::RequestProcessor> unregister_client;
  std::shared_ptr<remoting::RequestProcessor> check_client_config;
  std::shared_ptr<remoting::RequestProcessor> consumer_list_by_group;
  std::shared_ptr<remoting::RequestProcessor> lock_batch_mq;
  std::shared_ptr<remoting::RequestProcessor> unlock_batch_mq;
  std::shared_ptr<remoting::ChannelEventListener> client_housekeeping;
  // send / pull (send_pull_processors.h)
  std::shared_ptr<remoting::RequestProcessor> send;
  std::shared_ptr<remoting::RequestProcessor> consumer_manage;
  std::shared_ptr<remoting::RequestProcessor> pull;
  // admin and message query (admin_processors.h)
  std::shared_ptr<remoting::RequestProcessor> admin;
  std::shared_ptr<remoting::RequestProcessor> query_message;
  // retry (schedule_processors.h)
  std::shared_ptr<remoting::RequestProcessor> send_back;
  // transactions and DLQ redrive (transaction_processors.h)
  std::shared_ptr<remoting::RequestProcessor> end_transaction;
  std::shared_ptr<remoting::RequestProcessor> dlq_redrive;
};

// The request codes AdminBrokerProcessor answers (admin executor, both ports).
const std::vector<int32_t>& AdminRequestCodes();

// The broker's table. A family whose processors are null (unit tests wire only some)
// contributes no rows. No default processor: a code not listed here is answered
// REQUEST_CODE_NOT_SUPPORTED by the remoting server.
ProcessorTable BuildProcessorTable(const BrokerProcessors& processors,
                                   const BrokerExecutors& executors);

}  // namespace apogee::broker
