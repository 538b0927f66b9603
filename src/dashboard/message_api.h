// The Messages page's calls (the same requests as mqadmin's queryMsgByKey, queryMsgById
// and queryMsgByOffset):
//   GET /api/messages/byKey?topic=T&key=K[&begin=ms&end=ms&max=N]   QUERY_MESSAGE through the index
//   GET /api/messages/byTime?topic=T&begin=ms&end=ms[&max=N]        per queue: SEARCH_OFFSET_BY_TIMESTAMP
//                                                                   at `begin`, then PULL_MESSAGE
//                                                                   until a store time passes `end`
//   GET /api/message?id=ID[&topic=T]   one message in full: an offset msgId is read where it is
//                                      stored (VIEW_MESSAGE_BY_ID); a client msgId (UNIQ_KEY)
//                                      is looked up in the topic's index
//   POST /api/message/resend {id, group}   redelivers the message at offset msgId `id` to
//                                      one consumer group (admin/message_resend.h: through
//                                      %RETRY%<group>, after 1 s, as a reconsume)
// Lists carry summaries; the full message adds its properties and body (hex; the page
// shows it as text or hex).
#pragma once

#include <string>

#include "admin/admin_client.h"
#include "base/status.h"
#include "dashboard/api_request.h"
#include "dashboard/json_out.h"
#include "message/message.h"

namespace apogee::dashboard {

Result<std::string> MessagesByKey(admin::MQAdminClient* admin, const ApiRequest& request);
Result<std::string> MessagesByTime(admin::MQAdminClient* admin, const ApiRequest& request);
Result<std::string> MessageById(admin::MQAdminClient* admin, const ApiRequest& request);
Result<std::string> ResendMessage(admin::MQAdminClient* admin, const ApiRequest& request);

// One message as a JSON object; `full` adds properties and the body.
void WriteMessage(JsonWriter& w, const message::MessageExt& msg, bool full);

}  // namespace apogee::dashboard
