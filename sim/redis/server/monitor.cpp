// MONITOR's rules, from Redis 7.0.15's sources (see monitor.hpp); the lists are its command JSON files' flags.
#include "redis/server/monitor.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

#include "redis/util/numbers.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock {
namespace {

using namespace std::string_view_literals;

// "container|sub" (lower case) for a container's subcommand, else the name.
std::string flag_name(const Command& args) {
  std::string name = to_lower(args[0]);
  static constexpr std::array kContainers = {"acl"sv, "client"sv, "cluster"sv, "command"sv, "config"sv, "function"sv,
                                             "memory"sv, "object"sv, "pubsub"sv, "script"sv, "xgroup"sv, "xinfo"sv};
  if (args.size() > 1 && std::find(kContainers.begin(), kContainers.end(), name) != kContainers.end()) {
    name += "|" + to_lower(args[1]);
  }
  return name;
}

template <std::size_t N>
bool listed(const std::array<std::string_view, N>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// CMD_ADMIN or CMD_SKIP_MONITOR in 7.0.15, among the commands the mock has.
constexpr std::array kHidden = {
    "acl|deluser"sv, "acl|dryrun"sv, "acl|getuser"sv, "acl|list"sv, "acl|load"sv, "acl|log"sv, "acl|save"sv,
    "acl|setuser"sv, "acl|users"sv, "client|kill"sv, "client|list"sv, "client|no-evict"sv, "client|pause"sv,
    "client|unblock"sv, "client|unpause"sv, "cluster|addslots"sv, "cluster|addslotsrange"sv, "cluster|bumpepoch"sv,
    "cluster|count-failure-reports"sv, "cluster|delslots"sv, "cluster|delslotsrange"sv, "cluster|failover"sv,
    "cluster|flushslots"sv, "cluster|forget"sv, "cluster|meet"sv, "cluster|replicas"sv, "cluster|replicate"sv,
    "cluster|reset"sv, "cluster|saveconfig"sv, "cluster|set-config-epoch"sv, "cluster|setslot"sv, "cluster|slaves"sv,
    "config|get"sv, "config|resetstat"sv, "config|rewrite"sv, "config|set"sv, "eval"sv, "eval_ro"sv, "evalsha"sv,
    "evalsha_ro"sv, "fcall"sv, "fcall_ro"sv, "monitor"sv, "shutdown"sv};

constexpr std::array kFedBeforeRunning = {"eval"sv, "eval_ro"sv, "evalsha"sv, "evalsha_ro"sv, "fcall"sv, "fcall_ro"sv};

// The mock's commands without READONLY, WRITE or MAY_REPLICATE (a command missing here touches the keyspace).
constexpr std::array kKeyless = {"asking"sv, "auth"sv, "discard"sv, "echo"sv, "exec"sv, "hello"sv, "info"sv,
                                 "monitor"sv, "multi"sv, "ping"sv, "psubscribe"sv, "punsubscribe"sv, "quit"sv,
                                 "readonly"sv, "readwrite"sv, "role"sv, "select"sv, "shutdown"sv, "ssubscribe"sv,
                                 "subscribe"sv, "sunsubscribe"sv, "time"sv, "unsubscribe"sv, "unwatch"sv, "wait"sv,
                                 "watch"sv};
// Containers' subcommands that do (every other subcommand of these containers does not).
constexpr std::array kKeyspaceSubcommands = {
    "function|delete"sv, "function|flush"sv, "function|load"sv, "function|restore"sv, "memory|usage"sv,
    "object|encoding"sv, "object|freq"sv, "object|idletime"sv, "object|refcount"sv, "xgroup|create"sv,
    "xgroup|createconsumer"sv, "xgroup|delconsumer"sv, "xgroup|destroy"sv, "xgroup|setid"sv, "xinfo|consumers"sv,
    "xinfo|groups"sv, "xinfo|stream"sv};

// clientSetNameOrReply's rule: a name of '!'..'~' only (empty is allowed).
bool valid_client_name(std::string_view name) {
  return std::all_of(name.begin(), name.end(), [](char c) { return c >= '!' && c <= '~'; });
}

}  // namespace

void append_repr(std::string& out, std::string_view text) {
  out += '"';
  for (const char c : text) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\a': out += "\\a"; break;
      case '\b': out += "\\b"; break;
      default:
        if (c >= 0x20 && c <= 0x7e) {
          out += c;
        } else {
          char hex[5];
          std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(c));
          out += hex;
        }
    }
  }
  out += '"';
}

std::string monitor_line(std::int64_t unix_us, int db, std::string_view source, const Command& args) {
  char stamp[48];
  std::snprintf(stamp, sizeof stamp, "%lld.%06lld [%d ", static_cast<long long>(unix_us / 1'000'000),
                static_cast<long long>(unix_us % 1'000'000), db);
  std::string line = stamp;
  line += source;
  line += "] ";
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i > 0) line += ' ';
    append_repr(line, args[i]);
  }
  return line;
}

bool hidden_from_monitors(const Command& args) { return listed(kHidden, flag_name(args)); }

bool fed_before_running(const Command& args) { return listed(kFedBeforeRunning, to_lower(args[0])); }

Command redacted_for_monitors(const Command& args) {
  static const std::string kRedacted = "(redacted)";
  const std::string name = to_lower(args[0]);
  Command shown = args;
  if (name == "auth") {
    // authCommand: more than 3 arguments is a syntax error before anything is redacted.
    if (args.size() <= 3) shown[1] = kRedacted;
    if (args.size() == 3) shown[2] = kRedacted;
    return shown;
  }
  if (name != "hello" || args.size() < 2) return shown;
  // helloCommand: an unparsable or unsupported version returns first; then the options in order, until the first
  // one that fails (a failed AUTH also stops it, after its own redaction; the mock redacts past it too).
  const std::optional<std::int64_t> version = parse_int64(args[1]);
  if (!version || *version < 2 || *version > 3) return shown;
  for (std::size_t j = 2; j < args.size(); ++j) {
    const std::size_t more = args.size() - 1 - j;
    if (iequals(args[j], "auth") && more >= 2) {
      shown[j + 1] = kRedacted;
      shown[j + 2] = kRedacted;
      j += 2;
    } else if (iequals(args[j], "setname") && more >= 1 && valid_client_name(args[j + 1])) {
      ++j;
    } else {
      break;
    }
  }
  return shown;
}

bool touches_keyspace(const Command& args) {
  const std::string name = flag_name(args);
  if (name.find('|') != std::string::npos) return listed(kKeyspaceSubcommands, name);
  return !listed(kKeyless, name);
}

}  // namespace lockcheck::mock
