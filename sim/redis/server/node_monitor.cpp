// MONITOR on the node: who monitors, and feeding them (the rules and the line are monitor.hpp's).
#include "redis/server/monitor.hpp"
#include "redis/server/node.hpp"

namespace lockcheck::mock {

void Node::add_monitor(Session& session) {
  session.monitor = true;
  monitors_.push_back(session.client_id);
}

void Node::feed_monitors(Session& source, int db, const Command& args, bool from_script) {
  if (monitors_.empty()) return;  // the simulator's nodes, and most served ones: nothing to format
  const std::int64_t now_us = options_.monitor_clock_us ? options_.monitor_clock_us() : keyspace_.now_ms() * 1000;
  const Reply line = Reply::status(monitor_line(now_us, db, from_script ? "lua" : source.address, redacted_for_monitors(args)));
  for (const std::int64_t monitor : monitors_) {
    // A monitor's own command: its line follows the command's reply in that connection (Redis adds the reply
    // first), so it goes out with the reply rather than ahead of it.
    if (monitor == source.client_id && !from_script) {
      source.extra_replies.push_back(line);
    } else if (publish_sink_) {
      publish_sink_(monitor, line);
    }
  }
}

}  // namespace lockcheck::mock
