#pragma once
// A minimal synchronous hiredis client for tests and benchmarks: Command in, lockcheck::Reply out.
#include <hiredis/hiredis.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "lockcheck/reply.hpp"

namespace lockcheck::mock::testing {

inline Reply from_hiredis(const redisReply* reply) {
  switch (reply->type) {
    case REDIS_REPLY_STATUS: return Reply::status(std::string(reply->str, reply->len));
    case REDIS_REPLY_ERROR: return Reply::error(std::string(reply->str, reply->len));
    case REDIS_REPLY_INTEGER: return Reply::integer_reply(reply->integer);
    case REDIS_REPLY_STRING: return Reply::bulk(std::string(reply->str, reply->len));
    case REDIS_REPLY_ARRAY: {
      std::vector<Reply> elements;
      for (std::size_t i = 0; i < reply->elements; ++i) elements.push_back(from_hiredis(reply->element[i]));
      return Reply::array(std::move(elements));
    }
    default: return Reply::nil();
  }
}

class HiredisClient {
 public:
  HiredisClient(const std::string& host, int port) {
    timeval timeout{5, 0};
    context_ = redisConnectWithTimeout(host.c_str(), port, timeout);
    if (context_ == nullptr || context_->err) throw std::runtime_error("cannot connect to redis at port " + std::to_string(port));
    redisSetTimeout(context_, timeout);
  }
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
    if (reply == nullptr) throw std::runtime_error(std::string("redis connection failed: ") + context_->errstr);
    Reply out = from_hiredis(reply);
    freeReplyObject(reply);
    return out;
  }

 private:
  redisContext* context_ = nullptr;
};

}  // namespace lockcheck::mock::testing
