#pragma once
// Two cluster masters and a replica of the first, sharing one cluster view, on a hand-driven clock.
#include <memory>
#include <string>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {

// Node 0 serves 0-8191, node 1 serves 8192-16383; node 2 replicates node 0.
struct TwoShards {
  std::int64_t now_ms = 1'700'000'000'000;
  std::shared_ptr<ClusterView> view = std::make_shared<ClusterView>();
  Node node0{NodeOptions{.clock = [this] { return now_ms; }}};
  Node node1{NodeOptions{.clock = [this] { return now_ms; }}};
  Node replica{NodeOptions{.clock = [this] { return now_ms; }}};
  Session session{.client_id = 1};

  TwoShards() {
    view->nodes = {{std::string(40, 'a'), "127.0.0.1", 30001, -1, false, 1},
                   {std::string(40, 'b'), "127.0.0.1", 30002, -1, false, 2},
                   {std::string(40, 'c'), "127.0.0.1", 30003, 0, false, 1}};
    for (int slot = 0; slot < kClusterSlots; ++slot) view->slot_owner[static_cast<std::size_t>(slot)] = slot < 8192 ? 0 : 1;
    view->current_epoch = 2;
    share();
  }
  void share() {
    node0.set_cluster_view(view, 0);
    node1.set_cluster_view(view, 1);
    replica.set_cluster_view(view, 2);
  }
  Reply run(Node& node, Command command) { return node.execute(command, session); }
};

}  // namespace lockcheck::mock::testing
