#pragma once
// Test support: a private redis-server on a free loopback port, started by the test and stopped by pid.
// Never a system service. Used by tests labelled `redis` and by benchmarks.
#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lockcheck::testing {

class RedisServer {
 public:
  // Starts `redis-server` (from PATH) with no persistence on 127.0.0.1 and a free port, and waits until it
  // answers with its own process id (INFO server), so a server another test started on that port is never taken. Its working directory (`--dir`) is a private temporary directory, removed by the
  // destructor, so files it writes anyway (a replica's synced RDB, an AOF a test turns on) never land in the
  // caller's directory. `extra_args` are appended as command-line options, e.g. {"--requirepass", "x"} (later
  // options win, so they may also turn persistence on). `extra_env` entries ("NAME=value") are added to the
  // server's environment, e.g. an LD_PRELOAD.
  explicit RedisServer(std::vector<std::string> extra_args = {}, std::vector<std::string> extra_env = {},
                       std::string sentinel_config_lines = {});
  // Another server program instead of redis-server, e.g. {"build/tools/lockcheck", "serve"}: started with
  // `--port N --bind 127.0.0.1` and nothing else (a served mock takes no redis-server options: configure it
  // with CONFIG SET once it answers), and taken as started once it answers INFO with its own process id.
  static std::unique_ptr<RedisServer> program(std::vector<std::string> command, std::vector<std::string> extra_env = {});
  ~RedisServer();
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;

  // A Redis Sentinel (`redis-sentinel`, Debian's package of that name) on a free loopback port, started
  // with a private config file holding `config_lines` (e.g. "sentinel monitor mymaster 127.0.0.1 6379 1").
  // Throws when it does not start; sentinel_installed() says whether to try.
  static std::unique_ptr<RedisServer> sentinel(const std::string& config_lines);
  static bool sentinel_installed();
  // A redis-server on exactly `port`, tried once: throws unless the server answering there is the process it
  // started (a port another server holds is refused, not shared).
  static std::unique_ptr<RedisServer> on_port(int port);

  int port() const { return port_; }
  const std::string& host() const { return host_; }
  pid_t pid() const { return pid_; }

  // SIGKILL and wait: the server vanishes without a goodbye, as in a crash.
  void kill();
  // Starts again on the same port (after kill()), waiting until it answers as the process it started.
  void restart();
  // Options every later start adds to the command line: a setting a test made with CONFIG SET that must outlive
  // a restart, as a line of a config file does (a cluster node's cluster-announce-port).
  void keep_across_restarts(std::vector<std::string> args) { extra_args_.insert(extra_args_.end(), args.begin(), args.end()); }
  // SIGSTOP / SIGCONT: the server keeps its sockets (connects and writes still succeed into kernel buffers)
  // but answers nothing until resumed, like a GC pause or a VM freeze. The destructor's SIGKILL still works.
  void pause();
  void resume();

 private:
  explicit RedisServer(int port);
  struct Program {};
  RedisServer(Program, std::vector<std::string> command, std::vector<std::string> extra_env);
  void start_on_a_free_port();
  void launch();
  bool wait_until_ready(const std::string& password);
  // The process_id the server on port_ reports, or nothing when none answers (yet).
  std::optional<long> process_answering(const std::string& password) const;
  void make_directory();
  void remove_directory();

  std::string host_ = "127.0.0.1";
  int port_ = 0;
  pid_t pid_ = -1;
  std::vector<std::string> extra_args_;
  std::vector<std::string> extra_env_;
  std::string password_;
  std::string directory_;  // private --dir, kept across restart()
  std::string sentinel_config_;  // set for a sentinel: the config file it is started with (and rewrites)
  std::vector<std::string> program_;  // set for another server program (program())
};

// A loopback TCP port that was free a moment ago (bind to port 0 and read it back).
int find_free_port();

}  // namespace lockcheck::testing
