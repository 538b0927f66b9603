// The one list of config keys that no runtime update may change, on a broker
// (UPDATE_BROKER_CONFIG) or a NameServer (UPDATE_NAMESRV_CONFIG), even for an admin
// account: keys that name a file, a directory or code to run (CVE-2023-33246 and
// CVE-2023-37582 wrote such keys), and keys that change security, role, identity or
// listeners (turning ACL off or pointing clients, NameServers or slaves elsewhere would
// hand the cluster to whoever may update config). Only the config file and a restart
// change them (docs/security.md "Runtime config").
#pragma once

#include <string>
#include <string_view>

namespace apogee {

// The reason (for the refusal's remark), or an empty string when `key` may be updated
// at run time as far as this list goes (the config table's reloadable flag still applies).
std::string ForbiddenRuntimeConfigKeyReason(std::string_view key);

}  // namespace apogee
