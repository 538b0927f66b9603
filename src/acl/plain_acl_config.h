// plain_acl.yml of RocketMQ 4.x (PlainPermissionManager), parsed with yaml-cpp:
//
//   globalWhiteRemoteAddresses: ["10.10.103.*", "192.168.0.*"]
//   accounts:
//     - accessKey: RocketMQ
//       secretKey: 12345678
//       whiteRemoteAddress: ""
//       admin: false
//       defaultTopicPerm: DENY
//       defaultGroupPerm: SUB
//       topicPerms: ["topicA=DENY", "topicB=PUB|SUB"]
//       groupPerms: ["groupA=DENY", "groupB=PUB|SUB"]
//
// As Java: accessKey and secretKey longer than 6 characters, missing default perms are
// DENY, group resources are keyed by their retry topic ("%RETRY%groupA"), other keys
// (dataVersion) are ignored. Stricter than Java, with a reason naming the account: a
// permission that is not DENY/PUB/SUB/PUB|SUB/SUB|PUB (Java reads it as DENY), a
// duplicate accessKey (Java keeps the last), an address pattern Java would misread.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "acl/address_pattern.h"
#include "acl/permission.h"
#include "base/status.h"

namespace apogee::acl {

struct Account {
  std::string access_key;
  std::string secret_key;
  AddressPattern white_remote_address;
  bool admin = false;
  Perm default_topic_perm = kDeny;
  Perm default_group_perm = kDeny;
  // Topic names, and groups as "%RETRY%<group>".
  std::unordered_map<std::string, Perm> resource_perms;
};

struct PlainAclConfig {
  std::vector<AddressPattern> global_white_remote_addresses;
  std::unordered_map<std::string, Account> accounts;  // by accessKey
};

// InvalidArgument with the reason (YAML line and column for syntax errors).
Result<PlainAclConfig> ParsePlainAclConfig(std::string_view yaml_text);

}  // namespace apogee::acl
