// RabbitMQ quorum queue over AMQP 0-9-1 with Debian's librabbitmq (rabbitmq-c): persistent
// publishes with publisher confirms (the broker confirms once the quorum has it on disk);
// a consumer with prefetch 1024 and manual multiple acks.
#include <amqp.h>
#include <amqp_tcp_socket.h>

#include <string>

#include "harness.h"

namespace peers {
namespace {

void Check(amqp_rpc_reply_t r, const std::string& what) {
  if (r.reply_type != AMQP_RESPONSE_NORMAL) {
    Fail("RabbitMQ " + what + " failed (reply type " + std::to_string(r.reply_type) + ", library error " +
         std::to_string(r.library_error) + ")");
  }
}

class Conn {
 public:
  explicit Conn(const Options& o) {
    conn_ = amqp_new_connection();
    amqp_socket_t* s = amqp_tcp_socket_new(conn_);
    if (s == nullptr || amqp_socket_open(s, o.host.c_str(), o.port) != AMQP_STATUS_OK) {
      Fail("RabbitMQ: cannot connect to port " + std::to_string(o.port));
    }
    Check(amqp_login(conn_, "/", 0, 1 << 20, 0, AMQP_SASL_METHOD_PLAIN, "guest", "guest"), "login");
    amqp_channel_open(conn_, 1);
    Check(amqp_get_rpc_reply(conn_), "channel.open");
  }
  ~Conn() {
    amqp_channel_close(conn_, 1, AMQP_REPLY_SUCCESS);
    amqp_connection_close(conn_, AMQP_REPLY_SUCCESS);
    amqp_destroy_connection(conn_);
  }
  amqp_connection_state_t get() { return conn_; }

 private:
  amqp_connection_state_t conn_;
};

class RabbitPublisher final : public Publisher {
 public:
  RabbitPublisher(const Options& o, const std::string& queue) : conn_(o), queue_(queue), body_(Payload(o.size)) {
    amqp_confirm_select(conn_.get(), 1);
    Check(amqp_get_rpc_reply(conn_.get()), "confirm.select");
    props_._flags = AMQP_BASIC_DELIVERY_MODE_FLAG;
    props_.delivery_mode = 2;  // persistent
  }
  void Send(int n) override {
    for (int i = 0; i < n; ++i) {
      int rc = amqp_basic_publish(conn_.get(), 1, amqp_empty_bytes, amqp_cstring_bytes(queue_.c_str()), 0, 0,
                                  &props_, amqp_bytes_t{body_.size(), body_.data()});
      if (rc != AMQP_STATUS_OK) Fail("RabbitMQ publish: " + std::string(amqp_error_string2(rc)));
      ++published_;
    }
  }
  int64_t WaitAcks() override {
    int64_t before = confirmed_;
    do {
      amqp_frame_t f;
      int rc = amqp_simple_wait_frame(conn_.get(), &f);
      if (rc != AMQP_STATUS_OK) Fail("RabbitMQ wait: " + std::string(amqp_error_string2(rc)));
      if (f.frame_type != AMQP_FRAME_METHOD) continue;
      if (f.payload.method.id == AMQP_BASIC_ACK_METHOD) {
        auto* ack = static_cast<amqp_basic_ack_t*>(f.payload.method.decoded);
        uint64_t tag = ack->delivery_tag;
        confirmed_ = ack->multiple ? static_cast<int64_t>(tag) : confirmed_ + 1;
      } else if (f.payload.method.id == AMQP_BASIC_NACK_METHOD) {
        Fail("RabbitMQ nacked a publish");
      } else {
        Fail("RabbitMQ: unexpected method " + std::to_string(f.payload.method.id));
      }
    } while (amqp_frames_enqueued(conn_.get()) || amqp_data_in_buffer(conn_.get()));
    amqp_maybe_release_buffers(conn_.get());
    return confirmed_ - before;
  }

 private:
  Conn conn_;
  std::string queue_;
  std::string body_;
  amqp_basic_properties_t props_{};
  int64_t published_ = 0;
  int64_t confirmed_ = 0;
};

class RabbitConsumer final : public Consumer {
 public:
  RabbitConsumer(const Options& o, const std::string& queue) : conn_(o) {
    amqp_basic_qos(conn_.get(), 1, 0, kPrefetch, 0);
    Check(amqp_get_rpc_reply(conn_.get()), "basic.qos");
    amqp_basic_consume(conn_.get(), 1, amqp_cstring_bytes(queue.c_str()), amqp_empty_bytes, 0, 0, 0,
                       amqp_empty_table);
    Check(amqp_get_rpc_reply(conn_.get()), "basic.consume");
  }
  int64_t Poll() override {
    int64_t got = 0;
    timeval tv{1, 0};
    do {
      amqp_envelope_t env;
      amqp_rpc_reply_t r = amqp_consume_message(conn_.get(), &env, got == 0 ? &tv : nullptr, 0);
      if (r.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION && r.library_error == AMQP_STATUS_TIMEOUT) break;
      Check(r, "consume");
      ++got;
      if (++unacked_ >= kPrefetch / 4) {
        amqp_basic_ack(conn_.get(), 1, env.delivery_tag, 1);
        unacked_ = 0;
      }
      amqp_destroy_envelope(&env);
    } while (amqp_frames_enqueued(conn_.get()) || amqp_data_in_buffer(conn_.get()));
    amqp_maybe_release_buffers(conn_.get());
    return got;
  }

 private:
  static constexpr uint16_t kPrefetch = 1024;
  Conn conn_;
  int unacked_ = 0;
};

void CreateStream(const Options& o, const std::string& queue) {
  Conn c(o);
  amqp_queue_delete(c.get(), 1, amqp_cstring_bytes(queue.c_str()), 0, 0);
  Check(amqp_get_rpc_reply(c.get()), "queue.delete");
  amqp_table_entry_t entry;
  entry.key = amqp_cstring_bytes("x-queue-type");
  entry.value.kind = AMQP_FIELD_KIND_UTF8;
  entry.value.value.bytes = amqp_cstring_bytes("quorum");
  amqp_table_t args{1, &entry};
  amqp_queue_declare(c.get(), 1, amqp_cstring_bytes(queue.c_str()), 0, /*durable=*/1, 0, 0, args);
  Check(amqp_get_rpc_reply(c.get()), "queue.declare (quorum)");
}

}  // namespace
}  // namespace peers

int main(int argc, char** argv) {
  return peers::HarnessMain<peers::RabbitPublisher, peers::RabbitConsumer>(argc, argv, peers::CreateStream);
}
