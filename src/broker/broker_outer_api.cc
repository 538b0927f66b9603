#include "broker/broker_outer_api.h"

#include <fmt/format.h>

#include <condition_variable>
#include <utility>

#include "base/crc32.h"
#include "protocol/custom_header.h"
#include "protocol/namesrv_headers.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "remoting/remoting_client.h"

namespace apogee::broker {
namespace {

Status ReplyStatus(std::string_view what, const std::string& addr,
                   const Result<protocol::RemotingCommand>& reply) {
  if (!reply.ok()) return reply.status().Prefixed(fmt::format("{} to {}", what, addr));
  if (reply->code != protocol::response_code::kSuccess) {
    return Status::Unavailable(fmt::format("{} to {} answered code {} ({})", what, addr,
                                           reply->code, reply->remark.value_or("no remark")));
  }
  return Status::OK();
}

}  // namespace

BrokerOuterAPI::BrokerOuterAPI(remoting::RemotingClientOptions options)
    : client_(std::make_unique<remoting::RemotingClient>(std::move(options))) {}

BrokerOuterAPI::~BrokerOuterAPI() { Shutdown(); }

void BrokerOuterAPI::Start() { client_->Start(); }

void BrokerOuterAPI::Shutdown() { client_->Shutdown(); }

void BrokerOuterAPI::UpdateNameServerAddressList(std::vector<std::string> addrs) {
  std::lock_guard<std::mutex> lock(mu_);
  namesrv_addrs_ = std::move(addrs);
}

std::vector<std::string> BrokerOuterAPI::NameServerAddressList() const {
  std::lock_guard<std::mutex> lock(mu_);
  return namesrv_addrs_;
}

protocol::RemotingCommand BrokerOuterAPI::BuildRegisterRequest(
    const RegisterBrokerRequest& request) {
  protocol::RegisterBrokerBody body;
  body.topic_config_serialize_wrapper = request.topic_config_wrapper;
  body.filter_server_list = request.filter_server_list;

  protocol::RemotingCommand command =
      protocol::RemotingCommand::MakeRequest(protocol::request_code::kRegisterBroker);
  command.body = request.compressed ? protocol::EncodeCompressedRegisterBrokerBody(body)
                                    : protocol::EncodeRegisterBrokerBody(body);
  protocol::RegisterBrokerRequestHeader header;
  header.broker_name = request.broker_name;
  header.broker_addr = request.broker_addr;
  header.cluster_name = request.cluster_name;
  header.ha_server_addr = request.ha_server_addr;
  header.broker_id = request.broker_id;
  header.compressed = request.compressed;
  header.body_crc32 = static_cast<int32_t>(Crc32Masked(command.body));
  protocol::EncodeCustomHeader(header, &command);
  return command;
}

std::vector<BrokerOuterAPI::Reply> BrokerOuterAPI::InvokeAll(
    const std::vector<std::string>& addrs, const protocol::RemotingCommand& request,
    std::chrono::milliseconds timeout) {
  struct Pending {
    std::mutex mu;
    std::condition_variable cv;
    size_t remaining = 0;
    std::vector<Result<protocol::RemotingCommand>> replies;
  };
  auto pending = std::make_shared<Pending>();
  pending->remaining = addrs.size();
  pending->replies.assign(addrs.size(), Status::Unavailable("no answer"));
  for (size_t i = 0; i < addrs.size(); ++i) {
    // Callbacks run on an IO thread: record and signal, never block there.
    client_->InvokeAsync(addrs[i], request, timeout,
                         [pending, i](Result<protocol::RemotingCommand> reply) {
                           std::lock_guard<std::mutex> lock(pending->mu);
                           pending->replies[i] = std::move(reply);
                           if (--pending->remaining == 0) pending->cv.notify_all();
                         });
  }
  std::unique_lock<std::mutex> lock(pending->mu);
  // Each call times out on its own; the margin only guards against a lost callback.
  pending->cv.wait_for(lock, timeout + std::chrono::seconds(5),
                       [&] { return pending->remaining == 0; });
  std::vector<Reply> out(addrs.size());
  for (size_t i = 0; i < addrs.size(); ++i) {
    const Result<protocol::RemotingCommand>& r = pending->replies[i];
    if (r.ok()) {
      out[i].response = *r;
    } else {
      out[i].status = r.status();
    }
  }
  return out;
}

std::vector<RegisterOutcome> BrokerOuterAPI::RegisterBrokerAll(
    const RegisterBrokerRequest& request) {
  const std::vector<std::string> addrs = NameServerAddressList();
  std::vector<RegisterOutcome> outcomes(addrs.size());
  if (addrs.empty()) return outcomes;
  const protocol::RemotingCommand command = BuildRegisterRequest(request);
  std::vector<Reply> replies = InvokeAll(addrs, command, request.timeout);
  for (size_t i = 0; i < addrs.size(); ++i) {
    RegisterOutcome& o = outcomes[i];
    o.namesrv_addr = addrs[i];
    if (!replies[i].status.ok()) {
      o.status = replies[i].status.Prefixed(fmt::format("REGISTER_BROKER to {}", addrs[i]));
      continue;
    }
    o.status = ReplyStatus("REGISTER_BROKER", addrs[i], replies[i].response);
    if (!o.status.ok()) continue;
    Result<protocol::RegisterBrokerResult> result =
        protocol::DecodeRegisterBrokerResult(replies[i].response);
    if (!result.ok()) {
      o.status = result.status().Prefixed(fmt::format("REGISTER_BROKER answer from {}", addrs[i]));
      continue;
    }
    o.result = std::move(result).value();
  }
  return outcomes;
}

std::vector<Status> BrokerOuterAPI::UnregisterBrokerAll(const std::string& cluster_name,
                                                        const std::string& broker_addr,
                                                        const std::string& broker_name,
                                                        int64_t broker_id,
                                                        std::chrono::milliseconds timeout) {
  const std::vector<std::string> addrs = NameServerAddressList();
  std::vector<Status> out(addrs.size());
  if (addrs.empty()) return out;
  protocol::RemotingCommand command =
      protocol::RemotingCommand::MakeRequest(protocol::request_code::kUnregisterBroker);
  protocol::UnRegisterBrokerRequestHeader header;
  header.broker_name = broker_name;
  header.broker_addr = broker_addr;
  header.cluster_name = cluster_name;
  header.broker_id = broker_id;
  protocol::EncodeCustomHeader(header, &command);
  std::vector<Reply> replies = InvokeAll(addrs, command, timeout);
  for (size_t i = 0; i < addrs.size(); ++i) {
    if (!replies[i].status.ok()) {
      out[i] = replies[i].status.Prefixed(fmt::format("UNREGISTER_BROKER to {}", addrs[i]));
    } else {
      out[i] = ReplyStatus("UNREGISTER_BROKER", addrs[i], replies[i].response);
    }
  }
  return out;
}

}  // namespace apogee::broker
