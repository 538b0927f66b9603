#include "dashboard/producer_api.h"

#include <map>

#include "admin/consumer_commands.h"
#include "dashboard/json_out.h"

namespace apogee::dashboard {

Result<std::string> ProducersJson(admin::MQAdminClient* admin, const ApiRequest& request) {
  APOGEE_ASSIGN_OR_RETURN(std::string group, request.Required("group"));
  APOGEE_ASSIGN_OR_RETURN(std::string topic, request.Required("topic"));
  APOGEE_ASSIGN_OR_RETURN(auto masters, admin->MasterAddrsOfTopic(topic));
  std::map<std::string, std::pair<std::string, protocol::Connection>> by_client;  // client id -> broker, conn
  std::map<std::string, std::string> errors;
  for (const auto& [name, addr] : masters) {
    auto pc = admin->GetProducerConnection(addr, group);
    if (!pc.ok()) {
      errors[name] = pc.status().message();
      continue;
    }
    for (const protocol::Connection& c : pc->connection_set) by_client.emplace(c.client_id, std::make_pair(name, c));
  }
  return protocol::json::WriteToString([&](JsonWriter& w) {
    w.StartObject();
    Field(w, "group", group);
    Field(w, "topic", topic);
    protocol::json::Key(w, "connections");
    w.StartArray();
    for (const auto& [id, entry] : by_client) {
      const protocol::Connection& c = entry.second;
      w.StartObject();
      Field(w, "clientId", c.client_id);
      Field(w, "clientAddr", c.client_addr);
      Field(w, "language", protocol::LanguageName(c.language));
      Field(w, "version", admin::VersionDesc(c.version));
      Field(w, "brokerName", entry.first);
      w.EndObject();
    }
    w.EndArray();
    StringMapField(w, "errors", errors);
    w.EndObject();
  });
}

}  // namespace apogee::dashboard
