// Subscription helpers of the pull path (Java's FilterAPI.build and
// ExpressionMessageFilter.isMatchedByConsumeQueue; docs/protocol/remoting.md §5.3.1 step 5,
// docs/protocol/store_ha.md §8.5):
//  * BuildSubscriptionData turns the `subscription` / `expressionType` of a pull header
//    (C++ and ali-ons send them on every pull) into the SubscriptionData a heartbeat
//    would carry: tags split on "||", trimmed, empties dropped, code set = Java
//    String.hashCode of each tag; empty or "*" subscribes to everything.
//  * MakeTagCodeFilter gives the store's ConsumeQueue filter for a subscription: match
//    all for "*", otherwise the tag code (as int32) must be in the code set. Hash
//    collisions pass; the client re-checks the exact tag string.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "base/status.h"
#include "protocol/heartbeat_data.h"
#include "store/message_store.h"

namespace apogee::broker {

// InvalidArgument naming the expression when a TAG expression yields no tag at all
// (e.g. "||"), which Java reports as SUBSCRIPTION_PARSE_FAILED. A non-TAG type (SQL92) is
// returned with its expression untouched; the caller decides whether it is supported.
Result<protocol::SubscriptionData> BuildSubscriptionData(std::string_view topic,
                                                         std::string_view sub_string,
                                                         std::string_view expression_type,
                                                         int64_t sub_version = 0);

// Java's isMatchedByConsumeQueue for a TAG subscription.
bool TagCodeMatches(const protocol::SubscriptionData& subscription, int64_t tag_code);

// A null filter (match everything) for "*" and for class-filter mode, else a filter that
// keeps `subscription` alive and checks TagCodeMatches.
store::TagCodeFilter MakeTagCodeFilter(std::shared_ptr<const protocol::SubscriptionData> subscription);

}  // namespace apogee::broker
