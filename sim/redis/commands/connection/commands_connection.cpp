// Connection commands: HELLO, AUTH, CLIENT. Authentication is against the node's ACL users (acl_registry.hpp):
// requirepass is the default user's password; without one the default user is "nopass".
#include <algorithm>

#include "redis/commands/connection/connection_family.hpp"
#include "redis/server/client_line.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/server/node.hpp"
#include "redis/util/numbers.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {
namespace {

constexpr std::string_view kWrongPass = "WRONGPASS invalid username-password pair or user is disabled.";
constexpr std::string_view kBadName = "ERR Client names cannot contain spaces, newlines or special characters.";

// ACLAuthenticateUser: the user's credentials put the connection in that user's name; a failure is an ACL
// LOG "auth" entry.
bool authenticate(CommandContext& ctx, const std::string& user, std::string_view password) {
  std::shared_ptr<AclUser> found = ctx.node.acl().check_credentials(user, password);
  if (!found) {
    AclLogEntry entry;
    entry.reason = AclDenial::auth;
    entry.context = ctx.session.transaction.open ? AclLogContext::multi : AclLogContext::toplevel;
    entry.object = ctx.args[0];
    entry.username = user;
    entry.created_ms = ctx.keys.now_ms();
    entry.client_info = client_line(ctx.session, ctx.keys.now_ms());
    entry.client_info.pop_back();  // the line's '\n'
    ctx.node.acl().log(std::move(entry));
    return false;
  }
  ctx.session.authenticated = true;
  ctx.session.user = found->name == "default" ? nullptr : std::move(found);
  return true;
}

bool valid_client_name(std::string_view name) {
  return std::all_of(name.begin(), name.end(), [](char c) { return c >= '!' && c <= '~'; });
}

Reply subcommand_arity(std::string_view command, std::string_view sub) {
  return Reply::error("ERR wrong number of arguments for '" + std::string(command) + "|" + to_lower(sub) + "' command");
}

std::vector<const Session*> every_client(CommandContext& ctx) {
  if (ctx.node.clients().list) return ctx.node.clients().list();
  return {&ctx.session};
}

Reply client_list(CommandContext& ctx) {
  std::string type;
  std::vector<std::int64_t> ids;
  for (std::size_t i = 2; i < ctx.args.size(); ++i) {
    if (iequals(ctx.args[i], "type") && i + 1 < ctx.args.size()) {
      type = to_lower(ctx.args[++i]);
      if (type != "normal" && type != "master" && type != "replica" && type != "slave" && type != "pubsub") {
        return Reply::error("ERR Unknown client type '" + ctx.args[i] + "'");
      }
    } else if (iequals(ctx.args[i], "id") && i + 1 < ctx.args.size()) {
      // Every remaining argument is an id.
      for (++i; i < ctx.args.size(); ++i) {
        auto id = parse_int64(ctx.args[i]);
        if (!id || *id <= 0) return Reply::error("ERR Invalid client ID");
        ids.push_back(*id);
      }
    } else {
      return err::syntax();
    }
  }
  std::string text;
  for (const Session* session : every_client(ctx)) {
    if (!ids.empty() && std::find(ids.begin(), ids.end(), session->client_id) == ids.end()) continue;
    if (type == "pubsub" && !session->subscribed()) continue;
    if (type == "normal" && session->subscribed()) continue;
    if (type == "master" || type == "replica" || type == "slave") continue;
    text += client_line(*session, ctx.keys.now_ms());
  }
  return Reply::verbatim(std::move(text));
}

bool kill_client(CommandContext& ctx, std::int64_t client_id) {
  if (client_id == ctx.session.client_id) {
    ctx.session.close_requested = true;  // answered first, then closed, as Redis
    return true;
  }
  return ctx.node.clients().kill && ctx.node.clients().kill(client_id);
}

Reply client_kill(CommandContext& ctx) {
  if (ctx.args.size() == 3) {  // the old form: CLIENT KILL addr:port
    for (const Session* session : every_client(ctx)) {
      if (session->address == ctx.args[2] && kill_client(ctx, session->client_id)) return Reply::ok();
    }
    return Reply::error("ERR No such client");
  }
  if (ctx.args.size() % 2 != 0) return err::syntax();
  std::optional<std::int64_t> id;
  std::string address, local_address, type, user;
  bool skip_me = true;
  for (std::size_t i = 2; i + 1 < ctx.args.size(); i += 2) {
    const std::string& value = ctx.args[i + 1];
    if (iequals(ctx.args[i], "id")) {
      id = parse_int64(value);
      if (!id || *id <= 0) return Reply::error("ERR client-id should be greater than 0");
    } else if (iequals(ctx.args[i], "addr")) {
      address = value;
    } else if (iequals(ctx.args[i], "laddr")) {
      local_address = value;
    } else if (iequals(ctx.args[i], "type")) {
      type = to_lower(value);
      if (type != "normal" && type != "master" && type != "replica" && type != "slave" && type != "pubsub") {
        return Reply::error("ERR Unknown client type '" + value + "'");
      }
    } else if (iequals(ctx.args[i], "user")) {
      if (!ctx.node.acl().find(value)) return Reply::error("ERR No such user '" + value + "'");
      user = value;
    } else if (iequals(ctx.args[i], "skipme")) {
      if (iequals(value, "yes")) skip_me = true;
      else if (iequals(value, "no")) skip_me = false;
      else return err::syntax();
    } else {
      return err::syntax();
    }
  }
  std::vector<std::int64_t> victims;
  for (const Session* session : every_client(ctx)) {
    if (id && session->client_id != *id) continue;
    if (!address.empty() && session->address != address) continue;
    if (!local_address.empty() && session->local_address != local_address) continue;
    if (type == "pubsub" && !session->subscribed()) continue;
    if (type == "normal" && session->subscribed()) continue;
    if (type == "master" || type == "replica" || type == "slave") continue;
    if (!user.empty() && (session->user ? session->user->name : std::string("default")) != user) continue;
    if (skip_me && session->client_id == ctx.session.client_id) continue;
    victims.push_back(session->client_id);
  }
  std::int64_t killed = 0;
  for (std::int64_t victim : victims) killed += kill_client(ctx, victim) ? 1 : 0;
  return Reply::integer_reply(killed);
}

// CLIENT SETINFO is Redis 7.2's (7.0.15 answers "unknown subcommand"); accepted because current clients
// send it at connect and some treat the refusal as noise in their logs.
Reply client_setinfo(CommandContext& ctx) {
  const std::string& value = ctx.args[3];
  if (!valid_client_name(value)) {
    return Reply::error("ERR " + to_lower(ctx.args[2]) + " cannot contain spaces, newlines or special characters.");
  }
  if (iequals(ctx.args[2], "lib-name")) ctx.session.lib_name = value;
  else if (iequals(ctx.args[2], "lib-ver")) ctx.session.lib_ver = value;
  else return Reply::error("ERR Unrecognized option '" + ctx.args[2] + "'");
  return Reply::ok();
}

struct ClientSubcommand {
  std::string_view name;
  int arity;  // of the whole command, as Redis's subcommand table
  Reply (*run)(CommandContext&);
};

Reply client_on_off(CommandContext& ctx, bool& flag) {
  if (iequals(ctx.args[2], "on")) flag = true;
  else if (iequals(ctx.args[2], "off")) flag = false;
  else return err::syntax();
  return Reply::ok();
}

// CLIENT UNBLOCK id [TIMEOUT|ERROR]: the reason is checked before the id, as 7.0.15 does.
Reply client_unblock(CommandContext& ctx) {
  const Command& args = ctx.args;
  if (args.size() > 4) {
    return Reply::error("ERR unknown subcommand or wrong number of arguments for '" + args[1].substr(0, 128) +
                        "'. Try CLIENT HELP.");
  }
  bool with_error = false;
  if (args.size() == 4) {
    if (iequals(args[3], "error")) with_error = true;
    else if (!iequals(args[3], "timeout")) return Reply::error("ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR");
  }
  auto id = parse_int64(args[2]);
  if (!id) return err::not_integer();
  return Reply::integer_reply(ctx.node.unblock(*id, with_error) ? 1 : 0);
}

constexpr ClientSubcommand kClientSubcommands[] = {
    {"getname", 2, [](CommandContext& ctx) { return ctx.session.name.empty() ? Reply::nil() : Reply::bulk(ctx.session.name); }},
    {"getredir", 2, [](CommandContext&) { return Reply::integer_reply(-1); }},
    {"id", 2, [](CommandContext& ctx) { return Reply::integer_reply(ctx.session.client_id); }},
    {"info", 2, [](CommandContext& ctx) { return Reply::verbatim(client_line(ctx.session, ctx.keys.now_ms())); }},
    {"kill", -3, client_kill},
    {"list", -2, client_list},
    {"no-evict", 3, [](CommandContext& ctx) { return client_on_off(ctx, ctx.session.no_evict); }},
    {"reply", 3,
     [](CommandContext& ctx) {
       if (iequals(ctx.args[2], "on")) ctx.session.reply_mode = ReplyMode::on;
       else if (iequals(ctx.args[2], "off")) ctx.session.reply_mode = ReplyMode::off;
       // SKIP while OFF changes nothing: replies stay off (7.0's clientCommand).
       else if (iequals(ctx.args[2], "skip")) {
         if (ctx.session.reply_mode != ReplyMode::off) ctx.session.reply_mode = ReplyMode::skip_next;
       }
       else return err::syntax();
       return Reply::ok();
     }},
    {"setinfo", 4, client_setinfo},
    {"unblock", -3, client_unblock},
    {"setname", 3,
     [](CommandContext& ctx) {
       if (!valid_client_name(ctx.args[2])) return err::reply(kBadName);
       ctx.session.name = ctx.args[2];
       return Reply::ok();
     }},
};

}  // namespace

Reply hello(CommandContext& ctx) {
  const Command& args = ctx.args;
  int version = ctx.session.resp;
  if (args.size() >= 2) {
    auto requested = parse_int64(args[1]);
    if (!requested) return Reply::error("ERR Protocol version is not an integer or out of range");
    if (*requested < 2 || *requested > 3) return Reply::error("NOPROTO unsupported protocol version");
    version = static_cast<int>(*requested);
  }
  // helloCommand applies each option as it reads it: a name set before a failing AUTH, a bad option or a bad
  // name stays set, and so does a user authenticated before one.
  for (std::size_t i = 2; i < args.size(); ++i) {
    const std::size_t more = args.size() - 1 - i;
    if (iequals(args[i], "auth") && more >= 2) {
      if (!authenticate(ctx, args[i + 1], args[i + 2])) return err::reply(kWrongPass);
      i += 2;
    } else if (iequals(args[i], "setname") && more >= 1) {
      const std::string& name = args[++i];
      if (!valid_client_name(name)) return err::reply(kBadName);
      ctx.session.name = name;
    } else {
      return Reply::error("ERR Syntax error in HELLO option '" + args[i] + "'");
    }
  }
  if (ctx.node.auth_required(ctx.session)) {
    return Reply::error("NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO "
                        "AUTH <user> <pass> option can be used to authenticate the client and select the RESP "
                        "protocol version at the same time");
  }
  ctx.session.resp = version;
  const std::string& role = ctx.node.replication().role;
  return Reply::map({Reply::bulk("server"), Reply::bulk("redis"), Reply::bulk("version"), Reply::bulk("7.0.15"),
                     Reply::bulk("proto"), Reply::integer_reply(version), Reply::bulk("id"),
                     Reply::integer_reply(ctx.session.client_id), Reply::bulk("mode"), Reply::bulk(ctx.node.cluster_view() != nullptr ? "cluster" : "standalone"),
                     Reply::bulk("role"), Reply::bulk(role == "master" ? "master" : "replica"), Reply::bulk("modules"),
                     Reply::array({})});
}

Reply auth(CommandContext& ctx) {
  if (ctx.args.size() > 3) return err::syntax();
  if (ctx.args.size() == 2 && ctx.node.acl().default_user()->nopass()) {
    return Reply::error("ERR AUTH <password> called without any password configured for the default user. "
                        "Are you sure your configuration is correct?");
  }
  const std::string user = ctx.args.size() == 2 ? "default" : ctx.args[1];
  if (authenticate(ctx, user, ctx.args.back())) return Reply::ok();
  return err::reply(kWrongPass);
}

Reply client(CommandContext& ctx) {
  for (const ClientSubcommand& sub : kClientSubcommands) {
    if (!iequals(sub.name, ctx.args[1])) continue;
    const std::size_t argc = ctx.args.size();
    const bool arity_ok = sub.arity > 0 ? argc == static_cast<std::size_t>(sub.arity) : argc >= static_cast<std::size_t>(-sub.arity);
    if (!arity_ok) return subcommand_arity("client", ctx.args[1]);
    return sub.run(ctx);
  }
  return Reply::error("ERR unknown subcommand '" + ctx.args[1].substr(0, 128) + "'. Try CLIENT HELP.");
}

}  // namespace lockcheck::mock::cmd
