#include "net/io_context_pool.h"

#include <pthread.h>

#include <algorithm>

#include "base/logging.h"

namespace apogee::net {

IoContextPool::IoContextPool(size_t threads, std::string name) : name_(std::move(name)) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  contexts_.reserve(threads);
  for (size_t i = 0; i < threads; ++i) {
    // Concurrency hint 1: each io_context is run by exactly one thread.
    contexts_.push_back(std::make_shared<boost::asio::io_context>(1));
  }
}

IoContextPool::~IoContextPool() { Stop(); }

void IoContextPool::Start() {
  if (started_) return;
  started_ = true;
  guards_.clear();
  for (auto& ctx : contexts_) {
    if (ctx->stopped()) ctx->restart();
    guards_.emplace_back(ctx->get_executor());
  }
  for (size_t i = 0; i < contexts_.size(); ++i) {
    threads_.emplace_back([this, i] {
      // Thread names are limited to 15 characters by the kernel.
      std::string thread_name = (name_ + "-" + std::to_string(i)).substr(0, 15);
      pthread_setname_np(pthread_self(), thread_name.c_str());
      contexts_[i]->run();
    });
  }
}

void IoContextPool::Stop() {
  if (!started_) return;
  for (auto& guard : guards_) guard.reset();
  for (auto& t : threads_) t.join();
  threads_.clear();
  started_ = false;
}

void IoContextPool::StopNow() {
  for (auto& ctx : contexts_) ctx->stop();
  Stop();
}

const std::shared_ptr<boost::asio::io_context>& IoContextPool::Next() {
  return contexts_[next_.fetch_add(1, std::memory_order_relaxed) % contexts_.size()];
}

bool IoContextPool::InPoolThread() const {
  return std::any_of(contexts_.begin(), contexts_.end(),
                     [](const auto& ctx) { return ctx->get_executor().running_in_this_thread(); });
}

}  // namespace apogee::net
