#include "resource_client.hpp"

#include <stdexcept>
#include <string>

namespace lockcheck::redis_backend {
namespace {

constexpr const char* kRegisterKey = "lockcheck:resource";

// ARGV: fencing token, reads fenced (1/0). Returns {value, version, accepted}; a rejected read returns value 0
// and registers nothing (sim::fencing_accepts_read).
constexpr const char* kReadScript = R"(
local fields = redis.call('HMGET', KEYS[1], 'value', 'version', 'highest_fencing')
local value, version = tonumber(fields[1] or '0'), tonumber(fields[2] or '0')
if ARGV[2] == '0' then return {value, version, 1} end
local highest = tonumber(fields[3] or '0')
local token = tonumber(ARGV[1])
if token < highest then return {0, version, 0} end
if token > highest then redis.call('HSET', KEYS[1], 'highest_fencing', token) end
return {value, version, 1})";

// ARGV: value, read_version, fencing token, writes fenced (1/0). Returns {accepted, stale, version}
// (sim::fencing_accepts_write).
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

ResourceRead ResourceClient::read(std::int64_t fencing_token) {
  const bool fenced = fencing_ == sim::Fencing::reads_and_writes;
  const Reply reply =
      client_.call({"EVAL", kReadScript, "1", kRegisterKey, std::to_string(fencing_token), fenced ? "1" : "0"});
  return {element(reply, 0), element(reply, 1), element(reply, 2) == 1};
}

ResourceWrite ResourceClient::write(std::int64_t value, std::int64_t read_version, std::int64_t fencing_token) {
  const Reply reply = client_.call({"EVAL", kWriteScript, "1", kRegisterKey, std::to_string(value), std::to_string(read_version),
                                    std::to_string(fencing_token), fencing_ == sim::Fencing::off ? "0" : "1"});
  return {element(reply, 0) == 1, element(reply, 1) == 1, element(reply, 2)};
}

}  // namespace lockcheck::redis_backend
