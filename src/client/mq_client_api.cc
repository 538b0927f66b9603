#include "client/mq_client_api.h"

#include <fmt/format.h>

#include <mutex>
#include <random>
#include <utility>

#include "base/logging.h"
#include "base/string_util.h"
#include "client/async_send_call.h"
#include "message/message_record.h"
#include "protocol/consumer_list_body.h"
#include "protocol/custom_header.h"
#include "protocol/namesrv_headers.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "remoting/executor.h"
#include "remoting/remoting_client.h"
#include "remoting/request_processor.h"

namespace apogee::client {

namespace rc = protocol::request_code;
namespace rs = protocol::response_code;
using protocol::RemotingCommand;

namespace {
// A V2 send header's JSON members beyond its five strings: 14 one-letter keys with their
// quotes, colons and commas, and the numbers (born timestamp 13 digits), about 110 bytes;
// escapes in the properties (\u0001, \u0002) need a few more.
constexpr size_t kSendHeaderJsonOverhead = 160;
}  // namespace

StatusCode StatusForResponseCode(int32_t response_code) {
  switch (response_code) {
    case rs::kSuccess:
      return StatusCode::kOk;
    case rs::kTopicNotExist:
    case rs::kQueryNotFound:
      return StatusCode::kNotFound;
    case rs::kServiceNotAvailable:
    case rs::kNoBuyerId:
    case rs::kNotInCurrentUnit:
    case rs::kGoAway:
      return StatusCode::kUnavailable;
    case rs::kSystemError:
      return StatusCode::kInternal;
    case rs::kSystemBusy:
      return StatusCode::kBusy;
    case rs::kNoPermission:
      return StatusCode::kPermissionDenied;
    case rs::kMessageIllegal:
    case rs::kInvalidParameter:
      return StatusCode::kInvalidArgument;
    case rs::kRequestCodeNotSupported:
      return StatusCode::kNotSupported;
    default:
      return StatusCode::kAborted;
  }
}

Status ResponseError(std::string_view addr, const RemotingCommand& response) {
  std::string message =
      fmt::format("{} answered {} ({})", addr, rs::Name(response.code), response.code);
  if (response.remark && !response.remark->empty()) {
    message += ": ";
    message += *response.remark;
  }
  StatusCode code = StatusForResponseCode(response.code);
  if (code == StatusCode::kOk) code = StatusCode::kInternal;  // not an error: caller's bug
  return Status(code, std::move(message));
}

namespace {

template <typename H>
RemotingCommand MakeRequest(int32_t code, const H& header) {
  RemotingCommand request = RemotingCommand::MakeRequest(code);
  protocol::EncodeCustomHeader(header, &request);
  return request;
}

template <typename H>
Result<H> DecodeResponseHeader(std::string_view addr, const RemotingCommand& response) {
  Result<H> header = protocol::DecodeCustomHeader<H>(response);
  if (!header.ok()) {
    return header.status().Prefixed(fmt::format("response of {} ({})", addr,
                                                rs::Name(response.code)));
  }
  return header;
}

Result<int64_t> DecodeOffsetAnswer(std::string_view addr, Result<RemotingCommand> response) {
  if (!response.ok()) return response.status();
  if (response->code != rs::kSuccess) return ResponseError(addr, *response);
  // Every offset answer (max, min, search) has one "offset" field.
  APOGEE_ASSIGN_OR_RETURN(auto header,
                          DecodeResponseHeader<protocol::GetMaxOffsetResponseHeader>(addr, *response));
  return header.offset;
}

Status ExpectSuccess(std::string_view addr, const Result<RemotingCommand>& response) {
  if (!response.ok()) return response.status();
  if (response->code != rs::kSuccess) return ResponseError(addr, *response);
  return Status::OK();
}

Result<PullResponse> ProcessPullResponse(std::string_view addr, RemotingCommand response) {
  switch (response.code) {
    case rs::kSuccess:
    case rs::kPullNotFound:
    case rs::kPullRetryImmediately:
    case rs::kPullOffsetMoved:
      break;
    default:
      return ResponseError(addr, response);
  }
  PullResponse pull;
  pull.code = response.code;
  APOGEE_ASSIGN_OR_RETURN(
      pull.header, DecodeResponseHeader<protocol::PullMessageResponseHeader>(addr, response));
  pull.body = std::move(response.body);
  pull.remark = response.remark.value_or("");
  return pull;
}

}  // namespace

namespace {

// The answer's ext fields SendResult takes: SendMessageResponseHeader's msgId, queueId,
// queueOffset and transactionId, and the MSG_REGION and TRACE_ON the broker adds.
struct SendAnswerFields {
  std::optional<std::string_view> msg_id;
  std::optional<int32_t> queue_id;
  std::optional<int64_t> queue_offset;
  std::optional<std::string_view> transaction_id;
  std::optional<std::string_view> region;
  std::optional<std::string_view> trace_on;
};

// One pass over the (half a dozen) members instead of a lookup per field: DecodeCustomHeader
// <SendMessageResponseHeader> and two more lookups cost about 2k instructions per send
// (callgrind, docs/benchmarks.md). Its rules are kept: a number that does not parse counts as
// absent, a missing required field is its error, and an answer with no extFields member at
// all gives the defaults (Java's decodeCommandCustomHeader).
Result<SendAnswerFields> ReadSendAnswerFields(const RemotingCommand& response) {
  SendAnswerFields fields;
  if (!response.has_ext_fields && response.ext_fields.empty()) {
    fields.msg_id = std::string_view();
    fields.queue_id = 0;
    fields.queue_offset = 0;
    return fields;
  }
  for (const auto& [key, value] : response.ext_fields) {
    if (key == "msgId") {
      fields.msg_id = value;
    } else if (key == "queueId") {
      fields.queue_id = protocol::ParseJavaInt(value);
    } else if (key == "queueOffset") {
      fields.queue_offset = protocol::ParseJavaLong(value);
    } else if (key == "transactionId") {
      fields.transaction_id = value;
    } else if (key == "MSG_REGION") {
      fields.region = value;
    } else if (key == "TRACE_ON") {
      fields.trace_on = value;
    }
  }
  const char* missing = !fields.msg_id         ? "msgId"
                        : !fields.queue_id     ? "queueId"
                        : !fields.queue_offset ? "queueOffset"
                                               : nullptr;
  if (missing != nullptr) return protocol::custom_header_internal::MissingField(missing);
  return fields;
}

}  // namespace

namespace {

// ProcessSendResponse, with `client_msg_id` copied into the result: an async send's call
// keeps its own for a retry and for the next send (made on the thread that reads the
// answer, the copy is freed there too, not on the sending thread's heap).
Result<SendResult> ReadSendResponse(std::string_view addr, std::string_view broker_name,
                                    std::string_view topic, std::string_view client_msg_id,
                                    const RemotingCommand& response) {
  SendResult result;
  switch (response.code) {
    case rs::kSuccess:
      result.send_status = SendStatus::kSendOk;
      break;
    case rs::kFlushDiskTimeout:
      result.send_status = SendStatus::kFlushDiskTimeout;
      break;
    case rs::kFlushSlaveTimeout:
      result.send_status = SendStatus::kFlushSlaveTimeout;
      break;
    case rs::kSlaveNotAvailable:
      result.send_status = SendStatus::kSlaveNotAvailable;
      break;
    default:
      return ResponseError(addr, response);
  }
  Result<SendAnswerFields> fields = ReadSendAnswerFields(response);
  if (!fields.ok()) {
    return fields.status().Prefixed(
        fmt::format("response of {} ({})", addr, rs::Name(response.code)));
  }
  result.msg_id.assign(client_msg_id);
  result.offset_msg_id = std::string(*fields->msg_id);
  result.message_queue =
      MessageQueue(std::string(topic), std::string(broker_name), *fields->queue_id);
  result.queue_offset = *fields->queue_offset;
  if (fields->transaction_id) result.transaction_id = std::string(*fields->transaction_id);
  result.region_id = std::string(fields->region.value_or("DefaultRegion"));
  result.trace_on = !fields->trace_on || *fields->trace_on != "false";
  return result;
}

}  // namespace

Result<SendResult> ProcessSendResponse(std::string_view addr, std::string_view broker_name,
                                       std::string_view topic, std::string client_msg_id,
                                       const RemotingCommand& response) {
  return ReadSendResponse(addr, broker_name, topic, client_msg_id, response);
}

class MQClientAPI::Impl {
 public:
  explicit Impl(const MQClientAPIOptions& options)
      : send_header_form_(options.credentials.empty() ? SendHeaderForm::kJsonMembers
                                                      : SendHeaderForm::kExtFieldsMap),
        remoting_(remoting::RemotingClientOptions{
            .io_threads = 1,
            .connect_timeout = options.connect_timeout,
            .before_request = acl::SigningHook(options.credentials),
            .use_tls = options.use_tls,
            .tls = options.tls,
            .sync_wait_spin = options.sync_wait_spin.value_or(remoting::kDefaultSyncWaitSpin)}),
        callbacks_(std::make_shared<remoting::ThreadPoolExecutor>(
            "client-callback", options.callback_threads == 0 ? 1 : options.callback_threads,
            65536)) {
    std::random_device rd;
    namesrv_index_ = rd() % 999;
  }

  // Runs `callback(result)` on the callback executor; inline when the executor refuses it
  // (full or shut down) so that a callback is never lost. The callback and its result move
  // into one shared block: the task copied into the executor's std::function holds only a
  // pointer to it, never a deep copy of the callback's captures (strings, nested callbacks).
  template <typename T>
  struct PendingCallback {
    std::function<void(T)> callback;
    T result;
  };
  template <typename T>
  static void Dispatch(const std::shared_ptr<remoting::ThreadPoolExecutor>& executor,
                       std::shared_ptr<PendingCallback<T>> pending) {
    if (!executor->TryExecute([pending] { pending->callback(std::move(pending->result)); })) {
      GetLogger("client")->warn("callback executor refused a task; running it on the IO thread");
      pending->callback(std::move(pending->result));
    }
  }

  void InvokeAsync(std::string_view addr, RemotingCommand request, Millis timeout,
                   std::function<void(Result<RemotingCommand>)> callback) {
    auto executor = callbacks_;
    // mutable: the remoting client calls this exactly once, so the callback moves on.
    remoting_.InvokeAsync(
        addr, std::move(request), timeout,
        [executor, callback = std::move(callback)](Result<RemotingCommand> r) mutable {
          Dispatch(executor, std::make_shared<PendingCallback<Result<RemotingCommand>>>(
                                 PendingCallback<Result<RemotingCommand>>{std::move(callback),
                                                                          std::move(r)}));
        });
  }

  Result<RemotingCommand> InvokeNamesrvSync(RemotingCommand request, Millis timeout) {
    std::vector<std::string> addrs;
    size_t start;
    {
      std::lock_guard<std::mutex> lock(mu_);
      addrs = namesrv_addrs_;
      start = namesrv_index_;
    }
    if (addrs.empty()) return Status::Unavailable("no NameServer address set (namesrvAddr)");
    std::string failures;
    for (size_t i = 0; i < addrs.size(); ++i) {
      size_t index = (start + i) % addrs.size();
      const std::string& addr = addrs[index];
      Result<RemotingCommand> response = remoting_.InvokeSync(addr, request, timeout);
      if (response.ok()) {
        std::lock_guard<std::mutex> lock(mu_);
        if (namesrv_addrs_ == addrs) namesrv_index_ = index;  // sticky while it answers
        return response;
      }
      const Status& status = response.status();
      if (!status.Is(StatusCode::kUnavailable) && !status.Is(StatusCode::kTimeout)) return response;
      if (!failures.empty()) failures += "; ";
      failures += status.message();
      // Java closes the failed channel so the next use reconnects.
      remoting_.CloseChannel(addr);
      std::lock_guard<std::mutex> lock(mu_);
      if (namesrv_addrs_ == addrs) namesrv_index_ = (index + 1) % addrs.size();
    }
    return Status::Unavailable(fmt::format("no NameServer answered request {} ({}); NameServers asked: {}",
                                           protocol::request_code::Name(request.code), failures,
                                           fmt::join(addrs, ", ")));
  }

  // The signer reads (and signs) the ext fields map: it must be there when signing.
  const SendHeaderForm send_header_form_;
  remoting::RemotingClient remoting_;
  std::shared_ptr<remoting::ThreadPoolExecutor> callbacks_;
  mutable std::mutex mu_;
  std::vector<std::string> namesrv_addrs_;  // guarded by mu_
  size_t namesrv_index_ = 0;                // guarded by mu_
};

MQClientAPI::MQClientAPI(MQClientAPIOptions options) : impl_(std::make_shared<Impl>(options)) {}

MQClientAPI::~MQClientAPI() { Shutdown(); }

void MQClientAPI::RegisterServerRequestHandler(int32_t request_code, ServerRequestHandler handler) {
  auto processor = remoting::MakeProcessor(
      [handler = std::move(handler)](RemotingCommand request, remoting::Responder responder) {
        std::optional<RemotingCommand> response =
            handler(request, responder.channel()->RemoteAddress());
        if (response) responder.Send(std::move(*response));
      });
  impl_->remoting_.RegisterProcessor(request_code, std::move(processor), impl_->callbacks_);
}

void MQClientAPI::Start() { impl_->remoting_.Start(); }

void MQClientAPI::Shutdown() {
  impl_->remoting_.Shutdown();
  impl_->callbacks_->Shutdown();
}

Status MQClientAPI::UpdateNameServerAddressList(std::string_view addresses) {
  std::vector<std::string> list;
  for (const std::string& piece : SplitString(addresses, ';', /*skip_empty=*/true)) {
    std::string_view addr = TrimWhitespace(piece);
    if (addr.empty()) continue;
    size_t colon = addr.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || !ParseInt32(addr.substr(colon + 1)) ||
        *ParseInt32(addr.substr(colon + 1)) <= 0 || *ParseInt32(addr.substr(colon + 1)) > 65535) {
      return Status::InvalidArgument(
          fmt::format("NameServer address \"{}\" in \"{}\" is not host:port", addr, addresses));
    }
    list.emplace_back(addr);
  }
  if (list.empty()) {
    return Status::InvalidArgument(
        fmt::format("no NameServer address in \"{}\" (expected host:port;host:port)", addresses));
  }
  std::lock_guard<std::mutex> lock(impl_->mu_);
  if (list != impl_->namesrv_addrs_) {
    impl_->namesrv_index_ = impl_->namesrv_index_ % list.size();
    impl_->namesrv_addrs_ = std::move(list);
  }
  return Status::OK();
}

std::vector<std::string> MQClientAPI::NameServerAddressList() const {
  std::lock_guard<std::mutex> lock(impl_->mu_);
  return impl_->namesrv_addrs_;
}

Result<RemotingCommand> MQClientAPI::InvokeSync(std::string_view addr, RemotingCommand request,
                                                Millis timeout) {
  return impl_->remoting_.InvokeSync(addr, std::move(request), timeout);
}

void MQClientAPI::InvokeAsync(std::string_view addr, RemotingCommand request, Millis timeout,
                              std::function<void(Result<RemotingCommand>)> callback) {
  impl_->InvokeAsync(addr, std::move(request), timeout, std::move(callback));
}

Status MQClientAPI::InvokeOneway(std::string_view addr, RemotingCommand request, Millis timeout) {
  return impl_->remoting_.InvokeOneway(addr, std::move(request), timeout);
}

Result<RemotingCommand> MQClientAPI::InvokeNamesrvSync(RemotingCommand request, Millis timeout) {
  return impl_->InvokeNamesrvSync(std::move(request), timeout);
}

Result<protocol::TopicRouteData> MQClientAPI::GetTopicRouteInfoFromNameServer(std::string_view topic,
                                                                              Millis timeout) {
  protocol::GetRouteInfoRequestHeader header;
  header.topic = std::string(topic);
  APOGEE_ASSIGN_OR_RETURN(
      RemotingCommand response,
      impl_->InvokeNamesrvSync(MakeRequest(rc::kGetRouteinfoByTopic, header), timeout));
  if (response.code == rs::kTopicNotExist) {
    return Status::NotFound(fmt::format("No route info of this topic: {}{}", topic,
                                        response.remark ? " (" + *response.remark + ")" : ""));
  }
  if (response.code != rs::kSuccess) return ResponseError("NameServer", response);
  Result<protocol::TopicRouteData> route = protocol::DecodeTopicRouteData(response.body);
  if (!route.ok()) return route.status().Prefixed(fmt::format("route of topic {}", topic));
  return route;
}

RemotingCommand MakeSendRequest(const protocol::SendMessageRequestHeader& header, std::string body,
                                SendHeaderForm form) {
  const int32_t code = header.batch ? rc::kSendBatchMessage : rc::kSendMessageV2;
  RemotingCommand request;
  if (form == SendHeaderForm::kJsonMembers) {
    // 13 ExtFields::Set with a string per value, then the encode of the map, cost about 8k
    // instructions per send (callgrind, docs/benchmarks.md); this is one string, written
    // from the header as it is (no V2 copy of its strings).
    request = RemotingCommand::MakeRequest(code);
    request.has_ext_fields = true;
    request.json_ext_fields.reserve(kSendHeaderJsonOverhead + header.producer_group.size() +
                                    header.topic.size() + header.default_topic.size() +
                                    (header.properties ? header.properties->size() : 0) +
                                    (header.broker_name ? header.broker_name->size() : 0));
    protocol::HeaderToJsonExtFieldsAs<protocol::SendMessageRequestHeaderV2>(
        header, &request.json_ext_fields);
  } else {
    protocol::SendMessageRequestHeaderV2 v2;
    static_cast<protocol::SendMessageRequestHeader&>(v2) = header;
    request = MakeRequest(code, v2);
  }
  request.body = std::move(body);
  return request;
}

Result<SendResult> MQClientAPI::SendMessage(std::string_view addr, std::string_view broker_name,
                                            const protocol::SendMessageRequestHeader& header,
                                            std::string body, std::string client_msg_id,
                                            Millis timeout) {
  APOGEE_ASSIGN_OR_RETURN(
      RemotingCommand response,
      impl_->remoting_.InvokeSync(
          addr, MakeSendRequest(header, std::move(body), impl_->send_header_form_), timeout));
  return ProcessSendResponse(addr, broker_name, header.topic, std::move(client_msg_id), response);
}

void MQClientAPI::SendMessageAsync(std::string_view addr, std::string_view broker_name,
                                   const protocol::SendMessageRequestHeader& header,
                                   std::string_view body, Millis timeout,
                                   bool success_on_io_thread,
                                   std::unique_ptr<AsyncSendCall> call) {
  call->addr_ = addr;
  call->broker_name_ = broker_name;
  call->success_on_io_thread_ = success_on_io_thread;
  call->executor_ = impl_->callbacks_;
  // Made before the call goes: `header` and `broker_name` may belong to it.
  RemotingCommand request = MakeSendRequest(header, std::string(), impl_->send_header_form_);
  // Encoded (and signed) before the call is answered: the call keeps the bytes until then.
  request.borrowed_body = body;
  impl_->remoting_.InvokeAsync(addr, std::move(request), timeout, std::move(call));
}

void AsyncSendCall::OnResponse(remoting::ResponseHandlerPtr self,
                               Result<RemotingCommand> response) {
  std::unique_ptr<AsyncSendCall> call(static_cast<AsyncSendCall*>(self.release()));
  // The call and its answer (or, on the IO thread's failure path, its result) in one shared
  // block: the executor's task is a std::function, which must be copyable.
  struct Pending {
    std::unique_ptr<AsyncSendCall> call;
    std::optional<Result<RemotingCommand>> response;
    std::optional<Result<SendResult>> result;
  };
  auto read = [](AsyncSendCall& c, const Result<RemotingCommand>& r) -> Result<SendResult> {
    if (!r.ok()) return r.status();
    return ReadSendResponse(c.addr_, c.broker_name_, c.topic, c.client_msg_id, *r);
  };
  std::optional<Result<SendResult>> failed;
  if (success_on_io_thread_) {
    Result<SendResult> result = read(*this, response);
    if (result.ok()) {
      OnSendResult(std::move(call), std::move(result));
      return;
    }
    failed = std::move(result);
  }
  std::shared_ptr<remoting::ThreadPoolExecutor> executor = executor_;
  auto pending = std::make_shared<Pending>();
  if (failed) {
    // A failure may retry, refresh a route or log: on a callback thread, as always.
    pending->result = std::move(failed);
  } else {
    // The answer is read on the callback thread, as for every other async call.
    pending->response = std::move(response);
  }
  pending->call = std::move(call);
  auto run = [pending, read] {
    AsyncSendCall* c = pending->call.get();
    Result<SendResult> result =
        pending->result ? std::move(*pending->result) : read(*c, *pending->response);
    c->OnSendResult(std::move(pending->call), std::move(result));
  };
  if (!executor->TryExecute(run)) {
    GetLogger("client")->warn("callback executor refused a task; running it on the IO thread");
    run();
  }
}

Status MQClientAPI::SendMessageOneway(std::string_view addr,
                                      const protocol::SendMessageRequestHeader& header,
                                      std::string body, Millis timeout) {
  return impl_->remoting_.InvokeOneway(
      addr, MakeSendRequest(header, std::move(body), impl_->send_header_form_), timeout);
}

Status MQClientAPI::EndTransactionOneway(std::string_view addr,
                                         const protocol::EndTransactionRequestHeader& header,
                                         std::optional<std::string> remark, Millis timeout) {
  RemotingCommand request = MakeRequest(rc::kEndTransaction, header);
  request.remark = std::move(remark);
  return impl_->remoting_.InvokeOneway(addr, std::move(request), timeout);
}

void MQClientAPI::PullMessageAsync(std::string_view addr,
                                   const protocol::PullMessageRequestHeader& header, Millis timeout,
                                   std::function<void(Result<PullResponse>)> callback) {
  impl_->InvokeAsync(addr, MakeRequest(rc::kPullMessage, header), timeout,
                     [addr = std::string(addr),
                      callback = std::move(callback)](Result<RemotingCommand> response) {
                       if (!response.ok()) {
                         callback(response.status());
                         return;
                       }
                       callback(ProcessPullResponse(addr, std::move(response).value()));
                     });
}

Result<PullResponse> MQClientAPI::PullMessageSync(std::string_view addr,
                                                  const protocol::PullMessageRequestHeader& header,
                                                  Millis timeout) {
  APOGEE_ASSIGN_OR_RETURN(
      RemotingCommand response,
      impl_->remoting_.InvokeSync(addr, MakeRequest(rc::kPullMessage, header), timeout));
  return ProcessPullResponse(addr, std::move(response));
}

Result<int32_t> MQClientAPI::SendHeartbeat(std::string_view addr,
                                           const protocol::HeartbeatData& data, Millis timeout) {
  RemotingCommand request = RemotingCommand::MakeRequest(rc::kHeartBeat);
  request.body = protocol::EncodeHeartbeatData(data);
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand response,
                          impl_->remoting_.InvokeSync(addr, std::move(request), timeout));
  if (response.code != rs::kSuccess) return ResponseError(addr, response);
  return response.version;
}

Status MQClientAPI::UnregisterClient(std::string_view addr, std::string_view client_id,
                                     std::optional<std::string> producer_group,
                                     std::optional<std::string> consumer_group, Millis timeout) {
  protocol::UnregisterClientRequestHeader header;
  header.client_id = std::string(client_id);
  header.producer_group = std::move(producer_group);
  header.consumer_group = std::move(consumer_group);
  return ExpectSuccess(addr, impl_->remoting_.InvokeSync(
                                 addr, MakeRequest(rc::kUnregisterClient, header), timeout));
}

Result<int64_t> MQClientAPI::QueryConsumerOffset(
    std::string_view addr, const protocol::QueryConsumerOffsetRequestHeader& header,
    Millis timeout) {
  APOGEE_ASSIGN_OR_RETURN(
      RemotingCommand response,
      impl_->remoting_.InvokeSync(addr, MakeRequest(rc::kQueryConsumerOffset, header), timeout));
  if (response.code == rs::kQueryNotFound) {
    return Status::NotFound(fmt::format("{} has no offset of group {} for {}:{}", addr,
                                        header.consumer_group, header.topic, header.queue_id));
  }
  if (response.code != rs::kSuccess) return ResponseError(addr, response);
  APOGEE_ASSIGN_OR_RETURN(
      auto decoded,
      DecodeResponseHeader<protocol::QueryConsumerOffsetResponseHeader>(addr, response));
  return decoded.offset;
}

Status MQClientAPI::UpdateConsumerOffset(std::string_view addr,
                                         const protocol::UpdateConsumerOffsetRequestHeader& header,
                                         Millis timeout) {
  return ExpectSuccess(addr, impl_->remoting_.InvokeSync(
                                 addr, MakeRequest(rc::kUpdateConsumerOffset, header), timeout));
}

Status MQClientAPI::UpdateConsumerOffsetOneway(
    std::string_view addr, const protocol::UpdateConsumerOffsetRequestHeader& header,
    Millis timeout) {
  return impl_->remoting_.InvokeOneway(addr, MakeRequest(rc::kUpdateConsumerOffset, header),
                                       timeout);
}

Result<std::vector<std::string>> MQClientAPI::GetConsumerIdListByGroup(std::string_view addr,
                                                                       std::string_view group,
                                                                       Millis timeout) {
  protocol::GetConsumerListByGroupRequestHeader header;
  header.consumer_group = std::string(group);
  APOGEE_ASSIGN_OR_RETURN(
      RemotingCommand response,
      impl_->remoting_.InvokeSync(addr, MakeRequest(rc::kGetConsumerListByGroup, header), timeout));
  if (response.code != rs::kSuccess) return ResponseError(addr, response);
  APOGEE_ASSIGN_OR_RETURN(auto body, protocol::DecodeConsumerListBody(response.body));
  return std::move(body.consumer_id_list);
}

Result<std::set<protocol::MessageQueue>> MQClientAPI::LockBatchMQ(
    std::string_view addr, const protocol::LockBatchRequestBody& body, Millis timeout) {
  RemotingCommand request = RemotingCommand::MakeRequest(rc::kLockBatchMq);
  request.body = protocol::EncodeLockBatchRequestBody(body);
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand response,
                          impl_->remoting_.InvokeSync(addr, std::move(request), timeout));
  if (response.code != rs::kSuccess) return ResponseError(addr, response);
  APOGEE_ASSIGN_OR_RETURN(auto decoded, protocol::DecodeLockBatchResponseBody(response.body));
  return std::move(decoded.lock_ok_mq_set);
}

Status MQClientAPI::UnlockBatchMQ(std::string_view addr, const protocol::UnlockBatchRequestBody& body,
                                  Millis timeout, bool oneway) {
  RemotingCommand request = RemotingCommand::MakeRequest(rc::kUnlockBatchMq);
  request.body = protocol::EncodeLockBatchRequestBody(body);
  if (oneway) return impl_->remoting_.InvokeOneway(addr, std::move(request), timeout);
  return ExpectSuccess(addr, impl_->remoting_.InvokeSync(addr, std::move(request), timeout));
}

Status MQClientAPI::ConsumerSendMessageBack(
    std::string_view addr, const protocol::ConsumerSendMsgBackRequestHeader& header,
    Millis timeout) {
  return ExpectSuccess(addr, impl_->remoting_.InvokeSync(
                                 addr, MakeRequest(rc::kConsumerSendMsgBack, header), timeout));
}

Result<int64_t> MQClientAPI::GetMaxOffset(std::string_view addr, std::string_view topic,
                                          int32_t queue_id, Millis timeout) {
  protocol::GetMaxOffsetRequestHeader header;
  header.topic = std::string(topic);
  header.queue_id = queue_id;
  return DecodeOffsetAnswer(
      addr, impl_->remoting_.InvokeSync(addr, MakeRequest(rc::kGetMaxOffset, header), timeout));
}

Result<int64_t> MQClientAPI::GetMinOffset(std::string_view addr, std::string_view topic,
                                          int32_t queue_id, Millis timeout) {
  protocol::GetMinOffsetRequestHeader header;
  header.topic = std::string(topic);
  header.queue_id = queue_id;
  return DecodeOffsetAnswer(
      addr, impl_->remoting_.InvokeSync(addr, MakeRequest(rc::kGetMinOffset, header), timeout));
}

Result<int64_t> MQClientAPI::SearchOffset(std::string_view addr, std::string_view topic,
                                          int32_t queue_id, int64_t timestamp_ms, Millis timeout) {
  protocol::SearchOffsetRequestHeader header;
  header.topic = std::string(topic);
  header.queue_id = queue_id;
  header.timestamp = timestamp_ms;
  return DecodeOffsetAnswer(addr, impl_->remoting_.InvokeSync(
                                      addr, MakeRequest(rc::kSearchOffsetByTimestamp, header),
                                      timeout));
}

Result<int64_t> MQClientAPI::GetEarliestMsgStoreTime(std::string_view addr, std::string_view topic,
                                                     int32_t queue_id, Millis timeout) {
  protocol::GetEarliestMsgStoretimeRequestHeader header;
  header.topic = std::string(topic);
  header.queue_id = queue_id;
  APOGEE_ASSIGN_OR_RETURN(
      RemotingCommand response,
      impl_->remoting_.InvokeSync(addr, MakeRequest(rc::kGetEarliestMsgStoretime, header), timeout));
  if (response.code != rs::kSuccess) return ResponseError(addr, response);
  APOGEE_ASSIGN_OR_RETURN(
      auto decoded,
      DecodeResponseHeader<protocol::GetEarliestMsgStoretimeResponseHeader>(addr, response));
  return decoded.timestamp;
}

Result<message::MessageExt> MQClientAPI::ViewMessage(std::string_view addr, int64_t phy_offset,
                                                     Millis timeout) {
  protocol::ViewMessageRequestHeader header;
  header.offset = phy_offset;
  APOGEE_ASSIGN_OR_RETURN(
      RemotingCommand response,
      impl_->remoting_.InvokeSync(addr, MakeRequest(rc::kViewMessageById, header), timeout));
  if (response.code != rs::kSuccess) return ResponseError(addr, response);
  APOGEE_ASSIGN_OR_RETURN(std::vector<message::MessageExt> messages,
                          message::DecodeMessages(response.body));
  if (messages.empty()) {
    return Status::NotFound(fmt::format("{} returned no message at offset {}", addr, phy_offset));
  }
  return std::move(messages.front());
}

}  // namespace apogee::client
