#include <algorithm>
#include <array>

#include "redis/server/commands.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock {
namespace {

constexpr std::uint32_t kW = kWrite;
constexpr std::uint32_t kWO = kWrite | kDenyOom;

// Sorted by name (COMMAND's listings); arities as in Redis 7.0's command table.
constexpr std::array kCommands = std::to_array<CommandSpec>({
    {"acl", -2, kNoScript, cmd::acl},
    {"append", 3, kWO, cmd::append},
    {"asking", 1, 0, cmd::asking},
    {"auth", -2, kNoScript | kNoAuth | kAllowBusy, cmd::auth},
    {"bitcount", -2, 0, cmd::bitcount},
    {"bitop", -4, kWO, cmd::bitop},
    {"bitpos", -3, 0, cmd::bitpos},
    {"blmove", 6, kWO | kNoScript, cmd::blmove},
    {"blmpop", -5, kW, cmd::blmpop},
    {"blpop", -3, kW | kNoScript, cmd::blpop},
    {"brpop", -3, kW | kNoScript, cmd::brpop},
    {"brpoplpush", 4, kWO | kNoScript, cmd::brpoplpush},
    {"bzmpop", -5, kW, cmd::bzmpop},
    {"bzpopmax", -3, kW | kNoScript, cmd::bzpopmax},
    {"bzpopmin", -3, kW | kNoScript, cmd::bzpopmin},
    {"client", -2, kNoScript, cmd::client},
    {"cluster", -2, 0, cmd::cluster},
    {"command", -1, kNoScript, cmd::command},
    {"config", -2, kNoScript, cmd::config},
    {"copy", -3, kWO, cmd::copy},
    {"dbsize", 1, 0, cmd::dbsize},
    {"decr", 2, kWO, cmd::decr},
    {"decrby", 3, kWO, cmd::decrby},
    {"del", -2, kW, cmd::del},
    {"discard", 1, kNoScript | kNoQueue | kAllowBusy, cmd::discard},
    {"dump", 2, 0, cmd::dump},
    {"echo", 2, 0, cmd::echo},
    {"eval", -3, kNoScript, cmd::eval},
    {"eval_ro", -3, kNoScript, cmd::eval_ro},
    {"evalsha", -3, kNoScript, cmd::evalsha},
    {"evalsha_ro", -3, kNoScript, cmd::evalsha_ro},
    {"exec", 1, kNoScript | kNoQueue, cmd::exec},
    {"exists", -2, 0, cmd::exists},
    {"expire", -3, kW, cmd::expire},
    {"expireat", -3, kW, cmd::expireat},
    {"expiretime", 2, 0, cmd::expiretime},
    {"fcall", -3, kNoScript, cmd::fcall},
    {"fcall_ro", -3, kNoScript, cmd::fcall_ro},
    {"flushall", -1, kW, cmd::flushall},
    {"flushdb", -1, kW, cmd::flushdb},
    {"function", -2, kNoScript, cmd::function},
    {"geoadd", -5, kWO, cmd::geoadd},
    {"geodist", -4, 0, cmd::geodist},
    {"geohash", -2, 0, cmd::geohash},
    {"geopos", -2, 0, cmd::geopos},
    {"georadius", -6, kWO, cmd::georadius},
    {"georadius_ro", -6, 0, cmd::georadius_ro},
    {"georadiusbymember", -5, kWO, cmd::georadiusbymember},
    {"georadiusbymember_ro", -5, 0, cmd::georadiusbymember_ro},
    {"geosearch", -7, 0, cmd::geosearch},
    {"geosearchstore", -8, kWO, cmd::geosearchstore},
    {"get", 2, 0, cmd::get},
    {"getbit", 3, 0, cmd::getbit},
    {"getdel", 2, kW, cmd::getdel},
    {"getex", -2, kW, cmd::getex},
    {"getrange", 4, 0, cmd::getrange},
    {"getset", 3, kWO, cmd::getset},
    {"hdel", -3, kW, cmd::hdel},
    {"hello", -1, kNoScript | kNoAuth | kAllowBusy, cmd::hello},
    {"hexists", 3, 0, cmd::hexists},
    {"hget", 3, 0, cmd::hget},
    {"hgetall", 2, 0, cmd::hgetall},
    {"hincrby", 4, kWO, cmd::hincrby},
    {"hincrbyfloat", 4, kWO, cmd::hincrbyfloat},
    {"hkeys", 2, 0, cmd::hkeys},
    {"hlen", 2, 0, cmd::hlen},
    {"hmget", -3, 0, cmd::hmget},
    {"hmset", -4, kWO, cmd::hmset},
    {"hrandfield", -2, 0, cmd::hrandfield},
    {"hscan", -3, 0, cmd::hscan},
    {"hset", -4, kWO, cmd::hset},
    {"hsetnx", 4, kWO, cmd::hsetnx},
    {"hstrlen", 3, 0, cmd::hstrlen},
    {"hvals", 2, 0, cmd::hvals},
    {"incr", 2, kWO, cmd::incr},
    {"incrby", 3, kWO, cmd::incrby},
    {"incrbyfloat", 3, kWO, cmd::incrbyfloat},
    {"info", -1, 0, cmd::info},
    {"keys", 2, 0, cmd::keys},
    {"lcs", -3, 0, cmd::lcs},
    {"lindex", 3, 0, cmd::lindex},
    {"linsert", 5, kWO, cmd::linsert},
    {"llen", 2, 0, cmd::llen},
    {"lmove", 5, kWO, cmd::lmove},
    {"lmpop", -4, kW, cmd::lmpop},
    {"lpop", -2, kW, cmd::lpop},
    {"lpos", -3, 0, cmd::lpos},
    {"lpush", -3, kWO, cmd::lpush},
    {"lpushx", -3, kWO, cmd::lpushx},
    {"lrange", 4, 0, cmd::lrange},
    {"lrem", 4, kW, cmd::lrem},
    {"lset", 4, kWO, cmd::lset},
    {"ltrim", 4, kW, cmd::ltrim},
    {"memory", -2, 0, cmd::memory},
    {"mget", -2, 0, cmd::mget},
    {"monitor", 1, kNoScript, cmd::monitor},
    {"move", 3, kW, cmd::move},
    {"mset", -3, kWO, cmd::mset},
    {"msetnx", -3, kWO, cmd::msetnx},
    {"multi", 1, kNoScript | kNoQueue | kAllowBusy, cmd::multi},
    {"object", -2, 0, cmd::object},
    {"persist", 2, kW, cmd::persist},
    {"pexpire", -3, kW, cmd::pexpire},
    {"pexpireat", -3, kW, cmd::pexpireat},
    {"pexpiretime", 2, 0, cmd::pexpiretime},
    {"ping", -1, kPubSub, cmd::ping},
    {"psetex", 4, kWO, cmd::psetex},
    {"psubscribe", -2, kNoScript | kPubSub, cmd::psubscribe},
    {"pttl", 2, 0, cmd::pttl},
    {"publish", 3, 0, cmd::publish},
    {"pubsub", -2, 0, cmd::pubsub},
    {"punsubscribe", -1, kNoScript | kPubSub, cmd::punsubscribe},
    {"quit", -1, kNoScript | kPubSub | kNoQueue | kAllowBusy, cmd::quit},
    {"randomkey", 1, 0, cmd::randomkey},
    {"readonly", 1, 0, cmd::readonly},
    {"readwrite", 1, 0, cmd::readwrite},
    {"rename", 3, kW, cmd::rename},
    {"renamenx", 3, kW, cmd::renamenx},
    {"restore", -4, kWO, cmd::restore},
    {"role", 1, kNoScript, cmd::role},
    {"rpop", -2, kW, cmd::rpop},
    {"rpoplpush", 3, kWO, cmd::rpoplpush},
    {"rpush", -3, kWO, cmd::rpush},
    {"rpushx", -3, kWO, cmd::rpushx},
    {"sadd", -3, kWO, cmd::sadd},
    {"scan", -2, 0, cmd::scan},
    {"scard", 2, 0, cmd::scard},
    {"script", -2, kNoScript, cmd::script},
    {"sdiff", -2, 0, cmd::sdiff},
    {"sdiffstore", -3, kWO, cmd::sdiffstore},
    {"select", 2, 0, cmd::select},
    {"set", -3, kWO, cmd::set},
    {"setbit", 4, kWO, cmd::setbit},
    {"setex", 4, kWO, cmd::setex},
    {"setnx", 3, kWO, cmd::setnx},
    {"setrange", 4, kWO, cmd::setrange},
    {"shutdown", -1, kNoScript | kNoQueue, cmd::shutdown},
    {"sinter", -2, 0, cmd::sinter},
    {"sintercard", -3, 0, cmd::sintercard},
    {"sinterstore", -3, kWO, cmd::sinterstore},
    {"sismember", 3, 0, cmd::sismember},
    {"smembers", 2, 0, cmd::smembers},
    {"smismember", -3, 0, cmd::smismember},
    {"smove", 4, kW, cmd::smove},
    {"sort", -2, kWO, cmd::sort},
    {"sort_ro", -2, 0, cmd::sort_ro},
    {"spop", -2, kW, cmd::spop},
    {"spublish", 3, 0, cmd::spublish},
    {"srandmember", -2, 0, cmd::srandmember},
    {"srem", -3, kW, cmd::srem},
    {"sscan", -3, 0, cmd::sscan},
    {"ssubscribe", -2, kNoScript | kPubSub, cmd::ssubscribe},
    {"strlen", 2, 0, cmd::strlen},
    {"subscribe", -2, kNoScript | kPubSub, cmd::subscribe},
    {"substr", 4, 0, cmd::getrange},
    {"sunion", -2, 0, cmd::sunion},
    {"sunionstore", -3, kWO, cmd::sunionstore},
    {"sunsubscribe", -1, kNoScript | kPubSub, cmd::sunsubscribe},
    {"swapdb", 3, kW, cmd::swapdb},
    {"time", 1, 0, cmd::time},
    {"touch", -2, 0, cmd::touch},
    {"ttl", 2, 0, cmd::ttl},
    {"type", 2, 0, cmd::type},
    {"unlink", -2, kW, cmd::del},
    {"unsubscribe", -1, kNoScript | kPubSub, cmd::unsubscribe},
    {"unwatch", 1, kNoScript | kAllowBusy, cmd::unwatch},
    {"wait", 3, kNoScript, cmd::wait},
    {"watch", -2, kNoScript | kNoQueue | kAllowBusy, cmd::watch},
    {"xack", -4, kW, cmd::xack},
    {"xadd", -5, kWO, cmd::xadd},
    {"xautoclaim", -6, kW, cmd::xautoclaim},
    {"xclaim", -6, kW, cmd::xclaim},
    {"xdel", -3, kW, cmd::xdel},
    {"xgroup", -2, kW, cmd::xgroup},
    {"xinfo", -2, 0, cmd::xinfo},
    {"xlen", 2, 0, cmd::xlen},
    {"xpending", -3, 0, cmd::xpending},
    {"xrange", -4, 0, cmd::xrange},
    {"xread", -4, 0, cmd::xread},
    {"xreadgroup", -7, kW, cmd::xreadgroup},
    {"xrevrange", -4, 0, cmd::xrevrange},
    {"xsetid", -3, kWO, cmd::xsetid},
    {"xtrim", -4, kW, cmd::xtrim},
    {"zadd", -4, kWO, cmd::zadd},
    {"zcard", 2, 0, cmd::zcard},
    {"zcount", 4, 0, cmd::zcount},
    {"zdiff", -3, 0, cmd::zdiff},
    {"zdiffstore", -4, kWO, cmd::zdiffstore},
    {"zincrby", 4, kWO, cmd::zincrby},
    {"zinter", -3, 0, cmd::zinter},
    {"zintercard", -3, 0, cmd::zintercard},
    {"zinterstore", -4, kWO, cmd::zinterstore},
    {"zlexcount", 4, 0, cmd::zlexcount},
    {"zmpop", -4, kW, cmd::zmpop},
    {"zmscore", -3, 0, cmd::zmscore},
    {"zpopmax", -2, kW, cmd::zpopmax},
    {"zpopmin", -2, kW, cmd::zpopmin},
    {"zrandmember", -2, 0, cmd::zrandmember},
    {"zrange", -4, 0, cmd::zrange},
    {"zrangebylex", -4, 0, cmd::zrangebylex},
    {"zrangebyscore", -4, 0, cmd::zrangebyscore},
    {"zrangestore", -5, kWO, cmd::zrangestore},
    {"zrank", 3, 0, cmd::zrank},
    {"zrem", -3, kW, cmd::zrem},
    {"zremrangebylex", 4, kW, cmd::zremrangebylex},
    {"zremrangebyrank", 4, kW, cmd::zremrangebyrank},
    {"zremrangebyscore", 4, kW, cmd::zremrangebyscore},
    {"zrevrange", -4, 0, cmd::zrevrange},
    {"zrevrangebylex", -4, 0, cmd::zrevrangebylex},
    {"zrevrangebyscore", -4, 0, cmd::zrevrangebyscore},
    {"zrevrank", 3, 0, cmd::zrevrank},
    {"zscore", 3, 0, cmd::zscore},
    {"zunion", -3, 0, cmd::zunion},
    {"zunionstore", -4, kWO, cmd::zunionstore},
});

constexpr bool sorted() {
  for (std::size_t i = 1; i < kCommands.size(); ++i) {
    if (!(kCommands[i - 1].name < kCommands[i].name)) return false;
  }
  return true;
}
static_assert(sorted(), "keep kCommands sorted by name");

constexpr bool lower_case_names() {
  for (const CommandSpec& spec : kCommands) {
    if (spec.name.empty() || spec.name[0] < 'a' || spec.name[0] > 'z') return false;
  }
  return true;
}
static_assert(lower_case_names(), "command names start with a lower-case letter");

// find_command runs for every command and every redis.call: an open-addressing table built at compile time
// answers with one hash of the name and, nearly always, one comparison (a binary search made about eight).
constexpr std::size_t kNameSlots = 1024;  // a power of two, over four times the commands: short probe runs
static_assert(kCommands.size() * 4 <= kNameSlots);

// FNV-1a of the name lowered, so a name in any case finds its slot.
constexpr std::uint32_t command_name_hash(std::string_view name) {
  std::uint32_t hash = 2166136261u;
  for (const char c : name) hash = (hash ^ static_cast<unsigned char>(ascii_lower(c))) * 16777619u;
  return hash;
}

// `name` in any case against a lower-case command name.
constexpr bool same_name(std::string_view lower, std::string_view name) {
  if (lower.size() != name.size()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (ascii_lower(name[i]) != lower[i]) return false;
  }
  return true;
}

// Slot -> index + 1 into kCommands, 0 for an empty slot; a name's run of slots starts at its hash.
constexpr std::array<std::uint16_t, kNameSlots> name_slots() {
  std::array<std::uint16_t, kNameSlots> slots{};
  for (std::size_t i = 0; i < kCommands.size(); ++i) {
    std::size_t slot = command_name_hash(kCommands[i].name) & (kNameSlots - 1);
    while (slots[slot] != 0) slot = (slot + 1) & (kNameSlots - 1);  // the table is never full
    slots[slot] = static_cast<std::uint16_t>(i + 1);
  }
  return slots;
}

constexpr std::array<std::uint16_t, kNameSlots> kNameSlotTable = name_slots();

}  // namespace

const CommandSpec* find_command(std::string_view name) {
  std::size_t slot = command_name_hash(name) & (kNameSlots - 1);
  // Bounded by the table's size; an empty slot ends the run well before that.
  for (std::size_t probes = 0; probes < kNameSlots; ++probes, slot = (slot + 1) & (kNameSlots - 1)) {
    const std::uint16_t entry = kNameSlotTable[slot];
    if (entry == 0) return nullptr;
    const CommandSpec& spec = kCommands[entry - 1u];
    if (same_name(spec.name, name)) return &spec;
  }
  return nullptr;
}

std::span<const CommandSpec> all_commands() { return kCommands; }

}  // namespace lockcheck::mock
