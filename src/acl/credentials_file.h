// A credentials file in the format of RocketMQ's conf/tools.yml (what Java's mqadmin reads
// through AclUtils.getAclRPCHook):
//   accessKey: RocketMQ
//   secretKey: 12345678
// plus an optional securityToken. mqadmin reads $ROCKETMQ_HOME/conf/tools.yml like Java;
// the broker signs its NameServer registrations, slave requests and HA handshake with
// the file named by broker.conf `aclCredentialsFile`.
#pragma once

#include <string>
#include <string_view>

#include "acl/signature.h"
#include "base/status.h"

namespace apogee::acl {

// NotFound when the file does not exist; InvalidArgument naming the file when it does not
// parse or lacks accessKey / secretKey (the secret is never part of a message).
Result<Credentials> ReadCredentialsFile(const std::string& path);
Result<Credentials> ParseCredentials(std::string_view yaml_text);

}  // namespace apogee::acl
