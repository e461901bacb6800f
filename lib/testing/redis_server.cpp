#include "redis_server.hpp"

#include <arpa/inet.h>
#include <hiredis/hiredis.h>
#include <netinet/in.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <fstream>
#include <string_view>
#include <stdexcept>
#include <system_error>
#include <thread>

namespace lockcheck::testing {

int find_free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error("find_free_port: socket failed");
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof address;
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    close(fd);
    throw std::runtime_error("find_free_port: bind failed");
  }
  close(fd);
  return ntohs(address.sin_port);
}

std::unique_ptr<RedisServer> RedisServer::sentinel(const std::string& config_lines) {
  return std::make_unique<RedisServer>(std::vector<std::string>{}, std::vector<std::string>{}, config_lines);
}

std::unique_ptr<RedisServer> RedisServer::on_port(int port) {
  return std::unique_ptr<RedisServer>(new RedisServer(port));
}

RedisServer::RedisServer(int port) : port_(port) {
  make_directory();
  launch();
  if (wait_until_ready(password_)) return;
  kill();
  remove_directory();
  throw std::runtime_error("RedisServer: no redis-server of ours answers on port " + std::to_string(port));
}

bool RedisServer::sentinel_installed() {
  const char* path = std::getenv("PATH");
  std::string_view rest = path != nullptr ? path : "";
  // Each PATH entry, bounded by the entries there are.
  while (!rest.empty()) {
    const std::size_t colon = rest.find(':');
    const std::string dir(rest.substr(0, colon));
    if (!dir.empty() && access((dir + "/redis-sentinel").c_str(), X_OK) == 0) return true;
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return false;
}

RedisServer::RedisServer(std::vector<std::string> extra_args, std::vector<std::string> extra_env,
                         std::string sentinel_config_lines)
    : extra_args_(std::move(extra_args)), extra_env_(std::move(extra_env)) {
  for (std::size_t i = 0; i + 1 < extra_args_.size(); ++i) {
    if (extra_args_[i] == "--requirepass") password_ = extra_args_[i + 1];
  }
  make_directory();
  if (!sentinel_config_lines.empty()) {
    sentinel_config_ = directory_ + "/sentinel.conf";
    std::ofstream config(sentinel_config_);
    config << sentinel_config_lines << "\n";
    if (!config) throw std::runtime_error("RedisServer: cannot write the sentinel's config file");
  }
  start_on_a_free_port();
}

std::unique_ptr<RedisServer> RedisServer::program(std::vector<std::string> command, std::vector<std::string> extra_env) {
  return std::unique_ptr<RedisServer>(new RedisServer(Program{}, std::move(command), std::move(extra_env)));
}

RedisServer::RedisServer(Program, std::vector<std::string> command, std::vector<std::string> extra_env)
    : extra_env_(std::move(extra_env)), program_(std::move(command)) {
  make_directory();
  start_on_a_free_port();
}

void RedisServer::start_on_a_free_port() {
  // Another process may take the port between find_free_port and the server's bind: try a few ports.
  for (int attempt = 0; attempt < 5; ++attempt) {
    port_ = find_free_port();
    launch();
    if (wait_until_ready(password_)) return;
    kill();
  }
  remove_directory();
  throw std::runtime_error(program_.empty() ? "RedisServer: redis-server did not start (is it installed? run tools/setup)"
                                            : "RedisServer: " + program_.front() + " did not start");
}

RedisServer::~RedisServer() {
  kill();
  remove_directory();
}

void RedisServer::make_directory() {
  std::string pattern = (std::filesystem::temp_directory_path() / "lockcheck-redis-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("RedisServer: cannot create a temporary --dir");
  directory_ = pattern;
}

void RedisServer::remove_directory() {
  std::error_code ignored;  // a leftover temporary directory is not worth failing a test over
  std::filesystem::remove_all(directory_, ignored);
}

void RedisServer::launch() {
  std::vector<std::string> args = {"redis-server", "--port", std::to_string(port_), "--bind", host_,
                                   "--dir", directory_, "--save", "", "--appendonly", "no", "--daemonize", "no",
                                   "--loglevel", "warning", "--logfile", "/dev/null"};
  if (!sentinel_config_.empty()) {
    // A sentinel takes its config file first and persists no data set.
    args = {"redis-sentinel", sentinel_config_, "--port", std::to_string(port_), "--bind", host_, "--dir", directory_,
            "--daemonize", "no", "--loglevel", "warning", "--logfile", "/dev/null"};
  }
  if (!program_.empty()) {
    args = program_;
    args.insert(args.end(), {"--port", std::to_string(port_), "--bind", host_});
  }
  args.insert(args.end(), extra_args_.begin(), extra_args_.end());
  std::vector<std::string> env;
  for (char** entry = environ; *entry != nullptr; ++entry) env.emplace_back(*entry);
  env.insert(env.end(), extra_env_.begin(), extra_env_.end());
  // Everything the child needs is built before fork: the parent may have threads.
  std::vector<char*> argv, envp;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  for (auto& entry : env) envp.push_back(entry.data());
  envp.push_back(nullptr);
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error("RedisServer: fork failed");
  if (child == 0) {
    // Die with the test process, and never hold its stdout: an orphan would keep CTest waiting on the pipe.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    const int devnull = open("/dev/null", O_RDWR);
    if (devnull >= 0) {
      dup2(devnull, STDIN_FILENO);
      dup2(devnull, STDOUT_FILENO);
      dup2(devnull, STDERR_FILENO);
    }
    execvpe(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  pid_ = child;
}

bool RedisServer::wait_until_ready(const std::string& password) {
  // Up to ~10 s: a loaded CI machine can be slow to start a process.
  for (int attempt = 0; attempt < 500; ++attempt) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return false;
    }
    const std::optional<long> answering_pid = process_answering(password);
    // Another test's server may hold the port (ours then failed to bind and is exiting): a PING alone would
    // take it for ours, and two tests would share one server, one pausing or flushing under the other.
    if (answering_pid.has_value()) return *answering_pid == static_cast<long>(pid_);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

std::optional<long> RedisServer::process_answering(const std::string& password) const {
  timeval timeout{0, 200000};
  redisContext* context = redisConnectWithTimeout(host_.c_str(), port_, timeout);
  if (context == nullptr || context->err != 0) {
    if (context != nullptr) redisFree(context);
    return std::nullopt;
  }
  redisSetTimeout(context, timeout);
  bool authenticated = true;
  if (!password.empty()) {
    auto* auth = static_cast<redisReply*>(redisCommand(context, "AUTH %s", password.c_str()));
    authenticated = auth != nullptr && auth->type != REDIS_REPLY_ERROR;
    if (auth != nullptr) freeReplyObject(auth);
  }
  auto* reply = authenticated ? static_cast<redisReply*>(redisCommand(context, "INFO server")) : nullptr;
  std::optional<long> process_id;
  if (reply != nullptr && reply->type == REDIS_REPLY_STRING) {
    const std::string_view info(reply->str, reply->len);
    constexpr std::string_view kField = "process_id:";
    const std::size_t at = info.find(kField);
    if (at != std::string_view::npos) process_id = std::strtol(info.data() + at + kField.size(), nullptr, 10);
  }
  if (reply != nullptr) freeReplyObject(reply);
  redisFree(context);
  return process_id;
}

void RedisServer::kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
}

void RedisServer::pause() {
  if (pid_ > 0) ::kill(pid_, SIGSTOP);
}

void RedisServer::resume() {
  if (pid_ > 0) ::kill(pid_, SIGCONT);
}

void RedisServer::restart() {
  kill();
  for (int attempt = 0; attempt < 50; ++attempt) {
    launch();
    if (wait_until_ready(password_)) return;
    kill();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the old socket may linger briefly
  }
  throw std::runtime_error("RedisServer: restart on port " + std::to_string(port_) + " failed");
}

}  // namespace lockcheck::testing
