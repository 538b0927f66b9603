// Permissions of the plain ACL (RocketMQ 4.x acl.common.Permission): the bits, their
// names in plain_acl.yml, the check of a needed permission against an owned one, and
// the request codes that need an admin account.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace apogee::acl {

using Perm = uint8_t;
inline constexpr Perm kDeny = 1;
inline constexpr Perm kAny = 1 << 1;
inline constexpr Perm kPub = 1 << 2;
inline constexpr Perm kSub = 1 << 3;

// "DENY", "PUB", "SUB", "PUB|SUB" or "SUB|PUB" (blanks around are ignored); nullopt for
// anything else (Java silently maps it to DENY; the file loader refuses it instead so a
// typo cannot silently deny or, worse, be read as intended).
std::optional<Perm> ParsePerm(std::string_view text);
// "DENY", "PUB", "SUB", "PUB|SUB", "ANY": for remarks.
std::string_view PermName(Perm perm);

// Java's Permission.checkPermission: DENY in `owned` refuses everything; ANY needs PUB or
// SUB; otherwise a shared bit.
bool CheckPermission(Perm needed, Perm owned);

// Codes only an account with `admin: true` may send to a broker: Java's ADMIN_CODE
// (UPDATE_AND_CREATE_TOPIC, UPDATE_BROKER_CONFIG, DELETE_TOPIC_IN_BROKER,
// UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, DELETE_SUBSCRIPTIONGROUP) plus, beyond 4.x, the
// other codes that change what clients see or where they resume (offset reset and clone,
// batch topic creation, Apogee's DLQ redrive).
bool BrokerCodeNeedsAdmin(int32_t request_code);

// Codes a NameServer with ACL on accepts only from an admin account: cluster membership
// (REGISTER_BROKER, UNREGISTER_BROKER, BROKER_HEARTBEAT), route changes (WIPE/ADD write
// permission, DELETE_TOPIC_IN_NAMESRV, REGISTER_TOPIC_IN_NAMESRV), KV and config updates.
// Route and config queries stay open to every client.
bool NamesrvCodeNeedsAdmin(int32_t request_code);

}  // namespace apogee::acl
