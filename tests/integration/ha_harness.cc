#include "ha_harness.h"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <sstream>

#include "base/clock.h"
#include "base/string_util.h"
#include "message/message.h"
#include "message/message_record.h"
#include "message/properties.h"
#include "protocol/admin_headers.h"
#include "protocol/consumer_headers.h"
#include "protocol/custom_header.h"
#include "protocol/kv_table.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "protocol/send_headers.h"

namespace apogee::testing {

namespace rc = protocol::response_code;
namespace req = protocol::request_code;
using protocol::RemotingCommand;
using namespace std::chrono_literals;

namespace {

template <typename H>
RemotingCommand Request(int32_t code, const H& header) {
  RemotingCommand request = RemotingCommand::MakeRequest(code);
  protocol::EncodeCustomHeader(header, &request);
  return request;
}

std::string CodeError(const char* what, const RemotingCommand& response) {
  return std::string(what) + ": code " + std::to_string(response.code) + " " +
         response.remark.value_or("");
}

}  // namespace

// ---- HaClient ----

HaClient::HaClient(std::chrono::milliseconds timeout) : timeout_(timeout) { client_.Start(); }

HaClient::~HaClient() { client_.Shutdown(); }

Result<RemotingCommand> HaClient::Call(const std::string& addr, RemotingCommand request) {
  return client_.InvokeSync(addr, std::move(request), timeout_);
}

int32_t HaClient::CreateTopic(const std::string& addr, const std::string& topic, int32_t queues) {
  protocol::CreateTopicRequestHeader h;
  h.topic = topic;
  h.default_topic = "TBW102";
  h.read_queue_nums = queues;
  h.write_queue_nums = queues;
  h.perm = 6;
  h.topic_filter_type = "SINGLE_TAG";
  auto res = Call(addr, Request(req::kUpdateAndCreateTopic, h));
  if (res.ok() && res->code != rc::kSuccess) {
    ADD_FAILURE() << "UPDATE_AND_CREATE_TOPIC " << topic << " on " << addr << ": "
                  << CodeError("", *res);
  }
  return res.ok() ? res->code : -1;
}

SendOutcome HaClient::Send(const std::string& addr, const std::string& topic, int32_t queue_id,
                           const std::string& body) {
  SendOutcome out;
  protocol::SendMessageRequestHeader h;
  h.producer_group = "HaLoadPG";
  h.topic = topic;
  h.default_topic = "TBW102";
  h.default_topic_queue_nums = 4;
  h.queue_id = queue_id;
  h.born_timestamp = NowMillis();
  message::MessageProperties props;
  // WAIT=true: the ack waits for the store (and a SYNC_MASTER's slave), as Java's default.
  (void)props.Set("WAIT", "true");
  h.properties = props.Encode();
  RemotingCommand request = RemotingCommand::MakeRequest(req::kSendMessageV2);
  protocol::EncodeCustomHeader(protocol::SendMessageRequestHeaderV2{h}, &request);
  request.body = body;
  auto res = Call(addr, std::move(request));
  if (!res.ok()) {
    out.error = res.status().ToString();
    return out;
  }
  out.code = res->code;
  out.error = res->remark.value_or("");
  const bool sent = res->code == rc::kSuccess || res->code == rc::kFlushDiskTimeout ||
                    res->code == rc::kSlaveNotAvailable || res->code == rc::kFlushSlaveTimeout;
  if (sent) {
    auto header = protocol::DecodeCustomHeader<protocol::SendMessageResponseHeader>(*res);
    if (header.ok()) {
      out.queue_id = header->queue_id;
      out.queue_offset = header->queue_offset;
    } else {
      out.error = "undecodable send response header: " + header.status().ToString();
    }
  }
  return out;
}

Result<std::vector<StoredMessage>> HaClient::PullAll(const std::string& addr,
                                                     const std::string& topic, int32_t queue_id,
                                                     std::string* raw) {
  std::vector<StoredMessage> out;
  int64_t offset = 0;
  int retries = 0;
  for (int round = 0; round < 100000; ++round) {
    protocol::PullMessageRequestHeader h;
    h.consumer_group = kHaGroup;
    h.topic = topic;
    h.queue_id = queue_id;
    h.queue_offset = offset;
    h.max_msg_nums = 32;
    h.sys_flag = 4;  // subscription present; no commit, no suspend
    h.subscription = "*";
    h.expression_type = "TAG";
    APOGEE_ASSIGN_OR_RETURN(RemotingCommand response, Call(addr, Request(req::kPullMessage, h)));
    if (response.code == rc::kPullNotFound) return out;
    if (response.code == rc::kPullRetryImmediately && ++retries < 50) continue;
    if (response.code != rc::kSuccess) return Status::Internal(CodeError("pull", response));
    APOGEE_ASSIGN_OR_RETURN(
        auto header, protocol::DecodeCustomHeader<protocol::PullMessageResponseHeader>(response));
    APOGEE_ASSIGN_OR_RETURN(auto msgs, message::DecodeMessages(response.body));
    if (raw) raw->append(response.body);
    for (auto& m : msgs) out.push_back({m.queue_offset, std::move(m.body)});
    if (header.next_begin_offset <= offset) return Status::Internal("pull made no progress");
    offset = header.next_begin_offset;
  }
  return Status::Internal("pull did not reach the end of queue " + std::to_string(queue_id));
}

bool HaClient::TopicKnown(const std::string& addr, const std::string& topic) {
  protocol::PullMessageRequestHeader h;
  h.consumer_group = kHaGroup;
  h.topic = topic;
  h.queue_id = 0;
  h.max_msg_nums = 1;
  h.sys_flag = 4;
  h.subscription = "*";
  h.expression_type = "TAG";
  auto res = Call(addr, Request(req::kPullMessage, h));
  return res.ok() && res->code != rc::kTopicNotExist && res->code != rc::kSystemError;
}

Result<int64_t> HaClient::MaxQueueOffset(const std::string& addr, const std::string& topic,
                                         int32_t queue_id) {
  protocol::GetMaxOffsetRequestHeader h;
  h.topic = topic;
  h.queue_id = queue_id;
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand response, Call(addr, Request(req::kGetMaxOffset, h)));
  if (response.code != rc::kSuccess) return Status::Internal(CodeError("max offset", response));
  APOGEE_ASSIGN_OR_RETURN(
      auto header, protocol::DecodeCustomHeader<protocol::GetMaxOffsetResponseHeader>(response));
  return header.offset;
}

Result<int64_t> HaClient::CommitLogMaxOffset(const std::string& addr) {
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand response,
                          Call(addr, RemotingCommand::MakeRequest(req::kGetBrokerRuntimeInfo)));
  if (response.code != rc::kSuccess) return Status::Internal(CodeError("runtime info", response));
  APOGEE_ASSIGN_OR_RETURN(auto kv, protocol::DecodeKVTable(response.body));
  auto it = kv.table.find("commitLogMaxOffset");
  if (it == kv.table.end()) return Status::NotFound("runtime info without commitLogMaxOffset");
  auto value = ParseInt64(it->second);
  if (!value.has_value()) {
    return Status::InvalidArgument("commitLogMaxOffset is not a number: " + it->second);
  }
  return *value;
}

bool HaClient::WaitForMaxQueueOffset(const std::string& addr, const std::string& topic,
                                     int32_t queue_id, int64_t at_least,
                                     std::chrono::milliseconds timeout) {
  return WaitUntil(
      [&] {
        auto max = MaxQueueOffset(addr, topic, queue_id);
        return max.ok() && *max >= at_least;
      },
      timeout);
}

// ---- HaBrokerSet ----

HaBrokerSet::HaBrokerSet(std::string namesrv_addr, HaBrokerSetOptions options)
    : namesrv_addr_(std::move(namesrv_addr)),
      options_(std::move(options)),
      master_({}, options_.broker_name),
      slave_({}, options_.broker_name) {
  master_.SetExtra("brokerRole", options_.master_role);
  master_.SetExtra("flushDiskType", options_.flush_disk_type);
  for (const auto& [k, v] : options_.master_extra) master_.SetExtra(k, v);
  slave_.SetExtra("brokerId", "1");
  slave_.SetExtra("brokerRole", "SLAVE");
  slave_.SetExtra("flushDiskType", options_.flush_disk_type);
  // A slave refuses topic changes (Java's validateSlave) and copies them from its master;
  // a short period keeps tests from waiting the default 60 s.
  slave_.SetExtra("slaveSynchronizeInterval", "500");
  // No slaveReadEnable: a slave serves pulls in the default configuration, as Java's does.
  for (const auto& [k, v] : options_.slave_extra) slave_.SetExtra(k, v);
}

bool HaBrokerSet::StartMaster() { return master_.Start(namesrv_addr_); }

bool HaBrokerSet::StartSlave() {
  if (!proxy_) {
    if (master_.port() == 0) {
      ADD_FAILURE() << "start the master first: the proxy forwards to its HA port";
      return false;
    }
    proxy_ = std::make_unique<TcpProxy>("127.0.0.1", master_.ha_port());
    if (!proxy_->Start()) {
      ADD_FAILURE() << "proxy: " << proxy_->error();
      return false;
    }
    slave_.SetExtra("haMasterAddress", proxy_->addr());
  }
  // The slave learns its master's remoting address (for metadata sync) from its first
  // registration result, which names the master only once the master has registered; until
  // then the broker guesses haMasterAddress's port - 1, which is the proxy's neighbour here.
  // So the master registers first.
  remoting::RemotingClient client;
  client.Start();
  const bool registered = WaitUntil(
      [&] {
        auto route = QueryRoute(client, namesrv_addr_, "TBW102");
        if (!route.ok()) return false;
        for (const auto& bd : route->broker_datas) {
          if (bd.broker_name == options_.broker_name && bd.broker_addrs.count(0)) return true;
        }
        return false;
      },
      std::chrono::seconds(30));
  client.Shutdown();
  if (!registered) {
    ADD_FAILURE() << "master " << options_.broker_name << " never registered\n"
                  << master_.ReadLog();
    return false;
  }
  return slave_.Start(namesrv_addr_);
}

bool HaBrokerSet::CreateTopic(const std::string& topic, int32_t queues) {
  HaClient client;
  if (client.CreateTopic(master_.addr(), topic, queues) != rc::kSuccess) return false;
  if (!slave_.process().running()) return true;
  return WaitForTopicOnSlave(topic, std::chrono::seconds(30));
}

bool HaBrokerSet::WaitForTopicOnSlave(const std::string& topic, std::chrono::milliseconds timeout) {
  HaClient client;
  bool known = WaitUntil([&] { return client.TopicKnown(slave_.addr(), topic); }, timeout);
  if (!known) {
    ADD_FAILURE() << "the slave never learned topic " << topic << " from its master\n"
                  << slave_.ReadLog();
  }
  return known;
}

bool HaBrokerSet::WaitForSlaveCaughtUp(std::chrono::milliseconds timeout) {
  HaClient client;
  return WaitUntil(
      [&] {
        auto m = client.CommitLogMaxOffset(master_.addr());
        auto s = client.CommitLogMaxOffset(slave_.addr());
        return m.ok() && s.ok() && *s >= *m;
      },
      timeout);
}

// ---- LoadGenerator ----

LoadGenerator::LoadGenerator(std::string addr, LoadOptions options)
    : addr_(std::move(addr)), options_(std::move(options)) {}

LoadGenerator::~LoadGenerator() { Stop(); }

void LoadGenerator::Start() {
  stop_ = false;
  for (int32_t q = 0; q < options_.queues; ++q) {
    senders_.emplace_back([this, q] { RunSender(q); });
  }
}

void LoadGenerator::Stop() {
  stop_ = true;
  Join();
}

void LoadGenerator::Join() {
  for (auto& t : senders_) t.join();
  senders_.clear();
}

void LoadGenerator::RunSender(int32_t queue_id) {
  // Short timeout: after a kill the connection fails fast anyway; a stalled SYNC_MASTER
  // answers within its slaveTimeout (3 s) below this.
  HaClient client(8s);
  for (int64_t seq = 0; !stop_.load() && seq < options_.max_per_queue; ++seq) {
    const std::string body = Body(queue_id, seq, options_.body_size);
    const auto start = std::chrono::steady_clock::now();
    SendOutcome out = client.Send(addr_, options_.topic, queue_id, body);
    const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                            std::chrono::steady_clock::now() - start)
                            .count();
    ++attempted_;
    {
      std::lock_guard<std::mutex> lock(mu_);
      ++codes_[out.code];
      if (out.code == rc::kSuccess) {
        acked_.push_back({queue_id, seq, out.queue_offset, SteadyMillis()});
        latencies_us_.push_back(micros);
      }
    }
    if (out.code == rc::kSuccess) ++acked_count_;
    if (out.code == -1) std::this_thread::sleep_for(20ms);  // broker gone: do not spin
    if (options_.pause.count() > 0) std::this_thread::sleep_for(options_.pause);
  }
}

std::map<int32_t, int64_t> LoadGenerator::CodeCounts() const {
  std::lock_guard<std::mutex> lock(mu_);
  return codes_;
}

std::vector<AckedMessage> LoadGenerator::Acked() const {
  std::lock_guard<std::mutex> lock(mu_);
  return acked_;
}

std::vector<int64_t> LoadGenerator::LatenciesMicros() const {
  std::lock_guard<std::mutex> lock(mu_);
  return latencies_us_;
}

std::string LoadGenerator::Body(int32_t queue_id, int64_t seq, size_t size) {
  std::string body = "q" + std::to_string(queue_id) + "-s" + std::to_string(seq) + "-";
  if (body.size() < size) body.append(size - body.size(), '.');
  return body;
}

std::optional<std::pair<int32_t, int64_t>> LoadGenerator::ParseBody(const std::string& body) {
  if (body.size() < 5 || body[0] != 'q') return std::nullopt;
  size_t dash = body.find("-s");
  if (dash == std::string::npos) return std::nullopt;
  size_t end = body.find('-', dash + 2);
  if (end == std::string::npos) return std::nullopt;
  auto q = ParseInt64(body.substr(1, dash - 1));
  auto s = ParseInt64(body.substr(dash + 2, end - dash - 2));
  if (!q.has_value() || !s.has_value()) return std::nullopt;
  return std::make_pair(static_cast<int32_t>(*q), *s);
}

// ---- VerifyReplica ----

std::string ReplicaReport::ToString() const {
  std::ostringstream out;
  out << "acked=" << acked << " stored=" << stored << " lost=" << lost
      << " lost_in_middle=" << lost_in_middle << " duplicated=" << duplicated
      << " out_of_order=" << out_of_order << " mismatched=" << mismatched << " foreign=" << foreign;
  if (!first_problem.empty()) out << " (first: " << first_problem << ")";
  return out.str();
}

Result<ReplicaReport> VerifyReplica(HaClient& client, const std::string& addr,
                                    const std::string& topic, int32_t queues,
                                    const std::vector<AckedMessage>& acked,
                                    std::chrono::milliseconds settle) {
  ReplicaReport report;
  report.acked = static_cast<int64_t>(acked.size());
  std::map<int32_t, int64_t> acked_end;
  for (const auto& a : acked) {
    acked_end[a.queue_id] = std::max(acked_end[a.queue_id], a.queue_offset + 1);
  }
  // The replica's ConsumeQueues are built asynchronously from its CommitLog; give them time
  // to cover what was acked (what never arrives is counted as lost below).
  const auto deadline = std::chrono::steady_clock::now() + settle;
  for (int32_t q = 0; q < queues; ++q) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    client.WaitForMaxQueueOffset(addr, topic, q, acked_end[q], std::max(left, 1ms));
  }
  auto note = [&](const std::string& what) {
    if (report.first_problem.empty()) report.first_problem = what;
  };
  for (int32_t q = 0; q < queues; ++q) {
    APOGEE_ASSIGN_OR_RETURN(auto msgs, client.PullAll(addr, topic, q));
    report.stored += static_cast<int64_t>(msgs.size());
    std::map<int64_t, int64_t> seq_at;  // queue offset -> seq
    std::set<int64_t> seen;
    int64_t max_seq = -1;
    for (const auto& m : msgs) {
      auto parsed = LoadGenerator::ParseBody(m.body);
      if (!parsed.has_value() || parsed->first != q) {
        ++report.foreign;
        note("queue " + std::to_string(q) + " offset " + std::to_string(m.queue_offset) +
             " holds a foreign body");
        continue;
      }
      const int64_t seq = parsed->second;
      if (!seen.insert(seq).second) {
        ++report.duplicated;
        note("queue " + std::to_string(q) + " seq " + std::to_string(seq) + " stored twice");
      }
      if (seq < max_seq) {
        ++report.out_of_order;
        note("queue " + std::to_string(q) + " seq " + std::to_string(seq) + " after " +
             std::to_string(max_seq));
      }
      max_seq = std::max(max_seq, seq);
      seq_at[m.queue_offset] = seq;
    }
    for (const auto& a : acked) {
      if (a.queue_id != q) continue;
      auto it = seq_at.find(a.queue_offset);
      if (it == seq_at.end()) {
        ++report.lost;
        if (a.seq < max_seq) ++report.lost_in_middle;
        note("acked q" + std::to_string(q) + " seq " + std::to_string(a.seq) + " at offset " +
             std::to_string(a.queue_offset) + " missing");
      } else if (it->second != a.seq && seen.count(a.seq) == 0) {
        // Its offset was taken by a later message and it is nowhere else in the queue: an
        // acknowledged message that is gone (ASYNC_MASTER's un-replicated tail after a
        // failover looks like this), so it counts as lost, not as a mix-up.
        ++report.lost;
        if (a.seq < max_seq) ++report.lost_in_middle;
        note("acked q" + std::to_string(q) + " seq " + std::to_string(a.seq) + " at offset " +
             std::to_string(a.queue_offset) + " missing (the offset holds seq " +
             std::to_string(it->second) + ")");
      } else if (it->second != a.seq) {
        ++report.mismatched;
        note("acked q" + std::to_string(q) + " seq " + std::to_string(a.seq) + " at offset " +
             std::to_string(a.queue_offset) + " holds seq " + std::to_string(it->second));
      }
    }
  }
  return report;
}

int64_t SteadyMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

int EnvInt(const char* name, int fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr) return fallback;
  auto parsed = ParseInt64(v);
  return parsed.has_value() ? static_cast<int>(*parsed) : fallback;
}

int64_t Percentile(std::vector<int64_t> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  size_t idx = static_cast<size_t>(p / 100.0 * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(idx, values.size() - 1)];
}

}  // namespace apogee::testing
