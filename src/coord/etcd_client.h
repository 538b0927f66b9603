// EtcdClient: the few etcd v3 calls the broker's failover needs (leases, range, put,
// delete, transactions), spoken as JSON over HTTP/1.1 to etcd's gRPC gateway (Boost.Beast).
// The gateway paths are the ones etcd 3.4 serves (Debian's etcd-server): /v3/kv/range,
// /v3/kv/put, /v3/kv/deleterange, /v3/kv/txn, /v3/lease/grant, /v3/lease/keepalive,
// /v3/lease/revoke. Keys and values travel base64-encoded; int64 fields are JSON strings;
// fields equal to their zero value are omitted by the gateway.
//
// Endpoints: "http://host:port[,http://host:port...]" (etcdEndpoints in broker.conf). A call
// tries the endpoint that answered last, then the others in order; a transport failure or an
// HTTP 5xx moves on, an etcd error answer (HTTP 4xx with {"code","message"}) is returned.
//
// The JSON codec (EncodeTxn, DecodeRangeResponse, ...) is separate from the transport, so
// tests check it against canned answers and run the calls against a fake transport.
//
// Thread-safety: every method may be called from any thread; calls are serialised.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace apogee::coord {

struct KeyValue {
  std::string key;
  std::string value;
  int64_t create_revision = 0;
  int64_t mod_revision = 0;
  int64_t version = 0;
  int64_t lease = 0;
};

// One comparison of a transaction (etcd's Compare).
struct Compare {
  enum class Target { kVersion, kCreate, kMod, kValue };
  enum class Op { kEqual, kGreater, kLess, kNotEqual };
  std::string key;
  Target target = Target::kMod;
  Op op = Op::kEqual;
  int64_t number = 0;  // version / create_revision / mod_revision
  std::string value;   // kValue

  static Compare ModRevision(std::string key, int64_t rev) {
    return {std::move(key), Target::kMod, Op::kEqual, rev, {}};
  }
  // True when `key` does not exist (create_revision 0).
  static Compare Absent(std::string key) {
    return {std::move(key), Target::kCreate, Op::kEqual, 0, {}};
  }
};

// One operation of a transaction.
struct TxnOp {
  enum class Kind { kPut, kDelete, kRange };
  Kind kind = Kind::kPut;
  std::string key;
  std::string value;
  int64_t lease = 0;

  static TxnOp Put(std::string key, std::string value, int64_t lease = 0) {
    return {Kind::kPut, std::move(key), std::move(value), lease};
  }
  static TxnOp Delete(std::string key) { return {Kind::kDelete, std::move(key), {}, 0}; }
  static TxnOp Range(std::string key) { return {Kind::kRange, std::move(key), {}, 0}; }
};

struct TxnResult {
  bool succeeded = false;
  int64_t revision = 0;
  // The key-values of each kRange operation that ran, in order (empty for the others).
  std::vector<std::vector<KeyValue>> ranges;
};

struct RangeResult {
  int64_t revision = 0;  // the store revision the read saw
  std::vector<KeyValue> kvs;
};

// ---- JSON codec (exposed for tests) ----
std::string Base64Encode(std::string_view data);
Result<std::string> Base64Decode(std::string_view text);
// The exclusive range end that selects every key starting with `prefix`.
std::string PrefixEnd(std::string_view prefix);
std::string EncodeRange(std::string_view key, std::string_view range_end);
std::string EncodeTxn(const std::vector<Compare>& compares, const std::vector<TxnOp>& success,
                      const std::vector<TxnOp>& failure);
Result<RangeResult> DecodeRangeResponse(std::string_view json);
Result<TxnResult> DecodeTxnResponse(std::string_view json);
// An etcd error answer ({"error"/"message", "code"}) as a Status; OK when `json` is none.
Status DecodeError(int http_status, std::string_view json);

// POSTs `body` to `path` of one endpoint; returns the HTTP status and body.
struct HttpAnswer {
  int status = 0;
  std::string body;
};
using HttpTransport = std::function<Result<HttpAnswer>(const std::string& endpoint,
                                                       const std::string& path,
                                                       const std::string& body)>;
// Boost.Beast over TCP: one connection per call, `timeout` for connect + write + read.
HttpTransport BeastTransport(std::chrono::milliseconds timeout);

class EtcdClient {
 public:
  // `endpoints` as in broker.conf; InvalidArgument when empty or not http://host:port.
  static Result<std::unique_ptr<EtcdClient>> Create(std::string_view endpoints,
                                                    std::chrono::milliseconds timeout);
  static Result<std::unique_ptr<EtcdClient>> Create(std::string_view endpoints,
                                                    HttpTransport transport);

  // Lease id with `ttl_seconds`.
  Result<int64_t> LeaseGrant(int64_t ttl_seconds);
  // One keep-alive: the lease's TTL in seconds, 0 when the lease no longer exists.
  Result<int64_t> LeaseKeepAlive(int64_t lease_id);
  Status LeaseRevoke(int64_t lease_id);

  Result<RangeResult> Get(std::string_view key);
  Result<RangeResult> GetPrefix(std::string_view prefix);
  Status Put(std::string_view key, std::string_view value, int64_t lease = 0);
  Status Delete(std::string_view key);
  Result<TxnResult> Txn(const std::vector<Compare>& compares, const std::vector<TxnOp>& success,
                        const std::vector<TxnOp>& failure = {});

  const std::vector<std::string>& endpoints() const { return endpoints_; }

 private:
  EtcdClient(std::vector<std::string> endpoints, HttpTransport transport);
  // The answer body of the first endpoint that answers below HTTP 500.
  Result<std::string> Call(const std::string& path, const std::string& body);

  std::vector<std::string> endpoints_;  // "host:port"
  HttpTransport transport_;
  std::mutex mu_;
  size_t preferred_ = 0;  // guarded by mu_
};

}  // namespace apogee::coord
