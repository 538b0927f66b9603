// The properties of a plain send stored as the client wrote them, followed by the broker's
// CLUSTER piece, with no decode into pairs and no encode back (issue 13: no per-message
// allocation on the send path). Java decodes and re-encodes every message's properties; for
// the sends this accepts, that would store exactly the same bytes.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace apogee::broker {

struct PlainProperties {
  std::string_view uniq_key;             // UNIQ_KEY, a view into the text
  std::optional<std::string_view> wait;  // WAIT, when set
};

// A value when MessageProperties::Decode(text), then Set(CLUSTER, cluster), then Encode() would
// give `text` followed by "CLUSTER\x01<cluster>\x02": every piece of `text` is a well-formed
// `key\x01value\x02` with a non-empty key and value, no key repeats, CLUSTER is not set, and
// `cluster` is a valid value of at most kMaxPlainClusterName bytes. Also nullopt, so that the
// caller decodes, when the message names no UNIQ_KEY (the broker gives it one) or sets a
// property a redirect reads (DELAY, the timer properties: IsRedirectProperty).
inline constexpr size_t kMaxPlainClusterName = 200;
std::optional<PlainProperties> ReadPlainProperties(std::string_view text, std::string_view cluster);

// "CLUSTER\x01<cluster>\x02" in a buffer of its own, for a cluster name ReadPlainProperties
// accepted.
class ClusterPiece {
 public:
  explicit ClusterPiece(std::string_view cluster);
  std::string_view view() const { return std::string_view(bytes_.data(), size_); }

 private:
  std::array<char, kMaxPlainClusterName + 16> bytes_;
  size_t size_ = 0;
};

}  // namespace apogee::broker
