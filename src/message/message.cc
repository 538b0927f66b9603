#include "message/message.h"

#include "base/string_util.h"
#include "message/message_format.h"

namespace apogee::message {

std::optional<std::string_view> Message::tags() const { return properties.Get(kPropertyTags); }

std::vector<std::string> Message::keys() const {
  std::optional<std::string_view> raw = properties.Get(kPropertyKeys);
  if (!raw) return {};
  return SplitString(*raw, kKeySeparator, /*skip_empty=*/true);
}

std::optional<std::string_view> Message::uniq_key() const {
  return properties.Get(kPropertyUniqClientMessageIdKeyIdx);
}

int32_t Message::delay_time_level() const {
  std::optional<std::string_view> raw = properties.Get(kPropertyDelayTimeLevel);
  if (!raw) return 0;
  return ParseInt32(*raw).value_or(0);
}

bool Message::wait_store_msg_ok() const {
  std::optional<std::string_view> raw = properties.Get(kPropertyWaitStoreMsgOk);
  return !raw || ParseJavaBoolean(*raw);
}

std::string_view MessageExt::msg_id() const {
  std::optional<std::string_view> uniq = uniq_key();
  return uniq ? *uniq : std::string_view(offset_msg_id);
}

}  // namespace apogee::message
