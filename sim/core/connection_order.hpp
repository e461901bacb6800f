#pragma once
// TCP delivers one connection's bytes in the order they were sent, each direction on its own: a message on
// a process's connection to a node never arrives before one sent earlier on that connection, whatever its
// link delay drew. A connection lasts from the process's (re)start or the node's restart until either
// ends, or until the client gives up on a call over it: the production port drops a connection whose reply
// did not come in time (lib/lockcheck/hiredis_port.cpp), so what it sends next travels on a new connection
// and may overtake what is still in flight on the old one.
#include <cstdint>
#include <vector>

namespace lockcheck::sim {

class ConnectionOrder {
 public:
  enum class Direction { request, reply };

  // The time a message sent now, due at `due_us` by its link, arrives: no earlier than the last message in
  // the same direction on the connection between `process` (in its incarnation `process_epoch`) and `node`
  // (in its incarnation `node_incarnation`).
  std::int64_t arrival_us(int process, int node, std::uint64_t process_epoch, std::uint64_t node_incarnation,
                          Direction direction, std::int64_t due_us);
  // The client dropped its connection to `node` at `now_us` (a call timed out): the next message opens a new
  // one. Returns when the old connection's end reaches the node: after everything sent on it.
  std::int64_t reconnect(int process, int node, std::int64_t now_us);
  // How often the process's connection to `node` was dropped: which connection a message sent now is on.
  std::uint64_t number(int process, int node) const;

 private:
  struct Connection {
    std::uint64_t process_epoch = 0;
    std::uint64_t node_incarnation = 0;
    std::int64_t last_request_us = 0;
    std::int64_t last_reply_us = 0;
    std::uint64_t number = 0;  // reconnects so far; kept across either end's restart, so it only grows
  };
  Connection& at(int process, int node);

  std::vector<std::vector<Connection>> connections_;  // [process][node], grown on first use
};

}  // namespace lockcheck::sim
