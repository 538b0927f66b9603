#include "protocol/epoch_entry_cache.h"

#include <fmt/format.h>

#include "protocol/json_util.h"

namespace apogee::protocol {

std::string EncodeEpochEntryCache(const EpochEntryCache& c) {
  return json::WriteToString([&](json::Writer& w) {
    w.StartObject();
    json::Key(w, "brokerId");
    w.Int64(c.broker_id);
    json::Key(w, "brokerName");
    json::String(w, c.broker_name);
    json::Key(w, "clusterName");
    json::String(w, c.cluster_name);
    json::Key(w, "epochList");
    w.StartArray();
    for (const EpochEntryJson& e : c.epoch_list) {
      w.StartObject();
      json::Key(w, "endOffset");
      w.Int64(e.end_offset);
      json::Key(w, "epoch");
      w.Int(e.epoch);
      json::Key(w, "startOffset");
      w.Int64(e.start_offset);
      w.EndObject();
    }
    w.EndArray();
    json::Key(w, "maxOffset");
    w.Int64(c.max_offset);
    w.EndObject();
  });
}

Result<EpochEntryCache> DecodeEpochEntryCache(std::string_view text) {
  return json::ReadFromString<EpochEntryCache>(
      text, "EpochEntryCache", [](const json::Value& doc, EpochEntryCache* c) -> Status {
        APOGEE_RETURN_IF_ERROR(json::ReadString(doc, "clusterName", "clusterName", &c->cluster_name));
        APOGEE_RETURN_IF_ERROR(json::ReadString(doc, "brokerName", "brokerName", &c->broker_name));
        APOGEE_RETURN_IF_ERROR(json::ReadInt64(doc, "brokerId", "brokerId", &c->broker_id));
        APOGEE_RETURN_IF_ERROR(json::ReadInt64(doc, "maxOffset", "maxOffset", &c->max_offset));
        APOGEE_ASSIGN_OR_RETURN(const json::Value* list, json::FindArray(doc, "epochList", "epochList"));
        if (list == nullptr) return Status::OK();
        for (const json::Value& v : list->GetArray()) {
          if (!v.IsObject()) return Status::Corruption("EpochEntryCache: epochList[] is not an object");
          EpochEntryJson e;
          APOGEE_RETURN_IF_ERROR(json::ReadInt32(v, "epoch", "epochList[].epoch", &e.epoch, true));
          APOGEE_RETURN_IF_ERROR(
              json::ReadInt64(v, "startOffset", "epochList[].startOffset", &e.start_offset, true));
          APOGEE_RETURN_IF_ERROR(json::ReadInt64(v, "endOffset", "epochList[].endOffset", &e.end_offset));
          c->epoch_list.push_back(e);
        }
        return Status::OK();
      });
}

std::string EpochEntryToString(const EpochEntryJson& e) {
  return fmt::format("EpochEntry{{epoch={}, startOffset={}, endOffset={}}}", e.epoch, e.start_offset,
                     e.end_offset);
}

}  // namespace apogee::protocol
