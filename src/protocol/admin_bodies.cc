#include "protocol/admin_bodies.h"

#include <cstdlib>
#include <functional>
#include <utility>

#include "protocol/consume_stats_list.h"
#include "protocol/custom_header.h"
#include "protocol/json_util.h"
#include "protocol/message_queue_json.h"

namespace apogee::protocol {
namespace {

// ---- MessageQueue-keyed maps -------------------------------------------------------

// fastjson writes a bean-typed map key with the bean's own serializer: an object where a
// field name stands. A rapidjson writer cannot emit that (keys are strings), so the map
// is assembled by hand from separately written keys and values.
template <typename V>
void WriteMessageQueueMap(std::string* out, const std::map<MessageQueue, V>& table,
                          const std::function<void(json::Writer&, const V&)>& write_value) {
  out->push_back('{');
  bool first = true;
  for (const auto& entry : table) {
    // A named entry, not a structured binding: clang 14 (the fuzz build) cannot capture one.
    const V& value = entry.second;
    if (!first) out->push_back(',');
    first = false;
    out->append(EncodeMessageQueue(entry.first));  // lock_batch_body.h
    out->push_back(':');
    out->append(json::WriteToString([&](json::Writer& w) { write_value(w, value); }));
  }
  out->push_back('}');
}

// Rewrites object-valued keys ({{"topic":..}:v}) into string keys holding the object's
// text ({"{\"topic\":..}":v}), the other form fastjson reads, so that a standard parser
// accepts the document. Everything else is copied unchanged.
Result<std::string> QuoteObjectKeys(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 32);
  std::vector<char> stack;  // '{' or '['
  bool expect_key = false;
  size_t i = 0;
  auto copy_string = [&](size_t start) -> Result<size_t> {
    // text[start] == '"'; returns the index after the closing quote.
    size_t j = start + 1;
    while (j < text.size()) {
      if (text[j] == '\\') {
        j += 2;
        continue;
      }
      if (text[j] == '"') return j + 1;
      ++j;
    }
    return Status::Corruption("unterminated string in JSON body");
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '"') {
      APOGEE_ASSIGN_OR_RETURN(size_t end, copy_string(i));
      out.append(text.substr(i, end - i));
      i = end;
      continue;
    }
    if (c == '{' && expect_key && !stack.empty() && stack.back() == '{') {
      // An object in key position: find its balanced end, strings respected.
      int depth = 0;
      size_t j = i;
      for (; j < text.size(); ++j) {
        if (text[j] == '"') {
          APOGEE_ASSIGN_OR_RETURN(size_t end, copy_string(j));
          j = end - 1;
        } else if (text[j] == '{') {
          ++depth;
        } else if (text[j] == '}') {
          if (--depth == 0) break;
        }
      }
      if (j >= text.size()) return Status::Corruption("unterminated object key in JSON body");
      out.push_back('"');
      for (char k : text.substr(i, j + 1 - i)) {
        if (k == '"' || k == '\\') out.push_back('\\');
        out.push_back(k);
      }
      out.push_back('"');
      expect_key = false;
      i = j + 1;
      continue;
    }
    switch (c) {
      case '{':
        stack.push_back('{');
        expect_key = true;
        break;
      case '[':
        stack.push_back('[');
        expect_key = false;
        break;
      case '}':
      case ']':
        if (!stack.empty()) stack.pop_back();
        expect_key = false;
        break;
      case ',':
        expect_key = !stack.empty() && stack.back() == '{';
        break;
      case ':':
        expect_key = false;
        break;
      default:
        break;
    }
    out.push_back(c);
    ++i;
  }
  return out;
}

Status ParseBody(std::string_view text, std::string_view what, json::Document* doc) {
  APOGEE_ASSIGN_OR_RETURN(std::string normalized, QuoteObjectKeys(text));
  return json::ParseObject(normalized, what, doc);
}

// A map key holding a MessageQueue as JSON text (after QuoteObjectKeys).
Result<MessageQueue> ParseMessageQueueKey(std::string_view key, std::string_view path) {
  json::Document doc;
  Status s = json::ParseObject(key, path, &doc);
  if (!s.ok()) {
    return Status::Corruption(std::string(path) + ": map key is not a MessageQueue: " +
                              std::string(key));
  }
  return json::ReadMessageQueue(doc, path);
}

template <typename V>
Status ReadMessageQueueMap(
    const json::Value& object, std::string_view key, std::string_view path,
    std::map<MessageQueue, V>* out,
    const std::function<Result<V>(const json::Value&, const std::string&)>& read_value) {
  const std::string map_path = std::string(path) + "." + std::string(key);
  APOGEE_ASSIGN_OR_RETURN(const json::Value* table, json::FindObject(object, key, path));
  if (table == nullptr) return Status::OK();
  for (auto it = table->MemberBegin(); it != table->MemberEnd(); ++it) {
    APOGEE_ASSIGN_OR_RETURN(MessageQueue mq, ParseMessageQueueKey(json::KeyOf(it->name), map_path));
    const std::string entry_path = map_path + "[" + mq.topic + ":" + std::to_string(mq.queue_id) + "]";
    APOGEE_ASSIGN_OR_RETURN(V value, read_value(it->value, entry_path));
    (*out)[std::move(mq)] = std::move(value);
  }
  return Status::OK();
}

Status ReadDouble(const json::Value& object, std::string_view key, std::string_view path,
                  double* out) {
  std::string text;
  APOGEE_RETURN_IF_ERROR(json::ReadString(object, key, path, &text));
  if (text.empty()) return Status::OK();
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0') {
    return Status::Corruption(std::string(path) + "." + std::string(key) + ": not a number: " + text);
  }
  *out = v;
  return Status::OK();
}

// ---- Connection ---------------------------------------------------------------------

void WriteConnection(json::Writer& w, const Connection& c) {
  w.StartObject();
  json::Key(w, "clientAddr");
  json::String(w, c.client_addr);
  json::Key(w, "clientId");
  json::String(w, c.client_id);
  json::Key(w, "language");
  json::String(w, LanguageName(c.language));
  json::Key(w, "version");
  w.Int(c.version);
  w.EndObject();
}

void WriteConnectionSet(json::Writer& w, const std::vector<Connection>& set) {
  json::Key(w, "connectionSet");
  w.StartArray();
  for (const Connection& c : set) WriteConnection(w, c);
  w.EndArray();
}

Status ReadConnectionSet(const json::Value& object, std::string_view path,
                         std::vector<Connection>* out) {
  APOGEE_ASSIGN_OR_RETURN(const json::Value* set, json::FindArray(object, "connectionSet", path));
  if (set == nullptr) return Status::OK();
  for (rapidjson::SizeType i = 0; i < set->Size(); ++i) {
    const std::string item = std::string(path) + ".connectionSet[" + std::to_string(i) + "]";
    const json::Value& v = (*set)[i];
    if (!v.IsObject()) return Status::Corruption(item + ": expected an object");
    Connection c;
    APOGEE_RETURN_IF_ERROR(json::ReadString(v, "clientId", item, &c.client_id));
    APOGEE_RETURN_IF_ERROR(json::ReadString(v, "clientAddr", item, &c.client_addr));
    std::string language;
    APOGEE_RETURN_IF_ERROR(json::ReadString(v, "language", item, &language));
    if (!language.empty()) c.language = LanguageFromName(language);
    APOGEE_RETURN_IF_ERROR(json::ReadInt32(v, "version", item, &c.version));
    out->push_back(std::move(c));
  }
  return Status::OK();
}

// fastjson writes enums by name and reads a name or an ordinal.
template <typename E>
Status ReadEnumByName(const json::Value& object, std::string_view key, std::string_view path,
                      int32_t count, std::string_view (*name_of)(E), E* out) {
  std::string text;
  APOGEE_RETURN_IF_ERROR(json::ReadString(object, key, path, &text));
  if (text.empty()) return Status::OK();
  for (int32_t i = 0; i < count; ++i) {
    const E e = static_cast<E>(i);
    if (name_of(e) == text || std::to_string(i) == text) {
      *out = e;
      return Status::OK();
    }
  }
  return Status::Corruption(std::string(path) + "." + std::string(key) + ": unknown value \"" +
                            text + "\"");
}

std::string StringifyValue(const json::Value& v) {
  std::string out;
  json::StringAppendStream stream(&out);
  json::Writer w(stream);
  v.Accept(w);
  return out;
}

}  // namespace

// ---- TopicStatsTable ----------------------------------------------------------------

std::string EncodeTopicStatsTable(const TopicStatsTable& table) {
  std::string out;
  json::StringAppendStream stream(&out);
  out.append("{\"offsetTable\":");
  WriteMessageQueueMap<TopicOffset>(&out, table.offset_table,
                                    [](json::Writer& vw, const TopicOffset& o) {
                                      vw.StartObject();
                                      json::Key(vw, "lastUpdateTimestamp");
                                      vw.Int64(o.last_update_timestamp);
                                      json::Key(vw, "maxOffset");
                                      vw.Int64(o.max_offset);
                                      json::Key(vw, "minOffset");
                                      vw.Int64(o.min_offset);
                                      vw.EndObject();
                                    });
  out.append(",\"topicPutTps\":");
  json::Writer tps(stream);
  tps.Double(table.topic_put_tps);
  out.push_back('}');
  return out;
}

Result<TopicStatsTable> DecodeTopicStatsTable(std::string_view text) {
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(ParseBody(text, "TopicStatsTable", &doc));
  TopicStatsTable table;
  APOGEE_RETURN_IF_ERROR(ReadMessageQueueMap<TopicOffset>(
      doc, "offsetTable", "TopicStatsTable", &table.offset_table,
      [](const json::Value& v, const std::string& path) -> Result<TopicOffset> {
        if (!v.IsObject()) return Status::Corruption(path + ": expected a TopicOffset");
        TopicOffset o;
        APOGEE_RETURN_IF_ERROR(json::ReadInt64(v, "minOffset", path, &o.min_offset));
        APOGEE_RETURN_IF_ERROR(json::ReadInt64(v, "maxOffset", path, &o.max_offset));
        APOGEE_RETURN_IF_ERROR(
            json::ReadInt64(v, "lastUpdateTimestamp", path, &o.last_update_timestamp));
        return o;
      }));
  APOGEE_RETURN_IF_ERROR(ReadDouble(doc, "topicPutTps", "TopicStatsTable", &table.topic_put_tps));
  return table;
}

// ---- ConsumeStats -------------------------------------------------------------------

std::string EncodeConsumeStats(const ConsumeStats& stats) {
  std::string out;
  json::StringAppendStream stream(&out);
  out.append("{\"consumeTps\":");
  json::Writer tps(stream);
  tps.Double(stats.consume_tps);
  out.append(",\"offsetTable\":");
  WriteMessageQueueMap<OffsetWrapper>(&out, stats.offset_table,
                                      [](json::Writer& vw, const OffsetWrapper& o) {
                                        vw.StartObject();
                                        json::Key(vw, "brokerOffset");
                                        vw.Int64(o.broker_offset);
                                        json::Key(vw, "consumerOffset");
                                        vw.Int64(o.consumer_offset);
                                        json::Key(vw, "lastTimestamp");
                                        vw.Int64(o.last_timestamp);
                                        json::Key(vw, "pullOffset");
                                        vw.Int64(o.pull_offset);
                                        vw.EndObject();
                                      });
  out.push_back('}');
  return out;
}

namespace {

// One ConsumeStats object (`path` names it in errors): the body of GET_CONSUME_STATS and
// each element of GET_BROKER_CONSUME_STATS's ConsumeStatsList.
Result<ConsumeStats> ReadConsumeStats(const json::Value& object, const std::string& path) {
  if (!object.IsObject()) return Status::Corruption(path + ": expected a ConsumeStats object");
  ConsumeStats stats;
  APOGEE_RETURN_IF_ERROR(ReadMessageQueueMap<OffsetWrapper>(
      object, "offsetTable", path, &stats.offset_table,
      [](const json::Value& v, const std::string& path) -> Result<OffsetWrapper> {
        if (!v.IsObject()) return Status::Corruption(path + ": expected an OffsetWrapper");
        OffsetWrapper o;
        APOGEE_RETURN_IF_ERROR(json::ReadInt64(v, "brokerOffset", path, &o.broker_offset));
        APOGEE_RETURN_IF_ERROR(json::ReadInt64(v, "consumerOffset", path, &o.consumer_offset));
        APOGEE_RETURN_IF_ERROR(json::ReadInt64(v, "pullOffset", path, &o.pull_offset));
        APOGEE_RETURN_IF_ERROR(json::ReadInt64(v, "lastTimestamp", path, &o.last_timestamp));
        return o;
      }));
  APOGEE_RETURN_IF_ERROR(ReadDouble(object, "consumeTps", path, &stats.consume_tps));
  return stats;
}

}  // namespace

Result<ConsumeStats> DecodeConsumeStats(std::string_view text) {
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(ParseBody(text, "ConsumeStats", &doc));
  return ReadConsumeStats(doc, "ConsumeStats");
}

// Declared in consume_stats_list.h; here because it shares ConsumeStats' reader.
Result<ConsumeStatsList> DecodeConsumeStatsList(std::string_view text) {
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(ParseBody(text, "ConsumeStatsList", &doc));
  ConsumeStatsList list;
  APOGEE_RETURN_IF_ERROR(json::ReadString(doc, "brokerAddr", "ConsumeStatsList", &list.broker_addr));
  APOGEE_RETURN_IF_ERROR(json::ReadInt64(doc, "totalDiff", "ConsumeStatsList", &list.total_diff));
  APOGEE_RETURN_IF_ERROR(
      json::ReadInt64(doc, "totalInflightDiff", "ConsumeStatsList", &list.total_inflight_diff));
  APOGEE_ASSIGN_OR_RETURN(const json::Value* groups,
                          json::FindArray(doc, "consumeStatsList", "ConsumeStatsList"));
  if (groups == nullptr) return list;
  // A list of {group: [ConsumeStats, ...]} maps (Java: List<Map<String, List<ConsumeStats>>>).
  for (rapidjson::SizeType i = 0; i < groups->Size(); ++i) {
    const std::string map_path = "ConsumeStatsList.consumeStatsList[" + std::to_string(i) + "]";
    const json::Value& map = (*groups)[i];
    if (!map.IsObject()) return Status::Corruption(map_path + ": expected an object");
    for (auto it = map.MemberBegin(); it != map.MemberEnd(); ++it) {
      std::string group(json::KeyOf(it->name));
      const std::string group_path = map_path + "." + group;
      if (!it->value.IsArray()) return Status::Corruption(group_path + ": expected an array");
      std::vector<ConsumeStats> stats;
      for (rapidjson::SizeType j = 0; j < it->value.Size(); ++j) {
        APOGEE_ASSIGN_OR_RETURN(ConsumeStats one,
                                ReadConsumeStats(it->value[j], group_path + "[" + std::to_string(j) + "]"));
        stats.push_back(std::move(one));
      }
      list.groups.emplace_back(std::move(group), std::move(stats));
    }
  }
  return list;
}

// ---- Connections --------------------------------------------------------------------

std::string EncodeConsumerConnection(const ConsumerConnection& connection) {
  std::string out;
  json::StringAppendStream stream(&out);
  json::Writer w(stream);
  w.StartObject();
  WriteConnectionSet(w, connection.connection_set);
  json::Key(w, "consumeFromWhere");
  json::String(w, ConsumeFromWhereName(connection.consume_from_where));
  json::Key(w, "consumeType");
  json::String(w, ConsumeTypeName(connection.consume_type));
  json::Key(w, "messageModel");
  json::String(w, MessageModelName(connection.message_model));
  json::Key(w, "subscriptionTable");
  w.StartObject();
  for (const auto& [topic, sub] : connection.subscription_table) {
    json::Key(w, topic);
    const std::string sub_json = EncodeSubscriptionData(sub);
    w.RawValue(sub_json.data(), sub_json.size(), rapidjson::kObjectType);
  }
  w.EndObject();
  w.EndObject();
  return out;
}

Result<ConsumerConnection> DecodeConsumerConnection(std::string_view text) {
  constexpr std::string_view kPath = "ConsumerConnection";
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(ParseBody(text, kPath, &doc));
  ConsumerConnection c;
  APOGEE_RETURN_IF_ERROR(ReadConnectionSet(doc, kPath, &c.connection_set));
  APOGEE_RETURN_IF_ERROR(
      ReadEnumByName(doc, "consumeType", kPath, 3, &ConsumeTypeName, &c.consume_type));
  APOGEE_RETURN_IF_ERROR(
      ReadEnumByName(doc, "messageModel", kPath, 2, &MessageModelName, &c.message_model));
  APOGEE_RETURN_IF_ERROR(ReadEnumByName(doc, "consumeFromWhere", kPath, 6,
                                        &ConsumeFromWhereName, &c.consume_from_where));
  APOGEE_ASSIGN_OR_RETURN(const json::Value* table,
                          json::FindObject(doc, "subscriptionTable", kPath));
  if (table != nullptr) {
    for (auto it = table->MemberBegin(); it != table->MemberEnd(); ++it) {
      const std::string topic(json::KeyOf(it->name));
      auto sub = DecodeSubscriptionData(StringifyValue(it->value));
      if (!sub.ok()) {
        return Status::Corruption("ConsumerConnection.subscriptionTable[" + topic +
                                  "]: " + sub.status().message());
      }
      c.subscription_table[topic] = std::move(*sub);
    }
  }
  return c;
}

std::string EncodeProducerConnection(const ProducerConnection& connection) {
  std::string out;
  json::StringAppendStream stream(&out);
  json::Writer w(stream);
  w.StartObject();
  WriteConnectionSet(w, connection.connection_set);
  w.EndObject();
  return out;
}

Result<ProducerConnection> DecodeProducerConnection(std::string_view text) {
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(ParseBody(text, "ProducerConnection", &doc));
  ProducerConnection c;
  APOGEE_RETURN_IF_ERROR(ReadConnectionSet(doc, "ProducerConnection", &c.connection_set));
  return c;
}

// ---- GroupList ----------------------------------------------------------------------

std::string EncodeGroupList(const GroupList& list) {
  std::string out;
  json::StringAppendStream stream(&out);
  json::Writer w(stream);
  w.StartObject();
  json::Key(w, "groupList");
  w.StartArray();
  for (const std::string& g : list.group_list) json::String(w, g);
  w.EndArray();
  w.EndObject();
  return out;
}

Result<GroupList> DecodeGroupList(std::string_view text) {
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(json::ParseObject(text, "GroupList", &doc));
  GroupList list;
  APOGEE_ASSIGN_OR_RETURN(const json::Value* groups, json::FindArray(doc, "groupList", "GroupList"));
  if (groups != nullptr) {
    for (rapidjson::SizeType i = 0; i < groups->Size(); ++i) {
      APOGEE_ASSIGN_OR_RETURN(
          std::string g, json::AsString((*groups)[i], "GroupList.groupList[" + std::to_string(i) + "]"));
      list.group_list.insert(std::move(g));
    }
  }
  return list;
}

// ---- ResetOffsetBody ----------------------------------------------------------------

std::string EncodeResetOffsetBody(const ResetOffsetBody& body) {
  std::string out;
  out.append("{\"offsetTable\":");
  WriteMessageQueueMap<int64_t>(&out, body.offset_table,
                                [](json::Writer& vw, const int64_t& offset) { vw.Int64(offset); });
  out.push_back('}');
  return out;
}

Result<ResetOffsetBody> DecodeResetOffsetBody(std::string_view text) {
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(ParseBody(text, "ResetOffsetBody", &doc));
  ResetOffsetBody body;
  APOGEE_RETURN_IF_ERROR(ReadMessageQueueMap<int64_t>(
      doc, "offsetTable", "ResetOffsetBody", &body.offset_table,
      [](const json::Value& v, const std::string& path) { return json::AsInt64(v, path); }));
  return body;
}

std::string EncodeResetOffsetBodyForC(const ResetOffsetBody& body) {
  std::string out;
  json::StringAppendStream stream(&out);
  json::Writer w(stream);
  w.StartObject();
  json::Key(w, "offsetTable");
  w.StartArray();
  for (const auto& [mq, offset] : body.offset_table) {
    w.StartObject();
    json::Key(w, "brokerName");
    json::String(w, mq.broker_name);
    json::Key(w, "offset");
    w.Int64(offset);
    json::Key(w, "queueId");
    w.Int(mq.queue_id);
    json::Key(w, "topic");
    json::String(w, mq.topic);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return out;
}

Result<ResetOffsetBody> DecodeResetOffsetBodyForC(std::string_view text) {
  constexpr std::string_view kPath = "ResetOffsetBodyForC";
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(json::ParseObject(text, kPath, &doc));
  ResetOffsetBody body;
  APOGEE_ASSIGN_OR_RETURN(const json::Value* table, json::FindArray(doc, "offsetTable", kPath));
  if (table == nullptr) return body;
  for (rapidjson::SizeType i = 0; i < table->Size(); ++i) {
    const std::string item = std::string(kPath) + ".offsetTable[" + std::to_string(i) + "]";
    APOGEE_ASSIGN_OR_RETURN(MessageQueue mq, json::ReadMessageQueue((*table)[i], item));
    int64_t offset = 0;
    APOGEE_RETURN_IF_ERROR(json::ReadInt64((*table)[i], "offset", item, &offset, true));
    body.offset_table[std::move(mq)] = offset;
  }
  return body;
}

}  // namespace apogee::protocol
