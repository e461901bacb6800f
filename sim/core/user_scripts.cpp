#include "core/user_scripts.hpp"

#include <fmt/format.h>

#include "core/clock_model.hpp"
#include "lockcheck/assert.hpp"
#include "lockcheck/scripts.hpp"
#include "redis/server/node.hpp"

namespace lockcheck::sim {
namespace {

constexpr const char* kKey = "lockcheck:probe";
constexpr const char* kTtlMs = "1000";
constexpr std::int64_t kRenewAfterMs = 333;  // the TTL over the watchdog's default renew_divisor (3)
constexpr const char* kTokenA = "0123456789abcdef0123456789abcdef";
constexpr const char* kTokenB = "fedcba9876543210fedcba9876543210";

// A correct acquire for probing a release or renew alone: SET NX PX, as the catalogue's token lock does.
constexpr const char* kTokenAcquire =
    "if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end\nreturn 0";

// The scripts of a set loaded on one fresh node, run as the probe's steps. The node's clock stands still but
// for one step, kRenewAfterMs before the first renew, less than the TTL, so no key expires between steps: each
// answer follows from the steps before it.
class Probe {
 public:
  Probe() = default;
  Probe(const Probe&) = delete;  // the node's clock reads this probe's now_ms_
  Probe& operator=(const Probe&) = delete;

  std::optional<ScriptRefusal> load(const char* which, const std::string& source, const std::string& file) {
    const Reply loaded = node_.execute({"SCRIPT", "LOAD", source}, session_);
    if (loaded.is_error()) return ScriptRefusal{which, name_script_in_error(loaded.text, file)};
    shas_[index(which)] = loaded.text;
    return std::nullopt;
  }

  // Runs `which` with `token` (`doing` says what the step asks, for the message); refuses a failure or an
  // answer outside the contract, and with `must_answer_yes` also a no.
  std::optional<ScriptRefusal> step(const char* which, const std::string& file, const char* token, const char* doing,
                                    bool must_answer_yes = false) {
    LOCKCHECK_ASSERT(!shas_[index(which)].empty());  // a step runs a script load() took
    Command call{"EVALSHA", shas_[index(which)], "1", kKey, token};
    if (std::string_view(which) != "release") call.push_back(kTtlMs);
    if (std::string_view(which) == "acquire") call.push_back(std::to_string(kWallEpochUs / 1000));
    const Reply reply = node_.execute(call, session_);
    if (reply.is_error()) {
      const std::string breach = script_contract_breach(reply, file);
      return ScriptRefusal{which, fmt::format("failed on a probe call ({}): {}", doing,
                                              breach.empty() ? name_script_in_error(reply.text, file) : breach)};
    }
    if (const std::string breach = script_contract_breach(reply, file); !breach.empty()) {
      return ScriptRefusal{which, fmt::format("on a probe call ({}): {}", doing, breach)};
    }
    if (must_answer_yes && script_answer(reply) == ScriptAnswer::no) {
      return ScriptRefusal{which, fmt::format("{} answered {} on a probe call ({}), where it must answer yes (1, true "
                                              "or OK); a script with no `return` answers nil",
                                              file, to_string(reply), doing)};
    }
    return std::nullopt;
  }

  bool key_exists() { return node_.execute({"EXISTS", kKey}, session_).is_integer(1); }
  void advance_ms(std::int64_t ms) { now_ms_ += ms; }

 private:
  static std::size_t index(std::string_view which) { return which == "acquire" ? 0 : which == "release" ? 1 : 2; }

  std::int64_t now_ms_ = kWallEpochUs / 1000;
  mock::Node node_{mock::NodeOptions{.clock = [this] { return now_ms_; }}};
  mock::Session session_;
  std::string shas_[3];
};

}  // namespace

std::optional<ScriptRefusal> check_user_scripts(const UserScripts& scripts) {
  const bool renews = !scripts.renew.empty();
  Probe probe;
  if (auto refused = probe.load("acquire", scripts.acquire, scripts.acquire_name)) return refused;
  if (auto refused = probe.load("release", scripts.release, scripts.release_name)) return refused;
  if (renews) {
    if (auto refused = probe.load("renew", scripts.renew, scripts.renew_name)) return refused;
  }
  const std::string& acquire = scripts.acquire_name;
  const std::string& release = scripts.release_name;
  const std::string& renew = scripts.renew_name;
  // The first step's message and its must-answer-yes rest on it: loading ran no script, the key is free.
  LOCKCHECK_ASSERT(!probe.key_exists());
  if (auto refused = probe.step("acquire", acquire, kTokenA, "acquiring a free key", true)) return refused;
  // Past this point a no is the lock's own behaviour for a run to judge, unless the key acquire made is there.
  if (renews) {
    // A watchdog renews a third of the TTL in, never in the acquire's millisecond: there a renew that only
    // extends (PEXPIRE ... GT) would find the same deadline and rightly answer 0.
    probe.advance_ms(kRenewAfterMs);
    if (auto refused = probe.step("renew", renew, kTokenA, "renewing the lock acquire had just taken", probe.key_exists())) {
      return refused;
    }
  }
  if (auto refused = probe.step("release", release, kTokenA, "releasing the lock acquire had just taken", probe.key_exists())) {
    return refused;
  }
  if (auto refused = probe.step("release", release, kTokenA, "releasing a lock already released")) return refused;
  if (renews) {
    if (auto refused = probe.step("renew", renew, kTokenA, "renewing a lock already released")) return refused;
  }
  if (auto refused = probe.step("acquire", acquire, kTokenA, "acquiring the key again")) return refused;
  if (auto refused = probe.step("acquire", acquire, kTokenB, "acquiring a key another token holds")) return refused;
  if (auto refused = probe.step("release", release, kTokenB, "releasing a lock another token holds")) return refused;
  if (renews) {
    if (auto refused = probe.step("renew", renew, kTokenB, "renewing a lock another token holds")) return refused;
  }
  return std::nullopt;
}

std::string check_user_script(const std::string& which, const std::string& source, const std::string& file) {
  UserScripts scripts{kTokenAcquire, std::string(scripts::token_release), std::string(scripts::token_renew)};
  const std::string name = file.empty() ? which + ".lua" : file;
  if (which == "acquire") scripts.acquire = source, scripts.acquire_name = name;
  if (which == "release") scripts.release = source, scripts.release_name = name;
  if (which == "renew") scripts.renew = source, scripts.renew_name = name;
  const std::optional<ScriptRefusal> refused = check_user_scripts(scripts);
  return refused ? refused->problem : "";
}

}  // namespace lockcheck::sim
