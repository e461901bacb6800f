#include "external_lock.hpp"

#include "reply_bound.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <unistd.h>

namespace lockcheck::judge {
namespace {

std::string text_of(const nlohmann::json& message, const char* field) {
  const auto found = message.find(field);
  return found != message.end() && found->is_string() ? found->get<std::string>() : std::string();
}

}  // namespace

std::optional<std::int64_t> Reply::fence() const {
  if (!body.is_object()) return std::nullopt;
  const auto found = body.find("fence");
  if (found == body.end() || !found->is_number_integer()) return std::nullopt;
  return found->get<std::int64_t>();
}

std::optional<Micros> Reply::valid_for() const {
  if (!body.is_object()) return std::nullopt;
  const auto found = body.find("valid_ms");
  if (found == body.end()) return std::nullopt;
  // A bound keeps the conversion to microseconds in range: a year is past any scenario's TTL or clock jump.
  constexpr double kYearMs = 365.0 * 24 * 3600 * 1000;
  if (!found->is_number() || std::abs(found->get<double>()) > kYearMs) {
    throw std::runtime_error("the external client's valid_ms is not a number of milliseconds (within a year): " + body.dump());
  }
  return Micros(std::llround(found->get<double>() * 1000));
}

bool Hello::supports(std::string_view op) const { return std::find(ops.begin(), ops.end(), op) != ops.end(); }

ExternalLock::ExternalLock(ExternalProcess& process, Clock& clock, ExternalSettings settings)
    : process_(process), clock_(clock), settings_(std::move(settings)) {
  const std::optional<nlohmann::json> hello = process_.receive(settings_.hello_timeout);
  if (!hello) {
    // Give the exit a moment to be reaped: a command that is not found ends at once.
    std::string ended;
    for (int attempt = 0; attempt < 50 && (ended = process_.ended()).empty(); ++attempt) usleep(10000);
    throw std::runtime_error("the external client wrote no hello line (PROTOCOL.md)" +
                             (ended.empty() ? " within its start-up time" : "; it " + ended) +
                             (process_.stderr_tail().empty() ? std::string() : "; its standard error ended: " + process_.stderr_tail()));
  }
  if (text_of(*hello, "type") != "hello") throw std::runtime_error("the external client's first line is not a hello: " + hello->dump());
  hello_.client = text_of(*hello, "client");
  hello_.version = text_of(*hello, "version");
  if (const auto ops = hello->find("ops"); ops != hello->end() && ops->is_array()) {
    for (const auto& op : *ops) {
      if (op.is_string()) hello_.ops.push_back(op.get<std::string>());
    }
  }
  for (const char* required : {"acquire", "release"}) {
    if (!hello_.supports(required)) throw std::runtime_error(std::string("the external client's hello lists no '") + required + "' op");
  }
}

Reply ExternalLock::request(nlohmann::json message, std::chrono::milliseconds bound) {
  const std::int64_t id = next_id_++;
  message["id"] = id;
  Reply reply;
  if (hung_) {
    reply.error = "not sent: the client hung earlier and was killed";
    return reply;
  }
  RunningBudget budget(bound, std::chrono::steady_clock::now());
  if (!process_.send(message)) {
    reply.error = "the client's input is closed (it exited)";
    return reply;
  }
  // Bounded by the budget (receive counts every wait against it); a reply with another id is skipped.
  while (true) {
    const std::optional<nlohmann::json> answer = process_.receive(budget);
    if (!answer && process_.closed()) {
      reply.error = "the client's output ended before its reply (it exited)";
      return reply;
    }
    if (!answer) return hang(message, budget, bound);
    const auto answered = answer->find("id");
    if (answered == answer->end() || !answered->is_number_integer()) {
      throw std::runtime_error("the external client replied without a numeric id: " + answer->dump());
    }
    if (answered->get<std::int64_t>() != id) continue;
    const std::string type = text_of(*answer, "type");
    if (type == "ok") {
      reply.type = Reply::Type::ok;
    } else if (type == "fail") {
      reply.type = Reply::Type::fail;
    } else if (type != "info") {
      throw std::runtime_error("the external client replied with type '" + type + "' (ok, fail or info): " + answer->dump());
    }
    reply.error = text_of(*answer, "error");
    if (reply.type == Reply::Type::fail && reply.error == "unsupported") {
      throw std::runtime_error("the external client does not support '" + text_of(message, "op") + "'");
    }
    reply.body = *answer;
    return reply;
  }
}

Task<AcquireResult> ExternalLock::acquire(std::string key, Micros wait) {
  const MonoTime sent_at = clock_.monotonic_now();
  const auto wait_ms = std::chrono::duration_cast<std::chrono::milliseconds>(wait);
  const Reply reply = request({{"op", "acquire"}, {"wait_ms", wait_ms.count()}}, reply_bound(wait_ms, settings_.command_timeout, settings_.link_delay));
  AcquireResult result;
  result.attempts = 1;
  result.detail = reply.error;
  if (reply.type == Reply::Type::fail) {
    // "unreachable: ..." (PROTOCOL.md): no attempt got a reply, which a library may tell from a held lock.
    result.status = reply.error.starts_with("unreachable") ? AcquireStatus::unreachable : AcquireStatus::busy;
    // A client reports only its verdict: its last refusal is taken to be when it gave up.
    if (result.status == AcquireStatus::busy) result.refused_at = clock_.monotonic_now();
  } else if (reply.type == Reply::Type::info) {
    result.status = AcquireStatus::unknown;
  } else {
    result.status = AcquireStatus::acquired;
    Lease lease;
    lease.key = std::move(key);
    lease.token = text_of(reply.body, "token");
    if (lease.token.empty()) lease.token = settings_.token_prefix + std::to_string(++leases_);
    lease.sent_at = sent_at;
    lease.valid_until = valid_until(reply, sent_at);
    lease.fencing_token = reply.fence().value_or(0);
    lease.clock = &clock_;
    result.lease = std::move(lease);
  }
  co_return result;
}

Task<ReleaseStatus> ExternalLock::release(Lease& lease) {
  const Reply reply = request({{"op", "release"}}, reply_bound(Millis(0), settings_.command_timeout, settings_.link_delay));
  lease.known_lost = true;  // as every variant: the lease is over whatever the answer
  co_return reply.type == Reply::Type::ok     ? ReleaseStatus::released
            : reply.type == Reply::Type::fail ? ReleaseStatus::not_owned
                                              : ReleaseStatus::unknown;
}

Task<RenewStatus> ExternalLock::renew(Lease& lease) {
  if (!hello_.supports("renew")) throw std::runtime_error("the external client does not support 'renew'");
  const MonoTime sent_at = clock_.monotonic_now();
  const Reply reply = request({{"op", "renew"}}, reply_bound(Millis(0), settings_.command_timeout, settings_.link_delay));
  if (reply.type == Reply::Type::ok) {
    lease.valid_until = valid_until(reply, sent_at);
    co_return RenewStatus::renewed;
  }
  if (reply.type == Reply::Type::fail) {
    lease.known_lost = true;
    co_return RenewStatus::lost;
  }
  co_return RenewStatus::unknown;
}

// The library's validity counts from when the client read the request, which is after lockcheck sent it: from
// the sending, the lease ends no later than the library's own, whatever held up the pipe or the reply
// (a pause of the client and its worker between the reply and its reading cannot stretch it).
MonoTime ExternalLock::valid_until(const Reply& ok, MonoTime sent_at) {
  if (const std::optional<Micros> library = ok.valid_for()) return sent_at + *library;
  if (!estimated_validity_reported_) {
    estimated_validity_reported_ = true;
    if (on_estimated_validity_) on_estimated_validity_();
  }
  return sent_at + settings_.ttl;  // the server's TTL started after the sending
}

Reply ExternalLock::use() {
  if (!hello_.supports("use")) return Reply{Reply::Type::ok, {}, nlohmann::json::object()};
  return request({{"op", "use"}}, reply_bound(Millis(0), settings_.command_timeout, settings_.link_delay));
}

Reply ExternalLock::hang(const nlohmann::json& message, const RunningBudget& waited, std::chrono::milliseconds bound) {
  hung_ = true;
  process_.kill();
  ClientHang hang;
  hang.process = settings_.process;
  hang.id = message.value("id", std::int64_t{0});
  hang.op = text_of(message, "op");
  hang.bound_ms = bound.count();
  hang.running_ms = waited.running().count();
  hang.waited_ms = waited.elapsed().count();
  hang.stderr_tail = process_.stderr_tail();
  if (on_hang_) on_hang_(hang);
  Reply reply;
  reply.error = "the client hung: no reply within " + std::to_string(bound.count()) + " ms; killed";
  return reply;
}

}  // namespace lockcheck::judge
