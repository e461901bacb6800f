#include "redis/server/config.hpp"

#include <algorithm>
#include <array>
#include <set>

#include "redis/util/glob.hpp"
#include "redis/util/numbers.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock {
namespace {

enum class Kind : std::uint8_t { integer, memory, yes_no, choice, text, immutable, keyspace_events, save };

struct Parameter {
  std::string_view name;
  std::string_view alias;  // Redis's old name, also answered by CONFIG GET and SET
  std::string_view default_value;
  Kind kind;
  std::string_view choices = {};  // Kind::choice: space-separated; Kind::integer: "min max"
};

// Redis 7.0.15's values for the parameters that matter to locks, clients and the Tcl test helpers.
constexpr std::array kParameters = std::to_array<Parameter>({
    {"acllog-max-len", "", "128", Kind::integer, "0 9223372036854775807"},
    {"appendfsync", "", "everysec", Kind::choice, "always everysec no"},
    {"appendonly", "", "no", Kind::yes_no},
    {"bind", "", "127.0.0.1", Kind::immutable},
    {"busy-reply-threshold", "lua-time-limit", "5000", Kind::integer, "0 9223372036854775807"},
    // Taken and shown, not enforced: the served mock bounds every client's output by its own ConnectionLimits
    // (the backend's observer sets "pubsub 0 0 0" so that Redis never cuts its stream off).
    {"client-output-buffer-limit", "", "normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60", Kind::text},
    {"cluster-enabled", "", "no", Kind::immutable},
    {"databases", "", "16", Kind::immutable},
    {"hash-max-listpack-entries", "hash-max-ziplist-entries", "512", Kind::integer, "0 9223372036854775807"},
    {"hash-max-listpack-value", "hash-max-ziplist-value", "64", Kind::integer, "0 9223372036854775807"},
    {"hz", "", "10", Kind::integer, "0 2147483647"},
    {"lazyfree-lazy-user-flush", "", "no", Kind::yes_no},
    {"lfu-decay-time", "", "1", Kind::integer, "0 2147483647"},
    {"lfu-log-factor", "", "10", Kind::integer, "0 2147483647"},
    {"list-compress-depth", "", "0", Kind::integer, "0 2147483647"},
    {"list-max-listpack-size", "list-max-ziplist-size", "-2", Kind::integer, "-2147483648 2147483647"},
    {"loglevel", "", "notice", Kind::choice, "debug verbose notice warning"},
    {"maxclients", "", "10000", Kind::integer, "1 2147483647"},
    {"maxmemory", "", "0", Kind::memory},
    {"maxmemory-policy", "", "noeviction", Kind::choice,
     "volatile-lru volatile-lfu volatile-random volatile-ttl allkeys-lru allkeys-lfu allkeys-random noeviction"},
    {"maxmemory-samples", "", "5", Kind::integer, "1 2147483647"},
    {"min-replicas-to-write", "min-slaves-to-write", "0", Kind::integer, "0 2147483647"},
    {"notify-keyspace-events", "", "", Kind::keyspace_events},
    {"protected-mode", "", "yes", Kind::yes_no},
    {"replica-read-only", "slave-read-only", "yes", Kind::yes_no},
    {"requirepass", "", "", Kind::text},
    {"sanitize-dump-payload", "", "no", Kind::choice, "no yes clients"},
    {"save", "", "", Kind::save},
    {"set-max-intset-entries", "", "512", Kind::integer, "0 9223372036854775807"},
    {"slowlog-log-slower-than", "", "10000", Kind::integer, "-9223372036854775808 9223372036854775807"},
    {"slowlog-max-len", "", "128", Kind::integer, "0 9223372036854775807"},
    {"stream-node-max-bytes", "", "4096", Kind::memory},
    {"stream-node-max-entries", "", "100", Kind::integer, "0 9223372036854775807"},
    {"tcp-keepalive", "", "300", Kind::integer, "0 2147483647"},
    {"timeout", "", "0", Kind::integer, "0 2147483647"},
    {"zset-max-listpack-entries", "zset-max-ziplist-entries", "128", Kind::integer, "0 9223372036854775807"},
    {"zset-max-listpack-value", "zset-max-ziplist-value", "64", Kind::integer, "0 9223372036854775807"},
});

const Parameter* find_parameter(std::string_view name) {
  for (const Parameter& parameter : kParameters) {
    if (iequals(parameter.name, name) || (!parameter.alias.empty() && iequals(parameter.alias, name))) return &parameter;
  }
  return nullptr;
}

// memtoull: digits with an optional b/k/kb/m/mb/g/gb unit (no sign, no fraction).
std::optional<std::string> parse_memory(std::string_view text) {
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0) return std::nullopt;
  std::string unit = to_lower(text.substr(digits));
  std::uint64_t multiplier = 0;
  if (unit.empty() || unit == "b") multiplier = 1;
  else if (unit == "k") multiplier = 1000;
  else if (unit == "kb") multiplier = 1024;
  else if (unit == "m") multiplier = 1000 * 1000;
  else if (unit == "mb") multiplier = 1024 * 1024;
  else if (unit == "g") multiplier = 1000ull * 1000 * 1000;
  else if (unit == "gb") multiplier = 1024ull * 1024 * 1024;
  else return std::nullopt;
  auto number = parse_int64(text.substr(0, digits));
  if (!number) return std::nullopt;
  return std::to_string(static_cast<std::uint64_t>(*number) * multiplier);
}

// "seconds changes" pairs, all positive integers.
bool valid_save(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  for (char c : text) {
    if (c == ' ') {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  if (words.size() % 2 != 0) return false;
  return std::all_of(words.begin(), words.end(), [](const std::string& w) {
    auto value = parse_int64(w);
    return value && *value >= 0;
  });
}

std::string failure(std::string_view name, std::string_view why) {
  return "ERR CONFIG SET failed (possibly related to argument '" + std::string(name) + "') - " + std::string(why);
}

// The value to store for `raw`, or the error text.
// `name` is the parameter as the client spelled it (an alias names itself in the error).
std::pair<std::optional<std::string>, std::string> validate(const Parameter& parameter, std::string_view name,
                                                            const std::string& raw) {
  switch (parameter.kind) {
    case Kind::immutable: return {std::nullopt, failure(name, "can't set immutable config")};
    case Kind::text: return {raw, {}};
    case Kind::yes_no: {
      std::string lower = to_lower(raw);
      if (lower != "yes" && lower != "no") return {std::nullopt, failure(name, "argument must be 'yes' or 'no'")};
      return {lower, {}};
    }
    case Kind::memory: {
      auto bytes = parse_memory(raw);
      if (!bytes) return {std::nullopt, failure(name, "argument must be a memory value")};
      return {*bytes, {}};
    }
    case Kind::integer: {
      auto value = parse_int64(raw);
      if (!value) return {std::nullopt, failure(name, "argument couldn't be parsed into an integer")};
      std::string_view range = parameter.choices;
      std::size_t space = range.find(' ');
      auto low = parse_int64(range.substr(0, space));
      auto high = parse_int64(range.substr(space + 1));
      if (*value < *low || *value > *high) {
        return {std::nullopt, failure(name, "argument must be between " + std::string(range.substr(0, space)) +
                                                          " and " + std::string(range.substr(space + 1)) + " inclusive")};
      }
      return {std::to_string(*value), {}};
    }
    case Kind::choice: {
      std::string lower = to_lower(raw);
      std::string_view choices = parameter.choices;
      std::string listed;
      for (std::size_t start = 0; start <= choices.size();) {
        std::size_t end = std::min(choices.find(' ', start), choices.size());
        std::string_view choice = choices.substr(start, end - start);
        if (choice == lower) return {lower, {}};
        listed += (listed.empty() ? "" : ", ") + std::string(choice);
        start = end + 1;
      }
      return {std::nullopt, failure(name, "argument(s) must be one of the following: " + listed)};
    }
    case Kind::keyspace_events: {
      auto canonical = canonical_keyspace_events(raw);
      if (!canonical) return {std::nullopt, failure(name, "Invalid event class character. Use 'Ag$lshzxeKEtmdn'.")};
      return {*canonical, {}};
    }
    case Kind::save:
      if (!valid_save(raw)) return {std::nullopt, failure(name, "Invalid save parameters")};
      return {raw, {}};
  }
  return {std::nullopt, "ERR unreachable"};
}

}  // namespace

std::optional<std::string> canonical_keyspace_events(std::string_view flags) {
  constexpr std::string_view kClasses = "g$lshzxetd";  // 'A' is all of these
  std::set<char> seen;
  for (char c : flags) {
    if (c == 'A') {
      seen.insert(kClasses.begin(), kClasses.end());
    } else if (kClasses.find(c) != std::string_view::npos || c == 'K' || c == 'E' || c == 'm' || c == 'n') {
      seen.insert(c);
    } else {
      return std::nullopt;
    }
  }
  // As keyspaceEventsFlagsToString: "A" or the classes (then 'n', which 'A' does not print), then K, E, m.
  std::string out;
  if (std::all_of(kClasses.begin(), kClasses.end(), [&](char c) { return seen.count(c) > 0; })) {
    out = "A";
  } else {
    for (char c : kClasses) {
      if (seen.count(c)) out += c;
    }
    if (seen.count('n')) out += 'n';
  }
  for (char c : {'K', 'E', 'm'}) {
    if (seen.count(c)) out += c;
  }
  return out;
}

ServerConfig::ServerConfig() {
  for (const Parameter& parameter : kParameters) values_.emplace(std::string(parameter.name), std::string(parameter.default_value));
}

const std::string& ServerConfig::value(std::string_view name) const {
  static const std::string kEmpty;
  const Parameter* parameter = find_parameter(name);
  if (parameter == nullptr) return kEmpty;
  return values_.find(parameter->name)->second;
}

std::vector<std::pair<std::string, std::string>> ServerConfig::get(const std::vector<std::string>& patterns) const {
  std::vector<std::pair<std::string, std::string>> out;
  std::set<std::string_view> listed;
  for (const std::string& pattern : patterns) {
    for (const Parameter& parameter : kParameters) {
      for (std::string_view name : {parameter.name, parameter.alias}) {
        if (name.empty() || listed.count(name) || !glob_match(pattern, name, true)) continue;
        listed.insert(name);
        out.emplace_back(std::string(name), values_.find(parameter.name)->second);
      }
    }
  }
  return out;
}

std::optional<std::string> ServerConfig::set(const std::vector<std::pair<std::string, std::string>>& changes) {
  std::vector<std::pair<std::string_view, std::string>> accepted;
  std::set<std::string_view> names;
  for (const auto& [name, raw] : changes) {
    const Parameter* parameter = find_parameter(name);
    if (parameter == nullptr) return "ERR Unknown option or number of arguments for CONFIG SET - '" + name + "'";
    if (!names.insert(parameter->name).second) return failure(name, "duplicate parameter");
    auto [value, error] = validate(*parameter, name, raw);
    if (!value) return error;
    accepted.emplace_back(parameter->name, std::move(*value));
  }
  for (auto& [name, value] : accepted) values_.find(name)->second = std::move(value);
  return std::nullopt;
}

}  // namespace lockcheck::mock
