#pragma once
// One redis-server of a run's topology: a RedisServer (lib/testing: free loopback port, PDEATHSIG, stopped by
// pid) in its own directory, with persistence as asked, keyspace notifications for the observer, and its wall
// clock under a ServerClock through the LD_PRELOAD clock shim. Killed with SIGKILL; restarted on the same
// port with or without its data.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lockcheck/reply.hpp"
#include "redis_server.hpp"

namespace lockcheck::redis_backend {

enum class Persistence { none, aof_always, aof_everysec };

struct ServerSpec {
  std::string directory;          // working directory (AOF files live here)
  Persistence persistence = Persistence::none;
  int replica_of_port = 0;        // 0: a master
  std::string clock_shim;         // path of the shim library; empty: no shim (the resource server)
  std::string clock_file;         // the ServerClock file the shim reads
  bool keyspace_events = true;    // notify-keyspace-events for the observer
  // A Redis Cluster node (cluster_formation.hpp) when > 0: its cluster bus port, chosen free rather than the
  // default port + 10000 (which may be taken, or above 65535 for a high ephemeral port).
  int cluster_bus_port = 0;
  std::int64_t cluster_node_timeout_ms = 15000;
  std::vector<std::string> extra_args{};  // more options (min-replicas-to-write on a [sentinel]'s nodes)
  // Non-empty: this program serves instead of redis-server, e.g. {"<tools>/lockcheck", "serve"} (`--server
  // serve`). A served mock has no persistence, replication or cluster and takes no redis-server options; its
  // keyspace events are turned on with CONFIG SET once it answers (also after a restart).
  std::vector<std::string> program{};
};

class ServerProcess {
 public:
  // Throws std::runtime_error when the server does not answer PING.
  explicit ServerProcess(ServerSpec spec);
  // Whether a served mock could run `spec` (see ServerSpec::program); the reason when not.
  static std::string refusal_for_program(const ServerSpec& spec);

  int port() const { return server_->port(); }
  void kill() { server_->kill(); }  // SIGKILL and reap: a crash
  bool up() const { return server_->pid() > 0; }  // not killed, or restarted since
  // Starts again on the same port; keep_data false removes the AOF first (a restart without data).
  void restart(bool keep_data);
  // RedisServer::keep_across_restarts.
  void keep_across_restarts(std::vector<std::string> args) { server_->keep_across_restarts(std::move(args)); }

 private:
  void configure_program() const;

  ServerSpec spec_;
  std::unique_ptr<testing::RedisServer> server_;
};

// Runs one command on a loopback server; throws std::runtime_error on a failed connection or an error reply.
Reply run_command(int port, const Command& command);

}  // namespace lockcheck::redis_backend
