// Server, connection and pub/sub commands.
#include "redis/commands/admin/admin_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/server/node.hpp"
#include "redis/util/numbers.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {

Reply ping(CommandContext& ctx) {
  if (ctx.args.size() > 2) return err::arity("ping");
  if (ctx.resp == 2 && ctx.session.subscribed()) {
    // RESP2 subscribed mode answers PING with a push-shaped array.
    return Reply::array({Reply::bulk("pong"), Reply::bulk(ctx.args.size() == 2 ? ctx.args[1] : "")});
  }
  return ctx.args.size() == 2 ? Reply::bulk(ctx.args[1]) : Reply::status("PONG");
}

Reply echo(CommandContext& ctx) { return Reply::bulk(ctx.args[1]); }

Reply time(CommandContext& ctx) {
  // The node clock only has milliseconds; microseconds are its millisecond part.
  std::int64_t now_ms = ctx.keys.now_ms();
  std::int64_t seconds = now_ms / 1000;
  std::int64_t micros = (now_ms % 1000) * 1000;
  if (micros < 0) {
    micros += 1'000'000;
    seconds -= 1;
  }
  return Reply::array({Reply::bulk(std::to_string(seconds)), Reply::bulk(std::to_string(micros))});
}

Reply wait(CommandContext& ctx) {
  auto numreplicas = parse_int64(ctx.args[1]);
  if (!numreplicas) return err::not_integer();
  auto timeout_ms = parse_int64(ctx.args[2]);
  if (!timeout_ms) return Reply::error("ERR timeout is not an integer or out of range");
  if (*timeout_ms < 0) return Reply::error("ERR timeout is negative");
  return Reply::integer_reply(ctx.node.wait_replicas(ctx.session.client_id, *numreplicas, *timeout_ms));
}

Reply quit(CommandContext& ctx) {
  ctx.session.close_requested = true;
  return Reply::ok();
}

// SHUTDOWN [NOSAVE | SAVE] [NOW] [FORCE] [ABORT], parsed as Redis 7.0 does. The node has no persistence, so
// SAVE and NOSAVE both just stop; a transport that can stop (lockcheck serve) does so without answering, as
// redis-server exits. Without one (the simulator) it is Redis's reply to a shutdown that failed.
Reply shutdown(CommandContext& ctx) {
  if (ctx.session.transaction.open) {  // Redis's CMD_NO_MULTI: refused, and EXEC then aborts
    ctx.session.transaction.aborted = true;
    return Reply::error("ERR Command not allowed inside a transaction");
  }
  bool nosave = false, save = false, abort = false, now_or_force = false;
  for (std::size_t i = 1; i < ctx.args.size(); ++i) {
    const std::string& arg = ctx.args[i];
    if (iequals(arg, "nosave")) nosave = true;
    else if (iequals(arg, "save")) save = true;
    else if (iequals(arg, "now") || iequals(arg, "force")) now_or_force = true;
    else if (iequals(arg, "abort")) abort = true;
    else return Reply::error("ERR syntax error");
  }
  if ((abort && (nosave || save || now_or_force)) || (nosave && save)) return Reply::error("ERR syntax error");
  if (abort) return Reply::error("ERR No shutdown in progress.");
  const auto& stop = ctx.node.clients().shutdown;
  if (!stop || !stop()) return Reply::error("ERR Errors trying to SHUTDOWN. Check logs.");
  ctx.session.close_requested = true;
  return Reply::ok();  // not sent: the transport drops this connection's output and stops
}

// monitorCommand (7.0.15): refused inside EXEC (CLIENT_DENY_BLOCKING); a second MONITOR on the connection is
// ignored without any reply; otherwise the connection sees every command from now on (node_monitor.cpp).
Reply monitor(CommandContext& ctx) {
  if (ctx.session.running_exec) return Reply::error("ERR MONITOR isn't allowed for DENY BLOCKING client");
  if (ctx.session.monitor) {
    ctx.session.reply_withheld = true;
    return Reply::ok();
  }
  ctx.node.add_monitor(ctx.session);
  return Reply::ok();
}

}  // namespace lockcheck::mock::cmd
