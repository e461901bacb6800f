#include <algorithm>
#include <array>

#include "commands.hpp"

namespace lockcheck::mock {
namespace {

constexpr std::uint32_t kW = kWrite;
constexpr std::uint32_t kWO = kWrite | kDenyOom;

// Sorted by name for binary search; arities as in Redis 7.0's command table.
constexpr std::array kCommands = std::to_array<CommandSpec>({
    {"asking", 1, 0, cmd::asking},
    {"auth", -2, kNoScript, cmd::auth},
    {"client", -2, kNoScript, cmd::client},
    {"cluster", -2, 0, cmd::cluster},
    {"command", -1, kNoScript, cmd::command},
    {"dbsize", 1, 0, cmd::dbsize},
    {"decr", 2, kWO, cmd::decr},
    {"decrby", 3, kWO, cmd::decrby},
    {"del", -2, kW, cmd::del},
    {"echo", 2, 0, cmd::echo},
    {"eval", -3, kNoScript, cmd::eval},
    {"eval_ro", -3, kNoScript, cmd::eval_ro},
    {"evalsha", -3, kNoScript, cmd::evalsha},
    {"evalsha_ro", -3, kNoScript, cmd::evalsha_ro},
    {"exists", -2, 0, cmd::exists},
    {"expire", -3, kW, cmd::expire},
    {"expireat", -3, kW, cmd::expireat},
    {"flushall", -1, kW, cmd::flushall},
    {"flushdb", -1, kW, cmd::flushall},
    {"get", 2, 0, cmd::get},
    {"getdel", 2, kW, cmd::getdel},
    {"hdel", -3, kW, cmd::hdel},
    {"hexists", 3, 0, cmd::hexists},
    {"hget", 3, 0, cmd::hget},
    {"hgetall", 2, 0, cmd::hgetall},
    {"hincrby", 4, kWO, cmd::hincrby},
    {"hlen", 2, 0, cmd::hlen},
    {"hmget", -3, 0, cmd::hmget},
    {"hset", -4, kWO, cmd::hset},
    {"incr", 2, kWO, cmd::incr},
    {"incrby", 3, kWO, cmd::incrby},
    {"info", -1, 0, cmd::info},
    {"llen", 2, 0, cmd::llen},
    {"lpop", -2, kW, cmd::lpop},
    {"lpush", -3, kWO, cmd::lpush},
    {"lrange", 4, 0, cmd::lrange},
    {"lrem", 4, kW, cmd::lrem},
    {"persist", 2, kW, cmd::persist},
    {"pexpire", -3, kW, cmd::pexpire},
    {"pexpireat", -3, kW, cmd::pexpireat},
    {"ping", -1, kPubSub, cmd::ping},
    {"pttl", 2, 0, cmd::pttl},
    {"publish", 3, 0, cmd::publish},
    {"quit", -1, kNoScript | kPubSub, cmd::quit},
    {"readonly", 1, 0, cmd::readonly},
    {"readwrite", 1, 0, cmd::readwrite},
    {"rpop", -2, kW, cmd::rpop},
    {"rpush", -3, kWO, cmd::rpush},
    {"script", -2, kNoScript, cmd::script},
    {"select", 2, 0, cmd::select},
    {"set", -3, kWO, cmd::set},
    {"setnx", 3, kWO, cmd::setnx},
    {"subscribe", -2, kNoScript | kPubSub, cmd::subscribe},
    {"time", 1, 0, cmd::time},
    {"ttl", 2, 0, cmd::ttl},
    {"type", 2, 0, cmd::type},
    {"unlink", -2, kW, cmd::del},
    {"unsubscribe", -1, kNoScript | kPubSub, cmd::unsubscribe},
    {"wait", 3, kNoScript, cmd::wait},
    {"zadd", -4, kWO, cmd::zadd},
    {"zcard", 2, 0, cmd::zcard},
    {"zrange", -4, 0, cmd::zrange},
    {"zrem", -3, kW, cmd::zrem},
    {"zscore", 3, 0, cmd::zscore},
});

constexpr bool sorted() {
  for (std::size_t i = 1; i < kCommands.size(); ++i) {
    if (!(kCommands[i - 1].name < kCommands[i].name)) return false;
  }
  return true;
}
static_assert(sorted(), "keep kCommands sorted by name");

}  // namespace

const CommandSpec* find_command(std::string_view lower_name) {
  auto it = std::lower_bound(kCommands.begin(), kCommands.end(), lower_name,
                             [](const CommandSpec& spec, std::string_view name) { return spec.name < name; });
  if (it == kCommands.end() || it->name != lower_name) return nullptr;
  return &*it;
}

}  // namespace lockcheck::mock
