#include "lockcheck/hiredis_reply.hpp"

namespace lockcheck {

Reply reply_from_hiredis(const redisReply* reply) {
  switch (reply->type) {
    case REDIS_REPLY_STATUS: return Reply::status(std::string(reply->str, reply->len));
    case REDIS_REPLY_ERROR: return Reply::error(std::string(reply->str, reply->len));
    case REDIS_REPLY_INTEGER: return Reply::integer_reply(reply->integer);
    case REDIS_REPLY_STRING: return Reply::bulk(std::string(reply->str, reply->len));
    case REDIS_REPLY_ARRAY: {
      std::vector<Reply> elements;
      elements.reserve(reply->elements);
      for (std::size_t i = 0; i < reply->elements; ++i) elements.push_back(reply_from_hiredis(reply->element[i]));
      return Reply::array(std::move(elements));
    }
    default: return Reply::nil();
  }
}

}  // namespace lockcheck
