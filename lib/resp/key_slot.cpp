#include "lockcheck/key_slot.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <string>

namespace lockcheck {
namespace {

constexpr std::array<std::uint16_t, 256> make_crc16_table() {
  std::array<std::uint16_t, 256> table{};
  for (unsigned byte = 0; byte < 256; ++byte) {
    auto crc = static_cast<std::uint16_t>(byte << 8);
    for (int bit = 0; bit < 8; ++bit) {
      crc = static_cast<std::uint16_t>((crc & 0x8000) ? (crc << 1) ^ 0x1021 : crc << 1);
    }
    table[byte] = crc;
  }
  return table;
}
constexpr std::array<std::uint16_t, 256> kCrc16Table = make_crc16_table();

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// Where a command's keys sit: from `first` to `last` (negative: counted from the end, -1 = last argument)
// every `step`-th argument. Sorted by name.
struct KeySpec {
  std::string_view name;
  int first;
  int last;
  int step;
};
constexpr std::array kKeySpecs = std::to_array<KeySpec>({
    {"append", 1, 1, 1}, {"blmove", 1, 2, 1}, {"blpop", 1, -2, 1}, {"brpop", 1, -2, 1}, {"brpoplpush", 1, 2, 1},
    {"bzpopmax", 1, -2, 1}, {"bzpopmin", 1, -2, 1}, {"decr", 1, 1, 1}, {"decrby", 1, 1, 1}, {"del", 1, -1, 1},
    {"exists", 1, -1, 1}, {"expire", 1, 1, 1}, {"expireat", 1, 1, 1}, {"get", 1, 1, 1}, {"getdel", 1, 1, 1},
    {"getex", 1, 1, 1}, {"getset", 1, 1, 1}, {"hdel", 1, 1, 1}, {"hexists", 1, 1, 1}, {"hget", 1, 1, 1},
    {"hgetall", 1, 1, 1}, {"hincrby", 1, 1, 1}, {"hkeys", 1, 1, 1}, {"hlen", 1, 1, 1}, {"hmget", 1, 1, 1},
    {"hmset", 1, 1, 1}, {"hset", 1, 1, 1}, {"hsetnx", 1, 1, 1}, {"hvals", 1, 1, 1}, {"incr", 1, 1, 1},
    {"incrby", 1, 1, 1}, {"lindex", 1, 1, 1}, {"linsert", 1, 1, 1}, {"llen", 1, 1, 1}, {"lmove", 1, 2, 1},
    {"lpop", 1, 1, 1}, {"lpos", 1, 1, 1}, {"lpush", 1, 1, 1}, {"lpushx", 1, 1, 1}, {"lrange", 1, 1, 1},
    {"lrem", 1, 1, 1}, {"lset", 1, 1, 1}, {"ltrim", 1, 1, 1}, {"mget", 1, -1, 1}, {"mset", 1, -1, 2},
    {"msetnx", 1, -1, 2}, {"persist", 1, 1, 1}, {"pexpire", 1, 1, 1}, {"pexpireat", 1, 1, 1},
    {"pexpiretime", 1, 1, 1}, {"psetex", 1, 1, 1}, {"pttl", 1, 1, 1}, {"rename", 1, 2, 1},
    {"renamenx", 1, 2, 1}, {"rpop", 1, 1, 1}, {"rpoplpush", 1, 2, 1}, {"rpush", 1, 1, 1}, {"rpushx", 1, 1, 1},
    {"sadd", 1, 1, 1}, {"scard", 1, 1, 1}, {"sdiff", 1, -1, 1}, {"sdiffstore", 1, -1, 1}, {"set", 1, 1, 1},
    {"setex", 1, 1, 1}, {"setnx", 1, 1, 1}, {"sinter", 1, -1, 1}, {"sinterstore", 1, -1, 1},
    {"sismember", 1, 1, 1}, {"smembers", 1, 1, 1}, {"smismember", 1, 1, 1}, {"smove", 1, 2, 1},
    {"spop", 1, 1, 1}, {"spublish", 1, 1, 1}, {"srandmember", 1, 1, 1}, {"srem", 1, 1, 1}, {"sscan", 1, 1, 1},
    {"ssubscribe", 1, -1, 1}, {"strlen", 1, 1, 1}, {"sunion", 1, -1, 1}, {"sunionstore", 1, -1, 1},
    {"sunsubscribe", 1, -1, 1}, {"ttl", 1, 1, 1}, {"type", 1, 1, 1}, {"unlink", 1, -1, 1}, {"watch", 1, -1, 1},
    {"zadd", 1, 1, 1}, {"zcard", 1, 1, 1}, {"zcount", 1, 1, 1}, {"zincrby", 1, 1, 1}, {"zlexcount", 1, 1, 1},
    {"zmscore", 1, 1, 1}, {"zpopmax", 1, 1, 1}, {"zpopmin", 1, 1, 1}, {"zrange", 1, 1, 1},
    {"zrangebylex", 1, 1, 1}, {"zrangebyscore", 1, 1, 1}, {"zrank", 1, 1, 1}, {"zrem", 1, 1, 1},
    {"zremrangebylex", 1, 1, 1}, {"zremrangebyrank", 1, 1, 1}, {"zremrangebyscore", 1, 1, 1},
    {"zrevrange", 1, 1, 1}, {"zrevrangebylex", 1, 1, 1}, {"zrevrangebyscore", 1, 1, 1}, {"zrevrank", 1, 1, 1},
    {"zscore", 1, 1, 1},
});

constexpr bool sorted() {
  for (std::size_t i = 1; i < kKeySpecs.size(); ++i) {
    if (!(kKeySpecs[i - 1].name < kKeySpecs[i].name)) return false;
  }
  return true;
}
static_assert(sorted(), "keep kKeySpecs sorted by name");

bool is_eval_family(std::string_view name) {
  return name == "eval" || name == "evalsha" || name == "eval_ro" || name == "evalsha_ro" || name == "fcall" ||
         name == "fcall_ro";
}

}  // namespace

std::uint16_t crc16_xmodem(std::string_view bytes) {
  std::uint16_t crc = 0;
  for (char c : bytes) {
    crc = static_cast<std::uint16_t>((crc << 8) ^ kCrc16Table[((crc >> 8) ^ static_cast<unsigned char>(c)) & 0xff]);
  }
  return crc;
}

int key_hash_slot(std::string_view key) {
  const std::size_t open = key.find('{');
  if (open != std::string_view::npos) {
    const std::size_t close = key.find('}', open + 1);
    if (close != std::string_view::npos && close > open + 1) key = key.substr(open + 1, close - open - 1);
  }
  return crc16_xmodem(key) & (kClusterSlots - 1);
}

namespace {

// Where `command`'s keys are: indices first, first + step, ... up to last (none when count == 0). Computed
// without allocating: every command of a cluster run passes through here twice (client and server).
struct KeyRange {
  std::size_t first = 0;
  std::size_t count = 0;
  std::size_t step = 1;
};

KeyRange key_range(const Command& command) {
  if (command.empty()) return {};
  char buffer[16];
  const std::string& raw = command[0];
  if (raw.size() > sizeof buffer) return {};
  for (std::size_t i = 0; i < raw.size(); ++i) buffer[i] = lower(raw[i]);
  const std::string_view name(buffer, raw.size());
  const std::int64_t argc = static_cast<std::int64_t>(command.size());
  if (is_eval_family(name)) {
    std::int64_t numkeys = 0;
    if (argc < 3) return {};
    const std::string& text = command[2];
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), numkeys);
    if (error != std::errc{} || end != text.data() + text.size() || numkeys < 0 || numkeys > argc - 3) return {};
    return {3, static_cast<std::size_t>(numkeys), 1};
  }
  auto it = std::lower_bound(kKeySpecs.begin(), kKeySpecs.end(), name,
                             [](const KeySpec& spec, std::string_view wanted) { return spec.name < wanted; });
  if (it == kKeySpecs.end() || it->name != name) return {};
  const std::int64_t last = it->last < 0 ? argc + it->last : std::min<std::int64_t>(it->last, argc - 1);
  if (last < it->first) return {};
  return {static_cast<std::size_t>(it->first), static_cast<std::size_t>((last - it->first) / it->step + 1),
          static_cast<std::size_t>(it->step)};
}

}  // namespace

std::vector<std::size_t> command_key_indices(const Command& command) {
  const KeyRange range = key_range(command);
  std::vector<std::size_t> indices;
  for (std::size_t i = 0; i < range.count; ++i) indices.push_back(range.first + i * range.step);
  return indices;
}

std::optional<int> command_slot(const Command& command) {
  const KeyRange range = key_range(command);
  std::optional<int> slot;
  for (std::size_t i = 0; i < range.count; ++i) {
    const int this_slot = key_hash_slot(command[range.first + i * range.step]);
    if (slot && *slot != this_slot) return kCrossSlot;
    slot = this_slot;
  }
  return slot;
}

}  // namespace lockcheck
