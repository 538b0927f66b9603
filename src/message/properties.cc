#include "message/properties.h"

#include <algorithm>

#include "message/message_format.h"
#include "message/property_pieces.h"

namespace apogee::message {
namespace {

bool HasSeparator(std::string_view s) {
  return s.find(kNameValueSeparator) != std::string_view::npos ||
         s.find(kPropertySeparator) != std::string_view::npos;
}

}  // namespace

MessageProperties::MessageProperties(std::initializer_list<Entry> entries) {
  for (const Entry& e : entries) SetUnchecked(e.first, e.second);
}

MessageProperties MessageProperties::Decode(std::string_view text) {
  MessageProperties props;
  // One allocation for the pairs instead of one per doubling (a send's 4-6 properties grew
  // the vector four times), with room for the two the broker adds (CLUSTER, UNIQ_KEY).
  // Capped: 32 KiB of bare separators would otherwise reserve 2 MiB for no pair at all.
  constexpr size_t kMaxReserved = 32;
  props.entries_.reserve(std::min<size_t>(
      static_cast<size_t>(std::count(text.begin(), text.end(), kPropertySeparator)) + 2,
      kMaxReserved));
  ForEachProperty(text, [&](std::string_view k, std::string_view v) { props.SetUnchecked(k, v); });
  return props;
}

void MessageProperties::EncodeTo(std::string* out) const {
  out->reserve(out->size() + EncodedSize());
  for (const auto& [key, value] : entries_) {
    out->append(key);
    out->push_back(kNameValueSeparator);
    out->append(value);
    out->push_back(kPropertySeparator);
  }
}

std::string MessageProperties::Encode() const {
  std::string out;
  EncodeTo(&out);
  return out;
}

size_t MessageProperties::EncodedSize() const {
  size_t n = 0;
  for (const auto& [key, value] : entries_) n += key.size() + value.size() + 2;
  return n;
}

std::optional<std::string_view> MessageProperties::Get(std::string_view key) const {
  const size_t at = index_.Find(entries_, key);
  if (at == KeyIndex::npos) return std::nullopt;
  return std::string_view(entries_[at].second);
}

Status MessageProperties::Set(std::string_view key, std::string_view value) {
  if (key.empty() || value.empty()) {
    return Status::InvalidArgument("property '" + std::string(key) +
                                   "': empty names and values are dropped by every reader");
  }
  if (HasSeparator(key) || HasSeparator(value)) {
    return Status::InvalidArgument("property '" + std::string(key) +
                                   "': names and values must not contain \\x01 or \\x02");
  }
  SetUnchecked(key, value);
  return Status::OK();
}

bool MessageProperties::Erase(std::string_view key) {
  const size_t at = index_.Find(entries_, key);
  if (at == KeyIndex::npos) return false;
  entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(at));
  index_.Rebuild(entries_);
  return true;
}

void MessageProperties::SetUnchecked(std::string_view key, std::string_view value) {
  const size_t at = index_.Find(entries_, key);
  if (at != KeyIndex::npos) {
    entries_[at].second.assign(value);
    return;
  }
  entries_.emplace_back(std::string(key), std::string(value));
  index_.Added(entries_);
}

Status CheckPropertiesLength(std::string_view text) {
  if (text.size() <= kMaxPropertiesLength) return Status::OK();
  return Status::InvalidArgument("message properties of " + std::to_string(text.size()) +
                                 " bytes exceed the limit of " +
                                 std::to_string(kMaxPropertiesLength) + " bytes");
}

std::optional<std::string_view> FindProperty(std::string_view text, std::string_view key) {
  std::optional<std::string_view> found;
  ForEachProperty(text, [&](std::string_view k, std::string_view v) {
    if (k == key) found = v;
  });
  return found;
}

}  // namespace apogee::message
