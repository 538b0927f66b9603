// The loose parse of a raw property string ("key\x01value\x02..."), shared by the decoder,
// FindProperty and readers that need several properties in one pass (the store's dispatch:
// TAGS, KEYS, UNIQ_KEY). Rules in properties.h.
#pragma once

#include <cstddef>
#include <string_view>

#include "message/message_format.h"

namespace apogee::message {

// Calls fn(key, value) for each well-formed piece of `text`, in order, without allocating:
// split on \x02, skip pieces shorter than 3 bytes, split at the first \x01, keep only
// non-empty keys and values. A later duplicate is passed after an earlier one.
template <typename Fn>
void ForEachProperty(std::string_view text, Fn fn) {
  while (!text.empty()) {
    size_t end = text.find(kPropertySeparator);
    std::string_view piece = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (piece.size() < 3) continue;  // Java skips "k\x01" style fragments this way
    size_t sep = piece.find(kNameValueSeparator);
    if (sep == std::string_view::npos || sep == 0 || sep + 1 == piece.size()) continue;
    fn(piece.substr(0, sep), piece.substr(sep + 1));
  }
}

}  // namespace apogee::message
