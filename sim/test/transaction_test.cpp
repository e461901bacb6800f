// MULTI/EXEC through the simulated network: queued on the node, run together at EXEC on the node's clock; a
// client's crash closes its connections, so a transaction it left open dies with it (as on Redis).
#include <gtest/gtest.h>

#include <memory>

#include "core/simulate.hpp"
#include "core/world.hpp"
#include "direct_call.hpp"
#include "redis/server/node.hpp"

namespace lockcheck::sim {
namespace {

RunConfig one_client_one_node() { return one_client_config(1); }

std::string call(World& world, Command command) { return call_master(world, std::move(command)); }

bool has_key(World& world, const std::string& key) {
  return world.node(0).mock().keyspace().database(0).entries.count(key) == 1;
}

TEST(SimTransaction, QueuedCommandsRunOnlyAtExec) {
  World world(one_client_one_node(), 1);
  EXPECT_EQ(call(world, {"MULTI"}), to_string(Reply::ok()));
  EXPECT_EQ(call(world, {"SET", "lock", "me", "PX", "30000"}), to_string(Reply::status("QUEUED")));
  EXPECT_FALSE(has_key(world, "lock"));
  EXPECT_EQ(call(world, {"EXEC"}), to_string(Reply::array({Reply::ok()})));
  EXPECT_TRUE(has_key(world, "lock"));
}

TEST(SimTransaction, ACrashedClientsOpenTransactionDiesWithItsConnection) {
  World world(one_client_one_node(), 1);
  EXPECT_EQ(call(world, {"WATCH", "lock"}), to_string(Reply::ok()));
  EXPECT_EQ(call(world, {"MULTI"}), to_string(Reply::ok()));
  world.apply(FaultSpec{.kind = FaultKind::crash, .process = 0});
  world.apply(FaultSpec{.kind = FaultKind::restart, .process = 0});
  EXPECT_EQ(call(world, {"SET", "lock", "me", "PX", "30000"}), to_string(Reply::ok())) << "not QUEUED on a new connection";
  EXPECT_TRUE(has_key(world, "lock"));
  EXPECT_EQ(call(world, {"EXEC"}), to_string(Reply::error("ERR EXEC without MULTI")));
}

// A DEL of "victim" (set by the same client first) sent on 5 ms links, then `crash` and `restart` applied while it
// is on its way; runs 20 ms. Returns the DEL's call. ("victim" is not the workload's key: a restarted client's own
// workload may take that one.)
std::shared_ptr<PendingCall> del_across(World& world, const FaultSpec& crash, const FaultSpec& restart) {
  EXPECT_EQ(call_master(world, {"SET", "victim", "other", "PX", "30000"}, 20000), to_string(Reply::ok()));
  auto pending = std::make_shared<PendingCall>();
  world.send(world.client(0), 0, {"DEL", "victim"}, pending);
  world.apply(crash);
  world.apply(restart);
  world.scheduler().run_until(world.scheduler().now() + 20000, 1000000);
  return pending;
}

RunConfig slow_links() {
  RunConfig config = one_client_one_node();
  config.link.delay_min_us = 5000;
  config.link.delay_max_us = 5000;
  return config;
}

// A command on its way when the node crashed never reaches the restarted node: its connection died with the old
// incarnation (TCP), so it is not run on a new session, and its caller learns the connection was reset. Found by
// the explore gate at 1000 runs, seed 29: watch-cas's DEL, sent after its MULTI on a connection that a node crash
// ended, reached the restarted node, ran outside any transaction and deleted another client's lock.
TEST(SimTransaction, ACommandInFlightAcrossANodeCrashDiesWithItsConnection) {
  World world(slow_links(), 1);
  const auto pending = del_across(world, FaultSpec{.kind = FaultKind::node_crash, .node = 0},
                                  FaultSpec{.kind = FaultKind::node_restart, .node = 0, .mode = RestartMode::kept});
  ASSERT_TRUE(pending->settled);
  EXPECT_FALSE(pending->result.replied()) << to_string(pending->result.reply);
  EXPECT_TRUE(has_key(world, "victim")) << "the DEL ran on the restarted node";
}

// A command a client sent before it crashed, still on its way after the client restarted, belongs to the dead
// incarnation's connection, which ended at the restart: it runs on no session, least of all the new one (where a
// DEL meant for a transaction would run at once). Found by the explore gate at 1000 runs, seed 77: watch-cas's
// DEL of a dead incarnation deleted another client's lock.
TEST(SimTransaction, ACommandOfADeadIncarnationNeverRunsOnItsSuccessorsConnection) {
  World world(slow_links(), 1);
  del_across(world, FaultSpec{.kind = FaultKind::crash, .process = 0}, FaultSpec{.kind = FaultKind::restart, .process = 0});
  EXPECT_TRUE(has_key(world, "victim")) << "the dead incarnation's DEL ran on the restarted client's connection";
}

// A call that timed out ends its connection, as the production port drops it (lib/lockcheck/hiredis_port.cpp):
// the transaction open on it ends with it, and the port's connection epoch changes at once, so a MULTI's write
// guarded by call_on_connection is refused, never queued on another connection or run outside the transaction.
TEST(SimTransaction, ACallThatTimedOutEndsItsConnectionsTransaction) {
  World world(one_client_one_node(), 1);
  EXPECT_EQ(call(world, {"MULTI"}), to_string(Reply::ok()));
  const std::uint64_t epoch = world.connection_epoch(0, 0);
  world.apply(FaultSpec{.kind = FaultKind::loss, .reply_loss_ppm = 1000000});
  auto queued = std::make_shared<PendingCall>();
  world.send(world.client(0), 0, {"SET", "lock", "me", "PX", "30000"}, queued);
  world.scheduler().run_until(world.scheduler().now() + 61000000, 1000000);
  ASSERT_TRUE(queued->settled);
  EXPECT_FALSE(queued->result.replied()) << "the QUEUED reply was lost: the call timed out";
  EXPECT_NE(world.connection_epoch(0, 0), epoch) << "the port would go on using the connection it dropped";
  world.apply(FaultSpec{.kind = FaultKind::loss, .reply_loss_ppm = 0});
  EXPECT_EQ(call(world, {"EXEC"}), to_string(Reply::error("ERR EXEC without MULTI")));
  EXPECT_FALSE(has_key(world, "lock")) << "the SET queued on the dropped connection ran";
}

}  // namespace
}  // namespace lockcheck::sim
