#include "client/consumer_subscription.h"

#include "base/java_hash.h"
#include "base/string_util.h"

namespace apogee::client {
namespace {
constexpr std::string_view kSubAll = "*";
}  // namespace

Result<protocol::SubscriptionData> BuildSubscriptionData(std::string_view topic,
                                                         std::string_view expression,
                                                         int64_t now_ms) {
  if (topic.empty()) return Status::InvalidArgument("subscribe: topic is empty");
  protocol::SubscriptionData sub;
  sub.topic = std::string(topic);
  sub.sub_version = now_ms;
  std::string_view trimmed = TrimWhitespace(expression);
  if (trimmed.empty() || trimmed == kSubAll) {
    sub.sub_string = std::string(kSubAll);
    return sub;
  }
  sub.sub_string = std::string(expression);
  size_t start = 0;
  while (start <= expression.size()) {
    size_t bar = expression.find("||", start);
    std::string_view piece = expression.substr(
        start, bar == std::string_view::npos ? std::string_view::npos : bar - start);
    std::string_view tag = TrimWhitespace(piece);
    if (!tag.empty()) {
      sub.tags_set.emplace(tag);
      sub.code_set.insert(JavaStringHashCode(tag));
    }
    if (bar == std::string_view::npos) break;
    start = bar + 2;
  }
  if (sub.tags_set.empty()) {
    return Status::InvalidArgument("subscribe " + std::string(topic) + ": expression '" +
                                   std::string(expression) + "' names no tag");
  }
  return sub;
}

bool SubscriptionMatchesTag(const protocol::SubscriptionData& sub, std::string_view tags,
                            bool has_tags) {
  if (sub.tags_set.empty() || sub.class_filter_mode) return true;
  return has_tags && sub.tags_set.count(std::string(tags)) > 0;
}

}  // namespace apogee::client
