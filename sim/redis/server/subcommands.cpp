#include "redis/server/subcommands.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "redis/server/command.hpp"
#include "redis/server/errors.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock {
namespace {

// Redis 7.0.15's subcommands of the containers the mock answers (a subcommand the mock does not run still
// passes this check, then its handler answers as Redis would for an unsupported case).
constexpr std::array kSubcommands = std::to_array<Subcommand>({
    {"acl", "cat", -2},            {"acl", "deluser", -3},      {"acl", "dryrun", -4},
    {"acl", "genpass", -2},        {"acl", "getuser", 3},       {"acl", "help", 2},
    {"acl", "list", 2},            {"acl", "load", 2},          {"acl", "log", -2},
    {"acl", "save", 2},            {"acl", "setuser", -3},      {"acl", "users", 2},
    {"acl", "whoami", 2},
    {"client", "caching", 3},      {"client", "getname", 2},    {"client", "getredir", 2},
    {"client", "help", 2},         {"client", "id", 2},         {"client", "info", 2},
    {"client", "kill", -3},        {"client", "list", -2},      {"client", "no-evict", 3},
    {"client", "pause", -3},       {"client", "reply", 3},      {"client", "setinfo", 4},
    {"client", "setname", 3},      {"client", "tracking", -3},  {"client", "trackinginfo", 2},
    {"client", "unblock", -3},     {"client", "unpause", 2},    {"command", "count", 2},
    {"command", "docs", -2},       {"command", "getkeys", -4},  {"command", "getkeysandflags", -4},
    {"command", "help", 2},        {"command", "info", -2},     {"command", "list", -2},
    {"config", "get", -3},         {"config", "help", 2},       {"config", "resetstat", 2},
    {"config", "rewrite", 2},      {"config", "set", -4},       {"function", "delete", 3},
    {"function", "dump", 2},       {"function", "flush", -2},   {"function", "help", 2},
    {"function", "kill", 2},       {"function", "list", -2},    {"function", "load", -3},
    {"function", "restore", -3},   {"function", "stats", 2},    {"memory", "doctor", 2},
    {"memory", "help", 2},         {"memory", "malloc-stats", 2}, {"memory", "purge", 2},
    {"memory", "stats", 2},        {"memory", "usage", -3},     {"object", "encoding", 3},
    {"object", "freq", 3},         {"object", "help", 2},       {"object", "idletime", 3},
    {"object", "refcount", 3},    {"pubsub", "channels", -2},
    {"pubsub", "help", 2},         {"pubsub", "numpat", 2},     {"pubsub", "numsub", -2},
    {"pubsub", "shardchannels", -2}, {"pubsub", "shardnumsub", -2}, {"script", "debug", 3},
    {"script", "exists", -3},      {"script", "flush", -2},     {"script", "help", 2},
    {"script", "kill", 2},         {"script", "load", 3},
    {"xgroup", "create", -5},      {"xgroup", "createconsumer", 5}, {"xgroup", "delconsumer", 5},
    {"xgroup", "destroy", 4},      {"xgroup", "help", 2},       {"xgroup", "setid", -5},
    {"xinfo", "consumers", 4},     {"xinfo", "groups", 3},      {"xinfo", "help", 2},
    {"xinfo", "stream", -3},
});

// Whether `name` (any case) names a container. Asked for every command a node runs, so it looks through the
// dozen container names once each (kSubcommands lists them by container), not through every subcommand.
bool is_container(std::string_view name) {
  static const std::vector<std::string_view> containers = [] {
    std::vector<std::string_view> names;
    for (const Subcommand& sub : kSubcommands) {
      if (std::find(names.begin(), names.end(), sub.container) == names.end()) names.push_back(sub.container);
    }
    return names;
  }();
  for (const std::string_view container : containers) {
    if (iequals(name, container)) return true;
  }
  return false;
}

}  // namespace

std::span<const Subcommand> all_subcommands() { return kSubcommands; }

bool is_container_command(const CommandSpec& spec) {
  static const std::vector<unsigned char> containers = [] {  // bytes, not vector<bool>'s bits: read per command
    std::vector<unsigned char> flags;
    for (const CommandSpec& command : all_commands()) flags.push_back(is_container(command.name));
    return flags;
  }();
  return containers[static_cast<std::size_t>(&spec - all_commands().data())];
}

std::optional<Reply> subcommand_error(const Command& args) {
  if (args.size() < 2) return std::nullopt;  // the container's own arity answers
  if (!is_container(args[0])) return std::nullopt;
  const std::string container = to_lower(args[0]);
  const std::string name = to_lower(args[1]);
  for (const Subcommand& sub : kSubcommands) {
    if (sub.container != container || sub.name != name) continue;
    const std::size_t argc = args.size();
    const bool arity_ok = sub.arity > 0 ? argc == static_cast<std::size_t>(sub.arity)
                                        : argc >= static_cast<std::size_t>(-sub.arity);
    if (arity_ok) return std::nullopt;
    return err::arity(container + "|" + name);
  }
  return Reply::error("ERR unknown subcommand '" + args[1].substr(0, 128) + "'. Try " + to_upper(args[0]) +
                      " HELP.");
}

Reply subcommand_help(std::string_view container_upper, std::initializer_list<std::string_view> lines) {
  std::vector<Reply> out;
  out.push_back(Reply::status(std::string(container_upper) + " <subcommand> [<arg> [value] [opt] ...]. Subcommands are:"));
  for (std::string_view line : lines) out.push_back(Reply::status(std::string(line)));
  out.push_back(Reply::status("HELP"));
  out.push_back(Reply::status("    Prints this help."));
  return Reply::array(std::move(out));
}

bool subcommand_denied_in_scripts(const Command& args) {
  return args.size() >= 2 && iequals(args[0], "cluster") && iequals(args[1], "reset");
}

std::string full_command_name(const Command& args) {
  if (args.empty()) return {};
  std::string name = to_lower(args[0]);
  if (args.size() >= 2 && is_container(name)) name += "|" + to_lower(args[1]);
  return name;
}

}  // namespace lockcheck::mock
