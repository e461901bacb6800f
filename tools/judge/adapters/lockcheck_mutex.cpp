// lockcheck judge adapter for lockcheck's own Mutex (PROTOCOL.md): the library as a user links it, driven from
// outside, so its verdicts can be set beside the in-process ones on the same scenarios. --watchdog (explore --client's
// reference for a client that renews by itself): renewed in the background, `use` declines a lost lease.
#include <lockcheck/mutex.hpp>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
using Json = nlohmann::json;
int main(int argc, char** argv) {
  const auto env = [](const char* name, const char* fallback) { const char* v = std::getenv(name); return std::string(v ? v : fallback); };
  if (const std::string topology = env("LOCKCHECK_TOPOLOGY", "single"); topology == "cluster" || topology == "sentinel") {
    std::cerr << "lockcheck_judge_mutex: one Redis server (its first address), not LOCKCHECK_TOPOLOGY=" << topology << "\n"; return 2;
  }
  const std::string address = env("LOCKCHECK_REDIS", "127.0.0.1:6379");
  lockcheck::ConnectionOptions connection{.host = address.substr(0, address.rfind(':')), .port = std::stoi(address.substr(address.rfind(':') + 1))};
  connection.command_timeout = lockcheck::Millis(std::stoll(env("LOCKCHECK_COMMAND_TIMEOUT_MS", "1000")));
  connection.client_name = env("LOCKCHECK_CLIENT_NAME", "");
  lockcheck::Client client(connection);
  lockcheck::MutexOptions options;
  options.lock.ttl = lockcheck::Millis(std::stoll(env("LOCKCHECK_TTL_MS", "1000")));
  const bool renewing = argc > 1 && std::string(argv[1]) == "--watchdog";
  if (renewing) options.watchdog = lockcheck::WatchdogOptions{};  // every ttl/3, as the `watchdog` variant
  lockcheck::Mutex mutex(client, env("LOCKCHECK_KEY", "lock"), options);
  std::optional<lockcheck::Lease> lease;  // the one lease this client may hold
  std::cout << Json{{"type", "hello"}, {"client", "lockcheck Mutex"}, {"ops", {"acquire", "use", "renew", "release", "held"}}} << std::endl;
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
        lease = mutex.try_acquire(lockcheck::Millis(request.value("wait_ms", 0)));
        if (!lease) reply = {{"id", request.at("id")}, {"type", "fail"}, {"error", "held by another owner"}};
        else reply["token"] = lease->token, validity();
      } else if (op == "use") {
        if (renewing && (!lease || lease->lost())) reply = {{"id", request.at("id")}, {"type", "fail"}, {"error", "lock lost"}};
        else if (lease && lease->fencing_token > 0) reply["fence"] = lease->fencing_token;
      } else if (op == "renew") {
        if (outcome(lease ? mutex.renew(*lease) : lockcheck::RenewStatus::lost, lockcheck::RenewStatus::renewed, lockcheck::RenewStatus::lost)) validity();
      } else if (op == "release") {
        outcome(lease ? mutex.release(*lease) : lockcheck::ReleaseStatus::not_owned, lockcheck::ReleaseStatus::released, lockcheck::ReleaseStatus::not_owned);
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
