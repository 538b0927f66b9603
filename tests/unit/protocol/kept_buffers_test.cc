#include "protocol/kept_buffers.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <new>
#include <string>

#include "protocol/custom_header.h"
#include "protocol/remoting_command.h"
#include "protocol/request_code.h"
#include "protocol/send_headers.h"

// Counts this thread's calls of the global operator new while a test asks (not under a
// sanitizer, which brings its own allocator).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define APOGEE_COUNTS_ALLOCATIONS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define APOGEE_COUNTS_ALLOCATIONS 0
#endif
#endif
#ifndef APOGEE_COUNTS_ALLOCATIONS
#define APOGEE_COUNTS_ALLOCATIONS 1
#endif

namespace {
thread_local bool g_counting = false;
thread_local long g_allocations = 0;
}  // namespace

#if APOGEE_COUNTS_ALLOCATIONS
void* operator new(std::size_t size) {
  if (g_counting) ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#endif

namespace apogee::protocol {
namespace {

TEST(KeptBuffersTest, AKeptTextServesTheNextTakeThatFits) {
  std::string text;
  text.reserve(300);
  const char* room = text.data();
  text = "members";
  KeepText(&text);
  EXPECT_TRUE(text.empty());

  std::string too_big;
  EXPECT_FALSE(TakeKeptText(&too_big, 5000));
  std::string taken;
  ASSERT_TRUE(TakeKeptText(&taken, 200));
  EXPECT_EQ(taken.data(), room);
  EXPECT_TRUE(taken.empty());
  EXPECT_GE(taken.capacity(), 300u);
  std::string none;
  EXPECT_FALSE(TakeKeptText(&none, 16));  // the one kept was taken
}

TEST(KeptBuffersTest, TakesTheSmallestThatFitsAndOnlyIntoAnEmptyString) {
  std::string small(40, 'x');
  std::string large(2000, 'y');
  const char* small_room = small.data();
  const char* large_room = large.data();
  KeepText(&large);
  KeepText(&small);
  std::string busy = "not empty";
  EXPECT_FALSE(TakeKeptText(&busy, 16));
  std::string first;
  ASSERT_TRUE(TakeKeptText(&first, 30));
  EXPECT_EQ(first.data(), small_room);
  std::string second;
  ASSERT_TRUE(TakeKeptText(&second, 30));
  EXPECT_EQ(second.data(), large_room);
}

TEST(KeptBuffersTest, KeepsOnlyBoundedRoomAndCount) {
  std::string inline_text = "short";  // held inside the object: nothing to keep
  KeepText(&inline_text);
  std::string huge(1 << 20, 'z');  // past the bound: freed as before
  KeepText(&huge);
  EXPECT_FALSE(huge.empty());
  std::string probe;
  EXPECT_FALSE(TakeKeptText(&probe, 1));

  // Twenty kept, at most eight stay: the newest.
  std::vector<const char*> rooms;
  for (int i = 0; i < 20; ++i) {
    std::string text(100 + i, 'a');
    rooms.push_back(text.data());
    KeepText(&text);
  }
  int taken = 0;
  for (std::string t; TakeKeptText(&t, 1); t = std::string()) {
    EXPECT_GE(t.capacity(), 100u + 12) << "an older text stayed";
    ++taken;
  }
  EXPECT_EQ(taken, 8);

  std::string body(64 * 1024 + 1, 'b');
  KeepBody(&body);
  std::string b;
  EXPECT_FALSE(TakeKeptBody(&b, 1));
}

// A send request as the harness and the Java producer write it: V2 keys, escaped properties,
// a group and topic longer than a string holds inline, a 1 KiB body.
std::string SendRequestFrame() {
  RemotingCommand request = RemotingCommand::MakeRequest(request_code::kSendMessageV2);
  request.ext_fields.Set("a", "please_rename_unique_group_name");
  request.ext_fields.Set("b", "a_topic_with_a_long_name");
  request.ext_fields.Set("c", "TBW102");
  request.ext_fields.Set("d", "4");
  request.ext_fields.Set("e", "1");
  request.ext_fields.Set("f", "0");
  request.ext_fields.Set("g", "1764800000000");
  request.ext_fields.Set("h", "0");
  request.ext_fields.Set("i", std::string("UNIQ_KEY\x01"
                                          "7F00000100002A9F0000000000000001\x02"
                                          "WAIT\x01true\x02"));
  request.ext_fields.Set("j", "0");
  request.ext_fields.Set("k", "false");
  request.ext_fields.Set("l", "16");
  request.ext_fields.Set("m", "false");
  request.body.assign(1024, 'm');
  std::string frame;
  EncodeCommand(request, &frame);
  return frame;
}

// What the broker does with one send on its IO thread, less the store: decode, take the
// header, write the answer into a frame, give the buffers back.
void ServeOnce(std::string_view frame, std::string* answer_frame, const char** body_room) {
  RemotingCommand request;
  ASSERT_TRUE(DecodeCommandInto(frame.substr(4), DecodeLimits{}, &request).ok());
  *body_room = request.body.data();
  Result<SendMessageRequestHeader> header = TakeSendMessageRequestHeader(&request);
  ASSERT_TRUE(header.ok()) << header.status().ToString();
  ASSERT_TRUE(header->properties.has_value());
  ASSERT_EQ(header->producer_group, "please_rename_unique_group_name");
  ASSERT_EQ(header->properties->substr(0, 9), "UNIQ_KEY\x01");
  RemotingCommand response = RemotingCommand::MakeResponse(request, 0);
  AddExtFieldToSend("MSG_REGION", "DefaultRegion", &response);
  AddExtFieldToSend("TRACE_ON", "true", &response);
  SendMessageResponseHeaderView view;
  view.msg_id = "7F00000100002A9F0000000000001000";
  view.queue_id = 1;
  view.queue_offset = 42;
  EncodeCustomHeaderToSend(view, &response);
  answer_frame->clear();
  EncodeCommand(response, answer_frame);
  KeepText(&response.json_ext_fields);
  KeepText(&*header->properties);
  KeepText(&header->producer_group);
  KeepText(&header->topic);
  RecycleCommand(&request);
}

TEST(KeptBuffersTest, ARecycledRequestLendsItsBufferToTheNextDecode) {
  const std::string frame = SendRequestFrame();
  std::string answer;
  answer.reserve(1024);
  const char* first_body = nullptr;
  ServeOnce(frame, &answer, &first_body);
  const char* second_body = nullptr;
  ServeOnce(frame, &answer, &second_body);
  EXPECT_EQ(first_body, second_body);
  Result<RemotingCommand> decoded = DecodeCommand(std::string_view(answer).substr(4));
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded->ext_fields.Get("queueOffset"), "42");
  EXPECT_EQ(decoded->ext_fields.Get("MSG_REGION"), "DefaultRegion");
}

TEST(KeptBuffersTest, ASendServedAgainAllocatesNothing) {
  if (!APOGEE_COUNTS_ALLOCATIONS) GTEST_SKIP() << "a sanitizer owns operator new";
  const std::string frame = SendRequestFrame();
  std::string answer;
  answer.reserve(1024);
  const char* body = nullptr;
  ServeOnce(frame, &answer, &body);  // the first one fills the kept lists
  g_allocations = 0;
  g_counting = true;
  for (int i = 0; i < 3; ++i) ServeOnce(frame, &answer, &body);
  g_counting = false;
  EXPECT_EQ(g_allocations, 0);
}

}  // namespace
}  // namespace apogee::protocol
