#include "namesrv/namesrv_bodies.h"

#include <fmt/format.h>
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <zlib.h>

#include "base/coding.h"
#include "base/string_util.h"

namespace apogee::namesrv {
namespace {

using JsonValue = rapidjson::Value;

// A compressed body inflates to a few MiB at most (a topic config is ~60 bytes); refuse
// anything that grows past this rather than let a crafted body exhaust memory.
constexpr size_t kMaxInflatedBodySize = 64 * 1024 * 1024;
// TopicConfig's text form separator (RQ:cm/TopicConfig.java SEPARATOR).
constexpr char kTopicConfigSeparator = ' ';

Result<rapidjson::Document> ParseJson(std::string_view json, std::string_view what) {
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError()) {
    return Status::Corruption(fmt::format("{} is not JSON (offset {}: {})", what,
                                          doc.GetErrorOffset(),
                                          rapidjson::GetParseError_En(doc.GetParseError())));
  }
  if (!doc.IsObject()) return Status::Corruption(fmt::format("{} is not a JSON object", what));
  return doc;
}

// fastjson reads numbers from numbers or numeric strings; so do we.
Result<int64_t> GetInt64(const JsonValue& obj, const char* key, int64_t fallback,
                         std::string_view where) {
  auto it = obj.FindMember(key);
  if (it == obj.MemberEnd() || it->value.IsNull()) return fallback;
  const JsonValue& v = it->value;
  if (v.IsInt64()) return v.GetInt64();
  if (v.IsUint64()) return static_cast<int64_t>(v.GetUint64());
  if (v.IsString()) {
    if (auto parsed = ParseInt64(v.GetString())) return *parsed;
  }
  return Status::Corruption(fmt::format("{}.{} is not an integer", where, key));
}

Result<int32_t> GetInt32(const JsonValue& obj, const char* key, int32_t fallback,
                         std::string_view where) {
  APOGEE_ASSIGN_OR_RETURN(int64_t v, GetInt64(obj, key, fallback, where));
  if (v < INT32_MIN || v > INT32_MAX) {
    return Status::Corruption(fmt::format("{}.{} = {} is out of int range", where, key, v));
  }
  return static_cast<int32_t>(v);
}

Result<DataVersionInfo> DataVersionFrom(const JsonValue& v) {
  if (!v.IsObject()) return Status::Corruption("dataVersion is not an object");
  DataVersionInfo out;
  APOGEE_ASSIGN_OR_RETURN(out.state_version, GetInt64(v, "stateVersion", 0, "dataVersion"));
  APOGEE_ASSIGN_OR_RETURN(out.timestamp, GetInt64(v, "timestamp", 0, "dataVersion"));
  APOGEE_ASSIGN_OR_RETURN(out.counter, GetInt64(v, "counter", 0, "dataVersion"));
  return out;
}

Status WrapperInto(const JsonValue& wrapper, RegisterBrokerBodyData* out) {
  if (!wrapper.IsObject()) return Status::Corruption("topicConfigSerializeWrapper is not an object");
  auto dv = wrapper.FindMember("dataVersion");
  if (dv != wrapper.MemberEnd() && !dv->value.IsNull()) {
    APOGEE_ASSIGN_OR_RETURN(out->data_version, DataVersionFrom(dv->value));
  }
  auto table = wrapper.FindMember("topicConfigTable");
  if (table == wrapper.MemberEnd() || table->value.IsNull()) return Status::OK();
  if (!table->value.IsObject()) return Status::Corruption("topicConfigTable is not an object");
  for (const auto& entry : table->value.GetObject()) {
    const JsonValue& tc = entry.value;
    std::string where = fmt::format("topicConfigTable[{}]", entry.name.GetString());
    if (!tc.IsObject()) return Status::Corruption(where + " is not an object");
    TopicConfigInfo info;
    auto name = tc.FindMember("topicName");
    info.topic_name = (name != tc.MemberEnd() && name->value.IsString())
                          ? name->value.GetString()
                          : entry.name.GetString();
    APOGEE_ASSIGN_OR_RETURN(info.read_queue_nums, GetInt32(tc, "readQueueNums", 16, where));
    APOGEE_ASSIGN_OR_RETURN(info.write_queue_nums, GetInt32(tc, "writeQueueNums", 16, where));
    APOGEE_ASSIGN_OR_RETURN(info.perm, GetInt32(tc, "perm", kPermRead | kPermWrite, where));
    APOGEE_ASSIGN_OR_RETURN(info.topic_sys_flag, GetInt32(tc, "topicSysFlag", 0, where));
    out->topic_configs.push_back(std::move(info));
  }
  return Status::OK();
}

Status FilterServersInto(const JsonValue& list, RegisterBrokerBodyData* out) {
  if (list.IsNull()) return Status::OK();
  if (!list.IsArray()) return Status::Corruption("filterServerList is not an array");
  for (const auto& v : list.GetArray()) {
    if (!v.IsString()) return Status::Corruption("filterServerList holds a non-string");
    out->filter_server_list.emplace_back(v.GetString());
  }
  return Status::OK();
}

Result<std::string> Inflate(std::string_view in) {
  z_stream zs{};
  if (inflateInit(&zs) != Z_OK) return Status::Internal("zlib inflateInit failed");
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  std::string out;
  char buf[16384];
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof(buf);
    rc = inflate(&zs, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) {
      std::string msg = zs.msg != nullptr ? zs.msg : fmt::format("zlib error {}", rc);
      inflateEnd(&zs);
      if (rc == Z_BUF_ERROR) msg = "truncated zlib stream";
      return Status::Corruption("compressed register body: " + msg);
    }
    out.append(buf, sizeof(buf) - zs.avail_out);
    if (out.size() > kMaxInflatedBodySize) {
      inflateEnd(&zs);
      return Status::Corruption("compressed register body inflates past 64 MiB");
    }
  }
  inflateEnd(&zs);
  return out;
}

std::string Deflate(std::string_view in) {
  uLongf size = compressBound(static_cast<uLong>(in.size()));
  std::string out(size, '\0');
  compress2(reinterpret_cast<Bytef*>(out.data()), &size,
            reinterpret_cast<const Bytef*>(in.data()), static_cast<uLong>(in.size()),
            Z_BEST_COMPRESSION);
  out.resize(size);
  return out;
}

Result<std::string_view> ReadSized(ByteReader* r, std::string_view what) {
  int32_t len = 0;
  std::string_view bytes;
  if (!r->ReadI32(&len)) return Status::Corruption(fmt::format("{}: length missing", what));
  if (len < 0 || !r->ReadBytes(static_cast<size_t>(len), &bytes)) {
    return Status::Corruption(
        fmt::format("{}: length {} exceeds the {} bytes left", what, len, r->remaining()));
  }
  return bytes;
}

void AppendDataVersion(const DataVersionInfo& v, std::string* out) {
  fmt::format_to(std::back_inserter(*out), R"({{"counter":{},"stateVersion":{},"timestamp":{}}})",
                 v.counter, v.state_version, v.timestamp);
}

void AppendStringArray(const std::vector<std::string>& items, std::string* out) {
  out->push_back('[');
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out->push_back(',');
    AppendJsonString(items[i], out);
  }
  out->push_back(']');
}

void AppendBrokerData(const BrokerDataInfo& bd, bool standard_json, std::string* out) {
  out->append(R"({"brokerAddrs":{)");
  bool first = true;
  for (const auto& [id, addr] : bd.broker_addrs) {
    if (!first) out->push_back(',');
    first = false;
    if (standard_json) {
      fmt::format_to(std::back_inserter(*out), "\"{}\":", id);
    } else {
      fmt::format_to(std::back_inserter(*out), "{}:", id);
    }
    AppendJsonString(addr, out);
  }
  out->append(R"(},"brokerName":)");
  AppendJsonString(bd.broker_name, out);
  out->append(R"(,"cluster":)");
  AppendJsonString(bd.cluster, out);
  out->append(R"(,"enableActingMaster":false})");
}

}  // namespace

void AppendJsonString(std::string_view s, std::string* out) {
  out->push_back('"');
  for (char c : s) {
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          fmt::format_to(std::back_inserter(*out), "\\u{:04x}", static_cast<unsigned char>(c));
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
}

Result<RegisterBrokerBodyData> DecodeRegisterBrokerBodyJson(std::string_view json) {
  APOGEE_ASSIGN_OR_RETURN(rapidjson::Document doc, ParseJson(json, "RegisterBrokerBody"));
  RegisterBrokerBodyData out;
  auto wrapper = doc.FindMember("topicConfigSerializeWrapper");
  if (wrapper != doc.MemberEnd() && !wrapper->value.IsNull()) {
    APOGEE_RETURN_IF_ERROR(WrapperInto(wrapper->value, &out));
  }
  auto filters = doc.FindMember("filterServerList");
  if (filters != doc.MemberEnd()) APOGEE_RETURN_IF_ERROR(FilterServersInto(filters->value, &out));
  return out;
}

Result<RegisterBrokerBodyData> DecodeTopicConfigSerializeWrapperJson(std::string_view json) {
  APOGEE_ASSIGN_OR_RETURN(rapidjson::Document doc,
                          ParseJson(json, "TopicConfigSerializeWrapper"));
  RegisterBrokerBodyData out;
  APOGEE_RETURN_IF_ERROR(WrapperInto(doc, &out));
  return out;
}

Result<RegisterBrokerBodyData> DecodeRegisterBrokerBodyCompressed(std::string_view bytes) {
  APOGEE_ASSIGN_OR_RETURN(std::string plain, Inflate(bytes));
  ByteReader r(plain);
  RegisterBrokerBodyData out;
  APOGEE_ASSIGN_OR_RETURN(std::string_view dv_json, ReadSized(&r, "compressed dataVersion"));
  APOGEE_ASSIGN_OR_RETURN(out.data_version, DecodeDataVersionJson(dv_json));
  int32_t count = 0;
  if (!r.ReadI32(&count) || count < 0) {
    return Status::Corruption("compressed register body: bad topic count");
  }
  for (int32_t i = 0; i < count; ++i) {
    APOGEE_ASSIGN_OR_RETURN(std::string_view text,
                            ReadSized(&r, fmt::format("compressed topic config {}", i)));
    // "name read write perm filterType[ attributesJson]": 4.9 writes five tokens, 5.x
    // appends the attributes. Only the first four matter here.
    std::vector<std::string> tokens = SplitString(text, kTopicConfigSeparator);
    auto read = tokens.size() >= 5 ? ParseInt32(tokens[1]) : std::nullopt;
    auto write = tokens.size() >= 5 ? ParseInt32(tokens[2]) : std::nullopt;
    auto perm = tokens.size() >= 5 ? ParseInt32(tokens[3]) : std::nullopt;
    if (!read || !write || !perm) {
      return Status::Corruption(
          fmt::format("compressed topic config {} is not 'name read write perm filterType': '{}'",
                      i, text));
    }
    out.topic_configs.push_back(TopicConfigInfo{tokens[0], *read, *write, *perm, 0});
  }
  APOGEE_ASSIGN_OR_RETURN(std::string_view filters_json,
                          ReadSized(&r, "compressed filterServerList"));
  rapidjson::Document filters;
  filters.Parse(filters_json.data(), filters_json.size());
  if (filters.HasParseError()) {
    return Status::Corruption("compressed filterServerList is not JSON");
  }
  APOGEE_RETURN_IF_ERROR(FilterServersInto(filters, &out));
  return out;
}

std::string EncodeRegisterBrokerBodyCompressed(const RegisterBrokerBodyData& body) {
  std::string plain;
  ByteWriter w(&plain);
  std::string dv = EncodeDataVersionJson(body.data_version);
  w.PutI32(static_cast<int32_t>(dv.size()));
  w.PutBytes(dv);
  w.PutI32(static_cast<int32_t>(body.topic_configs.size()));
  for (const TopicConfigInfo& tc : body.topic_configs) {
    std::string text = fmt::format("{} {} {} {} SINGLE_TAG", tc.topic_name, tc.read_queue_nums,
                                   tc.write_queue_nums, tc.perm);
    w.PutI32(static_cast<int32_t>(text.size()));
    w.PutBytes(text);
  }
  std::string filters;
  AppendStringArray(body.filter_server_list, &filters);
  w.PutI32(static_cast<int32_t>(filters.size()));
  w.PutBytes(filters);
  return Deflate(plain);
}

std::string EncodeRegisterBrokerBodyJson(const RegisterBrokerBodyData& body) {
  std::string out = R"({"filterServerList":)";
  AppendStringArray(body.filter_server_list, &out);
  out.append(R"(,"topicConfigSerializeWrapper":{"dataVersion":)");
  AppendDataVersion(body.data_version, &out);
  out.append(R"(,"topicConfigTable":{)");
  for (size_t i = 0; i < body.topic_configs.size(); ++i) {
    const TopicConfigInfo& tc = body.topic_configs[i];
    if (i > 0) out.push_back(',');
    AppendJsonString(tc.topic_name, &out);
    fmt::format_to(std::back_inserter(out),
                   R"(:{{"order":false,"perm":{},"readQueueNums":{},"topicFilterType":"SINGLE_TAG",)"
                   R"("topicName":)",
                   tc.perm, tc.read_queue_nums);
    AppendJsonString(tc.topic_name, &out);
    fmt::format_to(std::back_inserter(out), R"(,"topicSysFlag":{},"writeQueueNums":{}}})",
                   tc.topic_sys_flag, tc.write_queue_nums);
  }
  out.append("}}}");
  return out;
}

Result<DataVersionInfo> DecodeDataVersionJson(std::string_view json) {
  APOGEE_ASSIGN_OR_RETURN(rapidjson::Document doc, ParseJson(json, "DataVersion"));
  return DataVersionFrom(doc);
}

std::string EncodeDataVersionJson(const DataVersionInfo& version) {
  std::string out;
  AppendDataVersion(version, &out);
  return out;
}

std::string EncodeTopicRouteDataJson(const TopicRoute& route,
                                     const std::optional<std::string>& order_topic_conf,
                                     bool standard_json) {
  std::string out = R"({"brokerDatas":[)";
  for (size_t i = 0; i < route.broker_datas.size(); ++i) {
    if (i > 0) out.push_back(',');
    AppendBrokerData(route.broker_datas[i], standard_json, &out);
  }
  out.append(R"(],"filterServerTable":{)");
  bool first = true;
  for (const auto& [addr, servers] : route.filter_server_table) {
    if (!first) out.push_back(',');
    first = false;
    AppendJsonString(addr, &out);
    out.push_back(':');
    AppendStringArray(servers, &out);
  }
  out.push_back('}');
  if (order_topic_conf) {
    out.append(R"(,"orderTopicConf":)");
    AppendJsonString(*order_topic_conf, &out);
  }
  out.append(R"(,"queueDatas":[)");
  for (size_t i = 0; i < route.queue_datas.size(); ++i) {
    const QueueDataInfo& qd = route.queue_datas[i];
    if (i > 0) out.push_back(',');
    out.append(R"({"brokerName":)");
    AppendJsonString(qd.broker_name, &out);
    fmt::format_to(std::back_inserter(out),
                   R"(,"perm":{},"readQueueNums":{},"topicSysFlag":{},"writeQueueNums":{}}})",
                   qd.perm, qd.read_queue_nums, qd.topic_sys_flag, qd.write_queue_nums);
  }
  out.append("]}");
  return out;
}

std::string EncodeClusterInfoJson(const ClusterInfoData& info) {
  std::string out = R"({"brokerAddrTable":{)";
  bool first = true;
  for (const auto& [name, bd] : info.broker_addr_table) {
    if (!first) out.push_back(',');
    first = false;
    AppendJsonString(name, &out);
    out.push_back(':');
    AppendBrokerData(bd, /*standard_json=*/false, &out);
  }
  out.append(R"(},"clusterAddrTable":{)");
  first = true;
  for (const auto& [cluster, names] : info.cluster_addr_table) {
    if (!first) out.push_back(',');
    first = false;
    AppendJsonString(cluster, &out);
    out.push_back(':');
    AppendStringArray(std::vector<std::string>(names.begin(), names.end()), &out);
  }
  out.append("}}");
  return out;
}

std::string EncodeTopicListJson(const TopicListData& list) {
  std::string out = "{";
  if (list.broker_addr) {
    out.append(R"("brokerAddr":)");
    AppendJsonString(*list.broker_addr, &out);
    out.push_back(',');
  }
  out.append(R"("topicList":)");
  AppendStringArray(list.topics, &out);
  out.push_back('}');
  return out;
}

std::string EncodeKvTableJson(const std::map<std::string, std::string>& table) {
  std::string out = R"({"table":{)";
  bool first = true;
  for (const auto& [k, v] : table) {
    if (!first) out.push_back(',');
    first = false;
    AppendJsonString(k, &out);
    out.push_back(':');
    AppendJsonString(v, &out);
  }
  out.append("}}");
  return out;
}

}  // namespace apogee::namesrv
