#pragma once
// A Port for tests that forwards to a real one and, on request, loses replies, drops requests, holds a reply
// back (keeping a copy of its request to send again later) or a request (sending it only later): the faults of a
// network, made at chosen commands.
#include <cstddef>
#include <functional>
#include <utility>

#include "lockcheck/clock.hpp"
#include "lockcheck/port.hpp"

namespace lockcheck::testing {

// Forwards to a real port, and on request loses the replies of the next scripts that ran (a NOSCRIPT reply,
// whose script did not run, is passed on) or drops the next requests unsent. Either way the caller sees an
// unknown outcome, as after a lost packet or a timeout.
class LossyPort final : public Port {
 public:
  explicit LossyPort(Port& inner, Clock* clock = nullptr) : inner_(inner), clock_(clock) {}
  void lose_next_replies(int count) { replies_to_lose_ = count; }
  // The next lost reply comes back (as lost) only after `stall`: a stall or a pause before the caller's retry;
  // `meanwhile` runs as the stall begins (what the rest of the world does in it).
  void stall_next_lost_reply(Micros stall, std::function<void()> meanwhile = {}) {
    stall_ = stall;
    meanwhile_ = std::move(meanwhile);
  }
  void drop_next_requests(int count) { requests_to_drop_ = count; }
  // The next request is held up on its way: the caller sees an unknown outcome, and the request is kept for
  // resend_copy() (it lands later); the `then_drop` requests after it are dropped unsent (the caller gives up).
  void hold_back_next_request(int then_drop = 0) {
    hold_back_next_ = true;
    requests_to_drop_ = then_drop;
  }
  // The next command that runs answers only after `delay` (a slow network: a grant arriving after its validity),
  // and a copy of it is kept for resend_copy() (the same request still on its way, landing later).
  void delay_next_reply(Micros delay) { reply_delay_ = delay; }
  Task<CallResult> resend_copy(std::size_t node) { co_return co_await inner_.call(node, kept_copy_); }
  // Passes the next `pass` requests on, then drops `count` (a cleanup's first send after a check that got through).
  void drop_requests_after(int pass, int count) {
    requests_to_pass_ = pass;
    requests_to_drop_after_pass_ = count;
  }
  std::size_t node_count() const override { return inner_.node_count(); }
  Task<CallResult> call(std::size_t node, Command command) override {
    if (requests_to_pass_ > 0) {
      --requests_to_pass_;
    } else if (requests_to_drop_after_pass_ > 0) {
      --requests_to_drop_after_pass_;
      co_return CallResult::failed(CallStatus::unknown, "request dropped by the test");
    }
    if (std::exchange(hold_back_next_, false)) {
      kept_copy_ = std::move(command);
      co_return CallResult::failed(CallStatus::unknown, "request held back by the test");
    }
    if (requests_to_drop_ > 0) {
      --requests_to_drop_;
      co_return CallResult::failed(CallStatus::unknown, "request dropped by the test");
    }
    const Command copy = reply_delay_ > Micros::zero() ? command : Command{};
    CallResult result = co_await inner_.call(node, std::move(command));
    const bool ran = result.replied() && !(result.reply.is_error() && result.reply.text.rfind("NOSCRIPT", 0) == 0);
    if (ran && reply_delay_ > Micros::zero() && clock_ != nullptr) {
      kept_copy_ = copy;
      co_await clock_->sleep(std::exchange(reply_delay_, Micros::zero()));
    }
    if (ran && replies_to_lose_ > 0) {
      --replies_to_lose_;
      if (meanwhile_) std::exchange(meanwhile_, {})();
      if (stall_ > Micros::zero() && clock_ != nullptr) co_await clock_->sleep(std::exchange(stall_, Micros::zero()));
      co_return CallResult::failed(CallStatus::unknown, "reply lost by the test");
    }
    co_return result;
  }

 private:
  Port& inner_;
  Clock* clock_;
  Micros stall_{0};
  Micros reply_delay_{0};
  Command kept_copy_;
  std::function<void()> meanwhile_;
  bool hold_back_next_ = false;
  int replies_to_lose_ = 0;
  int requests_to_drop_ = 0;
  int requests_to_pass_ = 0;
  int requests_to_drop_after_pass_ = 0;
};

}  // namespace lockcheck::testing
