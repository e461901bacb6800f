// An external cluster client learns only its fronts: the replies that name nodes (captured from redis-server
// 7.0.15, a three-master cluster announcing 127.0.0.1:27001-27003) come out naming the fronts.
#include "address_filter.hpp"
#include "cluster_reply_rewrite.hpp"
#include "resp_frames.hpp"
#include "resp_value.hpp"
#include "resp_text.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace lockcheck::redis_backend {
namespace {

using namespace testing_text;

const PortMap kClusterFronts{{27001, 41001}, {27002, 41002}, {27003, 41003}};

std::string fronted(const std::string& text) { return with_fronts(text, kClusterFronts); }

const std::string kSlots =
    "*3\r\n*3\r\n:0\r\n:5460\r\n*4\r\n$9\r\n127.0.0.1\r\n:27001\r\n$40\r\nfaccfeeb3ce5951db6d5c22f31a57c28d771433a\r\n*0\r\n"
    "*3\r\n:5461\r\n:10922\r\n*4\r\n$9\r\n127.0.0.1\r\n:27002\r\n$40\r\n62ae2edc071442864bae515f1afe3af44182c873\r\n*0\r\n"
    "*3\r\n:10923\r\n:16383\r\n*4\r\n$9\r\n127.0.0.1\r\n:27003\r\n$40\r\n10220adc5423be8dc62d5867445fa34d6d56a898\r\n*0\r\n";

const std::string kShardNode =
    "*14\r\n$2\r\nid\r\n$40\r\nfaccfeeb3ce5951db6d5c22f31a57c28d771433a\r\n$4\r\nport\r\n:27001\r\n$2\r\nip\r\n$9\r\n127.0.0.1\r\n"
    "$8\r\nendpoint\r\n$9\r\n127.0.0.1\r\n$4\r\nrole\r\n$6\r\nmaster\r\n$18\r\nreplication-offset\r\n:0\r\n$6\r\nhealth\r\n$6\r\nonline\r\n";
const std::string kShards = "*1\r\n*4\r\n$5\r\nslots\r\n*2\r\n:0\r\n:5460\r\n$5\r\nnodes\r\n*1\r\n" + kShardNode;

const std::string kNodesText =
    "faccfeeb3ce5951db6d5c22f31a57c28d771433a 127.0.0.1:27001@37001 myself,master - 0 1795782839000 1 connected 0-5460\n"
    "10220adc5423be8dc62d5867445fa34d6d56a898 127.0.0.1:27003@37003 master - 0 1795782840291 3 connected 10923-16383\n";

TEST(RespValue, RoundTripsEveryCapturedReply) {
  for (const std::string& frame : {kSlots, kShards, bulk(kNodesText), std::string("$-1\r\n"), std::string("*-1\r\n")}) {
    EXPECT_EQ(serialize_resp(parse_resp(frame)), frame);
  }
  EXPECT_THROW(parse_resp("*2\r\n:1\r\n"), std::runtime_error);
}

TEST(ClusterReplyRewrite, QueriesAreToldByTheirWords) {
  EXPECT_EQ(cluster_query_of({"CLUSTER", "SLOTS"}), ClusterQuery::slots);
  EXPECT_EQ(cluster_query_of({"cluster", "shards"}), ClusterQuery::shards);
  EXPECT_EQ(cluster_query_of({"Cluster", "Nodes"}), ClusterQuery::nodes);
  EXPECT_EQ(cluster_query_of({"CLUSTER", "SLAVES", "x"}), ClusterQuery::replicas);
  EXPECT_EQ(cluster_query_of({"CLUSTER", "INFO"}), ClusterQuery::other);
  EXPECT_EQ(cluster_query_of({"GET", "slots"}), ClusterQuery::other);
}

TEST(ClusterReplyRewrite, RedirectionsNameTheFront) {
  EXPECT_EQ(rewrite_cluster_reply(ClusterQuery::other, "-MOVED 8718 127.0.0.1:27002\r\n", kClusterFronts), "-MOVED 8718 127.0.0.1:41002\r\n");
  EXPECT_EQ(rewrite_cluster_reply(ClusterQuery::other, "-ASK 15495 127.0.0.1:27003\r\n", kClusterFronts), "-ASK 15495 127.0.0.1:41003\r\n");
  // Not a node of the map, or not a redirection: unchanged.
  EXPECT_EQ(rewrite_cluster_reply(ClusterQuery::other, "-MOVED 1 127.0.0.1:9\r\n", kClusterFronts), "-MOVED 1 127.0.0.1:9\r\n");
  EXPECT_EQ(rewrite_cluster_reply(ClusterQuery::other, "-ERR 127.0.0.1:27002\r\n", kClusterFronts), "-ERR 127.0.0.1:27002\r\n");
}

TEST(ClusterReplyRewrite, SlotsShardsAndNodesNameTheFronts) {
  EXPECT_EQ(rewrite_cluster_reply(ClusterQuery::slots, kSlots, kClusterFronts), fronted(kSlots));
  EXPECT_EQ(rewrite_cluster_reply(ClusterQuery::shards, kShards, kClusterFronts), fronted(kShards));
  // The bus port (37001) is the nodes' own business and stays.
  const std::string nodes = rewrite_cluster_reply(ClusterQuery::nodes, bulk(kNodesText), kClusterFronts);
  EXPECT_EQ(nodes, bulk(replaced(replaced(kNodesText, "27001@", "41001@"), "27003@", "41003@")));
  EXPECT_NE(nodes.find("@37001"), std::string::npos);
  const std::string replicas = "*1\r\n" + bulk(kNodesText.substr(0, kNodesText.find('\n') + 1));
  EXPECT_EQ(rewrite_cluster_reply(ClusterQuery::replicas, replicas, kClusterFronts), fronted(replicas));
}

TEST(ClusterReplyRewrite, OtherRepliesPassByteForByte) {
  // A value that happens to hold an announced port is data, not an address.
  EXPECT_EQ(rewrite_cluster_reply(ClusterQuery::other, bulk("127.0.0.1:27001"), kClusterFronts), bulk("127.0.0.1:27001"));
  EXPECT_EQ(rewrite_cluster_reply(ClusterQuery::other, kSlots, kClusterFronts), kSlots);
  EXPECT_EQ(rewrite_cluster_reply(ClusterQuery::slots, "-CLUSTERDOWN Hash slot not served\r\n", kClusterFronts),
            "-CLUSTERDOWN Hash slot not served\r\n");
}

TEST(ClusterReplyRewrite, RepliesAreToldByTheirShape) {
  EXPECT_TRUE(answers_cluster_query(ClusterQuery::slots, kSlots));
  EXPECT_FALSE(answers_cluster_query(ClusterQuery::slots, kShards));
  EXPECT_TRUE(answers_cluster_query(ClusterQuery::shards, kShards));
  EXPECT_TRUE(answers_cluster_query(ClusterQuery::nodes, bulk(kNodesText)));
  EXPECT_FALSE(answers_cluster_query(ClusterQuery::nodes, bulk("OK")));
  EXPECT_FALSE(answers_cluster_query(ClusterQuery::slots, "$2\r\nOK\r\n"));
  EXPECT_FALSE(answers_cluster_query(ClusterQuery::other, kSlots));
}

TEST(AddressFilterOnACluster, PairsRepliesWithRequestsAcrossReads) {
  AddressFilter filter(std::make_shared<ClusterReplies>(kClusterFronts));
  // A pipeline: GET, CLUSTER SLOTS, CLUSTER NODES; requests go on unchanged.
  const std::string requests = command({"GET", "lock"}) + command({"CLUSTER", "SLOTS"}) + command({"CLUSTER", "NODES"});
  std::string forwarded = filter.pass(true, requests.substr(0, 7));
  forwarded += filter.pass(true, requests.substr(7));
  EXPECT_EQ(forwarded, requests);
  // The GET's value names a port: it is data and stays. Replies arrive cut anywhere and leave whole.
  const std::string replies = bulk("127.0.0.1:27001") + kSlots + bulk(kNodesText);
  std::string out;
  for (std::size_t at = 0; at < replies.size(); at += 13) out += filter.pass(false, replies.substr(at, 13));
  EXPECT_EQ(out, bulk("127.0.0.1:27001") + fronted(kSlots) + bulk(replaced(replaced(kNodesText, "27001@", "41001@"), "27003@", "41003@")));
}

TEST(AddressFilterOnACluster, AReplyLostOnTheWayDoesNotShiftThePairing) {
  AddressFilter filter(std::make_shared<ClusterReplies>(kClusterFronts));
  filter.pass(true, command({"GET", "lock"}) + command({"CLUSTER", "SLOTS"}));
  // The GET's reply was dropped by a lossy link: the next reply is CLUSTER SLOTS', and is rewritten.
  EXPECT_EQ(filter.pass(false, kSlots), fronted(kSlots));
  filter.pass(true, command({"CLUSTER", "SLOTS"}) + command({"GET", "lock"}));
  EXPECT_EQ(filter.pass(false, "-CLUSTERDOWN The cluster is down\r\n"), "-CLUSTERDOWN The cluster is down\r\n");
  EXPECT_EQ(filter.pass(false, "-MOVED 8718 127.0.0.1:27002\r\n"), "-MOVED 8718 127.0.0.1:41002\r\n");
}

TEST(AddressFilterOnACluster, InlineCommandsAndPushesArePaired) {
  AddressFilter filter(std::make_shared<ClusterReplies>(kClusterFronts));
  EXPECT_EQ(filter.pass(true, "CLUSTER SLOTS\r\n"), "CLUSTER SLOTS\r\n");
  const std::string message = "*3\r\n$7\r\nmessage\r\n$1\r\nc\r\n$5\r\n27001\r\n";
  EXPECT_EQ(filter.pass(false, message), message);  // a push answers nothing
  EXPECT_EQ(filter.pass(false, kSlots), fronted(kSlots));
}

TEST(AddressFilterOnACluster, BytesThatAreNotResp2CloseTheConnection) {
  AddressFilter filter(std::make_shared<ClusterReplies>(kClusterFronts));
  filter.pass(true, command({"HELLO", "3"}));
  EXPECT_THROW(filter.pass(false, "%1\r\n+server\r\n+redis\r\n"), std::runtime_error);
}

}  // namespace
}  // namespace lockcheck::redis_backend
