#include "remoting/request_processor.h"

#include "base/logging.h"

namespace apogee::remoting {

Responder::Responder(ChannelPtr channel, const protocol::RemotingCommand& request)
    : channel_(std::move(channel)),
      opaque_(request.opaque),
      request_code_(request.code),
      serialize_type_(request.serialize_type),
      oneway_(request.IsOneway()),
      responded_(std::make_shared<std::atomic<bool>>(false)) {}

void Responder::Send(protocol::RemotingCommand response) const {
  if (responded_->exchange(true, std::memory_order_acq_rel)) {
    GetLogger("remoting")->error("second response to request code {} (opaque {}) from {} dropped",
                                 request_code_, opaque_, channel_->RemoteAddress());
    return;
  }
  // A oneway request never gets a response (docs/protocol/remoting.md §3.4, pitfall 6).
  if (oneway_) return;
  response.opaque = opaque_;
  response.flag |= protocol::kFlagResponse;
  response.flag &= ~protocol::kFlagOneway;
  response.serialize_type = serialize_type_;
  channel_->SendResponse(std::move(response));
}

void Responder::SendCode(int32_t code, std::optional<std::string> remark) const {
  protocol::RemotingCommand response;
  response.code = code;
  response.version = protocol::kApogeeVersion;
  response.remark = std::move(remark);
  Send(std::move(response));
}

namespace {
class FunctionProcessor final : public RequestProcessor {
 public:
  explicit FunctionProcessor(ProcessFunction function) : function_(std::move(function)) {}
  void ProcessRequest(protocol::RemotingCommand request, Responder responder) override {
    function_(std::move(request), std::move(responder));
  }

 private:
  ProcessFunction function_;
};
}  // namespace

std::shared_ptr<RequestProcessor> MakeProcessor(ProcessFunction function) {
  return std::make_shared<FunctionProcessor>(std::move(function));
}

}  // namespace apogee::remoting
