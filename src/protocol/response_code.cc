#include "protocol/response_code.h"

#include <algorithm>
#include <array>
#include <utility>

namespace apogee::protocol::response_code {
namespace {

// Sorted by code for binary search.
constexpr std::array<std::pair<int32_t, std::string_view>, 49> kNames = {{
    {-1006, "RPC_TIME_OUT"},
    {-1004, "RPC_SEND_TO_CHANNEL_FAILED"},
    {-1002, "RPC_ADDR_IS_NULL"},
    {-1000, "RPC_UNKNOWN"},
    {0, "SUCCESS"},
    {1, "SYSTEM_ERROR"},
    {2, "SYSTEM_BUSY"},
    {3, "REQUEST_CODE_NOT_SUPPORTED"},
    {4, "TRANSACTION_FAILED"},
    {10, "FLUSH_DISK_TIMEOUT"},
    {11, "SLAVE_NOT_AVAILABLE"},
    {12, "FLUSH_SLAVE_TIMEOUT"},
    {13, "MESSAGE_ILLEGAL"},
    {14, "SERVICE_NOT_AVAILABLE"},
    {15, "VERSION_NOT_SUPPORTED"},
    {16, "NO_PERMISSION"},
    {17, "TOPIC_NOT_EXIST"},
    {18, "TOPIC_EXIST_ALREADY"},
    {19, "PULL_NOT_FOUND"},
    {20, "PULL_RETRY_IMMEDIATELY"},
    {21, "PULL_OFFSET_MOVED"},
    {22, "QUERY_NOT_FOUND"},
    {23, "SUBSCRIPTION_PARSE_FAILED"},
    {24, "SUBSCRIPTION_NOT_EXIST"},
    {25, "SUBSCRIPTION_NOT_LATEST"},
    {26, "SUBSCRIPTION_GROUP_NOT_EXIST"},
    {27, "FILTER_DATA_NOT_EXIST"},
    {28, "FILTER_DATA_NOT_LATEST"},
    {29, "INVALID_PARAMETER"},
    {200, "TRANSACTION_SHOULD_COMMIT"},
    {201, "TRANSACTION_SHOULD_ROLLBACK"},
    {202, "TRANSACTION_STATE_UNKNOW"},
    {203, "TRANSACTION_STATE_GROUP_WRONG"},
    {204, "NO_BUYER_ID"},
    {205, "NOT_IN_CURRENT_UNIT"},
    {206, "CONSUMER_NOT_ONLINE"},
    {207, "CONSUME_MSG_TIMEOUT"},
    {208, "NO_MESSAGE"},
    {209, "POLLING_FULL/UPDATE_AND_CREATE_ACL_CONFIG_FAILED"},
    {210, "DELETE_ACL_CONFIG_FAILED/POLLING_TIMEOUT"},
    {211, "BROKER_NOT_EXIST/UPDATE_GLOBAL_WHITE_ADDRS_CONFIG_FAILED"},
    {212, "BROKER_DISPATCH_NOT_COMPLETE"},
    {213, "BROADCAST_CONSUMPTION"},
    {215, "FLOW_CONTROL"},
    {501, "NOT_LEADER_FOR_QUEUE"},
    {604, "ILLEGAL_OPERATION"},
    {1500, "GO_AWAY"},
    {3001, "USER_NOT_EXIST"},
    {3002, "POLICY_NOT_EXIST"},
}};

}  // namespace

std::string_view Name(int32_t code) {
  const auto* it = std::lower_bound(kNames.begin(), kNames.end(), code,
                                    [](const auto& entry, int32_t c) { return entry.first < c; });
  return it != kNames.end() && it->first == code ? it->second : "UNKNOWN";
}

}  // namespace apogee::protocol::response_code
