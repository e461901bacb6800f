#pragma once
// One whole RESP2 message as a tree, and back to bytes: what lets the cluster address rewriting
// (cluster_reply_rewrite.hpp) change one field of a reply and forward the rest byte for byte.
#include <string>
#include <string_view>
#include <vector>

namespace lockcheck::redis_backend {

struct RespValue {
  char type = '+';              // '+' simple string, '-' error, ':' integer, '$' bulk string, '*' array
  bool null = false;            // $-1 or *-1
  std::string text;             // the line of '+', '-' and ':' (the integer as written), the bytes of '$'
  std::vector<RespValue> elements;  // '*'
};

// `frame` must be exactly one complete message (resp_frame_length); throws std::runtime_error otherwise.
RespValue parse_resp(std::string_view frame);
// The inverse: serialize_resp(parse_resp(f)) == f for every well-formed f.
std::string serialize_resp(const RespValue& value);

}  // namespace lockcheck::redis_backend
