#include "testutil/test_util.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

namespace apogee::testing {

TempDir::TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string tmpl = std::string(base ? base : "/tmp") + "/apogee-test-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  char* made = mkdtemp(buf.data());
  path_ = made ? made : tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

namespace {
bool PortFree(int port) {
  if (port <= 0 || port > 65535) return false;
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  ::close(fd);
  return ok;
}
}  // namespace

uint16_t PickFreePort(const std::vector<int>& also_free) {
  // Random ports in a range the kernel does not hand out for outgoing connections
  // (ip_local_port_range starts at 32768), so a picked port is not taken by a client.
  static std::mt19937 rng(std::random_device{}() ^ static_cast<unsigned>(::getpid()));
  std::uniform_int_distribution<int> dist(12000, 30000);
  for (int attempt = 0; attempt < 1000; ++attempt) {
    int port = dist(rng);
    bool ok = PortFree(port);
    for (int delta : also_free) ok = ok && PortFree(port + delta);
    if (ok) return static_cast<uint16_t>(port);
  }
  return 0;
}

bool WaitForPort(uint16_t port, std::chrono::milliseconds timeout) {
  return WaitUntil(
      [port] {
        int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        addr.sin_port = htons(port);
        bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
        ::close(fd);
        return ok;
      },
      timeout);
}

bool WaitUntil(const std::function<bool()>& cond, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    if (cond()) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0 && !exited_) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, &status_, 0);
  }
}

bool ChildProcess::Start(const std::vector<std::string>& argv, const std::string& log_path,
                         const std::map<std::string, std::string>& env) {
  log_path_ = log_path;
  pid_t pid = ::fork();
  if (pid < 0) return false;
  if (pid == 0) {
    int fd = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      ::close(fd);
    }
    for (const auto& [k, v] : env) ::setenv(k.c_str(), v.c_str(), 1);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    std::fprintf(stderr, "exec %s failed: %s\n", args[0], std::strerror(errno));
    ::_exit(127);
  }
  pid_ = pid;
  exited_ = false;
  return true;
}

bool ChildProcess::running() {
  if (pid_ <= 0 || exited_) return false;
  pid_t r = ::waitpid(pid_, &status_, WNOHANG);
  if (r == pid_) {
    exited_ = true;
    return false;
  }
  return true;
}

bool ChildProcess::Signal(int sig) {
  if (!running()) return false;
  return ::kill(pid_, sig) == 0;
}

int ChildProcess::Wait(std::chrono::milliseconds timeout) {
  if (pid_ <= 0) return -1;
  if (exited_) return status_;
  bool done = WaitUntil([this] { return !running(); }, timeout);
  return done ? status_ : -1;
}

int ChildProcess::Stop(std::chrono::milliseconds grace) {
  if (Signal(SIGTERM)) {
    int st = Wait(grace);
    if (st != -1) return st;
    Signal(SIGKILL);
    return Wait(std::chrono::seconds(10));
  }
  return status_;
}

std::string ChildProcess::ReadLog() const { return ReadFileOrEmpty(log_path_); }

std::string ReadFileOrEmpty(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace apogee::testing
