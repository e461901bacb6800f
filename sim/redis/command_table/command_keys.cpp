#include "redis/command_table/command_keys.hpp"

#include "redis/command_table/command.hpp"
#include "redis/util/numbers.hpp"

namespace lockcheck::mock {

std::optional<std::vector<std::size_t>> command_key_indexes(const Command& args) {
  std::vector<std::size_t> indexes;
  const CommandSpec* spec = find_command(args[0]);
  if (spec == nullptr) return indexes;
  const KeySpec& keys = spec->keys;
  if (keys.first != 0) {
    const auto argc = static_cast<std::int64_t>(args.size());
    const std::int64_t last = keys.last < 0 ? argc + keys.last : keys.last;
    for (std::int64_t at = keys.first; at <= last && at < argc; at += keys.step) {
      indexes.push_back(static_cast<std::size_t>(at));
    }
  }
  if (keys.count_at == 0) return indexes;
  // The range's keys (ZUNIONSTORE's destination), then as many as args[count_at] says.
  const auto count_at = static_cast<std::size_t>(keys.count_at);
  if (args.size() <= count_at) return std::nullopt;
  auto count = parse_int64(args[count_at]);
  const auto available = static_cast<std::int64_t>(args.size() - count_at - 1);
  if (!count || *count < 0 || *count > available) return std::nullopt;
  for (std::int64_t i = 0; i < *count; ++i) indexes.push_back(count_at + 1 + static_cast<std::size_t>(i));
  return indexes;
}

}  // namespace lockcheck::mock
