#include "resource_client.hpp"

#include <stdexcept>
#include <string>

namespace lockcheck::redis_backend {
namespace {

constexpr const char* kRegisterKey = "lockcheck:resource";

constexpr const char* kReadScript = R"(
local fields = redis.call('HMGET', KEYS[1], 'value', 'version')
return {tonumber(fields[1] or '0'), tonumber(fields[2] or '0')})";

// ARGV: value, read_version, fencing token, fencing on (1/0). Returns {accepted, stale, version}.
constexpr const char* kWriteScript = R"(
local version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
local highest = tonumber(redis.call('HGET', KEYS[1], 'highest_fencing') or '0')
local token = tonumber(ARGV[3])
local stale = tonumber(ARGV[2]) ~= version
local accepted = ARGV[4] == '0' or token >= highest
if accepted then
  version = version + 1
  redis.call('HSET', KEYS[1], 'value', ARGV[1], 'version', version)
  if token > highest then redis.call('HSET', KEYS[1], 'highest_fencing', token) end
end
return {accepted and 1 or 0, stale and 1 or 0, version})";

std::int64_t element(const Reply& reply, std::size_t index) {
  if (reply.kind != Reply::Kind::array || reply.elements.size() <= index || reply.elements[index].kind != Reply::Kind::integer) {
    throw std::runtime_error("resource server: unexpected reply " + to_string(reply));
  }
  return reply.elements[index].integer;
}

}  // namespace

ResourceRead ResourceClient::read() {
  const Reply reply = client_.call({"EVAL", kReadScript, "1", kRegisterKey});
  return {element(reply, 0), element(reply, 1)};
}

ResourceWrite ResourceClient::write(std::int64_t value, std::int64_t read_version, std::int64_t fencing_token) {
  const Reply reply = client_.call({"EVAL", kWriteScript, "1", kRegisterKey, std::to_string(value), std::to_string(read_version),
                                    std::to_string(fencing_token), fencing_ ? "1" : "0"});
  return {element(reply, 0) == 1, element(reply, 1) == 1, element(reply, 2)};
}

}  // namespace lockcheck::redis_backend
