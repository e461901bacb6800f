#pragma once
// How an answer given later than its command (a WAIT, a blocking pop), or the news that its connection broke,
// travels back to the client: World's network implements it for Replication and BlockingPops.
#include <memory>
#include <string>

#include "core/process.hpp"
#include "lockcheck/reply.hpp"

namespace lockcheck::sim {

class ReplyPath {
 public:
  virtual ~ReplyPath() = default;
  virtual void reply_to(int process, int node, Reply&& reply, std::shared_ptr<PendingCall> pending) = 0;
  virtual void connection_lost(int process, int node, std::shared_ptr<PendingCall> pending, std::string detail) = 0;
};

}  // namespace lockcheck::sim
