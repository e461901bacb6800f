// MULTI/EXEC/DISCARD/WATCH/UNWATCH. Queueing happens in Node::execute; EXEC runs the queue in one command,
// so nothing else runs in between (the node is single-threaded, as Redis is) and it sees one clock reading.
#include "redis/commands/transactions/transactions_family.hpp"
#include "redis/server/node.hpp"

namespace lockcheck::mock::cmd {

Reply multi(CommandContext& ctx) {
  if (ctx.session.transaction.open) return Reply::error("ERR MULTI calls can not be nested");
  ctx.session.transaction.open = true;
  return Reply::ok();
}

Reply exec(CommandContext& ctx) {
  if (!ctx.session.transaction.open) return Reply::error("ERR EXEC without MULTI");
  Transaction transaction = std::exchange(ctx.session.transaction, Transaction{});
  const bool watch_broken = ctx.node.watched_key_changed(ctx.session);
  ctx.node.unwatch_all(ctx.session);
  if (transaction.aborted) return Reply::error("EXECABORT Transaction discarded because of previous errors.");
  if (watch_broken) return Reply::null_array();
  std::vector<Reply> replies;
  replies.reserve(transaction.queued.size());
  ctx.session.running_exec = true;
  for (const Command& command : transaction.queued) replies.push_back(ctx.node.run_queued(command, ctx.session));
  ctx.session.running_exec = false;
  return Reply::array(std::move(replies));
}

Reply discard(CommandContext& ctx) {
  if (!ctx.session.transaction.open) return Reply::error("ERR DISCARD without MULTI");
  ctx.session.transaction = {};
  ctx.node.unwatch_all(ctx.session);
  return Reply::ok();
}

Reply watch(CommandContext& ctx) {
  if (ctx.session.transaction.open) return Reply::error("ERR WATCH inside MULTI is not allowed");
  for (std::size_t i = 1; i < ctx.args.size(); ++i) ctx.node.watch(ctx.session, ctx.args[i]);
  return Reply::ok();
}

Reply unwatch(CommandContext& ctx) {
  ctx.node.unwatch_all(ctx.session);
  return Reply::ok();
}

}  // namespace lockcheck::mock::cmd
