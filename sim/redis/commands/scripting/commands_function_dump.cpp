// FUNCTION DUMP and FUNCTION RESTORE payload [FLUSH|APPEND|REPLACE], as redis-server 7.0.15's
// functionDumpCommand / functionRestoreCommand: the payload (function_dump.hpp) is checked and every library
// in it loaded aside first; only then are they joined to the node's, all or nothing.
#include <map>
#include <set>

#include "redis/commands/scripting/scripting_family.hpp"
#include "redis/rdb/function_dump.hpp"
#include "redis/scripting/function_library.hpp"
#include "redis/server/node.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {

Reply function_dump(CommandContext& ctx) {
  std::vector<std::string> codes;
  for (const auto& [name, library] : ctx.node.functions().libraries()) codes.push_back(library.code);
  return Reply::bulk(dump_function_codes(codes));
}

Reply function_restore(CommandContext& ctx) {
  const Command& args = ctx.args;
  if (args.size() > 4) {
    // addReplySubcommandSyntaxError names the subcommand as the client spelled it.
    return Reply::error("ERR unknown subcommand or wrong number of arguments for '" + args[1] + "'. Try FUNCTION HELP.");
  }
  const std::string policy = args.size() == 4 ? to_lower(args[3]) : "append";
  if (policy != "append" && policy != "replace" && policy != "flush") {
    return Reply::error("ERR Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE.");
  }
  auto read = read_function_payload(args[2]);
  if (auto* failure = std::get_if<ReadPayloadError>(&read)) {
    if (failure->bad_footer) return Reply::error("ERR DUMP payload version or checksum are wrong");
    return Reply::error("ERR " + failure->text);
  }
  const auto& codes = std::get<std::vector<std::string>>(read);

  // Loaded aside: the payload's own errors (bad code, a library or function twice) leave the node untouched.
  std::map<std::string, std::map<std::string, std::string>> incoming;  // library -> lower-case name -> name
  {
    FunctionLibraries staging(ctx.node.lua());
    for (const std::string& code : codes) {
      auto loaded = staging.load(code, false);
      if (loaded.error) return Reply::error("ERR " + *loaded.error);
    }
    for (const auto& [name, library] : staging.libraries()) {
      for (const RegisteredFunction& function : library.functions) incoming[name].emplace(to_lower(function.name), function.name);
    }
  }
  FunctionLibraries& live = ctx.node.functions();
  if (policy != "flush") {
    // libraryJoin: a library of the same name is an error (APPEND) or goes (REPLACE); then no function of the
    // libraries that stay may share a name with an incoming one (named as the payload spells it).
    std::set<std::string> staying_functions;  // lower case
    for (const auto& [name, library] : live.libraries()) {
      if (incoming.contains(name)) {
        if (policy == "append") return Reply::error("ERR Library " + name + " already exists");
        continue;
      }
      for (const RegisteredFunction& function : library.functions) staying_functions.insert(to_lower(function.name));
    }
    for (const auto& [name, functions] : incoming) {
      for (const auto& [lower, function] : functions) {
        if (staying_functions.contains(lower)) return Reply::error("ERR Function " + function + " already exists");
      }
    }
  } else {
    live.flush();
  }
  for (const std::string& code : codes) live.load(code, true);  // each loaded aside already: no error here
  return Reply::ok();
}

}  // namespace lockcheck::mock::cmd
