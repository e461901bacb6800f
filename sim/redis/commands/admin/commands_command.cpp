// COMMAND [COUNT | LIST | INFO names | DOCS names], generated from the command table (name, arity, flags);
// key positions and groups follow from the command's family.
#include <algorithm>
#include <initializer_list>

#include "redis/acl/acl_categories.hpp"
#include "redis/command_table/command_keys.hpp"
#include "redis/commands/admin/admin_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/util/numbers.hpp"
#include "redis/command_table/subcommands.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {
namespace {

// COMMAND DOCS's group, as 7.0.15 files each command (CommandInfoDifferential compares every one with
// redis-server).
std::string_view group_of(std::string_view name) {
  const auto one_of = [name](std::initializer_list<std::string_view> names) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  if (name.starts_with("eval") || name.starts_with("fcall") || one_of({"script", "function"})) return "scripting";
  if (name.find("subscribe") != std::string_view::npos || one_of({"publish", "spublish", "pubsub"})) return "pubsub";
  if (one_of({"multi", "exec", "discard", "watch", "unwatch"})) return "transactions";
  if (one_of({"auth", "client", "echo", "hello", "ping", "quit", "select", "reset"})) return "connection";
  if (one_of({"asking", "cluster", "readonly", "readwrite"})) return "cluster";
  if (one_of({"acl", "command", "config", "dbsize", "flushall", "flushdb", "info", "time", "role", "swapdb", "memory",
              "shutdown", "monitor"})) {
    return "server";
  }
  if (name.starts_with("bit") || one_of({"getbit", "setbit"})) return "bitmap";
  if (name.starts_with("geo")) return "geo";
  if (one_of({"lcs", "substr"})) return "string";
  if (name[0] == 'h') return "hash";
  if (name[0] == 'x') return "stream";
  if (name[0] == 'z' || name.starts_with("bz")) return "sorted-set";
  if (name[0] == 'l' || name.starts_with("bl") || name.starts_with("br") || one_of({"rpop", "rpush", "rpoplpush", "rpushx"})) {
    return "list";
  }
  if (name[0] == 's' && !one_of({"set", "setnx", "setex", "setrange", "strlen", "scan", "sort", "sort_ro"})) return "set";
  if (name.find("expire") != std::string_view::npos || key_positions(name).first == 0 ||
      one_of({"del", "exists", "unlink", "type", "ttl", "pttl", "persist", "keys", "scan", "rename", "renamenx", "copy",
              "touch", "randomkey", "move", "sort", "sort_ro", "dump", "restore", "wait"})) {
    return "generic";
  }
  return "string";
}

std::string to_upper_ascii(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

Reply status_set(std::vector<std::string_view> words) {
  std::vector<Reply> elements;
  for (std::string_view word : words) elements.push_back(Reply::status(std::string(word)));
  return Reply::set(std::move(elements));
}

// The command's ACL categories from 7.0.15's table (acl_categories.hpp); a command missing there gets
// @read or @write and its group's category.
Reply acl_category_set(std::string_view name, std::string_view access, const std::string& group_category) {
  const std::optional<std::uint32_t> categories = acl_categories_of(name);
  if (!categories) return status_set({access, group_category});
  std::vector<std::string> names;
  const auto all = acl_category_names();
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (*categories & (1u << i)) names.push_back("@" + std::string(all[i]));
  }
  std::vector<Reply> elements;
  for (std::string& category : names) elements.push_back(Reply::status(std::move(category)));
  return Reply::set(std::move(elements));
}

Reply command_info(const CommandSpec& spec) {
  const KeyPositions keys = key_positions(spec.name);
  std::vector<std::string_view> flags;
  if (spec.flags & kWrite) flags.push_back("write");
  else if (keys.first != 0) flags.push_back("readonly");
  if (spec.flags & kDenyOom) flags.push_back("denyoom");
  if (spec.flags & kNoScript) flags.push_back("noscript");
  if (spec.flags & kPubSub) flags.push_back("pubsub");
  if (spec.flags & kNoAuth) flags.push_back("no_auth");
  if (spec.name.starts_with("eval") || spec.name.starts_with("fcall") || spec.name.starts_with("xread") ||
      spec.name == "georadius" || spec.name == "georadiusbymember") {
    flags.push_back("movablekeys");  // GEORADIUS's STORE key and XREAD's streams are found by keyword
  }
  const std::string group(group_of(spec.name));
  const std::string category = "@" + (group == "sorted-set" ? std::string("sortedset") : group);
  std::vector<Reply> key_specs;
  if (keys.first != 0) {
    key_specs.push_back(Reply::map({
        Reply::bulk("flags"), Reply::array({Reply::status((spec.flags & kWrite) ? "RW" : "RO")}),
        Reply::bulk("begin_search"), Reply::map({Reply::bulk("type"), Reply::bulk("index"), Reply::bulk("spec"),
                                                 Reply::map({Reply::bulk("index"), Reply::integer_reply(keys.first)})}),
        Reply::bulk("find_keys"),
        Reply::map({Reply::bulk("type"), Reply::bulk("range"), Reply::bulk("spec"),
                    Reply::map({Reply::bulk("lastkey"), Reply::integer_reply(keys.last < 0 ? keys.last : keys.last - keys.first),
                                Reply::bulk("keystep"), Reply::integer_reply(keys.step), Reply::bulk("limit"),
                                Reply::integer_reply(0)})}),
    }));
  }
  return Reply::array({Reply::bulk(std::string(spec.name)), Reply::integer_reply(spec.arity), status_set(flags),
                       Reply::integer_reply(keys.first), Reply::integer_reply(keys.last), Reply::integer_reply(keys.step),
                       acl_category_set(spec.name, (spec.flags & kWrite) ? "@write" : "@read", category), Reply::set({}),
                       Reply::array(std::move(key_specs)), Reply::array({})});
}

Reply command_docs(const CommandSpec& spec) {
  return Reply::map({Reply::bulk("summary"), Reply::bulk("The " + to_upper_ascii(spec.name) + " command (lockcheck mock)"),
                     Reply::bulk("since"), Reply::bulk("1.0.0"), Reply::bulk("group"),
                     Reply::bulk(std::string(group_of(spec.name)))});
}

Reply subcommand_arity(std::string_view sub) {
  return Reply::error("ERR wrong number of arguments for 'command|" + to_lower(sub) + "' command");
}

// COMMAND GETKEYS / GETKEYSANDFLAGS command args...: the keys `command` would touch, found as Redis finds them
// (arity first; EVAL/FCALL and SINTERCARD by their numkeys, where a bad numkeys means no keys rather than an error).
// The flags are the mock's key-spec flags (RW or RO), not Redis's finer access/update/insert/delete ones.
Reply command_getkeys(const Command& args, bool with_flags) {
  const CommandSpec* spec = find_command(to_lower(args[2]));
  if (spec == nullptr) return Reply::error("ERR Invalid command specified");
  const std::string_view name = spec->name;
  // A container's subcommand (CONFIG GET ...): none has keys; one Redis does not know is no command at all.
  const Command inner(args.begin() + 2, args.end());
  if (auto refused = subcommand_error(inner); refused && refused->text.starts_with("ERR unknown subcommand")) {
    return Reply::error("ERR Invalid command specified");
  }
  const bool by_numkeys = name.starts_with("eval") || name.starts_with("fcall");
  const KeyPositions positions = key_positions(name);
  if (!by_numkeys && name != "sintercard" && positions.first == 0) {
    return Reply::error("ERR The command has no key arguments");
  }
  const auto argc = static_cast<std::int64_t>(args.size() - 2);
  if ((spec->arity > 0 && spec->arity != argc) || argc < -spec->arity) {
    return Reply::error("ERR Invalid number of arguments specified for command");
  }
  std::optional<std::vector<std::size_t>> inner_indexes = command_key_indexes(inner);
  if (!inner_indexes) {
    if (by_numkeys) return Reply::array({});
    return Reply::error("ERR Invalid arguments specified for command");
  }
  std::vector<std::size_t> key_indexes;  // into args
  for (std::size_t index : *inner_indexes) key_indexes.push_back(index + 2);
  std::vector<Reply> keys;
  for (std::size_t index : key_indexes) {
    if (!with_flags) {
      keys.push_back(Reply::bulk(args[index]));
      continue;
    }
    keys.push_back(Reply::array({Reply::bulk(args[index]),
                                 Reply::set({Reply::status((spec->flags & kWrite) ? "RW" : "RO")})}));
  }
  return Reply::array(std::move(keys));
}

// Appends "# Title\r\n" + lines, with the blank line Redis puts between sections.
}  // namespace
}  // namespace lockcheck::mock::cmd

namespace lockcheck::mock::cmd {

Reply command(CommandContext& ctx) {
  const std::span<const CommandSpec> table = all_commands();
  if (ctx.args.size() == 1) {
    std::vector<Reply> infos;
    for (const CommandSpec& spec : table) infos.push_back(command_info(spec));
    return Reply::array(std::move(infos));
  }
  const std::string sub = to_lower(ctx.args[1]);
  if (sub == "count") {
    if (ctx.args.size() != 2) return subcommand_arity(sub);
    return Reply::integer_reply(static_cast<std::int64_t>(table.size()));
  }
  if (sub == "list") {
    std::vector<Reply> names;
    for (const CommandSpec& spec : table) names.push_back(Reply::bulk(std::string(spec.name)));
    return Reply::array(std::move(names));
  }
  if (sub == "getkeys" || sub == "getkeysandflags") {
    if (ctx.args.size() < 4) return subcommand_arity(sub);
    return command_getkeys(ctx.args, sub == "getkeysandflags");
  }
  if (sub == "info" || sub == "docs") {
    std::vector<Reply> replies;
    const bool docs = sub == "docs";
    for (std::size_t i = 2; i < ctx.args.size(); ++i) {
      const CommandSpec* spec = find_command(to_lower(ctx.args[i]));
      if (docs) {
        if (spec == nullptr) continue;  // DOCS leaves unknown names out
        replies.push_back(Reply::bulk(std::string(spec->name)));
        replies.push_back(command_docs(*spec));
      } else {
        replies.push_back(spec == nullptr ? Reply::nil() : command_info(*spec));
      }
    }
    if (ctx.args.size() == 2) {
      for (const CommandSpec& spec : table) {
        if (docs) {
          replies.push_back(Reply::bulk(std::string(spec.name)));
          replies.push_back(command_docs(spec));
        } else {
          replies.push_back(command_info(spec));
        }
      }
    }
    return docs ? Reply::map(std::move(replies)) : Reply::array(std::move(replies));
  }
  return Reply::error("ERR unknown subcommand '" + ctx.args[1].substr(0, 128) + "'. Try COMMAND HELP.");
}

}  // namespace lockcheck::mock::cmd
