#include "acl/access_validator.h"

#include <fmt/format.h>

#include <openssl/crypto.h>

#include "acl/address_pattern.h"
#include "acl/signature.h"
#include "protocol/heartbeat_data.h"
#include "protocol/mix_all.h"
#include "protocol/request_code.h"
#include "protocol/send_headers.h"
#include "protocol/system_topics.h"

namespace apogee::acl {

namespace rq = protocol::request_code;

namespace {

using protocol::IsRetryTopic;
using protocol::kRetryGroupTopicPrefix;
using protocol::RetryTopic;

std::string Describe(std::string_view resource) {
  if (IsRetryTopic(resource)) {
    return fmt::format("group:{}", resource.substr(kRetryGroupTopicPrefix.size()));
  }
  return fmt::format("topic:{}", resource);
}

bool SameSignature(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

Status CheckResources(const Account& account, const std::map<std::string, Perm>& needed) {
  // Java: an admin without topicPerms/groupPerms may use every resource.
  if (account.admin && account.resource_perms.empty()) return Status::OK();
  for (const auto& [resource, perm] : needed) {
    bool group = IsRetryTopic(resource);
    auto it = account.resource_perms.find(resource);
    Perm owned = it != account.resource_perms.end()
                     ? it->second
                     : (group ? account.default_group_perm : account.default_topic_perm);
    if (!CheckPermission(perm, owned)) {
      return Status::PermissionDenied(fmt::format("No {} permission for {} (accessKey={})",
                                                  PermName(perm), Describe(resource),
                                                  account.access_key));
    }
  }
  return Status::OK();
}

}  // namespace

Result<std::map<std::string, Perm>> RequestResources(const protocol::RemotingCommand& request) {
  std::map<std::string, Perm> out;
  auto add = [&](std::optional<std::string_view> resource, Perm perm) {
    if (!resource || resource->empty()) return;
    out[std::string(*resource)] |= perm;
  };
  auto add_group = [&](std::optional<std::string_view> group, Perm perm) {
    if (group && !group->empty()) add(RetryTopic(*group), perm);
  };
  const auto& ext = request.ext_fields;
  switch (request.code) {
    case rq::kSendMessage:
    case rq::kSendMessageV2:
    case rq::kSendBatchMessage:
    case rq::kSendReplyMessage:
    case rq::kSendReplyMessageV2: {
      // The header as the send processor reads it (V1 or V2 keys by code), so the checked
      // topic is the written one. A send to %RETRY%G is a consumer's retry: SUB on G.
      APOGEE_ASSIGN_OR_RETURN(auto header, protocol::DecodeSendMessageRequestHeader(request));
      add(header.topic, IsRetryTopic(header.topic) ? kSub : kPub);
      break;
    }
    case rq::kConsumerSendMsgBack:
      add_group(ext.Get("group"), kSub);
      break;
    case rq::kPullMessage:
      add(ext.Get("topic"), kSub);
      add_group(ext.Get("consumerGroup"), kSub);
      break;
    case rq::kQueryMessage:
      add(ext.Get("topic"), kSub);
      break;
    case rq::kHeartBeat: {
      APOGEE_ASSIGN_OR_RETURN(auto heartbeat, protocol::DecodeHeartbeatData(request.body));
      for (const auto& consumer : heartbeat.consumer_data_set) {
        add_group(consumer.group_name, kSub);
        for (const auto& sub : consumer.subscription_data_set) add(sub.topic, kSub);
      }
      break;
    }
    case rq::kUnregisterClient:
    case rq::kGetConsumerListByGroup:
      add_group(ext.Get("consumerGroup"), kSub);
      break;
    case rq::kUpdateConsumerOffset:
      add_group(ext.Get("consumerGroup"), kSub);
      add(ext.Get("topic"), kSub);
      break;
    default:
      break;
  }
  return out;
}

Status ValidateRequest(const PlainAclConfig& config, AclScope scope,
                       std::string_view remote_address, const protocol::RemotingCommand& request) {
  bool needs_admin = scope == AclScope::kBroker ? BrokerCodeNeedsAdmin(request.code)
                                                : NamesrvCodeNeedsAdmin(request.code);
  if (scope == AclScope::kNamesrv && !needs_admin) return Status::OK();

  std::string host = HostOfRemoteAddress(remote_address);
  for (const AddressPattern& white : config.global_white_remote_addresses) {
    if (white.Matches(host)) return Status::OK();
  }
  auto access_key = request.ext_fields.Get(kAccessKeyField);
  if (!access_key) return Status::PermissionDenied("No accessKey is configured");
  auto it = config.accounts.find(std::string(*access_key));
  if (it == config.accounts.end()) {
    return Status::PermissionDenied(fmt::format("No acl config for {}", *access_key));
  }
  const Account& account = it->second;
  if (account.white_remote_address.Matches(host)) return Status::OK();

  auto signature = request.ext_fields.Get(kSignatureField);
  if (!signature ||
      !SameSignature(*signature, CalSignature(SignedContent(request), account.secret_key))) {
    return Status::PermissionDenied(
        fmt::format("Check signature failed for accessKey={}", account.access_key));
  }
  if (needs_admin && !account.admin) {
    return Status::PermissionDenied(
        fmt::format("Need admin permission for request code={}, but accessKey={} is not",
                    request.code, account.access_key));
  }
  if (scope == AclScope::kNamesrv) return Status::OK();

  auto resources = RequestResources(request);
  if (!resources.ok()) {
    return Status::PermissionDenied(
        fmt::format("cannot read the resources of request code {}: {}", request.code,
                    resources.status().message()));
  }
  // Java lets any signed account publish traces (TopicValidator.RMQ_SYS_TRACE_TOPIC).
  if (auto trace = resources->find(std::string(protocol::kTraceTopic));
      trace != resources->end() && trace->second == kPub) {
    return Status::OK();
  }
  return CheckResources(account, *resources);
}

Status VerifyHaChallenge(const PlainAclConfig& config, std::string_view access_key,
                         std::string_view challenge, std::string_view signature) {
  auto it = config.accounts.find(std::string(access_key));
  if (it == config.accounts.end()) {
    return Status::PermissionDenied(fmt::format("No acl config for {}", access_key));
  }
  if (!SameSignature(signature, CalSignature(challenge, it->second.secret_key))) {
    return Status::PermissionDenied(
        fmt::format("Check signature failed for accessKey={}", access_key));
  }
  if (!it->second.admin) {
    return Status::PermissionDenied(
        fmt::format("HA replication needs an admin account, accessKey={} is not", access_key));
  }
  return Status::OK();
}

}  // namespace apogee::acl
