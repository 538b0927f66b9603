// TopicList body (RQ:rp/body/TopicList.java; docs/protocol/remoting.md §7.3): the answer to
// GET_ALL_TOPIC_LIST_FROM_NAMESERVER, GET_TOPICS_BY_CLUSTER and the system/unit lists.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "base/status.h"

namespace apogee::protocol {

struct TopicList {
  std::set<std::string> topic_list;
  std::optional<std::string> broker_addr;  // omitted when null

  bool operator==(const TopicList&) const = default;
};

// {"brokerAddr":"...","topicList":["t1","t2"]}, compact, topics sorted.
std::string EncodeTopicList(const TopicList& list);
Result<TopicList> DecodeTopicList(std::string_view json);

}  // namespace apogee::protocol
