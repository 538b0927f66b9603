// The stored record: golden decodes of records a Java broker wrote (tests/fixtures/java-records),
// exact re-encoding, V2 and IPv6 records, BLANK, and every typed failure outcome.
#include "message/message_record.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "base/coding.h"
#include "base/crc32.h"
#include "message/compression.h"
#include "message/message_format.h"
#include "message/message_id.h"
#include "testutil/test_paths.h"

namespace apogee::message {
namespace {

std::string ReadFixture(const std::string& name) {
  const std::string path = ::apogee::testing::FixturesDir() + "/java-records/" + name;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const uint8_t* Bytes(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

RecordDecodeResult Decode(const std::string& s, size_t offset = 0, DecodeOptions options = {}) {
  return DecodeRecord(Bytes(s) + offset, s.size() - offset, options);
}

const HostAddress kJavaStoreHost = HostAddress::IPv4(10, 218, 145, 166, 10700);

// Values below were read off the fixture bytes by hand (offsets per message_format.h).
TEST(JavaRecordGoldenTest, MessageBinDecodesExactly) {
  const std::string bytes = ReadFixture("message.bin");
  ASSERT_EQ(bytes.size(), 264u);  // one 132-byte record followed by unrelated buffer bytes
  RecordDecodeResult r = Decode(bytes, 0, {.check_crc = true});
  ASSERT_EQ(r.status, RecordStatus::kMessage) << r.reason;
  EXPECT_EQ(r.size, 132u);
  const RecordView& v = r.record;
  EXPECT_EQ(v.total_size, 132);
  EXPECT_EQ(v.magic_code, kMagicCodeV1);
  EXPECT_EQ(v.version, RecordVersion::kV1);
  EXPECT_EQ(v.body_crc, 1438513404);
  EXPECT_EQ(v.queue_id, 0);
  EXPECT_EQ(v.flag, 0);
  EXPECT_EQ(v.queue_offset, 276);
  EXPECT_EQ(v.physical_offset, 433806745406);
  EXPECT_EQ(v.sys_flag, 0);
  EXPECT_EQ(v.born_timestamp, 1442834438803);
  EXPECT_EQ(v.born_host, HostAddress::IPv4(10, 62, 60, 82, 54073));
  EXPECT_EQ(v.store_timestamp, 1442834438869);
  EXPECT_EQ(v.store_host, kJavaStoreHost);
  EXPECT_EQ(v.reconsume_times, 0);
  EXPECT_EQ(v.prepared_transaction_offset, 0);
  EXPECT_EQ(v.body_length, 22);
  EXPECT_EQ(v.body, R"({"room":"1","msg":"1"})");
  EXPECT_EQ(v.topic, "TopicTest");
  EXPECT_EQ(v.properties, "TAGS\x01TagA\x02");

  auto msg = ToMessageExt(v);
  ASSERT_TRUE(msg.ok()) << msg.status().ToString();
  EXPECT_EQ(msg->tags(), "TagA");
  EXPECT_EQ(msg->store_size, 132);
  EXPECT_EQ(msg->offset_msg_id, "0ADA91A6000029CC0000006500E59F3E");
  EXPECT_EQ(msg->msg_id(), msg->offset_msg_id);  // no UNIQ_KEY in this record
  EXPECT_EQ(msg->born_host.ToString(), "10.62.60.82:54073");

  // The 132 bytes after the record are not a record.
  RecordDecodeResult tail = Decode(bytes, r.size);
  EXPECT_EQ(tail.status, RecordStatus::kCorrupt);
  EXPECT_NE(tail.reason.find("0x8F0B0000"), std::string::npos) << tail.reason;
}

TEST(JavaRecordGoldenTest, MessageBinReencodesByteIdentically) {
  const std::string bytes = ReadFixture("message.bin");
  RecordDecodeResult r = Decode(bytes);
  ASSERT_EQ(r.status, RecordStatus::kMessage);
  auto msg = ToMessageExt(r.record);
  ASSERT_TRUE(msg.ok());
  std::string props;
  auto encoded = EncodeRecordToString(RecordFieldsFromMessageExt(*msg, &props));
  ASSERT_TRUE(encoded.ok()) << encoded.status().ToString();
  EXPECT_EQ(*encoded, bytes.substr(0, 132));
}

// message_compress.bin is internally inconsistent: its body is the 23-byte zlib form of
// "Hello MetaQ !!!", but TOTALSIZE (125) and BODYCRC (1608414268) are those of the 15-byte
// plain body. A client-style decode (fields in order, as Java's MessageDecoder) reads it; the
// store's strict check refuses it with both numbers.
TEST(JavaRecordGoldenTest, MessageCompressBinDecodesAsAClientDoes) {
  const std::string bytes = ReadFixture("message_compress.bin");
  ASSERT_EQ(bytes.size(), 258u);
  RecordDecodeResult r = Decode(bytes, 0, {.strict_size = false});
  ASSERT_EQ(r.status, RecordStatus::kMessage) << r.reason;
  EXPECT_EQ(r.size, 133u);
  const RecordView& v = r.record;
  EXPECT_EQ(v.total_size, 125);
  EXPECT_EQ(v.body_crc, 1608414268);
  EXPECT_EQ(static_cast<uint32_t>(v.body_crc), Crc32Masked("Hello MetaQ !!!"));
  EXPECT_EQ(v.queue_id, 0);
  EXPECT_EQ(v.queue_offset, 281);
  EXPECT_EQ(v.physical_offset, 438528667032);
  EXPECT_EQ(v.sys_flag, kCompressedFlag);
  EXPECT_EQ(v.born_timestamp, 1442838317987);
  EXPECT_EQ(v.born_host, HostAddress::IPv4(10, 19, 215, 16, 53814));
  EXPECT_EQ(v.store_timestamp, 1442838318068);
  EXPECT_EQ(v.store_host, kJavaStoreHost);
  EXPECT_EQ(v.body_length, 23);
  EXPECT_EQ(static_cast<uint8_t>(v.body[0]), 0x78);  // zlib header
  EXPECT_EQ(static_cast<uint8_t>(v.body[1]), 0x9C);
  EXPECT_EQ(v.topic, "TopicTest");
  EXPECT_EQ(v.properties, "TAGS\x01TagA\x02");

  auto msg = ToMessageExt(v);
  ASSERT_TRUE(msg.ok()) << msg.status().ToString();
  EXPECT_EQ(msg->body, "Hello MetaQ !!!");
  EXPECT_EQ(msg->sys_flag & kCompressedFlag, 0);
  EXPECT_EQ(msg->offset_msg_id, "0ADA91A6000029CC000000661A586D98");
  auto raw = ToMessageExt(v, /*decompress=*/false);
  ASSERT_TRUE(raw.ok());
  EXPECT_EQ(raw->body.size(), 23u);

  RecordDecodeResult strict = Decode(bytes);
  EXPECT_EQ(strict.status, RecordStatus::kCorrupt);
  EXPECT_NE(strict.reason.find("PROPERTIES of 10 bytes at byte 123 runs past the record's "
                               "TOTALSIZE 125"),
            std::string::npos)
      << strict.reason;
  RecordDecodeResult crc = Decode(bytes, 0, {.check_crc = true, .strict_size = false});
  EXPECT_EQ(crc.status, RecordStatus::kCorrupt);
  EXPECT_NE(crc.reason.find("BODYCRC mismatch"), std::string::npos) << crc.reason;
}

TEST(JavaRecordGoldenTest, MessageCompressBinReencodesExceptItsInconsistentFields) {
  const std::string bytes = ReadFixture("message_compress.bin");
  RecordDecodeResult r = Decode(bytes, 0, {.strict_size = false});
  ASSERT_EQ(r.status, RecordStatus::kMessage);
  auto msg = ToMessageExt(r.record, /*decompress=*/false);
  ASSERT_TRUE(msg.ok());
  std::string props;
  RecordFields fields = RecordFieldsFromMessageExt(*msg, &props);
  fields.body_crc = static_cast<uint32_t>(r.record.body_crc);  // keep the stored CRC
  auto encoded = EncodeRecordToString(fields);
  ASSERT_TRUE(encoded.ok());
  ASSERT_EQ(encoded->size(), 133u);
  // Only TOTALSIZE differs: ours is the true length.
  EXPECT_EQ(DecodeFixed32(Bytes(*encoded)), 133u);
  EXPECT_EQ(encoded->substr(4), bytes.substr(4, 129));
  // Without the override the CRC is computed over the stored (compressed) body.
  fields.body_crc.reset();
  encoded = EncodeRecordToString(fields);
  EXPECT_EQ(DecodeFixed32(Bytes(*encoded) + kBodyCrcOffset), Crc32Masked(r.record.body));
}

TEST(JavaRecordGoldenTest, BatchMessageBinHoldsThreeRecords) {
  const std::string bytes = ReadFixture("batch_message.bin");
  ASSERT_EQ(bytes.size(), 750u);
  struct Expected {
    int64_t queue_offset;
    int64_t physical_offset;
    int64_t born_timestamp;
    int32_t born_port;
    int64_t store_timestamp;
    const char* msg_id;
  };
  const Expected expected[] = {
      {278, 436297835178, 1442835917706, 53458, 1442835917820, "0ADA91A6000029CC000000659560A2AA"},
      {279, 436297847625, 1442835917699, 53453, 1442835917822, "0ADA91A6000029CC000000659560D349"},
      {280, 436297848184, 1442835917732, 53462, 1442835917822, "0ADA91A6000029CC000000659560D578"},
  };
  size_t pos = 0;
  for (const Expected& e : expected) {
    RecordDecodeResult r = Decode(bytes, pos, {.check_crc = true});
    ASSERT_EQ(r.status, RecordStatus::kMessage) << "at " << pos << ": " << r.reason;
    ASSERT_EQ(r.size, 125u);
    const RecordView& v = r.record;
    EXPECT_EQ(v.body_crc, 1608414268);
    EXPECT_EQ(v.queue_id, 0);
    EXPECT_EQ(v.queue_offset, e.queue_offset);
    EXPECT_EQ(v.physical_offset, e.physical_offset);
    EXPECT_EQ(v.sys_flag, 0);
    EXPECT_EQ(v.born_timestamp, e.born_timestamp);
    EXPECT_EQ(v.born_host, HostAddress::IPv4(10, 19, 215, 16, e.born_port));
    EXPECT_EQ(v.store_timestamp, e.store_timestamp);
    EXPECT_EQ(v.store_host, kJavaStoreHost);
    EXPECT_EQ(v.body, "Hello MetaQ !!!");
    EXPECT_EQ(v.topic, "TopicTest");
    EXPECT_EQ(v.properties, "TAGS\x01TagA\x02");
    auto msg = ToMessageExt(v);
    ASSERT_TRUE(msg.ok());
    EXPECT_EQ(msg->offset_msg_id, e.msg_id);
    std::string props;
    auto encoded = EncodeRecordToString(RecordFieldsFromMessageExt(*msg, &props));
    ASSERT_TRUE(encoded.ok());
    EXPECT_EQ(*encoded, bytes.substr(pos, 125)) << "re-encoding record at " << pos;
    pos += r.size;
  }
  // Zeros follow the third record: nothing more was written.
  EXPECT_EQ(Decode(bytes, pos).status, RecordStatus::kEndOfData);
  // As a pull body the trailing bytes are not a record, and the error says where.
  auto all = DecodeMessages(bytes);
  ASSERT_FALSE(all.ok());
  EXPECT_TRUE(all.status().IsCorruption());
  EXPECT_NE(all.status().message().find("record 3 at byte 375"), std::string::npos)
      << all.status().ToString();
  auto three = DecodeMessages(std::string_view(bytes).substr(0, 375));
  ASSERT_TRUE(three.ok()) << three.status().ToString();
  ASSERT_EQ(three->size(), 3u);
  EXPECT_EQ((*three)[2].queue_offset, 280);
}

RecordFields SampleFields() {
  RecordFields f;
  f.queue_id = 3;
  f.flag = 7;
  f.queue_offset = 42;
  f.physical_offset = 1 << 20;
  f.born_timestamp = 1700000000000;
  f.born_host = HostAddress::IPv4(127, 0, 0, 1, 50000);
  f.store_timestamp = 1700000000123;
  f.store_host = HostAddress::IPv4(192, 168, 1, 2, 10911);
  f.reconsume_times = 2;
  f.body = "payload";
  f.topic = "TopicTest";
  f.properties =
      "UNIQ_KEY\x01"
      "ABC\x02";
  return f;
}

TEST(MessageRecordTest, SizeIsTheV1Formula) {
  RecordFields f = SampleFields();
  auto size = RecordSize(f);
  ASSERT_TRUE(size.ok());
  EXPECT_EQ(*size, kRecordFixedSizeV1IPv4 + f.body.size() + f.topic.size() + f.properties.size());
  f.born_host = *HostAddress::Parse("[::1]:1");
  f.store_host = *HostAddress::Parse("[fe80::2]:10911");
  EXPECT_EQ(*RecordSize(f), *size + 24);
  EXPECT_EQ(*RecordSize(f, RecordVersion::kV2), *size + 25);
}

TEST(MessageRecordTest, EncodesIntoACallerRegionAndRoundTrips) {
  RecordFields f = SampleFields();
  const size_t size = *RecordSize(f);
  std::string region(size + 10, '\xEE');
  auto written = EncodeRecord(f, reinterpret_cast<uint8_t*>(region.data()), region.size());
  ASSERT_TRUE(written.ok());
  EXPECT_EQ(*written, size);
  EXPECT_EQ(region.substr(size), std::string(10, '\xEE'));  // nothing past the record
  RecordDecodeResult r = DecodeRecord(Bytes(region), size, {.check_crc = true});
  ASSERT_EQ(r.status, RecordStatus::kMessage) << r.reason;
  EXPECT_EQ(r.record.queue_id, 3);
  EXPECT_EQ(r.record.flag, 7);
  EXPECT_EQ(r.record.queue_offset, 42);
  EXPECT_EQ(r.record.physical_offset, 1 << 20);
  EXPECT_EQ(r.record.reconsume_times, 2);
  EXPECT_EQ(r.record.store_host, f.store_host);
  EXPECT_EQ(static_cast<uint32_t>(r.record.body_crc), Crc32Masked("payload"));
  EXPECT_EQ(r.record.body, "payload");
  EXPECT_EQ(r.record.properties, f.properties);
}

TEST(MessageRecordTest, ShortRegionIsRefusedWithoutWriting) {
  RecordFields f = SampleFields();
  std::string region(20, 'x');
  auto written = EncodeRecord(f, reinterpret_cast<uint8_t*>(region.data()), region.size());
  EXPECT_TRUE(written.status().Is(StatusCode::kInvalidArgument));
  EXPECT_EQ(region, std::string(20, 'x'));
}

TEST(MessageRecordTest, LimitsNameTheField) {
  RecordFields f = SampleFields();
  const std::string long_topic(128, 't');
  f.topic = long_topic;
  auto size = RecordSize(f);
  ASSERT_FALSE(size.ok());
  EXPECT_NE(size.status().message().find("topic of 128 bytes"), std::string::npos);
  EXPECT_TRUE(RecordSize(f, RecordVersion::kV2).ok());
  f = SampleFields();
  const std::string big_props(32768, 'p');
  f.properties = big_props;
  size = RecordSize(f);
  ASSERT_FALSE(size.ok());
  EXPECT_NE(size.status().message().find("properties of 32768 bytes"), std::string::npos);
}

// A property tail is stored as if joined to the properties: the same record bytes, and the
// properties limit counts both.
TEST(MessageRecordTest, PropertiesTailIsStoredJoinedToTheProperties) {
  RecordFields joined = SampleFields();
  const std::string whole = std::string(joined.properties) +
                            "CLUSTER\x01"
                            "DefaultCluster\x02";
  joined.properties = whole;
  RecordFields split = SampleFields();
  split.properties_tail =
      "CLUSTER\x01"
      "DefaultCluster\x02";
  EXPECT_EQ(PropertiesSize(split), whole.size());
  ASSERT_EQ(*RecordSize(split), *RecordSize(joined));
  EXPECT_EQ(*EncodeRecordToString(split), *EncodeRecordToString(joined));
  for (RecordVersion version : {RecordVersion::kV1, RecordVersion::kV2}) {
    EXPECT_EQ(*EncodeRecordToString(split, version), *EncodeRecordToString(joined, version));
  }

  const std::string head(32760, 'p');
  split.properties = head;
  split.properties_tail = "12345678";  // 32768 together
  Result<size_t> size = RecordSize(split);
  ASSERT_FALSE(size.ok());
  EXPECT_NE(size.status().message().find("properties of 32768 bytes"), std::string::npos);
  split.properties_tail = "1234567";  // 32767: the limit itself
  EXPECT_TRUE(RecordSize(split).ok());
}

TEST(MessageRecordTest, IPv6HostsSetSysFlagBitsAndDecode) {
  RecordFields f = SampleFields();
  f.sys_flag = kMultiTagsFlag | kBornHostV6Flag;  // the stale born bit is recomputed
  f.store_host = *HostAddress::Parse("[2001:db8::7]:10911");
  auto encoded = EncodeRecordToString(f);
  ASSERT_TRUE(encoded.ok());
  RecordDecodeResult r = Decode(*encoded);
  ASSERT_EQ(r.status, RecordStatus::kMessage) << r.reason;
  EXPECT_EQ(r.record.sys_flag, kMultiTagsFlag | kStoreHostV6Flag);
  EXPECT_FALSE(r.record.born_host.ipv6);
  EXPECT_TRUE(r.record.store_host.ipv6);
  EXPECT_EQ(r.record.store_host.ToString(), "[2001:db8::7]:10911");
  EXPECT_EQ(r.record.store_timestamp, f.store_timestamp);
  auto msg = ToMessageExt(r.record);
  ASSERT_TRUE(msg.ok());
  EXPECT_EQ(msg->offset_msg_id.size(), kOffsetMsgIdLengthIPv6);
}

TEST(MessageRecordTest, V2RecordsHaveATwoByteTopicLength) {
  RecordFields f = SampleFields();
  const std::string topic = "%RETRY%" + std::string(200, 'g');
  f.topic = topic;
  auto encoded = EncodeRecordToString(f, RecordVersion::kV2);
  ASSERT_TRUE(encoded.ok());
  EXPECT_EQ(DecodeFixed32(Bytes(*encoded) + kMagicCodeOffset), kMagicCodeV2);
  RecordDecodeResult r = Decode(*encoded);
  ASSERT_EQ(r.status, RecordStatus::kMessage) << r.reason;
  EXPECT_EQ(r.record.version, RecordVersion::kV2);
  EXPECT_EQ(r.record.topic, topic);
}

TEST(MessageRecordTest, PatchesLandOnTheRightFields) {
  RecordFields f = SampleFields();
  f.born_host = *HostAddress::Parse("[::1]:5");  // moves STORETIMESTAMP by 12 bytes
  auto encoded = EncodeRecordToString(f);
  ASSERT_TRUE(encoded.ok());
  auto* p = reinterpret_cast<uint8_t*>(encoded->data());
  PatchQueueOffset(p, 9001);
  PatchPhysicalOffset(p, 123456789012);
  PatchStoreTimestamp(p, 1800000000000);
  RecordDecodeResult r = Decode(*encoded, 0, {.check_crc = true});
  ASSERT_EQ(r.status, RecordStatus::kMessage) << r.reason;
  EXPECT_EQ(r.record.queue_offset, 9001);
  EXPECT_EQ(r.record.physical_offset, 123456789012);
  EXPECT_EQ(r.record.store_timestamp, 1800000000000);
  EXPECT_EQ(r.record.born_timestamp, f.born_timestamp);
}

TEST(MessageRecordTest, BlankFiller) {
  std::string file(64, '\0');
  EncodeBlank(reinterpret_cast<uint8_t*>(file.data()), 64);
  EXPECT_EQ(DecodeFixed32(Bytes(file) + 4), kBlankMagicCode);
  RecordDecodeResult r = Decode(file);
  EXPECT_EQ(r.status, RecordStatus::kBlank);
  EXPECT_EQ(r.size, 64u);
  EncodeBlank(reinterpret_cast<uint8_t*>(file.data()), 4);
  EXPECT_EQ(Decode(file).status, RecordStatus::kCorrupt);
}

TEST(MessageRecordTest, EndOfDataAndTruncation) {
  EXPECT_EQ(DecodeRecord(nullptr, 0).status, RecordStatus::kEndOfData);
  EXPECT_EQ(Decode(std::string(100, '\0')).status, RecordStatus::kEndOfData);
  EXPECT_EQ(Decode(std::string(3, '\0')).status, RecordStatus::kEndOfData);
  EXPECT_EQ(Decode(std::string("\x00\x01", 2)).status, RecordStatus::kTruncated);

  auto encoded = EncodeRecordToString(SampleFields());
  ASSERT_TRUE(encoded.ok());
  const std::string torn = encoded->substr(0, encoded->size() - 1);
  RecordDecodeResult r = Decode(torn);
  EXPECT_EQ(r.status, RecordStatus::kTruncated);
  EXPECT_NE(r.reason.find("only " + std::to_string(torn.size()) + " bytes available"),
            std::string::npos)
      << r.reason;
  // Client mode reports the field where the bytes ran out.
  r = Decode(torn, 0, {.strict_size = false});
  EXPECT_EQ(r.status, RecordStatus::kTruncated);
  EXPECT_NE(r.reason.find("PROPERTIES"), std::string::npos) << r.reason;
}

TEST(MessageRecordTest, CorruptionReasons) {
  auto good = EncodeRecordToString(SampleFields());
  ASSERT_TRUE(good.ok());
  auto mutate = [&](size_t offset, uint32_t value) {
    std::string bad = *good;
    EncodeFixed32(reinterpret_cast<uint8_t*>(bad.data()) + offset, value);
    return Decode(bad, 0, {.check_crc = true});
  };
  RecordDecodeResult r = mutate(kMagicCodeOffset, 0x12345678);
  EXPECT_EQ(r.status, RecordStatus::kCorrupt);
  EXPECT_NE(r.reason.find("unknown magic code 0x12345678"), std::string::npos) << r.reason;

  r = mutate(kTotalSizeOffset, 50);
  EXPECT_EQ(r.status, RecordStatus::kCorrupt);
  EXPECT_NE(r.reason.find("TOTALSIZE 50"), std::string::npos) << r.reason;

  r = mutate(kTotalSizeOffset, 0xFFFFFFFF);
  EXPECT_EQ(r.status, RecordStatus::kCorrupt);

  r = mutate(kBodyCrcOffset, 1);
  EXPECT_EQ(r.status, RecordStatus::kCorrupt);
  EXPECT_NE(r.reason.find("BODYCRC mismatch: stored 1"), std::string::npos) << r.reason;

  const size_t body_length_offset = 84;
  r = mutate(body_length_offset, 0x80000000);
  EXPECT_EQ(r.status, RecordStatus::kCorrupt);
  EXPECT_NE(r.reason.find("negative BODY length"), std::string::npos) << r.reason;

  r = mutate(body_length_offset, 1000);
  EXPECT_EQ(r.status, RecordStatus::kCorrupt);
  EXPECT_NE(r.reason.find("BODY of 1000 bytes"), std::string::npos) << r.reason;

  // A negative (signed byte) topic length.
  std::string bad = *good;
  bad[88 + 7] = static_cast<char>(0x80);
  r = Decode(bad);
  EXPECT_EQ(r.status, RecordStatus::kCorrupt);
  EXPECT_NE(r.reason.find("negative TOPIC length"), std::string::npos) << r.reason;

  // A larger TOTALSIZE than the fields take.
  bad = *good + "xxxx";
  EncodeFixed32(reinterpret_cast<uint8_t*>(bad.data()), static_cast<uint32_t>(bad.size()));
  r = Decode(bad);
  EXPECT_EQ(r.status, RecordStatus::kCorrupt);
  EXPECT_NE(r.reason.find("but the fields take"), std::string::npos) << r.reason;

  // The size guard.
  r = Decode(*good, 0, {.max_record_size = 100});
  EXPECT_EQ(r.status, RecordStatus::kCorrupt);
}

TEST(MessageRecordTest, SkippingTheBodyStillValidates) {
  auto good = EncodeRecordToString(SampleFields());
  RecordDecodeResult r = Decode(*good, 0, {.read_body = false});
  ASSERT_EQ(r.status, RecordStatus::kMessage);
  EXPECT_TRUE(r.record.body.empty());
  EXPECT_EQ(r.record.body_length, 7);
  EXPECT_EQ(r.record.topic, "TopicTest");
}

TEST(MessageRecordTest, UnsupportedCompressionIsReportedByToMessageExt) {
  RecordFields f = SampleFields();
  f.sys_flag = kCompressedFlag | kCompressionLz4;
  auto encoded = EncodeRecordToString(f);
  RecordDecodeResult r = Decode(*encoded);
  ASSERT_EQ(r.status, RecordStatus::kMessage);
  auto msg = ToMessageExt(r.record);
  EXPECT_TRUE(msg.status().Is(StatusCode::kNotSupported)) << msg.status().ToString();
  EXPECT_TRUE(ToMessageExt(r.record, false).ok());
}

TEST(MessageRecordTest, DecodeMessagesReadsBackToBackRecords) {
  RecordFields f = SampleFields();
  std::string body = *EncodeRecordToString(f);
  f.queue_offset = 43;
  f.properties =
      "UNIQ_KEY\x01"
      "DEF\x02";
  body += *EncodeRecordToString(f);
  auto msgs = DecodeMessages(body);
  ASSERT_TRUE(msgs.ok()) << msgs.status().ToString();
  ASSERT_EQ(msgs->size(), 2u);
  EXPECT_EQ((*msgs)[1].queue_offset, 43);
  EXPECT_EQ((*msgs)[1].msg_id(), "DEF");
  EXPECT_TRUE(DecodeMessages("").ok());
}

// The decoder sizes its vector from the first record: a small record followed by larger ones
// (fewer fit than estimated) and larger by smaller (more fit) must both come back whole, in order,
// each message its own record's fields, an IPv6 one's id 56 characters and a compressed one
// inflated.
TEST(MessageRecordTest, DecodeMessagesKeepsEveryRecordWhateverTheirSizes) {
  for (bool small_first : {true, false}) {
    std::string body;
    std::vector<std::string> payloads;
    for (int i = 0; i < 40; ++i) {
      const bool small = (i == 0) == small_first;
      payloads.push_back(std::string(small ? 3 : 2000 + i, static_cast<char>('a' + i % 26)));
    }
    for (int i = 0; i < 40; ++i) {
      RecordFields f = SampleFields();
      f.queue_offset = 100 + i;
      f.body = payloads[i];
      std::string compressed;
      if (i == 7) {
        compressed = *CompressBody(payloads[i]);
        f.body = compressed;
        f.sys_flag = MarkZlibCompressed(0);
      }
      if (i == 9)
        f.store_host =
            HostAddress::IPv6({0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 10911);
      body += *EncodeRecordToString(f);
    }
    auto msgs = DecodeMessages(body);
    ASSERT_TRUE(msgs.ok()) << msgs.status().ToString();
    ASSERT_EQ(msgs->size(), 40u);
    for (int i = 0; i < 40; ++i) {
      const MessageExt& m = (*msgs)[i];
      EXPECT_EQ(m.queue_offset, 100 + i);
      EXPECT_EQ(m.body, payloads[i]) << i;
      EXPECT_EQ(m.properties.Get("UNIQ_KEY"), "ABC");
      EXPECT_EQ(m.offset_msg_id, CreateOffsetMsgId(m.store_host, m.commit_log_offset));
      EXPECT_EQ(m.offset_msg_id.size(), i == 9 ? 56u : 32u);
    }
    EXPECT_EQ((*msgs)[7].sys_flag & kCompressedFlag, 0);
  }
}

// More records than the decoder reserves room for up front (1,024) still all come back.
TEST(MessageRecordTest, DecodeMessagesReadsPastItsReservation) {
  std::string body;
  RecordFields f = SampleFields();
  for (int i = 0; i < 1500; ++i) {
    f.queue_offset = i;
    body += *EncodeRecordToString(f);
  }
  auto msgs = DecodeMessages(body);
  ASSERT_TRUE(msgs.ok()) << msgs.status().ToString();
  ASSERT_EQ(msgs->size(), 1500u);
  EXPECT_EQ(msgs->front().queue_offset, 0);
  EXPECT_EQ(msgs->back().queue_offset, 1499);
  EXPECT_EQ(msgs->back().body, "payload");
}

// One bad record fails the whole answer with its index and byte position: a client must not
// consume past a gap.
TEST(MessageRecordTest, DecodeMessagesNamesTheFirstBadRecord) {
  std::string body;
  for (int i = 0; i < 3; ++i) body += *EncodeRecordToString(SampleFields());
  const size_t second = body.size() / 3;
  body[second + 4] = 0x11;  // MAGICCODE of the second record
  auto msgs = DecodeMessages(body);
  ASSERT_FALSE(msgs.ok());
  EXPECT_TRUE(msgs.status().Is(StatusCode::kCorruption)) << msgs.status().ToString();
  EXPECT_NE(msgs.status().ToString().find("record 1 at byte " + std::to_string(second)),
            std::string::npos)
      << msgs.status().ToString();
}

}  // namespace
}  // namespace apogee::message
