// KVTable body (RQ:rp/body/KVTable.java; docs/protocol/remoting.md §7.4): the answer to
// GET_KVLIST_BY_NAMESPACE, and the ORDER_TOPIC_CONFIG table a NameServer returns to a
// registering broker.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "base/status.h"

namespace apogee::protocol {

struct KVTable {
  std::map<std::string, std::string> table;

  bool operator==(const KVTable&) const = default;
};

// {"table":{"k":"v",...}}, compact, keys sorted.
std::string EncodeKVTable(const KVTable& table);
Result<KVTable> DecodeKVTable(std::string_view json);

}  // namespace apogee::protocol
