#include "client/consume_message_service.h"

#include <cstdio>

#include "client/consumer_subscription.h"
#include "message/message_format.h"
#include "protocol/mix_all.h"

namespace apogee::client {
namespace {

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    switch (ch) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", ch);
          out += buf;
        } else {
          out.push_back(ch);
        }
    }
  }
  return out + "\"";
}

}  // namespace

std::string EncodeConsumeDirectlyResult(const ConsumeDirectlyResult& r) {
  // fastjson order: properties sorted by name.
  return std::string("{\"autoCommit\":") + (r.auto_commit ? "true" : "false") +
         ",\"consumeResult\":" + JsonString(r.consume_result) +
         ",\"order\":" + (r.order ? "true" : "false") + ",\"remark\":" + JsonString(r.remark) +
         ",\"spentTimeMills\":" + std::to_string(r.spent_time_millis) + "}";
}

void ResetRetryTopic(const std::string& group, MessageExt& msg) {
  std::optional<std::string> retry_topic = msg.GetProperty(message::kPropertyRetryTopic);
  if (retry_topic && msg.topic() == protocol::RetryTopic(group)) msg.set_topic(*retry_topic);
}

}  // namespace apogee::client
