#include "remoting/request_processor.h"

#include "base/logging.h"

namespace apogee::remoting {

Responder::Responder(ChannelPtr channel, const protocol::RemotingCommand& request)
    : Responder(std::move(channel), request.opaque, request.code, request.serialize_type,
                request.IsOneway()) {}

Responder::Responder(ChannelPtr channel, int32_t opaque, int32_t request_code,
                     protocol::SerializeType serialize_type, bool oneway)
    : channel_(std::move(channel)),
      opaque_(opaque),
      request_code_(request_code),
      serialize_type_(serialize_type),
      oneway_(oneway) {}

Responder::Responder(const Responder& other)
    : channel_(other.channel_),
      opaque_(other.opaque_),
      request_code_(other.request_code_),
      serialize_type_(other.serialize_type_),
      oneway_(other.oneway_),
      shared_responded_(other.SharedFlag()) {}

Responder& Responder::operator=(const Responder& other) {
  if (this != &other) *this = Responder(other);
  return *this;
}

Responder::Responder(Responder&& other) noexcept
    : channel_(std::move(other.channel_)),
      opaque_(other.opaque_),
      request_code_(other.request_code_),
      serialize_type_(other.serialize_type_),
      oneway_(other.oneway_),
      responded_here_(other.responded_here_),
      shared_responded_(std::move(other.shared_responded_)) {}

Responder& Responder::operator=(Responder&& other) noexcept {
  channel_ = std::move(other.channel_);
  opaque_ = other.opaque_;
  request_code_ = other.request_code_;
  serialize_type_ = other.serialize_type_;
  oneway_ = other.oneway_;
  responded_here_ = other.responded_here_;
  shared_responded_ = std::move(other.shared_responded_);
  return *this;
}

const std::shared_ptr<std::atomic<bool>>& Responder::SharedFlag() const {
  if (!shared_responded_) {
    shared_responded_ = std::make_shared<std::atomic<bool>>(responded_here_);
  }
  return shared_responded_;
}

bool Responder::MarkResponded() const {
  if (shared_responded_) return !shared_responded_->exchange(true, std::memory_order_acq_rel);
  if (responded_here_) return false;
  responded_here_ = true;
  return true;
}

bool Responder::responded() const {
  if (shared_responded_) return shared_responded_->load(std::memory_order_acquire);
  return responded_here_;
}

void Responder::Send(protocol::RemotingCommand response) const {
  if (!MarkResponded()) {
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
