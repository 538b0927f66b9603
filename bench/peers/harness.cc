#include "harness.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace peers {

void Fail(const std::string& what) {
  std::fprintf(stderr, "harness: %s\n", what.c_str());
  std::exit(2);
}

Options ParseOptions(int argc, char** argv) {
  Options o;
  auto usage = [&] {
    Fail(std::string("usage: ") + argv[0] +
         " --system LABEL --port P --mode publish|pubsub|sync|catchup [--host H] [--duration S]"
         " [--inflight N] [--size BYTES] [--backlog-mib MIB] [--name PREFIX]");
  };
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (i + 1 >= argc) usage();
    std::string value = argv[++i];
    if (flag == "--system") o.system = value;
    else if (flag == "--host") o.host = value;
    else if (flag == "--port") o.port = std::atoi(value.c_str());
    else if (flag == "--mode") o.mode = value;
    else if (flag == "--duration") o.duration = std::atof(value.c_str());
    else if (flag == "--inflight") o.inflight = std::atoi(value.c_str());
    else if (flag == "--size") o.size = std::strtoull(value.c_str(), nullptr, 10);
    else if (flag == "--backlog-mib") o.backlog_mib = std::strtoull(value.c_str(), nullptr, 10);
    else if (flag == "--name") o.name = value;
    else usage();
  }
  if (o.port <= 0 || o.mode.empty() || o.system.empty() || o.inflight < 1 || o.size < 1 ||
      o.duration <= 0) {
    usage();
  }
  return o;
}

std::string Payload(size_t size) {
  std::string p(size, 'x');
  for (size_t i = 0; i < size; ++i) p[i] = static_cast<char>('a' + i % 26);
  return p;
}

// ---- Socket ----

Socket::Socket(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &res) != 0 || !res) {
    Fail("cannot resolve " + host);
  }
  fd_ = ::socket(res->ai_family, res->ai_socktype, 0);
  if (fd_ < 0 || ::connect(fd_, res->ai_addr, res->ai_addrlen) != 0) {
    freeaddrinfo(res);
    Fail("connect to " + host + ":" + std::to_string(port) + ": " + std::strerror(errno));
  }
  freeaddrinfo(res);
  int one = 1;
  setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  in_.reserve(1 << 20);
}

Socket::~Socket() {
  if (fd_ >= 0) ::close(fd_);
}

void Socket::WriteAll(std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd_, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      Fail(std::string("write: ") + std::strerror(errno));
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
}

void Socket::ReadSome() {
  if (in_pos_ > 0 && in_pos_ == in_.size()) {
    in_.clear();
    in_pos_ = 0;
  } else if (in_pos_ > (1 << 20)) {
    in_.erase(0, in_pos_);
    in_pos_ = 0;
  }
  size_t old = in_.size();
  size_t want = 256 * 1024;
  in_.resize(old + want);
  for (;;) {
    ssize_t n = ::read(fd_, in_.data() + old, want);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      in_.resize(old);
      Fail(n == 0 ? "connection closed by the server" : std::string("read: ") + std::strerror(errno));
    }
    in_.resize(old + static_cast<size_t>(n));
    return;
  }
}

void Socket::Consume(size_t n) { in_pos_ += n; }

std::string Socket::ReadLine() {
  for (;;) {
    std::string_view b = Buffered();
    size_t end = b.find("\r\n");
    if (end != std::string_view::npos) {
      std::string line(b.substr(0, end));
      Consume(end + 2);
      return line;
    }
    ReadSome();
  }
}

// ---- modes ----

namespace {

struct Window {
  int64_t sent = 0;
  int64_t acked = 0;
};

// Keeps `inflight` publishes outstanding until `deadline_ns` or `limit` acks (0 = none).
// With inflight == 1 records every round trip into `latencies_ns`.
void Drive(Publisher* pub, int inflight, int64_t deadline_ns, int64_t limit, Window* w,
           std::vector<int64_t>* latencies_ns, const std::atomic<bool>* stop = nullptr) {
  for (;;) {
    int64_t now = NowNanos();
    bool out_of_time = deadline_ns > 0 && now >= deadline_ns;
    bool stopped = stop != nullptr && stop->load(std::memory_order_relaxed);
    int64_t want = inflight - (w->sent - w->acked);
    if (limit > 0) want = std::min(want, limit - w->sent);
    if (!out_of_time && !stopped && want > 0) {
      pub->Send(static_cast<int>(want));
      w->sent += want;
    }
    if (w->sent == w->acked) return;
    int64_t got = pub->WaitAcks();
    if (latencies_ns != nullptr) latencies_ns->push_back(NowNanos() - now);
    w->acked += got;
  }
}

double Percentile(std::vector<int64_t>& v, double p) {
  if (v.empty()) return 0;
  size_t idx = static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
  std::nth_element(v.begin(), v.begin() + static_cast<long>(idx), v.end());
  return static_cast<double>(v[idx]) / 1000.0;
}

void PrintResult(const Options& o, double seconds, int64_t produced, int64_t consumed, double rate,
                 std::vector<int64_t>* lat, double fill_rate = 0) {
  double p50 = lat ? Percentile(*lat, 0.50) : 0;
  double p99 = lat ? Percentile(*lat, 0.99) : 0;
  double p999 = lat ? Percentile(*lat, 0.999) : 0;
  double mib_s = rate * static_cast<double>(o.size) / (1024.0 * 1024.0);
  std::printf(
      "{\"system\":\"%s\",\"mode\":\"%s\",\"seconds\":%.3f,\"produced\":%lld,\"consumed\":%lld,"
      "\"rate\":%.1f,\"mib_s\":%.1f,\"p50_us\":%.1f,\"p99_us\":%.1f,\"p999_us\":%.1f,"
      "\"fill_rate\":%.1f}\n",
      o.system.c_str(), o.mode.c_str(), seconds, static_cast<long long>(produced),
      static_cast<long long>(consumed), rate, mib_s, p50, p99, p999, fill_rate);
  std::fflush(stdout);
}

int64_t Seconds(double s) { return static_cast<int64_t>(s * 1e9); }

}  // namespace

int RunMode(const Options& o, System* system) {
  std::string stream = o.name + "_" + o.mode;
  system->CreateStream(stream);
  if (o.mode == "publish") {
    auto pub = system->NewPublisher(stream);
    Window w;
    int64_t start = NowNanos();
    Drive(pub.get(), o.inflight, start + Seconds(o.duration), 0, &w, nullptr);
    double secs = static_cast<double>(NowNanos() - start) / 1e9;
    PrintResult(o, secs, w.acked, 0, static_cast<double>(w.acked) / secs, nullptr);
    return 0;
  }
  if (o.mode == "sync") {
    auto pub = system->NewPublisher(stream);
    Window w;
    std::vector<int64_t> lat;
    lat.reserve(1 << 20);
    int64_t start = NowNanos();
    Drive(pub.get(), 1, start + Seconds(o.duration), 0, &w, &lat);
    double secs = static_cast<double>(NowNanos() - start) / 1e9;
    PrintResult(o, secs, w.acked, 0, static_cast<double>(w.acked) / secs, &lat);
    return 0;
  }
  if (o.mode == "pubsub") {
    // Consumer first (it starts at the beginning of the empty stream), then the producer;
    // the rate is what the consumer received while the producer ran.
    auto consumer = system->NewConsumer(stream);
    auto pub = system->NewPublisher(stream);
    std::atomic<bool> stop{false};
    std::atomic<int64_t> consumed{0};
    int64_t start = NowNanos();
    int64_t deadline = start + Seconds(o.duration);
    std::thread reader([&] {
      while (NowNanos() < deadline) consumed.fetch_add(consumer->Poll(), std::memory_order_relaxed);
    });
    Window w;
    Drive(pub.get(), o.inflight, deadline, 0, &w, nullptr, &stop);
    reader.join();
    double secs = static_cast<double>(NowNanos() - start) / 1e9;
    int64_t c = consumed.load();
    PrintResult(o, secs, w.acked, c, static_cast<double>(c) / secs, nullptr);
    return 0;
  }
  if (o.mode == "catchup") {
    int64_t count = static_cast<int64_t>(o.backlog_mib * 1024 * 1024 / o.size);
    int64_t fill_start = NowNanos();
    {
      auto pub = system->NewPublisher(stream);
      Window w;
      Drive(pub.get(), o.inflight, 0, count, &w, nullptr);
    }
    double fill_secs = static_cast<double>(NowNanos() - fill_start) / 1e9;
    std::fprintf(stderr, "catch-up: backlog written\n");  // bench/peers/profile.sh waits for it
    auto consumer = system->NewConsumer(stream);
    int64_t got = 0;
    int64_t start = NowNanos();
    int64_t idle_since = start;
    while (got < count) {
      int64_t n = consumer->Poll();
      got += n;
      int64_t now = NowNanos();
      if (n > 0) idle_since = now;
      if (now - idle_since > Seconds(10)) {
        Fail("catch-up stalled at " + std::to_string(got) + " of " + std::to_string(count));
      }
    }
    double secs = static_cast<double>(NowNanos() - start) / 1e9;
    PrintResult(o, secs, count, got, static_cast<double>(got) / secs, nullptr,
                static_cast<double>(count) / fill_secs);
    return 0;
  }
  Fail("unknown mode " + o.mode);
}

}  // namespace peers
