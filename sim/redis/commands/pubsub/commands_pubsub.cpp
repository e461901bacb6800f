// Pub/sub: PUBLISH, SPUBLISH, (P|S)SUBSCRIBE, (P|S)UNSUBSCRIBE and PUBSUB CHANNELS / NUMSUB / NUMPAT /
// SHARDCHANNELS / SHARDNUMSUB / HELP. Confirmations and messages are RESP3 pushes (arrays on RESP2).
#include <array>

#include "redis/commands/pubsub/pubsub_family.hpp"
#include "redis/server/node.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {
namespace {

constexpr std::array kPubsubHelp = std::to_array<std::string_view>({
    "PUBSUB <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
    "CHANNELS [<pattern>]",
    "    Return the currently active channels matching a <pattern> (default: '*').",
    "NUMPAT",
    "    Return number of subscriptions to patterns.",
    "NUMSUB [<channel> ...]",
    "    Return the number of subscribers for the specified channels, excluding",
    "    pattern subscriptions(default: no channels).",
    "SHARDCHANNELS [<pattern>]",
    "    Return the currently active shard level channels matching a <pattern> (default: '*').",
    "SHARDNUMSUB [<shardchannel> ...]",
    "    Return the number of subscribers for the specified shard level channel(s)",
    "HELP",
    "    Prints this help.",
});

Reply channel_names(CommandContext& ctx, SubscriptionKind kind) {
  const std::string* pattern = ctx.args.size() == 3 ? &ctx.args[2] : nullptr;
  std::vector<Reply> out;
  for (std::string& name : ctx.node.pubsub().names(kind, pattern)) out.push_back(Reply::bulk(std::move(name)));
  return Reply::array(std::move(out));
}

Reply subscriber_counts(CommandContext& ctx, SubscriptionKind kind) {
  std::vector<Reply> out;
  for (std::size_t i = 2; i < ctx.args.size(); ++i) {
    out.push_back(Reply::bulk(ctx.args[i]));
    out.push_back(Reply::integer_reply(ctx.node.pubsub().subscribers(kind, ctx.args[i])));
  }
  return Reply::array(std::move(out));
}

}  // namespace

Reply publish(CommandContext& ctx) { return Reply::integer_reply(ctx.node.publish(ctx.args[1], ctx.args[2])); }
Reply spublish(CommandContext& ctx) { return Reply::integer_reply(ctx.node.shard_publish(ctx.args[1], ctx.args[2])); }

Reply subscribe(CommandContext& ctx) { return ctx.node.subscribe(ctx.session, ctx.args, SubscriptionKind::channel); }
Reply unsubscribe(CommandContext& ctx) { return ctx.node.unsubscribe(ctx.session, ctx.args, SubscriptionKind::channel); }
Reply psubscribe(CommandContext& ctx) { return ctx.node.subscribe(ctx.session, ctx.args, SubscriptionKind::pattern); }
Reply punsubscribe(CommandContext& ctx) { return ctx.node.unsubscribe(ctx.session, ctx.args, SubscriptionKind::pattern); }
// Unlike SUBSCRIBE and PSUBSCRIBE, 7.0 refuses SSUBSCRIBE inside EXEC (a DENY BLOCKING client).
Reply ssubscribe(CommandContext& ctx) {
  if (ctx.session.running_exec) return Reply::error("ERR SSUBSCRIBE isn't allowed for a DENY BLOCKING client");
  return ctx.node.subscribe(ctx.session, ctx.args, SubscriptionKind::shard);
}
Reply sunsubscribe(CommandContext& ctx) { return ctx.node.unsubscribe(ctx.session, ctx.args, SubscriptionKind::shard); }

// Subcommand names and arities were checked before (subcommands.cpp); CHANNELS and SHARDCHANNELS take at
// most one pattern, which pubsubCommand itself checks.
Reply pubsub(CommandContext& ctx) {
  const std::string sub = to_lower(ctx.args[1]);
  if ((sub == "channels" || sub == "shardchannels") && ctx.args.size() > 3) {
    return Reply::error("ERR unknown subcommand or wrong number of arguments for '" + ctx.args[1].substr(0, 128) +
                        "'. Try PUBSUB HELP.");
  }
  if (sub == "channels") return channel_names(ctx, SubscriptionKind::channel);
  if (sub == "shardchannels") return channel_names(ctx, SubscriptionKind::shard);
  if (sub == "numsub") return subscriber_counts(ctx, SubscriptionKind::channel);
  if (sub == "shardnumsub") return subscriber_counts(ctx, SubscriptionKind::shard);
  if (sub == "numpat") return Reply::integer_reply(static_cast<std::int64_t>(ctx.node.pubsub().size(SubscriptionKind::pattern)));
  std::vector<Reply> lines;
  for (std::string_view line : kPubsubHelp) lines.push_back(Reply::status(std::string(line)));
  return Reply::array(std::move(lines));
}

}  // namespace lockcheck::mock::cmd
