#include "protocol/broker_stats_data.h"

#include <cstdlib>
#include <string>
#include <utility>

#include "protocol/json_util.h"

namespace apogee::protocol {
namespace {

void WriteItem(json::Writer& w, std::string_view name, const BrokerStatsItem& item) {
  json::Key(w, name);
  w.StartObject();
  json::Key(w, "avgpt");
  w.Double(item.avgpt);
  json::Key(w, "sum");
  w.Int64(item.sum);
  json::Key(w, "tps");
  w.Double(item.tps);
  w.EndObject();
}

Status ReadItem(const json::Value& doc, const char* name, BrokerStatsItem* item) {
  const std::string path = std::string("BrokerStatsData.") + name;
  APOGEE_ASSIGN_OR_RETURN(const json::Value* v, json::FindObject(doc, name, path));
  if (v == nullptr) return Status::OK();
  APOGEE_RETURN_IF_ERROR(json::ReadInt64(*v, "sum", path, &item->sum));
  for (auto [key, out] : {std::pair{"tps", &item->tps}, std::pair{"avgpt", &item->avgpt}}) {
    std::string text;  // numbers are kept as their source text (json_util.h)
    APOGEE_RETURN_IF_ERROR(json::ReadString(*v, key, path, &text));
    if (text.empty()) continue;
    char* end = nullptr;
    *out = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0') {
      return Status::Corruption(path + "." + key + ": not a number: " + text);
    }
  }
  return Status::OK();
}

}  // namespace

std::string EncodeBrokerStatsData(const BrokerStatsData& data) {
  std::string out;
  json::StringAppendStream stream(&out);
  json::Writer w(stream);
  w.StartObject();
  WriteItem(w, "statsDay", data.stats_day);
  WriteItem(w, "statsHour", data.stats_hour);
  WriteItem(w, "statsMinute", data.stats_minute);
  w.EndObject();
  return out;
}

Result<BrokerStatsData> DecodeBrokerStatsData(std::string_view text) {
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(json::ParseObject(text, "BrokerStatsData", &doc));
  BrokerStatsData data;
  APOGEE_RETURN_IF_ERROR(ReadItem(doc, "statsMinute", &data.stats_minute));
  APOGEE_RETURN_IF_ERROR(ReadItem(doc, "statsHour", &data.stats_hour));
  APOGEE_RETURN_IF_ERROR(ReadItem(doc, "statsDay", &data.stats_day));
  return data;
}

}  // namespace apogee::protocol
