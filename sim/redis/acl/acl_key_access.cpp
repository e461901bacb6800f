#include "redis/acl/acl_key_access.hpp"

#include <algorithm>
#include <array>

#include "redis/command_table/command_keys.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock {
namespace {

struct SpecAccess {
  std::string_view full_name;
  std::string_view specs;  // one word per key spec, in order: R, W, RW, or - (neither)
};

// Redis 7.0.15's key specs reduced to their access: R = ACCESS, W = INSERT/DELETE/UPDATE. Sorted by name.
// Specs flagged NOT_KEY (the shard channels of SPUBLISH/SSUBSCRIBE/SUNSUBSCRIBE) are no keys to ACL: left out.
constexpr auto kSpecAccess = std::to_array<SpecAccess>({
    {"append", "W"},
    {"bitcount", "R"},
    {"bitfield", "RW"},
    {"bitfield_ro", "R"},
    {"bitop", "W R"},
    {"bitpos", "R"},
    {"blmove", "RW W"},
    {"blmpop", "RW"},
    {"blpop", "RW"},
    {"brpop", "RW"},
    {"brpoplpush", "RW W"},
    {"bzmpop", "RW"},
    {"bzpopmax", "RW"},
    {"bzpopmin", "RW"},
    {"copy", "R W"},
    {"decr", "RW"},
    {"decrby", "RW"},
    {"del", "W"},
    {"dump", "R"},
    {"eval", "RW"},
    {"eval_ro", "R"},
    {"evalsha", "RW"},
    {"evalsha_ro", "R"},
    {"exists", "-"},
    {"expire", "W"},
    {"expireat", "W"},
    {"expiretime", "R"},
    {"fcall", "RW"},
    {"fcall_ro", "R"},
    {"geoadd", "W"},
    {"geodist", "R"},
    {"geohash", "R"},
    {"geopos", "R"},
    {"georadius", "R W W"},
    {"georadius_ro", "R"},
    {"georadiusbymember", "R W W"},
    {"georadiusbymember_ro", "R"},
    {"geosearch", "R"},
    {"geosearchstore", "W R"},
    {"get", "R"},
    {"getbit", "R"},
    {"getdel", "RW"},
    {"getex", "RW"},
    {"getrange", "R"},
    {"getset", "RW"},
    {"hdel", "W"},
    {"hexists", "-"},
    {"hget", "R"},
    {"hgetall", "R"},
    {"hincrby", "RW"},
    {"hincrbyfloat", "RW"},
    {"hkeys", "R"},
    {"hlen", "-"},
    {"hmget", "R"},
    {"hmset", "W"},
    {"hrandfield", "R"},
    {"hscan", "R"},
    {"hset", "W"},
    {"hsetnx", "W"},
    {"hstrlen", "-"},
    {"hvals", "R"},
    {"incr", "RW"},
    {"incrby", "RW"},
    {"incrbyfloat", "RW"},
    {"lcs", "R"},
    {"lindex", "R"},
    {"linsert", "W"},
    {"llen", "-"},
    {"lmove", "RW W"},
    {"lmpop", "RW"},
    {"lpop", "RW"},
    {"lpos", "R"},
    {"lpush", "W"},
    {"lpushx", "W"},
    {"lrange", "R"},
    {"lrem", "W"},
    {"lset", "W"},
    {"ltrim", "W"},
    {"memory|usage", "-"},
    {"mget", "R"},
    {"migrate", "RW RW"},
    {"move", "RW"},
    {"mset", "W"},
    {"msetnx", "W"},
    {"object|encoding", "-"},
    {"object|freq", "-"},
    {"object|idletime", "-"},
    {"object|refcount", "-"},
    {"persist", "W"},
    {"pexpire", "W"},
    {"pexpireat", "W"},
    {"pexpiretime", "R"},
    {"pfadd", "W"},
    {"pfcount", "R"},
    {"pfdebug", "R"},
    {"pfmerge", "RW R"},
    {"psetex", "W"},
    {"pttl", "R"},
    {"rename", "RW W"},
    {"renamenx", "RW W"},
    {"restore", "W"},
    {"restore-asking", "W"},
    {"rpop", "RW"},
    {"rpoplpush", "RW W"},
    {"rpush", "W"},
    {"rpushx", "W"},
    {"sadd", "W"},
    {"scard", "-"},
    {"sdiff", "R"},
    {"sdiffstore", "W R"},
    {"set", "RW"},
    {"setbit", "RW"},
    {"setex", "W"},
    {"setnx", "W"},
    {"setrange", "W"},
    {"sinter", "R"},
    {"sintercard", "R"},
    {"sinterstore", "W R"},
    {"sismember", "-"},
    {"smembers", "R"},
    {"smismember", "R"},
    {"smove", "RW W"},
    {"sort", "R R W"},
    {"sort_ro", "R R"},
    {"spop", "RW"},
    {"srandmember", "R"},
    {"srem", "W"},
    {"sscan", "R"},
    {"strlen", "-"},
    {"substr", "R"},
    {"sunion", "R"},
    {"sunionstore", "W R"},
    {"touch", "-"},
    {"ttl", "R"},
    {"type", "-"},
    {"unlink", "W"},
    {"watch", "-"},
    {"xack", "W"},
    {"xadd", "W"},
    {"xautoclaim", "W"},
    {"xclaim", "W"},
    {"xdel", "W"},
    {"xgroup|create", "W"},
    {"xgroup|createconsumer", "W"},
    {"xgroup|delconsumer", "W"},
    {"xgroup|destroy", "W"},
    {"xgroup|setid", "W"},
    {"xinfo|consumers", "R"},
    {"xinfo|groups", "R"},
    {"xinfo|stream", "R"},
    {"xlen", "-"},
    {"xpending", "R"},
    {"xrange", "R"},
    {"xread", "R"},
    {"xreadgroup", "R"},
    {"xrevrange", "R"},
    {"xsetid", "W"},
    {"xtrim", "W"},
    {"zadd", "W"},
    {"zcard", "-"},
    {"zcount", "R"},
    {"zdiff", "R"},
    {"zdiffstore", "W R"},
    {"zincrby", "RW"},
    {"zinter", "R"},
    {"zintercard", "R"},
    {"zinterstore", "W R"},
    {"zlexcount", "R"},
    {"zmpop", "RW"},
    {"zmscore", "R"},
    {"zpopmax", "RW"},
    {"zpopmin", "RW"},
    {"zrandmember", "R"},
    {"zrange", "R"},
    {"zrangebylex", "R"},
    {"zrangebyscore", "R"},
    {"zrangestore", "W R"},
    {"zrank", "R"},
    {"zrem", "W"},
    {"zremrangebylex", "W"},
    {"zremrangebyrank", "W"},
    {"zremrangebyscore", "W"},
    {"zrevrange", "R"},
    {"zrevrangebylex", "R"},
    {"zrevrangebyscore", "R"},
    {"zrevrank", "R"},
    {"zscan", "R"},
    {"zscore", "R"},
    {"zunion", "R"},
    {"zunionstore", "W R"},
});

constexpr bool sorted() {
  for (std::size_t i = 1; i < kSpecAccess.size(); ++i) {
    if (!(kSpecAccess[i - 1].full_name < kSpecAccess[i].full_name)) return false;
  }
  return true;
}
static_assert(sorted(), "keep kSpecAccess sorted by full name");

std::uint8_t parse_access(std::string_view word) {
  std::uint8_t access = 0;
  if (word.find('R') != std::string_view::npos) access |= kKeyRead;
  if (word.find('W') != std::string_view::npos) access |= kKeyWrite;
  return access;
}

// The access of each key spec of `name`, in spec order.
std::vector<std::uint8_t> spec_access(std::string_view name) {
  auto it = std::lower_bound(kSpecAccess.begin(), kSpecAccess.end(), name,
                             [](const SpecAccess& entry, std::string_view wanted) { return entry.full_name < wanted; });
  std::vector<std::uint8_t> out;
  if (it == kSpecAccess.end() || it->full_name != name) return out;
  std::string_view rest = it->specs;
  // One word per spec: at most specs.size() rounds.
  for (std::size_t round = 0; round <= it->specs.size() && !rest.empty(); ++round) {
    const std::size_t space = rest.find(' ');
    out.push_back(parse_access(rest.substr(0, space)));
    rest = space == std::string_view::npos ? std::string_view{} : rest.substr(space + 1);
  }
  return out;
}

}  // namespace

std::vector<KeyUse> key_uses(const Command& args) {
  std::vector<KeyUse> uses;
  const std::string name = to_lower(args[0]);
  const std::vector<std::uint8_t> specs = spec_access(name);
  // MEMORY USAGE and OBJECT's subcommands name their key after the subcommand.
  if ((name == "memory" || name == "object") && args.size() > 2) {
    const std::vector<std::uint8_t> sub_specs = spec_access(name + "|" + to_lower(args[1]));
    if (!sub_specs.empty()) uses.push_back(KeyUse{2, sub_specs[0]});
    return uses;
  }
  const std::optional<std::vector<std::size_t>> indexes = command_key_indexes(args);
  if (!indexes || specs.empty()) return uses;
  for (std::size_t k = 0; k < indexes->size(); ++k) {
    std::uint8_t access = specs[std::min(k, specs.size() - 1)];
    // SET without GET only overwrites its key (7.0's setGetKeys: OW UPDATE); with GET it also reads it.
    if (name == "set") {
      const bool reads = std::any_of(args.begin() + 3, args.end(), [](const std::string& a) { return iequals(a, "get"); });
      access = reads ? (kKeyRead | kKeyWrite) : kKeyWrite;
    }
    uses.push_back(KeyUse{(*indexes)[k], access});
  }
  return uses;
}

}  // namespace lockcheck::mock
