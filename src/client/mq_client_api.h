// MQClientAPI: the client's typed RPCs to NameServers and brokers (Java's MQClientAPIImpl).
//
// One RemotingClient underneath (pimpl: this header stays free of remoting/ and net/, so
// the admin module, which links client and protocol only, can use it). NameServers are
// used as Java's NettyRemotingClient does: sticky to the one that last answered, moving
// round-robin to the next on a connect or timeout error, and an error names every
// NameServer asked.
//
// Broker answers other than success become error Statuses whose message names the
// address, the response code and the broker's remark, with a StatusCode from
// StatusForResponseCode() (so the producer can tell retriable codes apart).
//
// Thread-safety: every method may be called from any thread after Start(). Async
// callbacks and broker-initiated request handlers run on the callback executor (not on
// IO threads), so they may block briefly and may call the sync methods.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "acl/signature.h"
#include "apogee/send_result.h"
#include "base/status.h"
#include "base/tls_config.h"
#include "message/message.h"
#include "protocol/consumer_headers.h"
#include "protocol/heartbeat_data.h"
#include "protocol/lock_batch_body.h"
#include "protocol/remoting_command.h"
#include "protocol/route_data.h"
#include "protocol/send_headers.h"

namespace apogee::client {

class AsyncSendCall;  // client/async_send_call.h
using Millis = std::chrono::milliseconds;

// The StatusCode a broker/NameServer response code maps to. Retriable send codes (Java's
// retryResponseCodes: TOPIC_NOT_EXIST, SERVICE_NOT_AVAILABLE, SYSTEM_ERROR, SYSTEM_BUSY,
// NO_PERMISSION, NO_BUYER_ID, NOT_IN_CURRENT_UNIT, GO_AWAY) map to kNotFound, kUnavailable,
// kInternal, kBusy, kPermissionDenied, kUnavailable; MESSAGE_ILLEGAL and INVALID_PARAMETER
// to kInvalidArgument; REQUEST_CODE_NOT_SUPPORTED to kNotSupported; anything else kAborted.
StatusCode StatusForResponseCode(int32_t response_code);
// "<addr> answered <NAME> (<code>)[: <remark>]" with StatusForResponseCode's code.
Status ResponseError(std::string_view addr, const protocol::RemotingCommand& response);

// One PULL_MESSAGE answer, left for the consumer to interpret (FOUND / NO_NEW_MSG /
// NO_MATCHED_MSG / OFFSET_ILLEGAL); other codes arrive as an error Status.
struct PullResponse {
  int32_t code = 0;
  protocol::PullMessageResponseHeader header;
  std::string body;  // CommitLog records (message::DecodeMessages)
  std::string remark;
};

// Handles one broker-initiated request (NOTIFY_CONSUMER_IDS_CHANGED, CHECK_TRANSACTION_STATE,
// ...). Returns the response to send, or nullopt for none (oneway requests never get one).
using ServerRequestHandler = std::function<std::optional<protocol::RemotingCommand>(
    const protocol::RemotingCommand& request, const std::string& remote_addr)>;

struct MQClientAPIOptions {
  size_t callback_threads = 4;
  Millis connect_timeout = std::chrono::seconds(3);
  // TLS to every NameServer and broker (ClientConfig.use_tls and its tls_* fields).
  bool use_tls = false;
  TlsConfig tls;
  // Every request is signed with these when they are not empty (ACL).
  acl::Credentials credentials;
  // ClientConfig.sync_wait_spin_us; unset: the remoting client's default.
  std::optional<std::chrono::microseconds> sync_wait_spin;
};

class MQClientAPI {
 public:
  explicit MQClientAPI(MQClientAPIOptions options = {});
  ~MQClientAPI();  // Shutdown()
  MQClientAPI(const MQClientAPI&) = delete;
  MQClientAPI& operator=(const MQClientAPI&) = delete;

  // Must be called before Start().
  void RegisterServerRequestHandler(int32_t request_code, ServerRequestHandler handler);
  void Start();
  // Closes connections (pending calls fail), drains the callback executor. Idempotent.
  void Shutdown();

  // "host:port;host:port" (blanks and empty pieces ignored). InvalidArgument naming the
  // bad piece when one is not host:port, or when there is none.
  Status UpdateNameServerAddressList(std::string_view addresses);
  std::vector<std::string> NameServerAddressList() const;

  // Raw calls (mqadmin). The request's opaque is assigned here.
  Result<protocol::RemotingCommand> InvokeSync(std::string_view addr,
                                               protocol::RemotingCommand request, Millis timeout);
  void InvokeAsync(std::string_view addr, protocol::RemotingCommand request, Millis timeout,
                   std::function<void(Result<protocol::RemotingCommand>)> callback);
  Status InvokeOneway(std::string_view addr, protocol::RemotingCommand request, Millis timeout);
  // To the current NameServer, failing over to the next ones on connect/timeout errors.
  // Unavailable "no NameServer address set" when the list is empty.
  Result<protocol::RemotingCommand> InvokeNamesrvSync(protocol::RemotingCommand request,
                                                      Millis timeout);

  // ---- NameServer ----
  // NotFound "No route info of this topic: T" when the NameServer answers TOPIC_NOT_EXIST.
  Result<protocol::TopicRouteData> GetTopicRouteInfoFromNameServer(std::string_view topic,
                                                                   Millis timeout);

  // ---- producer -> broker ----
  // SEND_MESSAGE_V2 (SEND_BATCH_MESSAGE when header.batch), V2 header. `client_msg_id` is
  // what SendResult.msg_id reports (the UNIQ_KEY, comma-joined for a batch). The header's
  // members are written into the request as they are (no copy).
  Result<SendResult> SendMessage(std::string_view addr, std::string_view broker_name,
                                 const protocol::SendMessageRequestHeader& header, std::string body,
                                 std::string client_msg_id, Millis timeout);
  // The async form: `call` (client/async_send_call.h) gets the result through its
  // OnSendResult, and its topic and client_msg_id make the SendResult. `body` is borrowed
  // (RemotingCommand::borrowed_body): it must stay valid until `call` is handed back, which
  // it does when `call` holds it. With
  // `success_on_io_thread` a successful result goes to it on the IO thread that read the
  // answer; errors always go through the callback executor.
  void SendMessageAsync(std::string_view addr, std::string_view broker_name,
                        const protocol::SendMessageRequestHeader& header,
                        std::string_view body, Millis timeout, bool success_on_io_thread,
                        std::unique_ptr<AsyncSendCall> call);
  Status SendMessageOneway(std::string_view addr, const protocol::SendMessageRequestHeader& header,
                           std::string body, Millis timeout);
  // END_TRANSACTION, oneway as every client sends it.
  Status EndTransactionOneway(std::string_view addr,
                              const protocol::EndTransactionRequestHeader& header,
                              std::optional<std::string> remark, Millis timeout);

  // ---- consumer -> broker ----
  void PullMessageAsync(std::string_view addr, const protocol::PullMessageRequestHeader& header,
                        Millis timeout, std::function<void(Result<PullResponse>)> callback);
  Result<PullResponse> PullMessageSync(std::string_view addr,
                                       const protocol::PullMessageRequestHeader& header,
                                       Millis timeout);
  // HEART_BEAT; returns the version the broker put in its answer.
  Result<int32_t> SendHeartbeat(std::string_view addr, const protocol::HeartbeatData& data,
                                Millis timeout);
  Status UnregisterClient(std::string_view addr, std::string_view client_id,
                          std::optional<std::string> producer_group,
                          std::optional<std::string> consumer_group, Millis timeout);
  // NotFound when the broker has no offset for the group (QUERY_NOT_FOUND, 22).
  Result<int64_t> QueryConsumerOffset(std::string_view addr,
                                      const protocol::QueryConsumerOffsetRequestHeader& header,
                                      Millis timeout);
  Status UpdateConsumerOffset(std::string_view addr,
                              const protocol::UpdateConsumerOffsetRequestHeader& header,
                              Millis timeout);
  Status UpdateConsumerOffsetOneway(std::string_view addr,
                                    const protocol::UpdateConsumerOffsetRequestHeader& header,
                                    Millis timeout);
  Result<std::vector<std::string>> GetConsumerIdListByGroup(std::string_view addr,
                                                            std::string_view group, Millis timeout);
  Result<std::set<protocol::MessageQueue>> LockBatchMQ(std::string_view addr,
                                                       const protocol::LockBatchRequestBody& body,
                                                       Millis timeout);
  Status UnlockBatchMQ(std::string_view addr, const protocol::UnlockBatchRequestBody& body,
                       Millis timeout, bool oneway);
  Status ConsumerSendMessageBack(std::string_view addr,
                                 const protocol::ConsumerSendMsgBackRequestHeader& header,
                                 Millis timeout);
  Result<int64_t> GetMaxOffset(std::string_view addr, std::string_view topic, int32_t queue_id,
                               Millis timeout);
  Result<int64_t> GetMinOffset(std::string_view addr, std::string_view topic, int32_t queue_id,
                               Millis timeout);
  Result<int64_t> SearchOffset(std::string_view addr, std::string_view topic, int32_t queue_id,
                               int64_t timestamp_ms, Millis timeout);
  Result<int64_t> GetEarliestMsgStoreTime(std::string_view addr, std::string_view topic,
                                          int32_t queue_id, Millis timeout);
  // VIEW_MESSAGE_BY_ID: the message at CommitLog offset `phy_offset` (body decompressed).
  Result<message::MessageExt> ViewMessage(std::string_view addr, int64_t phy_offset,
                                          Millis timeout);

 private:
  class Impl;
  std::shared_ptr<Impl> impl_;
};

// How a send request carries its header: as the extFields map (what the ACL signer reads
// and signs), or as JSON members written straight from the typed header, for a client that
// does not sign (no map of 13 key and value strings per send). Both give the same frame.
enum class SendHeaderForm { kExtFieldsMap, kJsonMembers };

// The SEND_MESSAGE_V2 (SEND_BATCH_MESSAGE when header.batch) request for `header` and `body`.
protocol::RemotingCommand MakeSendRequest(const protocol::SendMessageRequestHeader& header,
                                          std::string body, SendHeaderForm form);

// The SendResult for a send response (Java's processSendResponse): codes 0/10/12/11 are
// results, anything else ResponseError.
Result<SendResult> ProcessSendResponse(std::string_view addr, std::string_view broker_name,
                                       std::string_view topic, std::string client_msg_id,
                                       const protocol::RemotingCommand& response);

}  // namespace apogee::client
