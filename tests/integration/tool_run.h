// Runs one of the apps (mqadmin, mqbench, ...) from BinDir() as a child process, the
// way an operator's script would, and returns its exit code and output.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <string>
#include <vector>

#include "broker_process.h"
#include "testutil/test_util.h"
#include "testutil/test_paths.h"

namespace apogee::testing {

struct ToolResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

inline ToolResult RunTool(const std::string& binary, const std::vector<std::string>& args,
                          std::chrono::seconds timeout = std::chrono::seconds(60)) {
  static int runs = 0;
  TempDir dir;
  ChildProcess p;
  std::vector<std::string> argv = {BinDir() + "/" + binary};
  argv.insert(argv.end(), args.begin(), args.end());
  ToolResult r;
  if (!p.Start(argv, dir.Join("out-" + std::to_string(++runs) + ".log"), {{"APOGEE_LOG_LEVEL", "warn"}})) {
    ADD_FAILURE() << "cannot start " << argv[0];
    return r;
  }
  int status = p.Wait(timeout);
  r.output = p.ReadLog();
  if (status == -1) {
    ADD_FAILURE() << binary << " did not finish within " << timeout.count() << " s:\n" << r.output;
    p.Stop();
    return r;
  }
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

}  // namespace apogee::testing
