#include "acl/permission.h"

#include "base/string_util.h"
#include "protocol/request_code.h"

namespace apogee::acl {

namespace rq = protocol::request_code;

std::optional<Perm> ParsePerm(std::string_view text) {
  std::string_view t = TrimWhitespace(text);
  if (t == "DENY") return kDeny;
  if (t == "PUB") return kPub;
  if (t == "SUB") return kSub;
  if (t == "PUB|SUB" || t == "SUB|PUB") return static_cast<Perm>(kPub | kSub);
  return std::nullopt;
}

std::string_view PermName(Perm perm) {
  if (perm & kDeny) return "DENY";
  if (perm & kAny) return "ANY";
  if ((perm & kPub) && (perm & kSub)) return "PUB|SUB";
  if (perm & kPub) return "PUB";
  if (perm & kSub) return "SUB";
  return "DENY";
}

bool CheckPermission(Perm needed, Perm owned) {
  if (owned & kDeny) return false;
  if (needed & kAny) return (owned & kPub) || (owned & kSub);
  return (needed & owned) != 0;
}

bool BrokerCodeNeedsAdmin(int32_t code) {
  switch (code) {
    case rq::kUpdateAndCreateTopic:
    case rq::kUpdateAndCreateTopicList:
    case rq::kUpdateBrokerConfig:
    case rq::kDeleteTopicInBroker:
    case rq::kUpdateAndCreateSubscriptiongroup:
    case rq::kDeleteSubscriptiongroup:
    case rq::kInvokeBrokerToResetOffset:
    case rq::kCloneGroupOffset:
    case rq::kApogeeRedriveDlqMessage:
      return true;
    default:
      return false;
  }
}

bool NamesrvCodeNeedsAdmin(int32_t code) {
  switch (code) {
    case rq::kRegisterBroker:
    case rq::kUnregisterBroker:
    case rq::kBrokerHeartbeat:
    case rq::kWipeWritePermOfBroker:
    case rq::kAddWritePermOfBroker:
    case rq::kDeleteTopicInNamesrv:
    case rq::kRegisterTopicInNamesrv:
    case rq::kPutKvConfig:
    case rq::kDeleteKvConfig:
    case rq::kUpdateNamesrvConfig:
      return true;
    default:
      return false;
  }
}

}  // namespace apogee::acl
