// Server, connection and pub/sub commands.
#include "commands.hpp"
#include "errors.hpp"
#include "node.hpp"
#include "numbers.hpp"
#include "text.hpp"

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

}  // namespace lockcheck::mock::cmd
