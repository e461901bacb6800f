// Redis 7 functions: FUNCTION LOAD/DELETE/FLUSH/LIST/STATS/KILL, FCALL and FCALL_RO; and the kill of a
// busy script both SCRIPT KILL and FUNCTION KILL share.
#include "redis/commands/scripting/scripting_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/scripting/function_library.hpp"
#include "redis/util/glob.hpp"
#include "redis/scripting/lua_engine.hpp"
#include "redis/server/node.hpp"
#include "redis/util/numbers.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {
namespace {

Reply syntax_error(std::string_view subcommand) {
  return Reply::error("ERR unknown subcommand or wrong number of arguments for '" + std::string(subcommand) +
                      "'. Try FUNCTION HELP.");
}

Reply load(CommandContext& ctx) {
  const Command& args = ctx.args;
  bool replace = false;
  std::size_t at = 2;
  for (; at + 1 < args.size(); ++at) {
    if (!iequals(args[at], "replace")) return Reply::error("ERR Unknown option given: " + args[at]);
    replace = true;
  }
  if (at >= args.size()) return Reply::error("ERR Function code is missing");
  auto result = ctx.node.functions().load(args[at], replace);
  if (result.error) return Reply::error("ERR " + *result.error);
  return Reply::bulk(result.name);
}

Reply flags_reply(std::uint8_t flags) {
  std::vector<Reply> names;
  for (const FunctionFlagName& known : kFunctionFlagNames) {
    if (flags & known.flag) names.push_back(Reply::status(std::string(known.name)));
  }
  return Reply::set(std::move(names));
}

Reply list(CommandContext& ctx) {
  const Command& args = ctx.args;
  bool with_code = false;
  std::optional<std::string> pattern;
  for (std::size_t i = 2; i < args.size(); ++i) {
    if (!with_code && iequals(args[i], "withcode")) {
      with_code = true;
      continue;
    }
    if (!pattern && iequals(args[i], "libraryname")) {
      if (i + 1 >= args.size()) return Reply::error("ERR library name argument was not given");
      pattern = args[++i];
      continue;
    }
    return Reply::error("ERR Unknown argument " + args[i]);
  }
  std::vector<Reply> out;
  for (const auto& [name, library] : ctx.node.functions().libraries()) {
    if (pattern && !glob_match(*pattern, name, true)) continue;
    std::vector<Reply> functions;
    for (const RegisteredFunction& function : library.functions) {
      functions.push_back(Reply::map({Reply::bulk("name"), Reply::bulk(function.name), Reply::bulk("description"),
                                      function.description ? Reply::bulk(*function.description) : Reply::nil(),
                                      Reply::bulk("flags"), flags_reply(function.flags)}));
    }
    std::vector<Reply> fields{Reply::bulk("library_name"), Reply::bulk(name), Reply::bulk("engine"), Reply::bulk("LUA"),
                              Reply::bulk("functions"), Reply::array(std::move(functions))};
    if (with_code) {
      fields.push_back(Reply::bulk("library_code"));
      fields.push_back(Reply::bulk(library.code));
    }
    out.push_back(Reply::map(std::move(fields)));
  }
  return Reply::array(std::move(out));
}

Reply stats(CommandContext& ctx) {
  const LuaEngine::Running* running = ctx.node.lua().running();
  if (running != nullptr && running->is_eval) return err::reply(err::kBusyEval);
  Reply running_reply = Reply::nil();
  if (running != nullptr) {
    std::vector<Reply> command;
    for (const std::string& arg : *running->caller) command.push_back(Reply::bulk(arg));
    running_reply = Reply::map({Reply::bulk("name"), Reply::bulk(std::string(running->name)), Reply::bulk("command"),
                                Reply::array(std::move(command)), Reply::bulk("duration_ms"),
                                Reply::integer_reply(ctx.node.now_ms() - running->start_ms)});
  }
  const FunctionLibraries& functions = ctx.node.functions();
  Reply engine = Reply::map({Reply::bulk("libraries_count"),
                             Reply::integer_reply(static_cast<std::int64_t>(functions.libraries().size())),
                             Reply::bulk("functions_count"),
                             Reply::integer_reply(static_cast<std::int64_t>(functions.function_count()))});
  return Reply::map({Reply::bulk("running_script"), std::move(running_reply), Reply::bulk("engines"),
                     Reply::map({Reply::bulk("LUA"), std::move(engine)})});
}

Reply fcall_generic(CommandContext& ctx, bool read_only) {
  const Command& args = ctx.args;
  const RegisteredFunction* function = ctx.node.functions().find(args[1]);
  if (function == nullptr) return Reply::error("ERR Function not found");
  auto numkeys = parse_int64(args[2]);
  if (!numkeys) return Reply::error("ERR Bad number of keys provided");
  if (*numkeys > static_cast<std::int64_t>(args.size()) - 3) {
    return Reply::error("ERR Number of keys can't be greater than number of args");
  }
  if (*numkeys < 0) return Reply::error("ERR Number of keys can't be negative");
  auto first_key = args.begin() + 3;
  auto first_arg = first_key + *numkeys;
  return ctx.node.lua().call_function(*function, std::span<const std::string>(first_key, first_arg),
                                      std::span<const std::string>(first_arg, args.end()), read_only, args);
}

}  // namespace

Reply kill_running_script(CommandContext& ctx, bool is_eval) {
  LuaEngine& lua = ctx.node.lua();
  const LuaEngine::Running* running = lua.running();
  if (running == nullptr) return Reply::error("NOTBUSY No scripts in execution right now.");
  if (running->wrote) {
    return Reply::error(
        "UNKILLABLE Sorry the script already executed write commands against the dataset. You can either wait the "
        "script termination or kill the server in a hard way using the SHUTDOWN NOSAVE command.");
  }
  if (is_eval && !running->is_eval) return err::reply(err::kBusyFunction);
  if (!is_eval && running->is_eval) return err::reply(err::kBusyEval);
  lua.request_kill();
  return Reply::ok();
}

Reply function(CommandContext& ctx) {
  const Command& args = ctx.args;
  const std::string sub = to_lower(args[1]);
  // FUNCTION LOAD and RESTORE may grow memory (deny-oom in Redis's table): refused while out of memory.
  if ((sub == "load" || sub == "restore") && ctx.node.memory_limited() && !ctx.node.make_room()) {
    return err::reply(err::kOom);
  }
  if (sub == "load") return load(ctx);
  if (sub == "list") return list(ctx);
  if (sub == "stats") return stats(ctx);
  if (sub == "kill") return kill_running_script(ctx, false);
  if (sub == "delete") {
    if (!ctx.node.functions().remove(args[2])) return Reply::error("ERR Library not found");
    return Reply::ok();
  }
  if (sub == "flush") {
    if (args.size() > 3) return syntax_error("flush");
    if (args.size() == 3 && !iequals(args[2], "sync") && !iequals(args[2], "async")) {
      return Reply::error("ERR FUNCTION FLUSH only supports SYNC|ASYNC option");
    }
    ctx.node.functions().flush();
    return Reply::ok();
  }
  if (sub == "dump") return function_dump(ctx);
  if (sub == "restore") return function_restore(ctx);
  return Reply::error("ERR unknown subcommand '" + args[1].substr(0, 128) + "'. Try FUNCTION HELP.");
}

Reply fcall(CommandContext& ctx) { return fcall_generic(ctx, false); }
Reply fcall_ro(CommandContext& ctx) { return fcall_generic(ctx, true); }

}  // namespace lockcheck::mock::cmd
