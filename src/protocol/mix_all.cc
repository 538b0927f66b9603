#include "protocol/mix_all.h"

namespace apogee::protocol {

std::string RetryTopic(std::string_view group) {
  std::string topic(kRetryGroupTopicPrefix);
  topic += group;
  return topic;
}

std::string DlqTopic(std::string_view group) {
  std::string topic(kDlqGroupTopicPrefix);
  topic += group;
  return topic;
}

std::string ReplyTopic(std::string_view cluster) {
  std::string topic(cluster);
  topic += '_';
  topic += kReplyTopicPostfix;
  return topic;
}

}  // namespace apogee::protocol
