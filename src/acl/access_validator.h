// Checks one request against a PlainAclConfig, as RocketMQ 4.x's PlainAccessValidator
// (parse + PlainPermissionManager.validate): global white list, then the account named by
// AccessKey, its white address, the signature, the admin codes and each resource the
// request code touches. A refusal is PermissionDenied whose message names what is
// missing (never the secret); the server answers it as NO_PERMISSION (16).
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "acl/permission.h"
#include "acl/plain_acl_config.h"
#include "base/status.h"
#include "protocol/remoting_command.h"

namespace apogee::acl {

// Which server checks: a broker checks every request (Java); a NameServer checks only
// the codes that change membership, routes, KV or config (NamesrvCodeNeedsAdmin), and
// those need an admin account.
enum class AclScope { kBroker, kNamesrv };

// The resources a broker request touches and the permission each needs (Java's parse):
// topics by name, groups as "%RETRY%<group>"; a send to a retry topic needs SUB on that
// group. Errors for a header or heartbeat body that does not parse.
Result<std::map<std::string, Perm>> RequestResources(const protocol::RemotingCommand& request);

// `remote_address` is the channel's "ip:port".
Status ValidateRequest(const PlainAclConfig& config, AclScope scope,
                       std::string_view remote_address, const protocol::RemotingCommand& request);

// The HA handshake (docs/format/ha_protocol.md "Authentication"): OK when `signature` is
// CalSignature(challenge) with the secret of `access_key` and the account is an admin.
// White addresses do not apply: a slave always proves it holds the key.
Status VerifyHaChallenge(const PlainAclConfig& config, std::string_view access_key,
                         std::string_view challenge, std::string_view signature);

}  // namespace apogee::acl
