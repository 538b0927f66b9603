#include "dashboard/api_request.h"

#include "base/string_util.h"
#include "protocol/json_util.h"

namespace apogee::dashboard {
namespace json = protocol::json;

std::string ApiRequest::Get(const std::string& name, std::string fallback) const {
  auto it = params.find(name);
  return it == params.end() ? fallback : it->second;
}

Result<std::string> ApiRequest::Required(const std::string& name) const {
  if (!Has(name)) return Status::InvalidArgument("missing parameter " + name);
  return params.at(name);
}

Result<int64_t> ApiRequest::Int64(const std::string& name, std::optional<int64_t> fallback) const {
  if (!Has(name)) {
    if (fallback) return *fallback;
    return Status::InvalidArgument("missing parameter " + name);
  }
  auto v = ParseInt64(TrimWhitespace(params.at(name)));
  if (!v) return Status::InvalidArgument("parameter " + name + " is not an integer: " + params.at(name));
  return *v;
}

Result<int32_t> ApiRequest::Int32(const std::string& name, std::optional<int32_t> fallback) const {
  if (!Has(name)) {
    if (fallback) return *fallback;
    return Status::InvalidArgument("missing parameter " + name);
  }
  auto v = ParseInt32(TrimWhitespace(params.at(name)));
  if (!v) return Status::InvalidArgument("parameter " + name + " is not a 32-bit integer: " + params.at(name));
  return *v;
}

Result<bool> ApiRequest::Bool(const std::string& name, bool fallback) const {
  if (!Has(name)) return fallback;
  auto v = ParseBoolStrict(params.at(name));
  if (!v) return Status::InvalidArgument("parameter " + name + " is not true/false: " + params.at(name));
  return *v;
}

namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::optional<std::string> PercentDecode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '+') {
      out.push_back(' ');
    } else if (c == '%') {
      if (i + 2 >= text.size()) return std::nullopt;
      int hi = HexValue(text[i + 1]);
      int lo = HexValue(text[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

Status ParseTarget(std::string_view target, ApiRequest* request) {
  size_t q = target.find('?');
  auto path = PercentDecode(target.substr(0, q));
  if (!path) return Status::InvalidArgument("malformed escape in the request path");
  request->path = std::move(*path);
  if (q == std::string_view::npos) return Status::OK();
  for (const std::string& pair : SplitString(target.substr(q + 1), '&', true)) {
    size_t eq = pair.find('=');
    auto name = PercentDecode(std::string_view(pair).substr(0, eq));
    auto value = eq == std::string::npos ? std::optional<std::string>("")
                                         : PercentDecode(std::string_view(pair).substr(eq + 1));
    if (!name || !value) return Status::InvalidArgument("malformed escape in the query string");
    request->params[*name] = std::move(*value);
  }
  return Status::OK();
}

Status ParseJsonBody(std::string_view body, ApiRequest* request) {
  if (TrimWhitespace(body).empty()) return Status::OK();
  json::Document doc;
  Status s = json::ParseObject(body, "request body", &doc);
  if (!s.ok()) return Status::InvalidArgument(s.message());
  for (auto it = doc.MemberBegin(); it != doc.MemberEnd(); ++it) {
    std::string name(json::KeyOf(it->name));
    const json::Value& v = it->value;
    if (v.IsNull()) continue;
    if (v.IsObject() || v.IsArray()) {
      return Status::InvalidArgument("request body member " + name + " must be a string, number or boolean");
    }
    auto text = json::AsString(v, name);
    if (!text.ok()) return Status::InvalidArgument(text.status().message());
    request->params[name] = std::move(*text);
  }
  return Status::OK();
}

}  // namespace apogee::dashboard
