#include "dashboard/cluster_api.h"

#include <charconv>
#include <map>
#include <vector>

#include "base/string_util.h"
#include "dashboard/json_out.h"
#include "protocol/mix_all.h"

namespace apogee::dashboard {
namespace {

struct BrokerRow {
  std::string cluster;
  std::string broker_name;
  int64_t broker_id = 0;
  std::string addr;
  Result<protocol::KVTable> info = Status::NotFound("not asked");
};

std::string Get(const protocol::KVTable& kv, const std::string& key) {
  auto it = kv.table.find(key);
  return it == kv.table.end() ? std::string() : it->second;
}

void TpsField(JsonWriter& w, std::string_view key, std::string_view text) {
  protocol::json::Key(w, key);
  w.StartArray();
  for (double v : ParseTpsTriple(text)) w.Double(v);
  w.EndArray();
}

void NumberField(JsonWriter& w, std::string_view key, const std::string& text) {
  auto v = ParseInt64(text);
  if (v) Field(w, key, *v);
}

}  // namespace

std::array<double, 3> ParseTpsTriple(std::string_view text) {
  std::array<double, 3> out{0, 0, 0};
  std::vector<std::string> parts = SplitString(text, ' ', true);
  for (size_t i = 0; i < parts.size() && i < out.size(); ++i) {
    double v = 0;
    const char* begin = parts[i].data();
    const char* end = begin + parts[i].size();
    auto [ptr, ec] = std::from_chars(begin, end, v);
    if (ec == std::errc() && ptr == end) out[i] = v;
  }
  return out;
}

Result<std::string> ClusterJson(admin::MQAdminClient* admin) {
  APOGEE_ASSIGN_OR_RETURN(protocol::ClusterInfo info, admin->GetBrokerClusterInfo());
  std::vector<BrokerRow> rows;
  std::map<std::string, int64_t> master_max_offset;  // broker name -> master's CommitLog max offset
  for (const auto& [name, data] : info.broker_addr_table) {
    for (const auto& [id, addr] : data.broker_addrs) {
      BrokerRow row{data.cluster, name, id, addr, admin->GetBrokerRuntimeInfo(addr)};
      if (id == protocol::kMasterId && row.info.ok()) {
        if (auto max = ParseInt64(Get(*row.info, "commitLogMaxOffset"))) master_max_offset[name] = *max;
      }
      rows.push_back(std::move(row));
    }
  }
  return protocol::json::WriteToString([&](JsonWriter& w) {
    w.StartObject();
    StringArrayField(w, "nameServers", admin->transport()->NameServers());
    protocol::json::Key(w, "brokers");
    w.StartArray();
    for (const BrokerRow& row : rows) {
      w.StartObject();
      Field(w, "cluster", row.cluster);
      Field(w, "brokerName", row.broker_name);
      Field(w, "brokerId", row.broker_id);
      Field(w, "role", row.broker_id == protocol::kMasterId ? "MASTER" : "SLAVE");
      Field(w, "addr", row.addr);
      if (!row.info.ok()) {
        Field(w, "error", row.info.status().message());
        w.EndObject();
        continue;
      }
      const protocol::KVTable& kv = *row.info;
      Field(w, "version", Get(kv, "brokerVersionDesc"));
      Field(w, "diskRatio", Get(kv, "commitLogDiskRatio"));
      TpsField(w, "putTps", Get(kv, "putTps"));
      TpsField(w, "getTps", Get(kv, "getTransferedTps"));
      NumberField(w, "msgPutTotalTodayNow", Get(kv, "msgPutTotalTodayNow"));
      NumberField(w, "msgGetTotalTodayNow", Get(kv, "msgGetTotalTodayNow"));
      NumberField(w, "commitLogMinOffset", Get(kv, "commitLogMinOffset"));
      NumberField(w, "commitLogMaxOffset", Get(kv, "commitLogMaxOffset"));
      NumberField(w, "bootTimestamp", Get(kv, "bootTimestamp"));
      if (row.broker_id != protocol::kMasterId) {
        auto own = ParseInt64(Get(kv, "commitLogMaxOffset"));
        auto master = master_max_offset.find(row.broker_name);
        if (own && master != master_max_offset.end()) {
          Field(w, "haLagBytes", std::max<int64_t>(0, master->second - *own));
        }
      }
      StringMapField(w, "runtime", kv.table);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  });
}

}  // namespace apogee::dashboard
