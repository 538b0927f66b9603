#include "coord/failover_records.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "protocol/json_util.h"

namespace apogee::coord {

namespace json = protocol::json;

namespace {

void Int(json::Writer& w, std::string_view key, int64_t v) {
  json::Key(w, key);
  w.Int64(v);
}
void Str(json::Writer& w, std::string_view key, std::string_view v) {
  json::Key(w, key);
  json::String(w, v);
}

void WriteHistory(json::Writer& w, const std::vector<EpochEntry>& history) {
  json::Key(w, "history");
  w.StartArray();
  for (const EpochEntry& e : history) {
    w.StartArray();
    w.Int64(e.epoch);
    w.Int64(e.start_offset);
    w.EndArray();
  }
  w.EndArray();
}

Status ReadHistory(const json::Value& doc, std::string_view what,
                   std::vector<EpochEntry>* out) {
  APOGEE_ASSIGN_OR_RETURN(const json::Value* history, json::FindArray(doc, "history", what));
  if (history == nullptr) return Status::OK();
  for (const json::Value& pair : history->GetArray()) {
    if (!pair.IsArray() || pair.Size() != 2) {
      return Status::Corruption(std::string(what) + ": history entries are [epoch, offset]");
    }
    EpochEntry e;
    APOGEE_ASSIGN_OR_RETURN(e.epoch, json::AsInt64(pair[0], "history.epoch"));
    APOGEE_ASSIGN_OR_RETURN(e.start_offset, json::AsInt64(pair[1], "history.offset"));
    if (!out->empty() && (e.epoch <= out->back().epoch || e.start_offset < out->back().start_offset)) {
      return Status::Corruption(std::string(what) + ": history is not ascending");
    }
    out->push_back(e);
  }
  return Status::OK();
}

template <typename Fn>
std::string Encode(Fn&& body) {
  std::string out;
  json::StringAppendStream stream(&out);
  json::Writer w(stream);
  w.StartObject();
  body(w);
  w.EndObject();
  return out;
}

}  // namespace

std::string FailoverKeyPrefix(std::string_view cluster, std::string_view broker_name) {
  std::string out = "/apogee/failover/";
  out.append(cluster);
  out.push_back('/');
  out.append(broker_name);
  out.push_back('/');
  return out;
}

Result<FailoverSetView> DecodeFailoverSet(std::string_view prefix, const std::vector<KeyValue>& kvs) {
  FailoverSetView v;
  for (const KeyValue& kv : kvs) {
    if (!std::string_view(kv.key).starts_with(prefix)) continue;
    const std::string_view name = std::string_view(kv.key).substr(prefix.size());
    if (name == "master") {
      Result<MasterRecord> r = DecodeMasterRecord(kv.value);
      if (!r.ok()) return r.status().Prefixed(kv.key);
      v.master = std::move(*r);
      v.master_lease = kv.lease;
      v.master_rev = kv.mod_revision;
    } else if (name == "epoch") {
      Result<EpochRecord> r = DecodeEpochRecord(kv.value);
      if (!r.ok()) return r.status().Prefixed(kv.key);
      v.epoch = std::move(*r);
      v.epoch_rev = kv.mod_revision;
    } else if (name == "syncStateSet") {
      Result<SyncStateSet> r = DecodeSyncStateSet(kv.value);
      if (!r.ok()) return r.status().Prefixed(kv.key);
      v.sync = std::move(*r);
    } else if (name == "preferred") {
      v.preferred = kv.value;
    } else if (name.starts_with("replicas/")) {
      Result<ReplicaRecord> r = DecodeReplicaRecord(kv.value);
      if (r.ok()) v.replicas[r->addr] = std::move(*r);
    }
  }
  return v;
}

std::string EncodeMasterRecord(const MasterRecord& r) {
  return Encode([&](json::Writer& w) {
    Str(w, "addr", r.addr);
    Str(w, "haAddr", r.ha_addr);
    Int(w, "epoch", r.epoch);
    Int(w, "freedBrokerId", r.freed_broker_id);
  });
}

Result<MasterRecord> DecodeMasterRecord(std::string_view text) {
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(json::ParseObject(text, "master record", &doc));
  MasterRecord r;
  APOGEE_RETURN_IF_ERROR(json::ReadString(doc, "addr", "addr", &r.addr, true));
  APOGEE_RETURN_IF_ERROR(json::ReadString(doc, "haAddr", "haAddr", &r.ha_addr, true));
  APOGEE_RETURN_IF_ERROR(json::ReadInt64(doc, "epoch", "epoch", &r.epoch, true));
  APOGEE_RETURN_IF_ERROR(json::ReadInt64(doc, "freedBrokerId", "freedBrokerId", &r.freed_broker_id));
  return r;
}

std::string EncodeEpochRecord(const EpochRecord& r) {
  return Encode([&](json::Writer& w) {
    Int(w, "epoch", r.epoch);
    Str(w, "masterRole", r.master_role);
    WriteHistory(w, r.history);
  });
}

Result<EpochRecord> DecodeEpochRecord(std::string_view text) {
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(json::ParseObject(text, "epoch record", &doc));
  EpochRecord r;
  APOGEE_RETURN_IF_ERROR(json::ReadInt64(doc, "epoch", "epoch", &r.epoch, true));
  APOGEE_RETURN_IF_ERROR(json::ReadString(doc, "masterRole", "masterRole", &r.master_role));
  APOGEE_RETURN_IF_ERROR(ReadHistory(doc, "epoch record", &r.history));
  return r;
}

std::string EncodeSyncStateSet(const SyncStateSet& r) {
  return Encode([&](json::Writer& w) {
    Int(w, "epoch", r.epoch);
    json::Key(w, "members");
    w.StartArray();
    for (const std::string& m : r.members) json::String(w, m);
    w.EndArray();
  });
}

Result<SyncStateSet> DecodeSyncStateSet(std::string_view text) {
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(json::ParseObject(text, "syncStateSet", &doc));
  SyncStateSet r;
  APOGEE_RETURN_IF_ERROR(json::ReadInt64(doc, "epoch", "epoch", &r.epoch, true));
  APOGEE_ASSIGN_OR_RETURN(const json::Value* members, json::FindArray(doc, "members", "members"));
  if (members != nullptr) {
    for (const json::Value& m : members->GetArray()) {
      APOGEE_ASSIGN_OR_RETURN(std::string s, json::AsString(m, "members[]"));
      r.members.push_back(std::move(s));
    }
  }
  return r;
}

std::string EncodeReplicaRecord(const ReplicaRecord& r) {
  return Encode([&](json::Writer& w) {
    Str(w, "addr", r.addr);
    Int(w, "brokerId", r.broker_id);
    Int(w, "offset", r.offset);
    Int(w, "followingEpoch", r.following_epoch);
    Int(w, "seenGoneEpoch", r.seen_gone_epoch);
  });
}

Result<ReplicaRecord> DecodeReplicaRecord(std::string_view text) {
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(json::ParseObject(text, "replica record", &doc));
  ReplicaRecord r;
  APOGEE_RETURN_IF_ERROR(json::ReadString(doc, "addr", "addr", &r.addr, true));
  APOGEE_RETURN_IF_ERROR(json::ReadInt64(doc, "brokerId", "brokerId", &r.broker_id));
  APOGEE_RETURN_IF_ERROR(json::ReadInt64(doc, "offset", "offset", &r.offset, true));
  APOGEE_RETURN_IF_ERROR(json::ReadInt64(doc, "followingEpoch", "followingEpoch", &r.following_epoch));
  APOGEE_RETURN_IF_ERROR(json::ReadInt64(doc, "seenGoneEpoch", "seenGoneEpoch", &r.seen_gone_epoch));
  return r;
}

std::string EncodeLocalState(const LocalFailoverState& s) {
  return Encode([&](json::Writer& w) {
    WriteHistory(w, s.history);
    Int(w, "brokerId", s.broker_id);
    Int(w, "leaseId", s.lease_id);
    Int(w, "divergentBytesTotal", s.divergent_bytes_total);
    Int(w, "divergentMessagesTotal", s.divergent_messages_total);
    Int(w, "divergenceCount", s.divergence_count);
  });
}

Result<LocalFailoverState> DecodeLocalState(std::string_view text) {
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(json::ParseObject(text, "failover.json", &doc));
  LocalFailoverState s;
  APOGEE_RETURN_IF_ERROR(ReadHistory(doc, "failover.json", &s.history));
  APOGEE_RETURN_IF_ERROR(json::ReadInt64(doc, "brokerId", "brokerId", &s.broker_id));
  APOGEE_RETURN_IF_ERROR(json::ReadInt64(doc, "leaseId", "leaseId", &s.lease_id));
  // Absent in files written before the counters existed.
  APOGEE_RETURN_IF_ERROR(json::ReadInt64(doc, "divergentBytesTotal", "divergentBytesTotal",
                                         &s.divergent_bytes_total));
  APOGEE_RETURN_IF_ERROR(json::ReadInt64(doc, "divergentMessagesTotal", "divergentMessagesTotal",
                                         &s.divergent_messages_total));
  APOGEE_RETURN_IF_ERROR(json::ReadInt64(doc, "divergenceCount", "divergenceCount",
                                         &s.divergence_count));
  return s;
}

int64_t DivergencePoint(const std::vector<EpochEntry>& local, int64_t local_max,
                        const std::vector<EpochEntry>& leader) {
  if (local.empty() || leader.empty()) return local_max;
  constexpr int64_t kOpen = std::numeric_limits<int64_t>::max();
  for (size_t i = local.size(); i-- > 0;) {
    auto same = std::find(leader.begin(), leader.end(), local[i]);
    if (same == leader.end()) continue;
    const int64_t local_end = i + 1 < local.size() ? local[i + 1].start_offset : local_max;
    const int64_t leader_end = same + 1 != leader.end() ? (same + 1)->start_offset : kOpen;
    return std::min({local_end, leader_end, local_max});
  }
  // No epoch in common: only what precedes both histories is shared.
  return std::min({local.front().start_offset, leader.front().start_offset, local_max});
}

std::vector<EpochEntry> HistoryUpTo(const std::vector<EpochEntry>& leader, int64_t max_offset) {
  std::vector<EpochEntry> out;
  for (const EpochEntry& e : leader) {
    if (e.start_offset > max_offset) break;
    out.push_back(e);
  }
  return out;
}

}  // namespace apogee::coord
