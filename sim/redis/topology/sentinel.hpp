#pragma once
// A Redis Sentinel's answers to the commands clients send it (the subset client libraries use), as
// redis-sentinel 7.0 gives them. The sentinel's knowledge (which node is the master, its replicas, the
// other sentinels) is given by whoever plays the sentinels' monitoring and failover (the simulator);
// this only renders it.
#include <cstdint>
#include <string>
#include <vector>

#include "lockcheck/reply.hpp"

namespace lockcheck::mock {

struct SentinelAddress {
  std::string host;
  int port = 0;
  std::string run_id;  // 40 hex digits
};

struct SentinelKnowledge {
  std::string master_name = "mymaster";
  SentinelAddress master;
  bool master_down = false;  // subjectively and objectively down (flags s_down,o_down)
  std::vector<SentinelAddress> replicas;
  std::vector<SentinelAddress> sentinels;  // every sentinel, this one included
  std::size_t myself = 0;                  // index into sentinels
  int quorum = 2;
  std::int64_t down_after_ms = 30000;
  std::int64_t config_epoch = 0;
};

// SENTINEL GET-MASTER-ADDR-BY-NAME / MASTER / MASTERS / REPLICAS / SLAVES / SENTINELS / CKQUORUM / MYID,
// ROLE and PING; any other command is unknown to a sentinel, as it is to redis-sentinel.
Reply sentinel_execute(const SentinelKnowledge& knowledge, const Command& command);

}  // namespace lockcheck::mock
