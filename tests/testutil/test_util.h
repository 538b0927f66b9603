// Helpers for tests: scratch directories, free loopback ports and child processes.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace apogee::testing {

// A fresh directory under $TMPDIR, removed (recursively) on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string Join(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// A TCP port on 127.0.0.1 that was free a moment ago (bind to 0, read, close). When
// `also_free` is given, the port p + each delta must be free too (e.g. -2 and +1 for a broker).
uint16_t PickFreePort(const std::vector<int>& also_free = {});
// Removes the port reservation files of processes that have exited (each test process also
// does this once, before its first pick); returns how many it removed.
int SweepDeadPortReservations();

// Waits until something accepts connections on 127.0.0.1:port.
bool WaitForPort(uint16_t port, std::chrono::milliseconds timeout);

// Polls `cond` every 10 ms until it holds or `timeout` passes.
bool WaitUntil(const std::function<bool()>& cond, std::chrono::milliseconds timeout);

// A child process with stdout and stderr sent to a log file; killed (SIGKILL) on
// destruction if still running.
class ChildProcess {
 public:
  ChildProcess() = default;
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Starts argv[0] with the given arguments and extra environment variables.
  bool Start(const std::vector<std::string>& argv, const std::string& log_path,
             const std::map<std::string, std::string>& env = {});
  pid_t pid() const { return pid_; }
  bool running();
  // Sends a signal; returns false when the process is not running.
  bool Signal(int sig);
  // Waits for exit; returns the exit status (as waitpid) or -1 on timeout.
  int Wait(std::chrono::milliseconds timeout);
  // SIGTERM, wait up to `grace`, then SIGKILL. Returns the wait status.
  int Stop(std::chrono::milliseconds grace = std::chrono::seconds(10));
  const std::string& log_path() const { return log_path_; }
  std::string ReadLog() const;

 private:
  pid_t pid_ = -1;
  int status_ = 0;
  bool exited_ = false;
  std::string log_path_;
};

// The whole content of a file, or "" when it cannot be read.
std::string ReadFileOrEmpty(const std::string& path);

}  // namespace apogee::testing
