#include "core/connection_order.hpp"

#include <algorithm>

#include "lockcheck/assert.hpp"

namespace lockcheck::sim {

ConnectionOrder::Connection& ConnectionOrder::at(int process, int node) {
  LOCKCHECK_ASSERT(process >= 0 && node >= 0);  // a process of the run, an endpoint of its network
  const auto p = static_cast<std::size_t>(process);
  const auto n = static_cast<std::size_t>(node);
  if (connections_.size() <= p) connections_.resize(p + 1);
  if (connections_[p].size() <= n) connections_[p].resize(n + 1);
  return connections_[p][n];
}

std::uint64_t ConnectionOrder::number(int process, int node) const {
  const auto p = static_cast<std::size_t>(process);
  const auto n = static_cast<std::size_t>(node);
  return p < connections_.size() && n < connections_[p].size() ? connections_[p][n].number : 0;
}

std::int64_t ConnectionOrder::arrival_us(int process, int node, std::uint64_t process_epoch,
                                         std::uint64_t node_incarnation, Direction direction, std::int64_t due_us) {
  LOCKCHECK_ASSERT(due_us >= 0);  // due now or later, in the run's true time
  Connection& connection = at(process, node);
  if (connection.process_epoch != process_epoch || connection.node_incarnation != node_incarnation) {
    connection = Connection{process_epoch, node_incarnation, 0, 0, connection.number};  // either end restarted
  }
  std::int64_t& last_us = direction == Direction::request ? connection.last_request_us : connection.last_reply_us;
  last_us = std::max(last_us, due_us);
  return last_us;
}

std::int64_t ConnectionOrder::reconnect(int process, int node, std::int64_t now_us) {
  Connection& connection = at(process, node);
  const std::int64_t end_arrives_us = std::max(now_us, connection.last_request_us);
  connection.last_request_us = 0;
  connection.last_reply_us = 0;
  ++connection.number;
  return end_arrives_us;
}

}  // namespace lockcheck::sim
