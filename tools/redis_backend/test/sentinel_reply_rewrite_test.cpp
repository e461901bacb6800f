// An external client of a [sentinel] learns only its fronts: what the sentinels and the data nodes say about
// where the data nodes and the sentinels are (captured from redis-server / redis-sentinel 7.0.15: a master on
// 27101, its replica announcing 27202, a sentinel announcing 27482; the replica's entry in SENTINEL REPLICAS
// edited to a linked one, and INFO shortened) comes out naming the fronts.
#include "address_filter.hpp"
#include "resp_value.hpp"
#include "resp_text.hpp"
#include "sentinel_reply_rewrite.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace lockcheck::redis_backend {
namespace {

using namespace testing_text;

const PortMap kSentinelFronts{{27101, 41101}, {27202, 41202}, {27482, 41482}};

std::string via_fronts(const std::string& text) { return with_fronts(text, kSentinelFronts); }

const std::string kMasterAddress = "*2\r\n$9\r\n127.0.0.1\r\n$5\r\n27101\r\n";
const std::string kMaster =
    "*40\r\n$4\r\nname\r\n$8\r\nmymaster\r\n$2\r\nip\r\n$9\r\n127.0.0.1\r\n$4\r\nport\r\n$5\r\n27101\r\n$5\r\nrunid\r\n$40\r\n"
    "4b4b7cd71f84b07e1659aa57e0f51d07d6199043\r\n$5\r\nflags\r\n$6\r\nmaster\r\n$21\r\nlink-pending-commands\r\n$1\r\n0\r\n"
    "$13\r\nlink-refcount\r\n$1\r\n1\r\n$14\r\nlast-ping-sent\r\n$1\r\n0\r\n$18\r\nlast-ok-ping-reply\r\n$3\r\n569\r\n"
    "$15\r\nlast-ping-reply\r\n$3\r\n569\r\n$23\r\ndown-after-milliseconds\r\n$4\r\n2000\r\n$12\r\ninfo-refresh\r\n$4\r\n7812\r\n"
    "$13\r\nrole-reported\r\n$6\r\nmaster\r\n$18\r\nrole-reported-time\r\n$4\r\n7871\r\n$12\r\nconfig-epoch\r\n$1\r\n0\r\n"
    "$10\r\nnum-slaves\r\n$1\r\n1\r\n$19\r\nnum-other-sentinels\r\n$1\r\n1\r\n$6\r\nquorum\r\n$1\r\n1\r\n$16\r\nfailover-timeout\r\n"
    "$6\r\n180000\r\n$14\r\nparallel-syncs\r\n$1\r\n1\r\n";
const std::string kReplicas =
    "*1\r\n*44\r\n$4\r\nname\r\n$15\r\n127.0.0.1:27202\r\n$2\r\nip\r\n$9\r\n127.0.0.1\r\n$4\r\nport\r\n$5\r\n27202\r\n$5\r\nrunid\r\n"
    "$0\r\n\r\n$5\r\nflags\r\n$5\r\nslave\r\n$21\r\nlink-pending-commands\r\n$1\r\n3\r\n$13\r\nlink-refcount\r\n$1\r\n1\r\n"
    "$14\r\nlast-ping-sent\r\n$4\r\n8432\r\n$18\r\nlast-ok-ping-reply\r\n$4\r\n8432\r\n$15\r\nlast-ping-reply\r\n$4\r\n8432\r\n"
    "$11\r\ns-down-time\r\n$4\r\n6357\r\n$23\r\ndown-after-milliseconds\r\n$4\r\n2000\r\n$12\r\ninfo-refresh\r\n$1\r\n0\r\n"
    "$13\r\nrole-reported\r\n$5\r\nslave\r\n$18\r\nrole-reported-time\r\n$4\r\n8432\r\n$21\r\nmaster-link-down-time\r\n$1\r\n0\r\n"
    "$18\r\nmaster-link-status\r\n$2\r\nok\r\n$11\r\nmaster-host\r\n$9\r\n127.0.0.1\r\n$11\r\nmaster-port\r\n$5\r\n27101\r\n"
    "$14\r\nslave-priority\r\n$3\r\n100\r\n$17\r\nslave-repl-offset\r\n$1\r\n0\r\n$17\r\nreplica-announced\r\n$1\r\n1\r\n";
const std::string kSentinels =
    "*1\r\n*30\r\n$4\r\nname\r\n$40\r\nf7f8d53704cdca827944401831ef106070d3020d\r\n$2\r\nip\r\n$9\r\n127.0.0.1\r\n$4\r\nport\r\n"
    "$5\r\n27482\r\n$5\r\nrunid\r\n$40\r\nf7f8d53704cdca827944401831ef106070d3020d\r\n$5\r\nflags\r\n$8\r\nsentinel\r\n"
    "$21\r\nlink-pending-commands\r\n$1\r\n0\r\n$13\r\nlink-refcount\r\n$1\r\n1\r\n$14\r\nlast-ping-sent\r\n$1\r\n0\r\n"
    "$18\r\nlast-ok-ping-reply\r\n$4\r\n6981\r\n$15\r\nlast-ping-reply\r\n$4\r\n6981\r\n$11\r\ns-down-time\r\n$4\r\n4955\r\n"
    "$23\r\ndown-after-milliseconds\r\n$4\r\n2000\r\n$18\r\nlast-hello-message\r\n$3\r\n825\r\n$12\r\nvoted-leader\r\n$1\r\n?\r\n"
    "$18\r\nvoted-leader-epoch\r\n$1\r\n0\r\n";
const std::string kMasterRole = "*3\r\n$6\r\nmaster\r\n:1400\r\n*1\r\n*3\r\n$9\r\n127.0.0.1\r\n$5\r\n27202\r\n$4\r\n1400\r\n";
const std::string kReplicaRole = "*5\r\n$5\r\nslave\r\n$9\r\n127.0.0.1\r\n:27101\r\n$9\r\nconnected\r\n:1668\r\n";
const std::string kSentinelRole = "*2\r\n$8\r\nsentinel\r\n*1\r\n$8\r\nmymaster\r\n";
const std::string kMasterInfo =
    "# Replication\r\nrole:master\r\nconnected_slaves:1\r\nslave0:ip=127.0.0.1,port=27202,state=online,offset=1400,lag=1\r\n"
    "master_failover_state:no-failover\r\nmaster_repl_offset:1400\r\n\r\n";
const std::string kReplicaInfo =
    "# Replication\r\nrole:slave\r\nmaster_host:127.0.0.1\r\nmaster_port:27101\r\nmaster_link_status:up\r\n"
    "slave_repl_offset:1668\r\n\r\n# Server\r\nredis_version:7.0.15\r\ntcp_port:27202\r\n";
const std::string kSentinelInfo =
    "# Sentinel\r\nsentinel_masters:1\r\nsentinel_tilt:0\r\nsentinel_tilt_since_seconds:-1\r\n"
    "master0:name=mymaster,status=ok,address=127.0.0.1:27101,slaves=1,sentinels=2\r\n\r\n";

std::string message(const std::string& channel, const std::string& payload) {
  return command({"message", channel, payload});
}

TEST(SentinelReplyRewrite, QueriesAreToldByTheirWords) {
  EXPECT_EQ(sentinel_query_of({"SENTINEL", "get-master-addr-by-name", "mymaster"}), SentinelQuery::master_address);
  EXPECT_EQ(sentinel_query_of({"sentinel", "MASTER", "mymaster"}), SentinelQuery::instance);
  for (const char* sub : {"masters", "replicas", "SLAVES", "sentinels"}) EXPECT_EQ(sentinel_query_of({"SENTINEL", sub, "m"}), SentinelQuery::instances);
  EXPECT_EQ(sentinel_query_of({"SENTINEL", "INFO-CACHE", "mymaster"}), SentinelQuery::info_cache);
  EXPECT_EQ(sentinel_query_of({"role"}), SentinelQuery::role);
  EXPECT_EQ(sentinel_query_of({"INFO", "replication"}), SentinelQuery::info);
  EXPECT_EQ(sentinel_query_of({"SENTINEL", "CKQUORUM", "mymaster"}), SentinelQuery::other);
  EXPECT_EQ(sentinel_query_of({"GET", "role"}), SentinelQuery::other);
}

TEST(SentinelReplyRewrite, WhatTheSentinelsSayNamesTheFronts) {
  EXPECT_EQ(rewrite_sentinel_reply(SentinelQuery::master_address, kMasterAddress, kSentinelFronts), via_fronts(kMasterAddress));
  EXPECT_EQ(rewrite_sentinel_reply(SentinelQuery::instance, kMaster, kSentinelFronts), via_fronts(kMaster));
  EXPECT_EQ(rewrite_sentinel_reply(SentinelQuery::instances, "*1\r\n" + kMaster, kSentinelFronts), via_fronts("*1\r\n" + kMaster));
  // A replica's name ("ip:port"), its port and its master's port; a sentinel's port.
  EXPECT_EQ(rewrite_sentinel_reply(SentinelQuery::instances, kReplicas, kSentinelFronts), via_fronts(kReplicas));
  EXPECT_EQ(rewrite_sentinel_reply(SentinelQuery::instances, kSentinels, kSentinelFronts), via_fronts(kSentinels));
  EXPECT_EQ(rewrite_sentinel_reply(SentinelQuery::info, bulk(kSentinelInfo), kSentinelFronts), bulk(via_fronts(kSentinelInfo)));
  // A front of another length: the bulk lengths follow.
  EXPECT_EQ(rewrite_sentinel_reply(SentinelQuery::master_address, kMasterAddress, PortMap{{27101, 7}}), "*2\r\n$9\r\n127.0.0.1\r\n$1\r\n7\r\n");
  EXPECT_EQ(rewrite_sentinel_reply(SentinelQuery::master_address, "*-1\r\n", kSentinelFronts), "*-1\r\n");
}

TEST(SentinelReplyRewrite, WhatADataNodeSaysOfTheOthersNamesTheFronts) {
  EXPECT_EQ(rewrite_sentinel_reply(SentinelQuery::role, kMasterRole, kSentinelFronts), via_fronts(kMasterRole));
  EXPECT_EQ(rewrite_sentinel_reply(SentinelQuery::role, kReplicaRole, kSentinelFronts), via_fronts(kReplicaRole));
  EXPECT_EQ(rewrite_sentinel_reply(SentinelQuery::role, kSentinelRole, kSentinelFronts), kSentinelRole);
  EXPECT_EQ(rewrite_sentinel_reply(SentinelQuery::info, bulk(kMasterInfo), kSentinelFronts), bulk(via_fronts(kMasterInfo)));
  EXPECT_EQ(rewrite_sentinel_reply(SentinelQuery::info, bulk(kReplicaInfo), kSentinelFronts), bulk(via_fronts(kReplicaInfo)));
}

TEST(SentinelReplyRewrite, OtherRepliesPassByteForByte) {
  EXPECT_EQ(rewrite_sentinel_reply(SentinelQuery::other, kMasterAddress, kSentinelFronts), kMasterAddress);
  EXPECT_EQ(rewrite_sentinel_reply(SentinelQuery::other, bulk("127.0.0.1:27101"), kSentinelFronts), bulk("127.0.0.1:27101"));
  EXPECT_EQ(rewrite_sentinel_reply(SentinelQuery::instance, "-ERR No such master with that name\r\n", kSentinelFronts),
            "-ERR No such master with that name\r\n");
  EXPECT_THROW(rewrite_sentinel_reply(SentinelQuery::role, "%1\r\n", kSentinelFronts), std::runtime_error);
}

TEST(SentinelReplyRewrite, RepliesAreToldByTheirShape) {
  EXPECT_TRUE(answers_sentinel_query(SentinelQuery::master_address, kMasterAddress));
  EXPECT_FALSE(answers_sentinel_query(SentinelQuery::master_address, kMasterRole));
  EXPECT_TRUE(answers_sentinel_query(SentinelQuery::instance, kMaster));
  EXPECT_TRUE(answers_sentinel_query(SentinelQuery::instances, kReplicas));
  EXPECT_FALSE(answers_sentinel_query(SentinelQuery::instances, kMaster));
  EXPECT_TRUE(answers_sentinel_query(SentinelQuery::role, kReplicaRole));
  EXPECT_FALSE(answers_sentinel_query(SentinelQuery::role, kMasterAddress));
  EXPECT_TRUE(answers_sentinel_query(SentinelQuery::info, bulk(kMasterInfo)));
  EXPECT_FALSE(answers_sentinel_query(SentinelQuery::info, bulk("p0-1-7")));
  EXPECT_FALSE(answers_sentinel_query(SentinelQuery::other, kMaster));
}

TEST(SentinelReplyRewrite, EventsNameTheFronts) {
  const std::string switched = message("+switch-master", "mymaster 127.0.0.1 27101 127.0.0.1 27202");
  EXPECT_EQ(rewrite_sentinel_push(switched, kSentinelFronts), via_fronts(switched));
  const std::string down = message("+sdown", "slave 127.0.0.1:27202 127.0.0.1 27202 @ mymaster 127.0.0.1 27101");
  EXPECT_EQ(rewrite_sentinel_push(down, kSentinelFronts), via_fronts(down));
  const std::string found = command({"pmessage", "*", "+sentinel",
                                     "sentinel f7f8d53704cdca827944401831ef106070d3020d 127.0.0.1 27482 @ mymaster 127.0.0.1 27101"});
  EXPECT_EQ(rewrite_sentinel_push(found, kSentinelFronts), via_fronts(found));
  const std::string hello = message("__sentinel__:hello", "127.0.0.1,27482,f7f8d53704cdca827944401831ef106070d3020d,0,mymaster,127.0.0.1,27101,0");
  EXPECT_EQ(rewrite_sentinel_push(hello, kSentinelFronts), via_fronts(hello));
  // A number that follows no address stays (an epoch), and a channel of the application's carries data.
  EXPECT_EQ(rewrite_sentinel_push(message("+new-epoch", "27101"), kSentinelFronts), message("+new-epoch", "27101"));
  EXPECT_EQ(rewrite_sentinel_push(message("orders", "127.0.0.1 27101"), kSentinelFronts), message("orders", "127.0.0.1 27101"));
}

TEST(AddressFilterOnASentinel, PairsRepliesAndRewritesPushes) {
  AddressFilter filter(std::make_shared<SentinelReplies>(kSentinelFronts));
  // ioredis' resolveMaster: GET-MASTER-ADDR-BY-NAME then SENTINELS, pipelined; a GET between them is data.
  const std::string requests = command({"sentinel", "get-master-addr-by-name", "mymaster"}) + command({"GET", "k"}) +
                               command({"sentinel", "sentinels", "mymaster"});
  EXPECT_EQ(filter.pass(true, requests), requests);
  const std::string replies = kMasterAddress + bulk("127.0.0.1:27101") + kSentinels;
  std::string out;
  for (std::size_t at = 0; at < replies.size(); at += 11) out += filter.pass(false, replies.substr(at, 11));
  EXPECT_EQ(out, via_fronts(kMasterAddress) + bulk("127.0.0.1:27101") + via_fronts(kSentinels));
  // ioredis' failover detector: SUBSCRIBE +switch-master, then the event.
  filter.pass(true, command({"subscribe", "+switch-master"}));
  const std::string subscribed = "*3\r\n$9\r\nsubscribe\r\n$14\r\n+switch-master\r\n:1\r\n";
  EXPECT_EQ(filter.pass(false, subscribed), subscribed);
  const std::string switched = message("+switch-master", "mymaster 127.0.0.1 27101 127.0.0.1 27202");
  EXPECT_EQ(filter.pass(false, switched), via_fronts(switched));
}

TEST(AddressFilterOnASentinel, AReplyLostOnTheWayDoesNotShiftThePairing) {
  AddressFilter filter(std::make_shared<SentinelReplies>(kSentinelFronts));
  filter.pass(true, command({"PING"}) + command({"SENTINEL", "MASTERS"}));
  // PING's reply was dropped by a lossy link: the next reply is MASTERS', and is rewritten.
  EXPECT_EQ(filter.pass(false, "*1\r\n" + kMaster), via_fronts("*1\r\n" + kMaster));
  filter.pass(true, command({"ROLE"}));
  EXPECT_EQ(filter.pass(false, kReplicaRole), via_fronts(kReplicaRole));
}

}  // namespace
}  // namespace lockcheck::redis_backend
