// CONFIG GET/SET/RESETSTAT/REWRITE over the node's ServerConfig.
#include "redis/commands/admin/admin_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/server/node.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {
namespace {

Reply subcommand_arity(std::string_view sub) {
  return Reply::error("ERR wrong number of arguments for 'config|" + to_lower(sub) + "' command");
}

}  // namespace

Reply config(CommandContext& ctx) {
  const Command& args = ctx.args;
  const std::string sub = to_lower(args[1]);
  if (sub == "get") {
    if (args.size() < 3) return subcommand_arity(sub);
    std::vector<Reply> pairs;
    for (auto& [name, value] : ctx.node.config().get(Command(args.begin() + 2, args.end()))) {
      pairs.push_back(Reply::bulk(name));
      pairs.push_back(Reply::bulk(value));
    }
    return Reply::map(std::move(pairs));
  }
  if (sub == "set") {
    if (args.size() < 4 || args.size() % 2 != 0) return subcommand_arity(sub);
    std::vector<std::pair<std::string, std::string>> changes;
    for (std::size_t i = 2; i + 1 < args.size(); i += 2) changes.emplace_back(args[i], args[i + 1]);
    if (auto error = ctx.node.config().set(changes)) return Reply::error(std::move(*error));
    ctx.node.config_changed();
    for (const auto& [name, value] : changes) {
      if (iequals(name, "notify-keyspace-events")) ctx.node.configure_notifications(value);
    }
    // A new maxmemory below the memory in use evicts at once, as 7.0's updateMaxmemory does.
    for (const auto& [name, value] : changes) {
      if (iequals(name, "maxmemory")) ctx.node.make_room();
    }
    return Reply::ok();
  }
  if (sub == "resetstat") {
    if (args.size() != 2) return subcommand_arity(sub);
    ctx.node.stats() = NodeStats{.commands = CommandCounters(all_commands().size()), .errors = {}};
    return Reply::ok();
  }
  if (sub == "rewrite") {
    if (args.size() != 2) return subcommand_arity(sub);
    return Reply::error("ERR The server is running without a config file");
  }
  return Reply::error("ERR unknown subcommand '" + args[1].substr(0, 128) + "'. Try CONFIG HELP.");
}

}  // namespace lockcheck::mock::cmd
