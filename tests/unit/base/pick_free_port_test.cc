// PickFreePort (tests/testutil, linked into every test binary): ports picked by one live test
// process are never handed to another, which is what lets ctest run servers side by side.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <string>

#include "testutil/test_util.h"

namespace apogee::testing {
namespace {

std::string ReservationFile(uint16_t port) {
  const char* base = std::getenv("TMPDIR");
  return std::string(base ? base : "/tmp") + "/apogee-test-ports/" + std::to_string(port);
}

// The pid written in a port's reservation file; 0 when there is none.
long OwnerOf(uint16_t port) {
  std::ifstream in(ReservationFile(port));
  long owner = 0;
  if (in) in >> owner;
  return owner;
}

// Forks a child that picks one port, reports it and exits; returns once the child is gone.
enum class ChildExit { kRunExitHandlers, kSkipExitHandlers };
void PickInChildThenExit(ChildExit how, pid_t* child, uint16_t* port) {
  int to_parent[2];
  ASSERT_EQ(::pipe(to_parent), 0);
  *child = ::fork();
  ASSERT_GE(*child, 0);
  if (*child == 0) {
    ::close(to_parent[0]);
    uint16_t picked = PickFreePort();
    if (::write(to_parent[1], &picked, sizeof(picked)) != sizeof(picked)) ::_exit(1);
    // std::exit runs static destructors (the reservations' clean-up); _exit does not.
    if (how == ChildExit::kRunExitHandlers) std::exit(0);
    ::_exit(0);
  }
  ::close(to_parent[1]);
  ASSERT_EQ(::read(to_parent[0], port, sizeof(*port)), static_cast<ssize_t>(sizeof(*port)));
  ::close(to_parent[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(*child, &status, 0), *child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  ASSERT_NE(*port, 0);
}

TEST(PickFreePortTest, PicksAreReservedForThisProcessAndNeverRepeated) {
  std::set<uint16_t> seen;
  for (int i = 0; i < 50; ++i) {
    uint16_t port = PickFreePort({-2, +1});
    ASSERT_NE(port, 0);
    for (int p : {port - 2, port + 0, port + 1}) {
      EXPECT_TRUE(seen.insert(static_cast<uint16_t>(p)).second) << "port " << p << " handed out twice";
      EXPECT_EQ(OwnerOf(static_cast<uint16_t>(p)), ::getpid()) << "port " << p;
    }
  }
}

// Without the reservations, 1,000 random picks out of 18,001 ports would meet ~16 of another
// process's 300.
TEST(PickFreePortTest, PortsHeldByAnotherLiveProcessAreSkipped) {
  int to_parent[2];
  int to_child[2];
  ASSERT_EQ(::pipe(to_parent), 0);
  ASSERT_EQ(::pipe(to_child), 0);
  constexpr int kChildPicks = 300;
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(to_parent[0]);
    ::close(to_child[1]);
    for (int i = 0; i < kChildPicks; ++i) {
      uint16_t port = PickFreePort();
      if (::write(to_parent[1], &port, sizeof(port)) != sizeof(port)) ::_exit(1);
    }
    char done;
    (void)!::read(to_child[0], &done, 1);  // stay alive (holding the ports) until told
    ::_exit(0);
  }
  ::close(to_parent[1]);
  ::close(to_child[0]);
  std::set<uint16_t> child_ports;
  for (int i = 0; i < kChildPicks; ++i) {
    uint16_t port = 0;
    ASSERT_EQ(::read(to_parent[0], &port, sizeof(port)), static_cast<ssize_t>(sizeof(port)));
    child_ports.insert(port);
  }
  int collisions = 0;
  for (int i = 0; i < 1000; ++i) {
    if (child_ports.count(PickFreePort())) ++collisions;
  }
  EXPECT_EQ(collisions, 0);
  ASSERT_EQ(::write(to_child[1], "x", 1), 1);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  ::close(to_parent[0]);
  ::close(to_child[1]);
}

// A process that exits normally gives its reservations back, and only its own: a forked child
// inherits the parent's list but must not free the parent's ports.
TEST(PickFreePortTest, ExitGivesBackOnlyTheExitingProcesssPorts) {
  const uint16_t parents = PickFreePort();
  ASSERT_NE(parents, 0);
  pid_t child = 0;
  uint16_t childs = 0;
  ASSERT_NO_FATAL_FAILURE(PickInChildThenExit(ChildExit::kRunExitHandlers, &child, &childs));
  // Another test process running beside this one may pick the freed port again before we look
  // (the child's exit takes tens of milliseconds under LeakSanitizer), so the test asks whether
  // the child still owns the port, not whether a file exists.
  EXPECT_NE(OwnerOf(childs), child) << "child's port " << childs << " still reserved";
  EXPECT_EQ(OwnerOf(parents), ::getpid());
}

// A process ended by _exit or a signal leaves its files behind; the sweep every test process
// runs before its first pick removes them, and keeps those of live processes.
TEST(PickFreePortTest, SweepRemovesTheReservationsOfProcessesThatAreGone) {
  const uint16_t mine = PickFreePort();
  ASSERT_NE(mine, 0);
  pid_t child = 0;
  uint16_t childs = 0;
  ASSERT_NO_FATAL_FAILURE(PickInChildThenExit(ChildExit::kSkipExitHandlers, &child, &childs));
  // Test processes starting beside this one sweep too, and may take the port over, so the test
  // asks only that the child no longer owns it after the sweep (without any sweep, it would).
  SweepDeadPortReservations();
  EXPECT_NE(OwnerOf(childs), child) << "child's port " << childs << " still reserved";
  EXPECT_EQ(OwnerOf(mine), ::getpid());
}

}  // namespace
}  // namespace apogee::testing
