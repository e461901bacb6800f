#pragma once
// An external lock client as a LockAlgorithm (PROTOCOL.md): acquire, release and renew are requests to the
// client process, answered `ok` (it happened), `fail` (it did not) or `info` (it may have). The workload
// drives it as it drives the catalogue's variants, so the history, the checkers and the reports are the
// ones every run has. The lease is lockcheck's account of the client's: sent at the request, valid for the
// TTL asked for, with the token and fencing token the client reported (or one lockcheck names).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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
};

class ExternalLock final : public LockAlgorithm {
 public:
  // Reads the hello line (at most `hello_timeout`); throws std::runtime_error on none or a malformed one.
  ExternalLock(ExternalProcess& process, Clock& clock, Millis ttl, std::string token_prefix,
               std::chrono::milliseconds hello_timeout);
  const Hello& hello() const { return hello_; }

  Task<AcquireResult> acquire(std::string key, Micros wait) override;
  Task<ReleaseStatus> release(Lease& lease) override;
  Task<RenewStatus> renew(Lease& lease) override;
  // The protected write's turn: ok when the client performs it now (with its fencing token, if it reports
  // one). A client without `use` writes at once.
  Reply use();

  // One request and its reply; `info` when none came within `timeout` (the client may still act on it).
  Reply request(nlohmann::json message, std::chrono::milliseconds timeout);

 private:
  ExternalProcess& process_;
  Clock& clock_;
  Millis ttl_;
  std::string token_prefix_;
  Hello hello_;
  std::int64_t next_id_ = 1;
  std::int64_t leases_ = 0;
};

}  // namespace lockcheck::judge
