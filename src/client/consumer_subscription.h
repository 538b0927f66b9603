// Tag subscriptions (Java's FilterAPI.buildSubscriptionData and the client-side tag check
// of PullAPIWrapper.processPullResult; docs/protocol/store_ha.md §8.5).
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"
#include "protocol/heartbeat_data.h"

namespace apogee::client {

// "*" or empty: everything. Otherwise tags split on "||" and trimmed, each with its Java
// String.hashCode in code_set. sub_version is `now_ms`. InvalidArgument for an empty topic
// or an expression with no tag in it (e.g. "||").
Result<protocol::SubscriptionData> BuildSubscriptionData(std::string_view topic,
                                                         std::string_view expression,
                                                         int64_t now_ms);

// The exact-tag check the client applies after the broker's hash filter: true when the
// subscription takes everything, else when the message has a tag in tags_set.
bool SubscriptionMatchesTag(const protocol::SubscriptionData& sub, std::string_view tags,
                            bool has_tags);

}  // namespace apogee::client
