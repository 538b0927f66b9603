// GET /api/cluster: every broker the NameServer knows (cluster, broker set, id, role,
// address), with what GET_BROKER_RUNTIME_INFO says of it (version, disk ratio, put / get
// TPS over 10 s, 1 min and 10 min, today's totals, CommitLog offsets, the full table) and,
// for a slave, its HA lag: the master's CommitLog max offset minus its own, in bytes.
// A broker that does not answer is listed with its error instead of its numbers.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "admin/admin_client.h"
#include "base/status.h"

namespace apogee::dashboard {

Result<std::string> ClusterJson(admin::MQAdminClient* admin);

// "12.50 3.00 0.10" (putTps / getTransferedTps) -> {12.5, 3, 0.1}; missing or
// unparsable parts are 0.
std::array<double, 3> ParseTpsTriple(std::string_view text);

}  // namespace apogee::dashboard
