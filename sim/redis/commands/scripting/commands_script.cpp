// EVAL, EVALSHA (and their _RO forms) and SCRIPT LOAD / EXISTS / FLUSH / KILL.
#include "redis/commands/scripting/scripting_family.hpp"
#include "redis/command_table/errors.hpp"
#include "lockcheck/sha1.hpp"
#include "redis/scripting/lua_engine.hpp"
#include "redis/server/node.hpp"
#include "redis/util/numbers.hpp"
#include "redis/util/text.hpp"

#include <string>

namespace lockcheck::mock::cmd {
namespace {

Reply eval_generic(CommandContext& ctx, bool by_sha, bool read_only) {
  const Command& args = ctx.args;
  auto numkeys = parse_int64(args[2]);
  if (!numkeys) return err::not_integer();
  if (*numkeys > static_cast<std::int64_t>(args.size()) - 3) {
    return Reply::error("ERR Number of keys can't be greater than number of args");
  }
  if (*numkeys < 0) return Reply::error("ERR Number of keys can't be negative");
  LuaEngine& lua = ctx.node.lua();
  auto first_key = args.begin() + 3;
  auto first_arg = first_key + *numkeys;
  std::span<const std::string> keys(first_key, first_arg);
  std::span<const std::string> argv(first_arg, args.end());
  if (by_sha) {
    if (args[1].size() != 40) return err::reply(err::kNoScript);
    char lower[40];  // EVALSHA is case-insensitive; lowered in place, as every EVALSHA of a run pays for it
    return lua.run(lower_into(args[1], lower), keys, argv, read_only, args);
  }
  // Remembered: a simulated run sends the same few bodies by EVAL thousands of times (Redlock's undo, scripts
  // sent whole), and hashing one cost more than running it. Redis hashes every EVAL; the reply is the same.
  const std::string& sha = remembered_sha1_hex(args[1]);
  if (!lua.has(sha)) {
    if (auto failure = lua.load(sha, args[1])) return std::move(*failure);
  }
  return lua.run(sha, keys, argv, read_only, args);
}

}  // namespace

Reply eval(CommandContext& ctx) { return eval_generic(ctx, false, false); }
Reply evalsha(CommandContext& ctx) { return eval_generic(ctx, true, false); }
Reply eval_ro(CommandContext& ctx) { return eval_generic(ctx, false, true); }
Reply evalsha_ro(CommandContext& ctx) { return eval_generic(ctx, true, true); }

Reply script(CommandContext& ctx) {
  const Command& args = ctx.args;
  std::string sub = to_lower(args[1]);
  LuaEngine& lua = ctx.node.lua();
  if (sub == "load") {
    if (args.size() != 3) return err::arity("script|load");
    std::string sha = sha1_hex(args[2]);
    if (!lua.has(sha)) {
      if (auto failure = lua.load(sha, args[2])) return std::move(*failure);
    }
    return Reply::bulk(sha);
  }
  if (sub == "exists") {
    if (args.size() < 3) return err::arity("script|exists");
    std::vector<Reply> out;
    for (std::size_t i = 2; i < args.size(); ++i) out.push_back(Reply::integer_reply(lua.has(to_lower(args[i])) ? 1 : 0));
    return Reply::array(std::move(out));
  }
  if (sub == "flush") {
    if (args.size() > 3) return err::arity("script|flush");
    if (args.size() == 3 && !iequals(args[2], "sync") && !iequals(args[2], "async")) {
      return Reply::error("ERR SCRIPT FLUSH only support SYNC|ASYNC option");
    }
    lua.flush();
    return Reply::ok();
  }
  if (sub == "kill") return kill_running_script(ctx, true);
  return Reply::error("ERR unknown subcommand '" + args[1] + "'. Try SCRIPT HELP.");
}

}  // namespace lockcheck::mock::cmd
