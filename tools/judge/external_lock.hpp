#pragma once
// An external lock client as a LockAlgorithm (PROTOCOL.md): acquire, release and renew are requests to the
// client process, answered `ok` (it happened), `fail` (it did not) or `info` (it may have). The workload
// drives it as it drives the catalogue's variants, so the history, the checkers and the reports are the
// ones every run has. The lease is lockcheck's account of the client's: sent at the request, valid for as long
// as the library said (`valid_ms`) or else for the TTL asked for, with the token and fencing token the client
// reported (or one lockcheck names).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "client_hang.hpp"
#include "external_process.hpp"
#include "lockcheck/clock.hpp"
#include "lockcheck/lock_algorithm.hpp"

namespace lockcheck::judge {

// What the client said of itself in its hello line.
struct Hello {
  std::string client;   // e.g. "redis-py Lock"
  std::string version;  // its library's version
  std::vector<std::string> ops;
  bool supports(std::string_view op) const;
};

// The answer to one request.
struct Reply {
  enum class Type { ok, fail, info };
  Type type = Type::info;
  std::string error;  // fail / info: why
  nlohmann::json body;
  // The fencing token the client reported ("fence"), if any.
  std::optional<std::int64_t> fence() const;
  // The library's own validity ("valid_ms": counted from when the client read the request), if it said;
  // throws std::runtime_error on one that is not a number of milliseconds.
  std::optional<Micros> valid_for() const;
};

// How the lock is set up: what it asks for and how long the client has to answer (reply_bound.hpp).
struct ExternalSettings {
  Millis ttl{0};
  Millis command_timeout{0};  // the scenario's: part of every reply bound
  Millis link_delay{0};       // one way, on this client's slowest link to Redis: part of every reply bound
  std::string token_prefix;   // names a lease the client gave no token for
  std::chrono::milliseconds hello_timeout{30000};
  int process = 0;            // the client process this is, for the hang's report
};

class ExternalLock final : public LockAlgorithm {
 public:
  // Reads the hello line (at most `hello_timeout`); throws std::runtime_error on none or a malformed one.
  ExternalLock(ExternalProcess& process, Clock& clock, ExternalSettings settings);
  const Hello& hello() const { return hello_; }
  // Called once, when a request goes unanswered past its bound and the client has been killed: the worker
  // records it then, so the record survives the worker's own end.
  void on_hang(std::function<void(const ClientHang&)> report) { on_hang_ = std::move(report); }
  // Called once, at the first `ok` without `valid_ms`: from then on its leases carry lockcheck's estimate, and
  // the run's meta says so ("estimated_validity"), so that a witness calls it an estimate.
  void on_estimated_validity(std::function<void()> report) { on_estimated_validity_ = std::move(report); }
  // Since then every request is an `info` at once: the client is gone, and the workload ends its rounds.
  bool hung() const { return hung_; }

  Task<AcquireResult> acquire(std::string key, Micros wait) override;
  Task<ReleaseStatus> release(Lease& lease) override;
  Task<RenewStatus> renew(Lease& lease) override;
  // The protected write's turn: ok when the client performs it now (with its fencing token, if it reports
  // one). A client without `use` writes at once.
  Reply use();

  // One request and its reply within `bound` of time the client was not paused; past it the client hung:
  // it is killed, reported (on_hang) and the reply is `info` (it may have acted on the request).
  Reply request(nlohmann::json message, std::chrono::milliseconds bound);

 private:
  Reply hang(const nlohmann::json& message, const RunningBudget& waited, std::chrono::milliseconds bound);
  // Until when an `ok` to a request sent at `sent_at` lets the lease be trusted (PROTOCOL.md, "Validity").
  MonoTime valid_until(const Reply& ok, MonoTime sent_at);

  ExternalProcess& process_;
  Clock& clock_;
  ExternalSettings settings_;
  Hello hello_;
  std::function<void(const ClientHang&)> on_hang_;
  std::function<void()> on_estimated_validity_;
  bool estimated_validity_reported_ = false;
  bool hung_ = false;
  std::int64_t next_id_ = 1;
  std::int64_t leases_ = 0;
};

}  // namespace lockcheck::judge
