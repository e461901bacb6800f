#pragma once
// A minimal synchronous hiredis client for tests and benchmarks: Command in, lockcheck::Reply out. Tests use
// it to set up and inspect server state behind the library's back.
#include <hiredis/hiredis.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "lockcheck/hiredis_reply.hpp"
#include "redis_server.hpp"

namespace lockcheck::testing {

class HiredisClient {
 public:
  // `timeout_s` bounds the connect and each reply: a hang's bound, not a guess of how fast redis-server answers.
  // It was 5 s until a CI run on a stalled machine failed both differential tests on an idle PUNSUBSCRIBE
  // ("Resource temporarily unavailable") that passed at once when run again.
  HiredisClient(const std::string& host, int port, const std::string& password = "", int timeout_s = 60) {
    timeval timeout{timeout_s, 0};
    context_ = redisConnectWithTimeout(host.c_str(), port, timeout);
    if (context_ == nullptr || context_->err) throw std::runtime_error("cannot connect to redis at port " + std::to_string(port));
    redisSetTimeout(context_, timeout);
    if (!password.empty()) call({"AUTH", password});
  }
  explicit HiredisClient(const RedisServer& server, const std::string& password = "")
      : HiredisClient(server.host(), server.port(), password) {}
  ~HiredisClient() { redisFree(context_); }
  HiredisClient(const HiredisClient&) = delete;
  HiredisClient& operator=(const HiredisClient&) = delete;

  Reply call(const Command& command) {
    std::vector<const char*> argv;
    std::vector<std::size_t> lengths;
    for (const std::string& arg : command) {
      argv.push_back(arg.data());
      lengths.push_back(arg.size());
    }
    auto* reply = static_cast<redisReply*>(redisCommandArgv(context_, static_cast<int>(argv.size()), argv.data(), lengths.data()));
    if (reply == nullptr) {
      throw std::runtime_error(std::string("redis connection failed") + (command.empty() ? "" : " on " + command.front()) + ": " +
                               context_->errstr);
    }
    Reply out = reply_from_hiredis(reply);
    freeReplyObject(reply);
    return out;
  }
  // Sends ECHO `marker` and reads replies until it comes back (at most 64 others): a connection on which some
  // command answered more than once is in step again. Returns how many stray replies it read first.
  int resync(const std::string& marker) {
    Reply reply = call({"ECHO", marker});
    for (int stray = 0; stray < 64; ++stray) {
      if (reply.kind == Reply::Kind::bulk && reply.text == marker) return stray;
      void* next = nullptr;
      if (redisGetReply(context_, &next) != REDIS_OK || next == nullptr) {
        throw std::runtime_error(std::string("redis connection failed while resyncing: ") + context_->errstr);
      }
      reply = reply_from_hiredis(static_cast<redisReply*>(next));
      freeReplyObject(next);
    }
    throw std::runtime_error("redis connection out of step: 64 replies without the resync marker");
  }
  // Shorthands for the checks tests make most.
  Reply command(const Command& command) { return call(command); }
  std::string get(const std::string& key) { return call({"GET", key}).text; }
  bool exists(const std::string& key) { return call({"EXISTS", key}).integer == 1; }
  std::int64_t pttl(const std::string& key) { return call({"PTTL", key}).integer; }

 private:
  redisContext* context_ = nullptr;
};

}  // namespace lockcheck::testing
