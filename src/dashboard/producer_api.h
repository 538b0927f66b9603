// GET /api/producers?group=G&topic=T: the producer group's connections (client id,
// address, language, version) at every master serving the topic, as mqadmin's
// producerConnection. A broker only knows producers by group, and it finds the brokers
// by topic, so both are needed.
#pragma once

#include <string>

#include "admin/admin_client.h"
#include "base/status.h"
#include "dashboard/api_request.h"

namespace apogee::dashboard {

Result<std::string> ProducersJson(admin::MQAdminClient* admin, const ApiRequest& request);

}  // namespace apogee::dashboard
