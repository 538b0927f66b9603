// AsyncSendCall: one async send in flight, as the one object that carries it from the
// producer through MQClientAPI and the remoting client to the connection's pending request
// and back. The caller's state lives in a subclass; the object is the remoting response
// handler itself, so a send allocates it once instead of a std::function per layer (the
// producer's attempt callback, the API's answer callback, the shared send state), and a retry
// reuses it (docs/benchmarks.md, "The client's async send, third pass").
//
// Kept out of mq_client_api.h, which admin includes and which must not name remoting/.
#pragma once

#include <memory>
#include <string>

#include "apogee/send_result.h"
#include "base/status.h"
#include "protocol/remoting_command.h"
#include "remoting/channel.h"
#include "remoting/executor.h"

namespace apogee::client {

class MQClientAPI;

class AsyncSendCall : public remoting::ResponseHandler {
 public:
  // The attempt's result; `self` is this object, owned: kept for another attempt or dropped.
  // Runs on the callback executor, or on the IO thread for a success when the send asked for
  // it (MQClientAPI::SendMessageAsync's success_on_io_thread).
  virtual void OnSendResult(std::unique_ptr<AsyncSendCall> self, Result<SendResult> result) = 0;

  // What a successful SendResult reports: its queue's topic, and msg_id (the UNIQ_KEY,
  // comma-joined for a batch), which is copied into the result.
  std::string topic;
  std::string client_msg_id;

 protected:
  // Drops what the last attempt held: a call kept for reuse keeps no executor alive.
  void ForgetAttempt() { executor_.reset(); }

 private:
  friend class MQClientAPI;
  void OnResponse(remoting::ResponseHandlerPtr self,
                  Result<protocol::RemotingCommand> response) final;

  // Set by MQClientAPI::SendMessageAsync for each attempt.
  std::string addr_;
  std::string broker_name_;
  bool success_on_io_thread_ = false;
  std::shared_ptr<remoting::ThreadPoolExecutor> executor_;
};

}  // namespace apogee::client
