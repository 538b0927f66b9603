// Implements include/apogee/message.h.
#include "apogee/message.h"

#include <charconv>

namespace apogee {

Message::Message(std::string topic, std::string body)
    : topic_(std::move(topic)), body_(std::move(body)) {}

Message::Message(std::string topic, std::string tags, std::string body)
    : Message(std::move(topic), std::move(body)) {
  set_tags(tags);
}

Message::Message(std::string topic, std::string tags, std::string keys, std::string body)
    : Message(std::move(topic), std::move(tags), std::move(body)) {
  set_keys(std::string_view(keys));
}

std::string Message::tags() const { return GetProperty(kPropertyTags).value_or(""); }

void Message::set_tags(std::string_view tags) {
  if (tags.empty()) {
    ClearProperty(kPropertyTags);
  } else {
    PutProperty(kPropertyTags, tags);
  }
}

std::string Message::keys() const { return GetProperty(kPropertyKeys).value_or(""); }

void Message::set_keys(std::string_view keys) {
  if (keys.empty()) {
    ClearProperty(kPropertyKeys);
  } else {
    PutProperty(kPropertyKeys, keys);
  }
}

void Message::set_keys(const std::vector<std::string>& keys) {
  std::string joined;
  for (const std::string& key : keys) {
    if (key.empty()) continue;
    if (!joined.empty()) joined += ' ';  // MessageConst.KEY_SEPARATOR
    joined += key;
  }
  set_keys(std::string_view(joined));
}

int32_t Message::delay_time_level() const {
  std::optional<std::string> text = GetProperty(kPropertyDelayTimeLevel);
  if (!text) return 0;
  int32_t level = 0;
  auto [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), level);
  if (ec != std::errc() || ptr != text->data() + text->size()) return 0;
  return level;
}

void Message::set_delay_time_level(int32_t level) {
  if (level <= 0) {
    ClearProperty(kPropertyDelayTimeLevel);
  } else {
    PutProperty(kPropertyDelayTimeLevel, std::to_string(level));
  }
}

bool Message::wait_store_msg_ok() const {
  std::optional<std::string> text = GetProperty(kPropertyWaitStoreMsgOk);
  return !text || *text != "false";
}

void Message::set_wait_store_msg_ok(bool wait) {
  PutProperty(kPropertyWaitStoreMsgOk, wait ? "true" : "false");
}

void Message::PutProperty(std::string_view name, std::string_view value) {
  auto it = properties_.find(name);
  if (it == properties_.end()) {
    properties_.emplace(std::string(name), std::string(value));
  } else {
    it->second.assign(value);
  }
}

std::optional<std::string> Message::GetProperty(std::string_view name) const {
  auto it = properties_.find(name);
  if (it == properties_.end()) return std::nullopt;
  return it->second;
}

void Message::ClearProperty(std::string_view name) {
  auto it = properties_.find(name);
  if (it != properties_.end()) properties_.erase(it);
}

std::string MessageExt::msg_id() const {
  return GetProperty(kPropertyUniqClientMessageIdKeyIdx).value_or(offset_msg_id_);
}

}  // namespace apogee
