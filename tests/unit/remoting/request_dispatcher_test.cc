#include "remoting/request_dispatcher.h"

#include <gtest/gtest.h>

#include <future>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "protocol/response_code.h"

namespace apogee::remoting {
namespace {

using protocol::RemotingCommand;
namespace response_code = protocol::response_code;

// Records what the dispatcher sends back.
class FakeChannel : public Channel {
 public:
  uint64_t id() const override { return 7; }
  const std::string& RemoteAddress() const override { return address_; }
  const std::string& LocalAddress() const override { return address_; }
  bool IsActive() const override { return true; }
  void InvokeAsync(RemotingCommand, std::chrono::milliseconds, ResponseCallback cb) override {
    cb(Status::NotSupported("fake"));
  }
  Result<RemotingCommand> InvokeSync(RemotingCommand, std::chrono::milliseconds) override {
    return Status::NotSupported("fake");
  }
  void InvokeOneway(RemotingCommand, WriteCallback) override {}
  void SendResponse(RemotingCommand response) override {
    std::lock_guard lock(mu_);
    responses_.push_back(std::move(response));
  }
  void Close() override {}

  std::vector<RemotingCommand> responses() {
    std::lock_guard lock(mu_);
    return responses_;
  }

 private:
  std::string address_ = "10.0.0.9:5555";
  std::mutex mu_;
  std::vector<RemotingCommand> responses_;
};

RemotingCommand Request(int32_t code, int32_t opaque) {
  auto r = RemotingCommand::MakeRequest(code);
  r.opaque = opaque;
  return r;
}

TEST(RequestDispatcherTest, RoutesByCodeInline) {
  RequestDispatcher dispatcher;
  auto channel = std::make_shared<FakeChannel>();
  dispatcher.RegisterProcessor(
      105, MakeProcessor([](RemotingCommand req, Responder r) { r.SendCode(0, "route"); }), nullptr);
  dispatcher.Dispatch(channel, Request(105, 11));
  auto responses = channel->responses();
  ASSERT_EQ(responses.size(), 1u);
  EXPECT_EQ(responses[0].code, 0);
  EXPECT_EQ(responses[0].opaque, 11);
  EXPECT_TRUE(responses[0].IsResponse());
  EXPECT_EQ(responses[0].remark, "route");
}

TEST(RequestDispatcherTest, UnknownCodeAnswersNotSupported) {
  RequestDispatcher dispatcher;
  auto channel = std::make_shared<FakeChannel>();
  dispatcher.Dispatch(channel, Request(9999, 3));
  auto responses = channel->responses();
  ASSERT_EQ(responses.size(), 1u);
  EXPECT_EQ(responses[0].code, response_code::kRequestCodeNotSupported);
  EXPECT_EQ(responses[0].remark, "request type 9999 not supported");
  EXPECT_EQ(responses[0].opaque, 3);
}

TEST(RequestDispatcherTest, UnknownOnewayGetsNothing) {
  RequestDispatcher dispatcher;
  auto channel = std::make_shared<FakeChannel>();
  auto request = Request(9999, 3);
  request.flag = protocol::kFlagOneway;
  dispatcher.Dispatch(channel, request);
  EXPECT_TRUE(channel->responses().empty());
}

TEST(RequestDispatcherTest, DefaultProcessorTakesUnregisteredCodes) {
  RequestDispatcher dispatcher;
  auto channel = std::make_shared<FakeChannel>();
  dispatcher.RegisterDefaultProcessor(
      MakeProcessor([](RemotingCommand req, Responder r) { r.SendCode(0, std::to_string(req.code)); }),
      nullptr);
  dispatcher.Dispatch(channel, Request(321, 1));
  ASSERT_EQ(channel->responses().size(), 1u);
  EXPECT_EQ(channel->responses()[0].remark, "321");
}

struct CountingTracker : RequestTracker {
  void RequestFinished() override { ++finished; }
  int finished = 0;
};

TEST(RequestDispatcherTest, GuardRefusalAnswersNoPermissionWithoutTheProcessor) {
  RequestDispatcher dispatcher;
  auto channel = std::make_shared<FakeChannel>();
  int processed = 0;
  dispatcher.RegisterProcessor(
      10, MakeProcessor([&](RemotingCommand, Responder r) { ++processed; r.SendCode(0, "sent"); }),
      nullptr);
  std::string guarded_address;
  dispatcher.SetRequestGuard([&](const Channel& ch, const RemotingCommand& req) {
    guarded_address = ch.RemoteAddress();
    return req.opaque == 1 ? Status::OK() : Status::PermissionDenied("No PUB permission for topic:T");
  });
  auto tracker = std::make_shared<CountingTracker>();
  dispatcher.Dispatch(channel, Request(10, 1), tracker);
  dispatcher.Dispatch(channel, Request(10, 2), tracker);
  EXPECT_EQ(guarded_address, "10.0.0.9:5555");
  EXPECT_EQ(processed, 1);
  EXPECT_EQ(tracker->finished, 2);
  auto responses = channel->responses();
  ASSERT_EQ(responses.size(), 2u);
  EXPECT_EQ(responses[0].code, 0);
  EXPECT_EQ(responses[1].code, response_code::kNoPermission);
  EXPECT_EQ(responses[1].remark, "No PUB permission for topic:T");
  EXPECT_EQ(responses[1].opaque, 2);

  // A refused oneway request gets nothing; no guard lets everything through again.
  auto oneway = Request(10, 3);
  oneway.flag = protocol::kFlagOneway;
  dispatcher.Dispatch(channel, oneway, tracker);
  EXPECT_EQ(channel->responses().size(), 2u);
  dispatcher.SetRequestGuard(nullptr);
  dispatcher.Dispatch(channel, Request(10, 4), tracker);
  EXPECT_EQ(processed, 2);
  EXPECT_EQ(tracker->finished, 4);
}

TEST(RequestDispatcherTest, RunsOnExecutorAndBusyWhenFull) {
  RequestDispatcher dispatcher;
  auto channel = std::make_shared<FakeChannel>();
  auto executor = std::make_shared<ThreadPoolExecutor>("disp", 1, 1);
  std::promise<void> release;
  auto released = release.get_future().share();
  std::atomic<int> started{0};
  dispatcher.RegisterProcessor(
      10,
      MakeProcessor([&](RemotingCommand, Responder r) {
        started++;
        released.wait();
        r.SendCode(0);
      }),
      executor);
  dispatcher.Dispatch(channel, Request(10, 1));
  ASSERT_TRUE([&] {
    for (int i = 0; i < 500 && started.load() == 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return started.load() == 1;
  }());
  dispatcher.Dispatch(channel, Request(10, 2));  // queued
  dispatcher.Dispatch(channel, Request(10, 3));  // rejected
  auto responses = channel->responses();
  ASSERT_EQ(responses.size(), 1u);
  EXPECT_EQ(responses[0].opaque, 3);
  EXPECT_EQ(responses[0].code, response_code::kSystemBusy);
  release.set_value();
  executor->Shutdown();
  EXPECT_EQ(channel->responses().size(), 3u);
}

TEST(RequestDispatcherTest, ServesInlineRunsOnTheCallersThreadAndOtherRequestsOnTheExecutor) {
  // Even-numbered opaques are "cheap": the processor asks to run them where they arrive.
  class Choosing : public RequestProcessor {
   public:
    void ProcessRequest(RemotingCommand request, Responder r) override {
      std::lock_guard lock(mu);
      ran_on[request.opaque] = std::this_thread::get_id();
      r.SendCode(0);
    }
    bool ServesInline(const RemotingCommand& request) const override {
      return request.opaque % 2 == 0;
    }
    std::mutex mu;
    std::map<int32_t, std::thread::id> ran_on;
  };
  RequestDispatcher dispatcher;
  auto channel = std::make_shared<FakeChannel>();
  auto executor = std::make_shared<ThreadPoolExecutor>("disp", 1, 4);
  auto processor = std::make_shared<Choosing>();
  dispatcher.RegisterProcessor(10, processor, executor);
  dispatcher.Dispatch(channel, Request(10, 2));
  dispatcher.Dispatch(channel, Request(10, 3));
  executor->Shutdown();  // runs what was queued
  ASSERT_EQ(channel->responses().size(), 2u);
  std::lock_guard lock(processor->mu);
  ASSERT_EQ(processor->ran_on.size(), 2u);
  EXPECT_EQ(processor->ran_on[2], std::this_thread::get_id());
  EXPECT_NE(processor->ran_on[3], std::this_thread::get_id());
}

TEST(RequestDispatcherTest, RejectRequestAnswersBusy) {
  class Rejecting : public RequestProcessor {
   public:
    void ProcessRequest(RemotingCommand, Responder) override { FAIL() << "must not run"; }
    bool RejectRequest() const override { return true; }
  };
  RequestDispatcher dispatcher;
  auto channel = std::make_shared<FakeChannel>();
  dispatcher.RegisterProcessor(10, std::make_shared<Rejecting>(), nullptr);
  dispatcher.Dispatch(channel, Request(10, 1));
  ASSERT_EQ(channel->responses().size(), 1u);
  EXPECT_EQ(channel->responses()[0].code, response_code::kSystemBusy);
}

TEST(RequestDispatcherTest, ThrowingProcessorAnswersSystemError) {
  RequestDispatcher dispatcher;
  auto channel = std::make_shared<FakeChannel>();
  dispatcher.RegisterProcessor(
      10, MakeProcessor([](RemotingCommand, Responder) { throw std::runtime_error("boom"); }), nullptr);
  dispatcher.Dispatch(channel, Request(10, 1));
  ASSERT_EQ(channel->responses().size(), 1u);
  EXPECT_EQ(channel->responses()[0].code, response_code::kSystemError);
  EXPECT_EQ(channel->responses()[0].remark, "boom");
}

TEST(RequestDispatcherTest, NotifiesListeners) {
  struct Counting : ChannelEventListener {
    int connected = 0, closed = 0, idle = 0;
    void OnChannelConnected(const ChannelPtr&) override { connected++; }
    void OnChannelClosed(const ChannelPtr&) override { closed++; }
    void OnChannelIdle(const ChannelPtr&) override { idle++; }
  };
  RequestDispatcher dispatcher;
  auto a = std::make_shared<Counting>();
  auto b = std::make_shared<Counting>();
  dispatcher.AddListener(a);
  dispatcher.AddListener(b);
  auto channel = std::make_shared<FakeChannel>();
  dispatcher.NotifyConnected(channel);
  dispatcher.NotifyIdle(channel);
  dispatcher.NotifyClosed(channel);
  EXPECT_EQ(a->connected + b->connected, 2);
  EXPECT_EQ(a->idle + b->idle, 2);
  EXPECT_EQ(a->closed + b->closed, 2);
}

}  // namespace
}  // namespace apogee::remoting
