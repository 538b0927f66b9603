#include "broker/processors/plain_properties.h"

#include <cstring>

#include "broker/schedule/message_redirect.h"
#include "message/message_format.h"
#include "message/property_pieces.h"

namespace apogee::broker {
namespace {

// More pieces than this take the decoding path: the repeat check below is quadratic.
constexpr size_t kMaxPlainPieces = 32;

bool IsValidValue(std::string_view value) {
  return !value.empty() && value.find(message::kNameValueSeparator) == std::string_view::npos &&
         value.find(message::kPropertySeparator) == std::string_view::npos;
}

// Properties whose presence sends the message through the decoding path.
bool NeedsDecoding(std::string_view key) {
  return key == message::kPropertyCluster || IsRedirectProperty(key);
}

}  // namespace

std::optional<PlainProperties> ReadPlainProperties(std::string_view text,
                                                   std::string_view cluster) {
  if (cluster.size() > kMaxPlainClusterName || !IsValidValue(cluster)) return std::nullopt;
  std::array<std::string_view, kMaxPlainPieces> keys;
  size_t count = 0;
  size_t covered = 0;  // bytes of well-formed pieces, separators included
  bool plain = true;
  PlainProperties out;
  bool has_uniq_key = false;
  message::ForEachProperty(text, [&](std::string_view key, std::string_view value) {
    if (!plain) return;
    if (count == kMaxPlainPieces || NeedsDecoding(key)) {
      plain = false;
      return;
    }
    for (size_t i = 0; i < count; ++i) {
      if (keys[i] == key) {
        plain = false;  // decoding keeps the last value in the first one's place
        return;
      }
    }
    keys[count++] = key;
    covered += key.size() + value.size() + 2;
    if (key == message::kPropertyUniqClientMessageIdKeyIdx) {
      out.uniq_key = value;
      has_uniq_key = true;
    } else if (key == message::kPropertyWaitStoreMsgOk) {
      out.wait = value;
    }
  });
  // Re-encoding ends every piece with a separator, and drops a piece that is too short or has
  // no key or value. With the text's own last byte a separator, every piece has one, so the
  // well-formed pieces cover the whole text exactly when the decoder dropped none.
  if (!plain || !has_uniq_key || text.back() != message::kPropertySeparator ||
      covered != text.size()) {
    return std::nullopt;
  }
  return out;
}

ClusterPiece::ClusterPiece(std::string_view cluster) {
  const std::string_view key = message::kPropertyCluster;
  if (key.size() + cluster.size() + 2 > bytes_.size()) return;  // never: the caller checked
  char* p = bytes_.data();
  std::memcpy(p, key.data(), key.size());
  p += key.size();
  *p++ = message::kNameValueSeparator;
  std::memcpy(p, cluster.data(), cluster.size());
  p += cluster.size();
  *p++ = message::kPropertySeparator;
  size_ = static_cast<size_t>(p - bytes_.data());
}

}  // namespace apogee::broker
