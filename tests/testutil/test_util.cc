#include "testutil/test_util.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
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

// Ports picked by test processes are reserved machine-wide, so two tests running side by side
// (ctest -j) never get the same one: a broker stopped and restarted on its own port must not
// find it taken by another test's process in between ("Address already in use" in CI). A
// reservation is a file named after the port, holding the picking process's pid; it lasts as
// long as that process, and one whose process is gone is taken over. One lock file makes the
// check-and-create atomic across processes.
namespace {
class PortReservations {
 public:
  PortReservations() {
    const char* base = std::getenv("TMPDIR");
    dir_ = std::string(base ? base : "/tmp") + "/apogee-test-ports";
    ::mkdir(dir_.c_str(), 0777);
    SweepDead();
  }
  // Gives this process's reservations back at exit, so the folder does not fill up with files
  // of dead processes (those would be taken over anyway; a forked child's exit removes only its own).
  ~PortReservations() {
    auto guard = Lock();
    for (int port : taken_) {
      if (OwnerOf(port) == ::getpid()) ::unlink(PathOf(port).c_str());
    }
  }
  PortReservations(const PortReservations&) = delete;
  PortReservations& operator=(const PortReservations&) = delete;

  // Holds the machine-wide lock for its life. The lock file is opened anew each time: a
  // forked child shares its parent's open files, and flock does not exclude the holders of one
  // open file. Without the file (unwritable TMPDIR) only the bind check protects us, as before.
  class Guard {
   public:
    explicit Guard(const std::string& path)
        : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666)) {
      if (fd_ >= 0) ::flock(fd_, LOCK_EX);
    }
    ~Guard() {
      if (fd_ >= 0) ::close(fd_);  // releases the lock
    }
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;

   private:
    int fd_;
  };
  std::unique_ptr<Guard> Lock() const { return std::make_unique<Guard>(dir_ + "/.lock"); }

  // True when some live process (this one included) holds `port`. Call under Lock().
  bool Held(int port) const {
    const long owner = OwnerOf(port);
    if (owner <= 0) return false;
    if (owner == ::getpid()) return true;
    return ::kill(static_cast<pid_t>(owner), 0) == 0 || errno == EPERM;
  }

  // Removes the reservations of processes that are gone. A process killed by a signal or ended
  // with _exit (a forked child, a crash) never runs the destructor above; its files would be
  // taken over one by one, but would otherwise stay in the folder for good.
  int SweepDead() const {
    auto guard = Lock();
    std::error_code ec;
    int removed = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir_, ec)) {
      const std::string name = entry.path().filename().string();
      if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
      if (name.size() > 5 || Held(std::stoi(name))) continue;
      if (::unlink(entry.path().c_str()) == 0) ++removed;
    }
    return removed;
  }

  // Records this process as the holder of `port`. Call under Lock().
  void Take(int port) {
    std::ofstream out(PathOf(port), std::ios::trunc);
    out << ::getpid() << "\n";
    taken_.push_back(port);
  }

 private:
  long OwnerOf(int port) const {
    std::ifstream in(PathOf(port));
    long owner = 0;
    if (in) in >> owner;
    return owner;
  }
  std::string PathOf(int port) const { return dir_ + "/" + std::to_string(port); }

  std::string dir_;
  std::vector<int> taken_;
};
}  // namespace

namespace {
PortReservations& Reservations() {
  static PortReservations reservations;
  return reservations;
}
}  // namespace

int SweepDeadPortReservations() { return Reservations().SweepDead(); }

uint16_t PickFreePort(const std::vector<int>& also_free) {
  // Random ports in a range the kernel does not hand out for outgoing connections
  // (ip_local_port_range starts at 32768), so a picked port is not taken by a client.
  static std::mt19937 rng(std::random_device{}() ^ static_cast<unsigned>(::getpid()));
  PortReservations& reservations = Reservations();
  std::uniform_int_distribution<int> dist(12000, 30000);
  auto guard = reservations.Lock();
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const int port = dist(rng);
    std::vector<int> ports = {port};
    for (int delta : also_free) ports.push_back(port + delta);
    bool ok = true;
    for (int p : ports) ok = ok && !reservations.Held(p) && PortFree(p);
    if (!ok) continue;
    for (int p : ports) reservations.Take(p);
    return static_cast<uint16_t>(port);
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
