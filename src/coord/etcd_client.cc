#include "coord/etcd_client.h"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <charconv>
#include <utility>

#include "base/string_util.h"
#include "protocol/json_util.h"

namespace apogee::coord {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
using tcp = boost::asio::ip::tcp;
// RapidJSON through json_util.h's types (its stack allocator avoids RapidJSON's UB).
using Document = protocol::json::Document;
using StringBuffer = protocol::json::StringBuffer;
using Writer = protocol::json::WriterTo<StringBuffer>;

void KeyField(Writer& w, const char* name, std::string_view raw) {
  w.Key(name);
  const std::string b64 = Base64Encode(raw);
  w.String(b64.data(), static_cast<rapidjson::SizeType>(b64.size()));
}

void Int64Field(Writer& w, const char* name, int64_t v) {
  w.Key(name);
  const std::string s = std::to_string(v);
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}

// int64 fields come as strings ("12"); accept numbers too. Absent = 0.
int64_t Int64Of(const rapidjson::Value& obj, const char* name) {
  if (!obj.IsObject()) return 0;
  auto it = obj.FindMember(name);
  if (it == obj.MemberEnd()) return 0;
  const rapidjson::Value& v = it->value;
  if (v.IsInt64()) return v.GetInt64();
  if (v.IsString()) {
    int64_t out = 0;
    const char* b = v.GetString();
    std::from_chars(b, b + v.GetStringLength(), out);
    return out;
  }
  return 0;
}

Result<std::string> Base64Of(const rapidjson::Value& obj, const char* name) {
  auto it = obj.FindMember(name);
  if (it == obj.MemberEnd()) return std::string();
  if (!it->value.IsString()) return Status::Corruption(fmt::format("etcd: {} is not a string", name));
  return Base64Decode(std::string_view(it->value.GetString(), it->value.GetStringLength()));
}

Result<std::vector<KeyValue>> DecodeKvs(const rapidjson::Value& obj) {
  std::vector<KeyValue> out;
  auto it = obj.FindMember("kvs");
  if (it == obj.MemberEnd()) return out;
  if (!it->value.IsArray()) return Status::Corruption("etcd: kvs is not an array");
  for (const rapidjson::Value& kv : it->value.GetArray()) {
    if (!kv.IsObject()) return Status::Corruption("etcd: a kv is not an object");
    KeyValue k;
    APOGEE_ASSIGN_OR_RETURN(k.key, Base64Of(kv, "key"));
    APOGEE_ASSIGN_OR_RETURN(k.value, Base64Of(kv, "value"));
    k.create_revision = Int64Of(kv, "create_revision");
    k.mod_revision = Int64Of(kv, "mod_revision");
    k.version = Int64Of(kv, "version");
    k.lease = Int64Of(kv, "lease");
    out.push_back(std::move(k));
  }
  return out;
}

Result<Document> Parse(std::string_view json) {
  Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError() || !doc.IsObject()) {
    return Status::Corruption(fmt::format("etcd: answer is not a JSON object: {:.200}", json));
  }
  return doc;
}

const char* TargetName(Compare::Target t) {
  switch (t) {
    case Compare::Target::kVersion: return "VERSION";
    case Compare::Target::kCreate: return "CREATE";
    case Compare::Target::kMod: return "MOD";
    case Compare::Target::kValue: return "VALUE";
  }
  return "MOD";
}

const char* OpName(Compare::Op op) {
  switch (op) {
    case Compare::Op::kEqual: return "EQUAL";
    case Compare::Op::kGreater: return "GREATER";
    case Compare::Op::kLess: return "LESS";
    case Compare::Op::kNotEqual: return "NOT_EQUAL";
  }
  return "EQUAL";
}

void WriteOps(Writer& w, const char* name, const std::vector<TxnOp>& ops) {
  w.Key(name);
  w.StartArray();
  for (const TxnOp& op : ops) {
    w.StartObject();
    switch (op.kind) {
      case TxnOp::Kind::kPut:
        w.Key("request_put");
        w.StartObject();
        KeyField(w, "key", op.key);
        KeyField(w, "value", op.value);
        if (op.lease != 0) Int64Field(w, "lease", op.lease);
        w.EndObject();
        break;
      case TxnOp::Kind::kDelete:
        w.Key("request_delete_range");
        w.StartObject();
        KeyField(w, "key", op.key);
        w.EndObject();
        break;
      case TxnOp::Kind::kRange:
        w.Key("request_range");
        w.StartObject();
        KeyField(w, "key", op.key);
        w.EndObject();
        break;
    }
    w.EndObject();
  }
  w.EndArray();
}

// "http://host:port" -> "host:port".
Result<std::string> ParseEndpoint(std::string_view text) {
  std::string_view e = TrimWhitespace(text);
  constexpr std::string_view kScheme = "http://";
  if (e.substr(0, kScheme.size()) != kScheme) {
    return Status::InvalidArgument(
        fmt::format("etcd endpoint '{}' must start with http:// (https is not supported)", e));
  }
  e.remove_prefix(kScheme.size());
  while (!e.empty() && e.back() == '/') e.remove_suffix(1);
  const size_t colon = e.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == e.size()) {
    return Status::InvalidArgument(fmt::format("etcd endpoint '{}' needs host:port", text));
  }
  int port = 0;
  auto [p, ec] = std::from_chars(e.data() + colon + 1, e.data() + e.size(), port);
  if (ec != std::errc() || p != e.data() + e.size() || port <= 0 || port > 65535) {
    return Status::InvalidArgument(fmt::format("etcd endpoint '{}' has a bad port", text));
  }
  return std::string(e);
}

}  // namespace

std::string Base64Encode(std::string_view data) {
  std::string out(4 * ((data.size() + 2) / 3), '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(data.data()),
                                static_cast<int>(data.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

Result<std::string> Base64Decode(std::string_view text) {
  if (text.empty()) return std::string();
  if (text.size() % 4 != 0) return Status::Corruption("etcd: bad base64 length");
  std::string out(3 * (text.size() / 4), '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()),
                                static_cast<int>(text.size()));
  if (n < 0) return Status::Corruption("etcd: bad base64");
  // EVP_DecodeBlock counts the padding as zero bytes.
  size_t len = static_cast<size_t>(n);
  if (text.back() == '=') --len;
  if (text.size() >= 2 && text[text.size() - 2] == '=') --len;
  out.resize(len);
  return out;
}

std::string PrefixEnd(std::string_view prefix) {
  std::string end(prefix);
  while (!end.empty()) {
    unsigned char c = static_cast<unsigned char>(end.back());
    if (c < 0xff) {
      end.back() = static_cast<char>(c + 1);
      return end;
    }
    end.pop_back();
  }
  return std::string(1, '\0');  // every key
}

std::string EncodeRange(std::string_view key, std::string_view range_end) {
  StringBuffer buf;
  Writer w(buf);
  w.StartObject();
  KeyField(w, "key", key);
  if (!range_end.empty()) KeyField(w, "range_end", range_end);
  w.EndObject();
  return buf.GetString();
}

std::string EncodeTxn(const std::vector<Compare>& compares, const std::vector<TxnOp>& success,
                      const std::vector<TxnOp>& failure) {
  StringBuffer buf;
  Writer w(buf);
  w.StartObject();
  w.Key("compare");
  w.StartArray();
  for (const Compare& c : compares) {
    w.StartObject();
    KeyField(w, "key", c.key);
    w.Key("target");
    w.String(TargetName(c.target));
    w.Key("result");
    w.String(OpName(c.op));
    switch (c.target) {
      case Compare::Target::kVersion: Int64Field(w, "version", c.number); break;
      case Compare::Target::kCreate: Int64Field(w, "create_revision", c.number); break;
      case Compare::Target::kMod: Int64Field(w, "mod_revision", c.number); break;
      case Compare::Target::kValue: KeyField(w, "value", c.value); break;
    }
    w.EndObject();
  }
  w.EndArray();
  WriteOps(w, "success", success);
  WriteOps(w, "failure", failure);
  w.EndObject();
  return buf.GetString();
}

Result<RangeResult> DecodeRangeResponse(std::string_view json) {
  APOGEE_ASSIGN_OR_RETURN(Document doc, Parse(json));
  RangeResult r;
  auto header = doc.FindMember("header");
  if (header != doc.MemberEnd()) r.revision = Int64Of(header->value, "revision");
  APOGEE_ASSIGN_OR_RETURN(r.kvs, DecodeKvs(doc));
  return r;
}

Result<TxnResult> DecodeTxnResponse(std::string_view json) {
  APOGEE_ASSIGN_OR_RETURN(Document doc, Parse(json));
  TxnResult r;
  auto succeeded = doc.FindMember("succeeded");
  r.succeeded = succeeded != doc.MemberEnd() && succeeded->value.IsBool() &&
                succeeded->value.GetBool();
  auto header = doc.FindMember("header");
  if (header != doc.MemberEnd()) r.revision = Int64Of(header->value, "revision");
  auto responses = doc.FindMember("responses");
  if (responses != doc.MemberEnd() && responses->value.IsArray()) {
    for (const rapidjson::Value& one : responses->value.GetArray()) {
      std::vector<KeyValue> kvs;
      if (one.IsObject()) {
        auto range = one.FindMember("response_range");
        if (range != one.MemberEnd()) {
          APOGEE_ASSIGN_OR_RETURN(kvs, DecodeKvs(range->value));
        }
      }
      r.ranges.push_back(std::move(kvs));
    }
  }
  return r;
}

Status DecodeError(int http_status, std::string_view json) {
  if (http_status >= 200 && http_status < 300) {
    Document doc;
    doc.Parse(json.data(), json.size());
    if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("error")) return Status::OK();
  }
  Document doc;
  doc.Parse(json.data(), json.size());
  std::string message(json.substr(0, 200));
  int64_t code = 0;
  if (!doc.HasParseError() && doc.IsObject()) {
    for (const char* name : {"message", "error"}) {
      auto it = doc.FindMember(name);
      if (it != doc.MemberEnd() && it->value.IsString()) {
        message = it->value.GetString();
        break;
      }
    }
    code = Int64Of(doc, "code");
  }
  std::string text = fmt::format("etcd: {} (HTTP {}, code {})", message, http_status, code);
  if (code == 5) return Status::NotFound(std::move(text));  // gRPC NotFound
  if (code == 3) return Status::InvalidArgument(std::move(text));
  return Status::Unavailable(std::move(text));
}

HttpTransport BeastTransport(std::chrono::milliseconds timeout) {
  return [timeout](const std::string& endpoint, const std::string& path,
                   const std::string& body) -> Result<HttpAnswer> {
    const size_t colon = endpoint.rfind(':');
    const std::string host = endpoint.substr(0, colon);
    const std::string port = endpoint.substr(colon + 1);
    boost::asio::io_context ioc;
    beast::tcp_stream stream(ioc);
    beast::error_code failure;
    std::string step = "resolve";
    http::request<http::string_body> request{http::verb::post, path, 11};
    request.set(http::field::host, endpoint);
    request.set(http::field::content_type, "application/json");
    request.body() = body;
    request.prepare_payload();
    beast::flat_buffer buffer;
    http::response<http::string_body> response;

    tcp::resolver resolver(ioc);
    beast::error_code ec;
    auto results = resolver.resolve(host, port, ec);
    if (ec) {
      return Status::Unavailable(fmt::format("etcd {}: resolve: {}", endpoint, ec.message()));
    }
    // One deadline for the whole exchange; it cancels whatever is pending.
    stream.expires_after(timeout);
    step = "connect";
    stream.async_connect(results, [&](beast::error_code c, const tcp::endpoint&) {
      if (c) {
        failure = c;
        return;
      }
      step = "write";
      http::async_write(stream, request, [&](beast::error_code w, size_t) {
        if (w) {
          failure = w;
          return;
        }
        step = "read";
        http::async_read(stream, buffer, response, [&](beast::error_code r, size_t) {
          if (r) failure = r;
          step = "done";
        });
      });
    });
    ioc.run();
    beast::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
    if (failure || step != "done") {
      return Status::Unavailable(fmt::format("etcd {}: {} failed: {}", endpoint, step,
                                             failure ? failure.message() : "timed out"));
    }
    return HttpAnswer{static_cast<int>(response.result_int()), std::move(response.body())};
  };
}

Result<std::unique_ptr<EtcdClient>> EtcdClient::Create(std::string_view endpoints,
                                                       std::chrono::milliseconds timeout) {
  return Create(endpoints, BeastTransport(timeout));
}

Result<std::unique_ptr<EtcdClient>> EtcdClient::Create(std::string_view endpoints,
                                                       HttpTransport transport) {
  std::vector<std::string> parsed;
  for (const std::string& part : SplitString(endpoints, ',', true)) {
    if (TrimWhitespace(part).empty()) continue;
    APOGEE_ASSIGN_OR_RETURN(std::string e, ParseEndpoint(part));
    parsed.push_back(std::move(e));
  }
  if (parsed.empty()) return Status::InvalidArgument("etcdEndpoints is empty");
  return std::unique_ptr<EtcdClient>(new EtcdClient(std::move(parsed), std::move(transport)));
}

EtcdClient::EtcdClient(std::vector<std::string> endpoints, HttpTransport transport)
    : endpoints_(std::move(endpoints)), transport_(std::move(transport)) {}

Result<std::string> EtcdClient::Call(const std::string& path, const std::string& body) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> failures;
  for (size_t i = 0; i < endpoints_.size(); ++i) {
    const size_t index = (preferred_ + i) % endpoints_.size();
    Result<HttpAnswer> answer = transport_(endpoints_[index], path, body);
    if (!answer.ok()) {
      failures.push_back(answer.status().message());
      continue;
    }
    if (answer->status >= 500) {
      failures.push_back(fmt::format("etcd {}: HTTP {}: {:.200}", endpoints_[index],
                                     answer->status, answer->body));
      continue;
    }
    preferred_ = index;
    APOGEE_RETURN_IF_ERROR(DecodeError(answer->status, answer->body));
    return std::move(answer->body);
  }
  std::string joined;
  for (const std::string& f : failures) joined += (joined.empty() ? "" : "; ") + f;
  return Status::Unavailable(fmt::format("no etcd endpoint answered {}: {}", path, joined));
}

Result<int64_t> EtcdClient::LeaseGrant(int64_t ttl_seconds) {
  APOGEE_ASSIGN_OR_RETURN(std::string body,
                          Call("/v3/lease/grant", fmt::format(R"({{"TTL":"{}"}})", ttl_seconds)));
  APOGEE_ASSIGN_OR_RETURN(Document doc, Parse(body));
  const int64_t id = Int64Of(doc, "ID");
  if (id == 0) return Status::Corruption(fmt::format("etcd: lease grant without ID: {:.200}", body));
  return id;
}

Result<int64_t> EtcdClient::LeaseKeepAlive(int64_t lease_id) {
  APOGEE_ASSIGN_OR_RETURN(std::string body,
                          Call("/v3/lease/keepalive", fmt::format(R"({{"ID":"{}"}})", lease_id)));
  // A streaming method: the gateway wraps each message as {"result": {...}}.
  APOGEE_ASSIGN_OR_RETURN(Document doc, Parse(body));
  auto result = doc.FindMember("result");
  if (result == doc.MemberEnd()) return Int64Of(doc, "TTL");
  return Int64Of(result->value, "TTL");
}

Status EtcdClient::LeaseRevoke(int64_t lease_id) {
  Result<std::string> body =
      Call("/v3/lease/revoke", fmt::format(R"({{"ID":"{}"}})", lease_id));
  if (!body.ok() && body.status().code() != StatusCode::kNotFound) return body.status();
  return Status::OK();
}

Result<RangeResult> EtcdClient::Get(std::string_view key) {
  APOGEE_ASSIGN_OR_RETURN(std::string body, Call("/v3/kv/range", EncodeRange(key, {})));
  return DecodeRangeResponse(body);
}

Result<RangeResult> EtcdClient::GetPrefix(std::string_view prefix) {
  APOGEE_ASSIGN_OR_RETURN(std::string body,
                          Call("/v3/kv/range", EncodeRange(prefix, PrefixEnd(prefix))));
  return DecodeRangeResponse(body);
}

Status EtcdClient::Put(std::string_view key, std::string_view value, int64_t lease) {
  StringBuffer buf;
  Writer w(buf);
  w.StartObject();
  KeyField(w, "key", key);
  KeyField(w, "value", value);
  if (lease != 0) Int64Field(w, "lease", lease);
  w.EndObject();
  return Call("/v3/kv/put", buf.GetString()).status();
}

Status EtcdClient::Delete(std::string_view key) {
  return Call("/v3/kv/deleterange", EncodeRange(key, {})).status();
}

Result<TxnResult> EtcdClient::Txn(const std::vector<Compare>& compares,
                                  const std::vector<TxnOp>& success,
                                  const std::vector<TxnOp>& failure) {
  APOGEE_ASSIGN_OR_RETURN(std::string body,
                          Call("/v3/kv/txn", EncodeTxn(compares, success, failure)));
  return DecodeTxnResponse(body);
}

}  // namespace apogee::coord
