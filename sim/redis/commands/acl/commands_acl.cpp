// ACL SETUSER | GETUSER | DELUSER | USERS | LIST | WHOAMI | CAT | GENPASS | DRYRUN | LOG | LOAD | SAVE | HELP,
// with Redis 7.0.15's replies and error texts (no ACL file: LOAD and SAVE answer as 7.0.15 without one).
#include <charconv>

#include "redis/acl/acl_categories.hpp"
#include "redis/acl/acl_commands.hpp"
#include "redis/acl/acl_texts.hpp"
#include "redis/commands/acl/acl_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/server/node.hpp"
#include "redis/util/numbers.hpp"
#include "redis/command_table/subcommands.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {
namespace {

constexpr std::int64_t kGenpassMaxBits = 4096;

// 7.0.15 prints ACL LOG's age-seconds as the shortest text that reads back as the same double (1.925).
std::string shortest_double(double value) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, end);
}

// ACL SETUSER's arguments with "(rule" ... "rule)" merged into one selector rule each; nullopt names the
// argument whose parenthesis is never closed.
std::variant<std::vector<std::string>, std::string> merge_selectors(const Command& args, std::size_t first) {
  std::vector<std::string> merged;
  std::optional<std::size_t> open_at;
  std::string selector;
  for (std::size_t i = first; i < args.size(); ++i) {
    const std::string& rule = args[i];
    if (!rule.empty() && rule.front() == '(' && rule.back() != ')') {
      selector = rule;
      open_at = i;
      continue;
    }
    if (open_at) {
      selector += " " + rule;
      if (!rule.empty() && rule.back() == ')') {
        merged.push_back(std::move(selector));
        open_at.reset();
      }
      continue;
    }
    merged.push_back(rule);
  }
  if (open_at) return args[*open_at];
  return merged;
}

// The user's connections subscribed to a channel, pattern or shard channel the new rules no longer allow are
// closed (7.0's ACLKillPubsubClientsIfNeeded); the caller itself after its reply.
void close_revoked_subscribers(CommandContext& ctx, const std::string& name) {
  const std::shared_ptr<AclUser> user = ctx.node.acl().find(name);
  if (!user || !ctx.node.clients().list) return;
  auto revoked = [&](const Session& session) {
    for (const std::string& channel : session.channels) {
      if (!acl_channel_permitted(*user, channel, false)) return true;
    }
    for (const std::string& channel : session.shard_channels) {
      if (!acl_channel_permitted(*user, channel, false)) return true;
    }
    for (const std::string& pattern : session.patterns) {
      if (!acl_channel_permitted(*user, pattern, true)) return true;
    }
    return false;
  };
  std::vector<std::int64_t> victims;
  for (const Session* session : ctx.node.clients().list()) {
    if (session->user == user && revoked(*session)) victims.push_back(session->client_id);
  }
  for (std::int64_t victim : victims) {
    if (victim == ctx.session.client_id) {
      ctx.session.close_requested = true;
    } else if (ctx.node.clients().kill) {
      ctx.node.clients().kill(victim);
    }
  }
}

Reply setuser(CommandContext& ctx) {
  const std::string& name = ctx.args[2];
  if (name.find_first_of(std::string_view(" \0", 2)) != std::string::npos) {
    return Reply::error("ERR Usernames can't contain spaces or null characters");
  }
  auto rules = merge_selectors(ctx.args, 3);
  if (auto* unmatched = std::get_if<std::string>(&rules)) {
    return Reply::error("ERR Unmatched parenthesis in acl selector starting at '" + *unmatched + "'.");
  }
  if (auto failed = ctx.node.acl().set_user(name, std::get<std::vector<std::string>>(rules))) {
    return Reply::error(std::move(*failed));
  }
  close_revoked_subscribers(ctx, name);
  return Reply::ok();
}

Reply deluser(CommandContext& ctx) {
  for (std::size_t i = 2; i < ctx.args.size(); ++i) {
    if (ctx.args[i] == "default") return Reply::error("ERR The 'default' user cannot be removed");
  }
  std::int64_t deleted = 0;
  for (std::size_t i = 2; i < ctx.args.size(); ++i) {
    if (!ctx.node.acl().remove(ctx.args[i])) continue;
    ++deleted;
    // Its connections are closed, as ACLFreeUserAndKillClients does (the caller after its reply).
    std::vector<std::int64_t> victims;
    const std::vector<const Session*> sessions =
        ctx.node.clients().list ? ctx.node.clients().list() : std::vector<const Session*>{&ctx.session};
    for (const Session* session : sessions) {
      if (session->user && session->user->name == ctx.args[i]) victims.push_back(session->client_id);
    }
    for (std::int64_t victim : victims) {
      if (victim == ctx.session.client_id) {
        ctx.session.close_requested = true;
      } else if (ctx.node.clients().kill) {
        ctx.node.clients().kill(victim);
      }
    }
  }
  return Reply::integer_reply(deleted);
}

std::vector<Reply> selector_fields(const AclSelector& selector) {
  return {Reply::bulk("commands"), Reply::bulk(describe_command_rules(selector)),
          Reply::bulk("keys"), Reply::bulk(describe_keys(selector)),
          Reply::bulk("channels"), Reply::bulk(describe_channels(selector))};
}

Reply getuser(CommandContext& ctx) {
  std::shared_ptr<AclUser> user = ctx.node.acl().find(ctx.args[2]);
  if (!user) return Reply::nil();
  std::vector<Reply> flags;
  for (std::string_view flag : user_flag_names(user->flags)) flags.push_back(Reply::bulk(std::string(flag)));
  std::vector<Reply> passwords;
  for (const std::string& hash : user->password_hashes) passwords.push_back(Reply::bulk(hash));
  std::vector<Reply> fields = {Reply::bulk("flags"), Reply::set(std::move(flags)), Reply::bulk("passwords"),
                               Reply::array(std::move(passwords))};
  for (Reply& field : selector_fields(user->selectors[0])) fields.push_back(std::move(field));
  std::vector<Reply> selectors;
  for (std::size_t i = 1; i < user->selectors.size(); ++i) selectors.push_back(Reply::map(selector_fields(user->selectors[i])));
  fields.push_back(Reply::bulk("selectors"));
  fields.push_back(Reply::array(std::move(selectors)));
  return Reply::map(std::move(fields));
}

Reply list_users(CommandContext& ctx, bool names_only) {
  std::vector<Reply> out;
  for (const auto& [name, user] : ctx.node.acl().users()) {
    out.push_back(Reply::bulk(names_only ? name : "user " + name + " " + describe_user(*user)));
  }
  return Reply::array(std::move(out));
}

Reply cat(CommandContext& ctx) {
  std::vector<Reply> out;
  if (ctx.args.size() == 2) {
    for (std::string_view name : acl_category_names()) out.push_back(Reply::bulk(std::string(name)));
    return Reply::array(std::move(out));
  }
  auto category = acl_category_bit(ctx.args[2]);
  if (!category) return Reply::error("ERR Unknown category '" + ctx.args[2].substr(0, 128) + "'");
  for (const AclCommand& command : acl_commands()) {
    if (command.categories & *category) out.push_back(Reply::bulk(command.full_name));
  }
  return Reply::array(std::move(out));
}

Reply genpass(CommandContext& ctx) {
  std::int64_t bits = 256;
  if (ctx.args.size() == 3) {
    auto parsed = parse_int64(ctx.args[2]);
    if (!parsed) return err::not_integer();
    bits = *parsed;
  }
  if (bits <= 0 || bits > kGenpassMaxBits) {
    return Reply::error("ERR ACL GENPASS argument must be the number of bits for the output password, a positive "
                        "number up to 4096");
  }
  return Reply::bulk(ctx.node.acl().generate_password(bits));
}

std::string_view reason_name(AclDenial reason) {
  switch (reason) {
    case AclDenial::command: return "command";
    case AclDenial::key: return "key";
    case AclDenial::channel: return "channel";
    case AclDenial::auth: return "auth";
    default: return "unknown";
  }
}

std::string_view context_name(AclLogContext context) {
  switch (context) {
    case AclLogContext::toplevel: return "toplevel";
    case AclLogContext::multi: return "multi";
    case AclLogContext::lua: return "lua";
  }
  return "unknown";
}

Reply log(CommandContext& ctx) {
  std::int64_t count = 10;
  if (ctx.args.size() == 3) {
    if (iequals(ctx.args[2], "reset")) {
      ctx.node.acl().reset_log();
      return Reply::ok();
    }
    auto parsed = parse_int64(ctx.args[2]);
    if (!parsed) return err::not_integer();
    count = std::max<std::int64_t>(*parsed, 0);
  }
  const auto& entries = ctx.node.acl().log_entries();
  const std::size_t shown = std::min(static_cast<std::size_t>(count), entries.size());
  const std::int64_t now_ms = ctx.keys.now_ms();
  std::vector<Reply> out;
  for (std::size_t i = 0; i < shown; ++i) {
    const AclLogEntry& entry = entries[i];
    out.push_back(Reply::map({
        Reply::bulk("count"), Reply::integer_reply(entry.count),
        Reply::bulk("reason"), Reply::bulk(std::string(reason_name(entry.reason))),
        Reply::bulk("context"), Reply::bulk(std::string(context_name(entry.context))),
        Reply::bulk("object"), Reply::bulk(entry.object),
        Reply::bulk("username"), Reply::bulk(entry.username),
        Reply::bulk("age-seconds"), Reply::double_reply(shortest_double(static_cast<double>(now_ms - entry.created_ms) / 1000)),
        Reply::bulk("client-info"), Reply::bulk(entry.client_info),
    }));
  }
  return Reply::array(std::move(out));
}

Reply dryrun(CommandContext& ctx) {
  std::shared_ptr<AclUser> user = ctx.node.acl().find(ctx.args[2]);
  if (!user) return Reply::error("ERR User '" + ctx.args[2] + "' not found");
  const Command inner(ctx.args.begin() + 3, ctx.args.end());
  const std::optional<std::size_t> id = acl_command_id_of(inner);
  const CommandSpec* spec = find_command(to_lower(inner[0]));
  // A 7.0.15 command the mock does not run (XLEN, PFCOUNT) is still judged, without its arity check.
  if (!id) return Reply::error("ERR Command '" + inner[0] + "' not found");
  if (spec != nullptr && subcommand_error(inner)) return std::move(*subcommand_error(inner));
  const auto argc = static_cast<std::int64_t>(inner.size());
  if (spec != nullptr && ((spec->arity > 0 && spec->arity != argc) || argc < -spec->arity)) {
    return Reply::error("ERR wrong number of arguments for '" + acl_commands()[*id].full_name + "' command");
  }
  const AclVerdict verdict = acl_check(*user, inner, spec != nullptr && (spec->flags & kNoAuth) != 0);
  switch (verdict.denial) {
    case AclDenial::none: return Reply::ok();
    case AclDenial::command:
      return Reply::bulk("This user has no permissions to run the '" + acl_commands()[*id].full_name + "' command");
    case AclDenial::key:
      return Reply::bulk("This user has no permissions to access the '" + inner[verdict.arg_index] + "' key");
    default:
      return Reply::bulk("This user has no permissions to access the '" + inner[verdict.arg_index] + "' channel");
  }
}

Reply help() {
  return subcommand_help(
      "ACL", {"CAT [<category>]", "    List all commands that belong to <category>, or all command categories",
              "    when no category is specified.", "DELUSER <username> [<username> ...]", "    Delete a list of users.",
              "DRYRUN <username> <command> [<arg> ...]",
              "    Returns whether the user can execute the given command without executing the command.",
              "GETUSER <username>", "    Get the user's details.", "GENPASS [<bits>]",
              "    Generate a secure 256-bit user password. The optional `bits` argument can",
              "    be used to specify a different size.", "LIST", "    Show users details in config file format.",
              "LOAD", "    Reload users from the ACL file.", "LOG [<count> | RESET]", "    Show the ACL log entries.",
              "SAVE", "    Save the current config to the ACL file.",
              "SETUSER <username> <attribute> [<attribute> ...]",
              "    Create or modify a user with the specified attributes.", "USERS",
              "    List all the registered usernames.", "WHOAMI", "    Return the current connection username."});
}

}  // namespace

Reply acl(CommandContext& ctx) {
  const std::string sub = to_lower(ctx.args[1]);
  if (sub == "setuser") return setuser(ctx);
  if (sub == "deluser") return deluser(ctx);
  if (sub == "getuser") return getuser(ctx);
  if (sub == "list" || sub == "users") return list_users(ctx, sub == "users");
  if (sub == "whoami") return Reply::bulk(ctx.node.user_of(ctx.session).name);
  if (sub == "load" || sub == "save") {
    return Reply::error("ERR This Redis instance is not configured to use an ACL file. You may want to specify users "
                        "via the ACL SETUSER command and then issue a CONFIG REWRITE (assuming you have a Redis "
                        "configuration file set) in order to store users in the Redis configuration.");
  }
  // CAT, GENPASS and LOG take one optional argument; more is 7.0's subcommand syntax error.
  if ((sub == "cat" || sub == "genpass" || sub == "log") && ctx.args.size() > 3) {
    return Reply::error("ERR unknown subcommand or wrong number of arguments for '" + ctx.args[1].substr(0, 128) +
                        "'. Try ACL HELP.");
  }
  if (sub == "cat") return cat(ctx);
  if (sub == "genpass") return genpass(ctx);
  if (sub == "log") return log(ctx);
  if (sub == "dryrun") return dryrun(ctx);
  return help();
}

}  // namespace lockcheck::mock::cmd
