// COMMAND [COUNT | LIST | INFO names | DOCS names | GETKEYS ...], generated from the command table's rows (name,
// arity, flags, keys, group).

#include "redis/acl/acl_categories.hpp"
#include "redis/command_table/command_keys.hpp"
#include "redis/commands/admin/admin_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/util/numbers.hpp"
#include "redis/command_table/subcommands.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {
namespace {

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
  const KeySpec& keys = spec.keys;
  std::vector<std::string_view> flags;
  if (spec.flags & kWrite) flags.push_back("write");
  else if (keys.first != 0) flags.push_back("readonly");
  if (spec.flags & kDenyOom) flags.push_back("denyoom");
  if (spec.flags & kNoScript) flags.push_back("noscript");
  if (spec.flags & kPubSub) flags.push_back("pubsub");
  if (spec.flags & kNoAuth) flags.push_back("no_auth");
  if (keys.movable) flags.push_back("movablekeys");
  const std::string group(group_name(spec.group));
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
                     Reply::bulk(std::string(group_name(spec.group)))});
}

Reply subcommand_arity(std::string_view sub) {
  return Reply::error("ERR wrong number of arguments for 'command|" + to_lower(sub) + "' command");
}

// COMMAND GETKEYS / GETKEYSANDFLAGS command args...: the keys `command` would touch, found as Redis finds them
// (arity first; counted keys by their count, where a count that does not fit is an error, or for EVAL/FCALL no keys).
// The flags are the mock's key-spec flags (RW or RO), not Redis's finer access/update/insert/delete ones.
Reply command_getkeys(const Command& args, bool with_flags) {
  const CommandSpec* spec = find_command(to_lower(args[2]));
  if (spec == nullptr) return Reply::error("ERR Invalid command specified");
  // A container's subcommand (CONFIG GET ...): none has keys; one Redis does not know is no command at all.
  const Command inner(args.begin() + 2, args.end());
  if (auto refused = subcommand_error(inner); refused && refused->text.starts_with("ERR unknown subcommand")) {
    return Reply::error("ERR Invalid command specified");
  }
  const KeySpec& key_spec = spec->keys;
  if (key_spec.first == 0 && key_spec.count_at == 0) {
    return Reply::error("ERR The command has no key arguments");
  }
  const auto argc = static_cast<std::int64_t>(args.size() - 2);
  if ((spec->arity > 0 && spec->arity != argc) || argc < -spec->arity) {
    return Reply::error("ERR Invalid number of arguments specified for command");
  }
  std::optional<std::vector<std::size_t>> inner_indexes = command_key_indexes(inner);
  if (!inner_indexes) {
    if (key_spec.getkeys == CountedGetkeys::kLenient) return Reply::array({});
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
