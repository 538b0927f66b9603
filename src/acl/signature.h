// The request signature of RocketMQ's ACL (AclClientRPCHook, AclUtils, AclSigner):
// HMAC-SHA1 with the secret key, base64, over the values of the request's extFields
// sorted by key (AccessKey, SecurityToken and OnsChannel included, Signature excluded),
// followed by the body. Both the signing client and the checking server use this.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/remoting_command.h"

namespace apogee::acl {

// extFields keys (SessionCredentials).
inline constexpr std::string_view kAccessKeyField = "AccessKey";
inline constexpr std::string_view kSecretKeyField = "SecretKey";
inline constexpr std::string_view kSignatureField = "Signature";
inline constexpr std::string_view kSecurityTokenField = "SecurityToken";
inline constexpr std::string_view kOnsChannelField = "OnsChannel";
// MixAll.UNIQUE_MSG_QUERY_FLAG: the server leaves it out of the content (Java's
// PlainAccessValidator.parse), because admin tools add it after signing.
inline constexpr std::string_view kUniqueMsgQueryFlag = "_UNIQUE_KEY_QUERY";

struct Credentials {
  std::string access_key;
  std::string secret_key;
  std::optional<std::string> security_token;
  // ali-ons and Aliyun clients send OnsChannel ("ALIYUN"); Java's client sends none.
  std::optional<std::string> ons_channel;

  bool empty() const { return access_key.empty() || secret_key.empty(); }
};

// base64(HMAC-SHA1(secret, data)).
std::string CalSignature(std::string_view data, std::string_view secret_key);

// The bytes the signature covers, as the server computes them: extFields values sorted by
// key without Signature and _UNIQUE_KEY_QUERY, then the body.
std::string SignedContent(const protocol::RemotingCommand& request);

// Adds AccessKey (and SecurityToken, OnsChannel when set) to the request's extFields and
// then Signature over them. Does nothing when `credentials` is empty.
void SignRequest(const Credentials& credentials, protocol::RemotingCommand* request);

// SignRequest as a remoting client's before_request hook; empty when `credentials` are.
std::function<void(protocol::RemotingCommand*)> SigningHook(const Credentials& credentials);

}  // namespace apogee::acl
