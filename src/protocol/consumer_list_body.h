// GetConsumerListByGroupResponseBody, the answer to GET_CONSUMER_LIST_BY_GROUP (38):
// {"consumerIdList":["ip@instance",...]} (RQ:rp/header/GetConsumerListByGroupResponseBody.java,
// docs/protocol/remoting.md §5.3.4, §7.8). Clients sort the ids themselves before allocating
// queues, but a sorted list keeps every broker's answer byte-identical.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace apogee::protocol {

struct GetConsumerListByGroupResponseBody {
  std::vector<std::string> consumer_id_list;

  bool operator==(const GetConsumerListByGroupResponseBody&) const = default;
};

std::string EncodeConsumerListBody(const GetConsumerListByGroupResponseBody& body);
// A missing consumerIdList is empty; a non-string id is Corruption.
Result<GetConsumerListByGroupResponseBody> DecodeConsumerListBody(std::string_view json);

}  // namespace apogee::protocol
