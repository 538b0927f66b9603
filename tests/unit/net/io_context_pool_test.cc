#include "net/io_context_pool.h"

#include <gtest/gtest.h>

#include <boost/asio/post.hpp>
#include <future>
#include <set>

namespace apogee::net {
namespace {

TEST(IoContextPoolTest, RoundRobinsOverContexts) {
  IoContextPool pool(3);
  EXPECT_EQ(pool.size(), 3u);
  std::set<boost::asio::io_context*> seen;
  for (int i = 0; i < 6; ++i) seen.insert(pool.Next().get());
  EXPECT_EQ(seen.size(), 3u);
}

TEST(IoContextPoolTest, ZeroThreadsMeansOnePerCore) {
  IoContextPool pool(0);
  EXPECT_GE(pool.size(), 1u);
}

TEST(IoContextPoolTest, RunsHandlersOnPoolThreads) {
  IoContextPool pool(2);
  pool.Start();
  EXPECT_FALSE(pool.InPoolThread());
  std::promise<bool> in_pool;
  boost::asio::post(*pool.Next(), [&] { in_pool.set_value(pool.InPoolThread()); });
  EXPECT_TRUE(in_pool.get_future().get());
  pool.Stop();
}

TEST(IoContextPoolTest, StopRunsRemainingWorkAndCanRestart) {
  IoContextPool pool(1);
  pool.Start();
  std::atomic<int> ran{0};
  for (int i = 0; i < 100; ++i) boost::asio::post(*pool.Next(), [&] { ran++; });
  pool.Stop();
  EXPECT_EQ(ran.load(), 100);
  pool.Start();
  std::promise<void> again;
  boost::asio::post(*pool.Next(), [&] { again.set_value(); });
  again.get_future().wait();
  pool.Stop();
}

}  // namespace
}  // namespace apogee::net
