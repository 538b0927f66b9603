// The disk's durability cost, measured before and after a peer run (bench/peers/run.sh):
// 1 KiB pwrite + fdatasync, appended one after another, (a) into a freshly fallocate'd
// file (every sync also commits the extent conversion, as appending to a new log file
// does) and (b) into blocks written and synced once before (as a pre-written CommitLog
// or a reused log). Prints one JSON line with p50 / p99 in microseconds for both.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr int kWrites = 400;
constexpr size_t kBlock = 1024;

[[noreturn]] void Die(const char* what) {
  std::perror(what);
  std::exit(2);
}

std::vector<double> Probe(const std::string& path, bool prewrite) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) Die("open");
  std::string block(kBlock, 'p');
  off_t size = static_cast<off_t>(kWrites * kBlock);
  if (prewrite) {
    std::string all(static_cast<size_t>(size), 'w');
    if (::pwrite(fd, all.data(), all.size(), 0) != size || ::fsync(fd) != 0) Die("prewrite");
  } else if (::posix_fallocate(fd, 0, size) != 0 || ::fsync(fd) != 0) {
    Die("fallocate");
  }
  std::vector<double> us;
  for (int i = 0; i < kWrites; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    if (::pwrite(fd, block.data(), kBlock, static_cast<off_t>(i * kBlock)) != static_cast<ssize_t>(kBlock)) {
      Die("pwrite");
    }
    if (::fdatasync(fd) != 0) Die("fdatasync");
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  ::close(fd);
  ::unlink(path.c_str());
  std::sort(us.begin(), us.end());
  return us;
}

double At(const std::vector<double>& v, double p) { return v[static_cast<size_t>(p * (v.size() - 1))]; }

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <directory on the disk under test>\n", argv[0]);
    return 2;
  }
  std::string dir = argv[1];
  auto fresh = Probe(dir + "/fsync-probe-fresh", false);
  auto written = Probe(dir + "/fsync-probe-written", true);
  std::printf(
      "{\"fresh_p50_us\":%.0f,\"fresh_p99_us\":%.0f,\"written_p50_us\":%.0f,\"written_p99_us\":%.0f}\n",
      At(fresh, 0.5), At(fresh, 0.99), At(written, 0.5), At(written, 0.99));
  return 0;
}
