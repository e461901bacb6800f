// The request loop the C++ judge adapters share (PROTOCOL.md): one lease at a time of a lock with the lease-level
// API of lockcheck's Mutex (try_acquire, renew, release), its settings from the judge's environment. Each adapter
// (lockcheck_mutex.cpp, lockcheck_redlock.cpp) builds its Client and its lock, then serves.
#pragma once
#include <lockcheck/client.hpp>
#include <lockcheck/errors.hpp>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>
namespace lockcheck_judge {
using Json = nlohmann::json;
inline std::string env(const char* name, const char* fallback) { const char* v = std::getenv(name); return std::string(v ? v : fallback); }
// One node of LOCKCHECK_REDIS ("host:port"), with the run's command timeout and this process's connection name.
inline lockcheck::ConnectionOptions connection_to(const std::string& address) {
  lockcheck::ConnectionOptions connection{.host = address.substr(0, address.rfind(':')), .port = std::stoi(address.substr(address.rfind(':') + 1))};
  connection.command_timeout = lockcheck::Millis(std::stoll(env("LOCKCHECK_COMMAND_TIMEOUT_MS", "1000")));
  connection.client_name = env("LOCKCHECK_CLIENT_NAME", "");
  return connection;
}
// Every address of LOCKCHECK_REDIS, in order.
inline std::vector<lockcheck::ConnectionOptions> connections() {
  std::vector<lockcheck::ConnectionOptions> nodes;
  const std::string list = env("LOCKCHECK_REDIS", "127.0.0.1:6379");
  for (std::size_t at = 0; at <= list.size();) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    nodes.push_back(connection_to(list.substr(at, comma - at)));
    at = comma + 1;
  }
  return nodes;
}
inline lockcheck::MutexOptions lock_options(bool renewing) {
  lockcheck::MutexOptions options;
  options.lock.ttl = lockcheck::Millis(std::stoll(env("LOCKCHECK_TTL_MS", "1000")));
  if (renewing) options.watchdog = lockcheck::WatchdogOptions{};  // every ttl/3, as the `watchdog` variant
  return options;
}
// Serves the judge's requests on stdin until it closes it. `renewing` (--watchdog): the lease is renewed in the
// background and `use` declines a lost lease.
template <typename Lock>
void serve(lockcheck::Client& client, Lock& lock, const char* name, bool renewing) {
  std::optional<lockcheck::Lease> lease;  // the one lease this client may hold
  std::cout << Json{{"type", "hello"}, {"client", name}, {"ops", {"acquire", "use", "renew", "release", "held"}}} << std::endl;
  for (std::string line; std::getline(std::cin, line);) {  // ends when lockcheck closes our stdin
    const lockcheck::MonoTime read = client.clock().monotonic_now();  // valid_ms counts from here (PROTOCOL.md)
    const Json request = Json::parse(line); const std::string op = request.value("op", "");
    Json reply{{"id", request.at("id")}, {"type", "ok"}};
    const auto validity = [&] { reply["valid_ms"] = (lease->valid_until - read).count() / 1000.0; };  // the Lease's validity
    const auto outcome = [&](auto status, auto ok, auto lost) {  // fail and info carry an error (PROTOCOL.md)
      reply["type"] = status == ok ? "ok" : status == lost ? "fail" : "info";
      if (status != ok) reply["error"] = status == lost ? "the lease is no longer ours" : "unknown outcome";
      return status == ok;
    };
    try {
      if (op == "acquire") {
        lease = lock.try_acquire(lockcheck::Millis(request.value("wait_ms", 0)));
        if (!lease) reply = {{"id", request.at("id")}, {"type", "fail"}, {"error", "held by another owner"}};
        else reply["token"] = lease->token, validity();
      } else if (op == "use") {
        if (renewing && (!lease || lease->lost())) reply = {{"id", request.at("id")}, {"type", "fail"}, {"error", "lock lost"}};
        else if (lease && lease->fencing_token > 0) reply["fence"] = lease->fencing_token;
      } else if (op == "renew") {
        if (outcome(lease ? lock.renew(*lease) : lockcheck::RenewStatus::lost, lockcheck::RenewStatus::renewed, lockcheck::RenewStatus::lost)) validity();
      } else if (op == "release") {
        outcome(lease ? lock.release(*lease) : lockcheck::ReleaseStatus::not_owned, lockcheck::ReleaseStatus::released, lockcheck::ReleaseStatus::not_owned);
        lease.reset();
      } else if (op == "held") {
        reply["held"] = lease && !lease->lost();
      } else {
        reply = {{"id", request.at("id")}, {"type", "fail"}, {"error", "unsupported"}};
      }
    } catch (const lockcheck::ConnectionError& error) {  // no attempt got a reply: definitely not acquired
      reply = {{"id", request.at("id")}, {"type", "fail"}, {"error", std::string("unreachable: ") + error.what()}};
    } catch (const lockcheck::Error& error) {  // an unknown outcome: it may have happened
      reply = {{"id", request.at("id")}, {"type", "info"}, {"error", error.what()}};
    }
    std::cout << reply << std::endl;
  }
}
}  // namespace lockcheck_judge
