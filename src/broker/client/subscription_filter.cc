#include "broker/client/subscription_filter.h"

#include <fmt/format.h>

#include <string>
#include <utility>

#include "base/java_hash.h"

namespace apogee::broker {

namespace {

std::string_view Trim(std::string_view s) {
  // Java's String.trim: everything <= ' ' at both ends.
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= ' ') s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= ' ') s.remove_suffix(1);
  return s;
}

bool IsSubAll(std::string_view sub_string) {
  return sub_string.empty() || Trim(sub_string) == protocol::kSubAll;
}

}  // namespace

Result<protocol::SubscriptionData> BuildSubscriptionData(std::string_view topic,
                                                         std::string_view sub_string,
                                                         std::string_view expression_type,
                                                         int64_t sub_version) {
  protocol::SubscriptionData data;
  data.topic = std::string(topic);
  data.sub_version = sub_version;
  if (!protocol::IsTagExpressionType(expression_type)) {
    data.expression_type = std::string(expression_type);
    data.sub_string = std::string(sub_string);
    return data;
  }
  data.expression_type = std::string(protocol::kExpressionTypeTag);
  if (IsSubAll(sub_string)) {
    data.sub_string = std::string(protocol::kSubAll);
    return data;
  }
  data.sub_string = std::string(sub_string);
  std::string_view rest = sub_string;
  while (true) {
    const size_t pos = rest.find("||");
    std::string_view tag = Trim(rest.substr(0, pos));
    if (!tag.empty()) {
      data.tags_set.emplace(tag);
      data.code_set.insert(JavaStringHashCode(tag));
    }
    if (pos == std::string_view::npos) break;
    rest.remove_prefix(pos + 2);
  }
  if (data.tags_set.empty()) {
    return Status::InvalidArgument(
        fmt::format("subscription \"{}\" of topic {} names no tag (tags are separated by ||)",
                    sub_string, topic));
  }
  return data;
}

bool TagCodeMatches(const protocol::SubscriptionData& subscription, int64_t tag_code) {
  if (subscription.class_filter_mode) return true;
  if (!protocol::IsTagExpressionType(subscription.expression_type)) return true;
  if (subscription.sub_string == protocol::kSubAll) return true;
  // The ConsumeQueue keeps the int32 hash sign-extended to int64; Java compares intValue().
  return subscription.code_set.count(static_cast<int32_t>(tag_code)) != 0;
}

store::TagCodeFilter MakeTagCodeFilter(std::shared_ptr<const protocol::SubscriptionData> subscription) {
  if (!subscription || subscription->class_filter_mode ||
      !protocol::IsTagExpressionType(subscription->expression_type) ||
      subscription->sub_string == protocol::kSubAll) {
    return nullptr;
  }
  return [subscription = std::move(subscription)](int64_t tag_code) {
    return TagCodeMatches(*subscription, tag_code);
  };
}

}  // namespace apogee::broker
