#include "lockcheck/variants/script_lock.hpp"

#include <fmt/format.h>

#include "lockcheck/assert.hpp"
#include "lockcheck/errors.hpp"

namespace lockcheck {
namespace {

const std::string& require(const std::string& source, const char* name) {
  if (source.empty()) throw InvalidArgument(fmt::format("the script variant needs {}.lua", name));
  return source;
}

// One shape for the loop around the scripts (single_key_lock.cpp): yes becomes 1, no 0; a reply outside the
// contract becomes an error reply that says so, never a guess about what the script meant. Other errors (the
// server's refusals) keep their text, with the user's file named in place of Redis's "user_script".
CallResult contract_reply(CallResult call, const std::string& script) {
  if (!call.replied()) return call;
  if (const std::string breach = script_contract_breach(call.reply, script); !breach.empty()) {
    call.reply = Reply::error("ERR " + breach);
    return call;
  }
  if (call.reply.is_error()) {
    call.reply.text = name_script_in_error(call.reply.text, script);
    return call;
  }
  // script_contract_breach() turned every other reply into an error above: none is read as a "no" by default.
  LOCKCHECK_ASSERT(script_answer(call.reply) != ScriptAnswer::outside_contract);
  call.reply = Reply::integer_reply(script_answer(call.reply) == ScriptAnswer::yes ? 1 : 0);
  return call;
}

// The line Redis names a script error at ("user_script:3"), or "" when it names none.
std::string_view script_error_line(std::string_view error_text) {
  const std::size_t at = error_text.find("user_script:");
  if (at == std::string_view::npos) return {};
  const std::string_view rest = error_text.substr(at + 12);
  return rest.substr(0, rest.find_first_not_of("0123456789"));
}

bool is_sha1_hex(std::string_view text) {
  return text.size() == 40 && text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

}  // namespace

ScriptAnswer script_answer(const Reply& reply) {
  if (reply.is_integer(1) || (reply.kind == Reply::Kind::status && reply.text == "OK")) return ScriptAnswer::yes;
  if (reply.is_integer(0) || reply.is_nil()) return ScriptAnswer::no;
  if (reply.kind == Reply::Kind::boolean) return reply.integer != 0 ? ScriptAnswer::yes : ScriptAnswer::no;  // RESP3
  return ScriptAnswer::outside_contract;
}

std::string script_contract_breach(const Reply& reply, std::string_view file) {
  if (reply.is_error()) {
    const std::string_view line = script_error_line(reply.text);
    const std::string_view code = reply.error_code();
    // Only the script's own failure: a Lua error or a bad redis.call, which Redis places in the script. A
    // refusal of the server's (READONLY after a failover, OOM, CROSSSLOT, ...) is the deployment's.
    if (line.empty() || (code != "ERR" && code != "WRONGTYPE")) return "";
    // script_error_line() hands back the line number alone: the breach names <file>:<number>.
    LOCKCHECK_ASSERT(line.find_first_not_of("0123456789") == std::string_view::npos);
    return fmt::format("{}:{} {}: it failed with \"{}\"; the contract wants {}", file, line, kScriptContractBroken,
                       name_script_in_error(reply.text, file), kScriptContractShapes);
  }
  if (script_answer(reply) != ScriptAnswer::outside_contract) return "";
  return fmt::format("{} {}: it returned {}; the contract wants {}", file, kScriptContractBroken, to_string(reply),
                     kScriptContractShapes);
}

std::string name_script_in_error(std::string_view error_text, std::string_view file) {
  std::string out;
  out.reserve(error_text.size());
  // One match per round, each consuming at least its own length.
  while (!error_text.empty()) {
    const std::size_t left_before = error_text.size();
    const std::size_t at = error_text.find("user_script:");
    const std::size_t suffix = error_text.find(" script: ");
    if (suffix != std::string_view::npos && (at == std::string_view::npos || suffix < at) &&
        is_sha1_hex(error_text.substr(suffix + 9, 40)) && error_text.substr(suffix + 49).starts_with(", on @")) {
      // " script: <sha>, on @user_script:3." -> " (at renew.lua:3)"
      out.append(error_text.substr(0, suffix));
      std::string_view rest = error_text.substr(suffix + 55);
      if (rest.starts_with("user_script:")) rest.remove_prefix(12);
      const std::size_t digits = rest.find_first_not_of("0123456789");
      const std::string_view line = rest.substr(0, digits);
      out += fmt::format(" (at {}:{})", file, line);
      rest.remove_prefix(line.size());
      if (rest.starts_with(".")) rest.remove_prefix(1);
      error_text = rest;
      LOCKCHECK_ASSERT(error_text.size() < left_before);  // each round consumes text: the loop ends
      continue;
    }
    if (at == std::string_view::npos) break;
    out.append(error_text.substr(0, at));
    out.append(file);
    out += ':';
    error_text.remove_prefix(at + 12);
    LOCKCHECK_ASSERT(error_text.size() < left_before);
  }
  out.append(error_text);
  return out;
}

ScriptLock::ScriptLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, const UserScripts& scripts,
                       std::size_t node)
    : SingleKeyLock(port, clock, entropy, options, node),
      acquire_(require(scripts.acquire, "acquire")),
      release_(require(scripts.release, "release")),
      acquire_name_(scripts.acquire_name),
      release_name_(scripts.release_name),
      renew_name_(scripts.renew_name) {
  if (!scripts.renew.empty()) renew_.emplace(scripts.renew);
  // EVALSHA names the user's scripts by their SHA-1 digest: 40 hex digits, what Redis caches them under.
  LOCKCHECK_ASSERT(acquire_.sha().size() == 40 && release_.sha().size() == 40);
}

Task<detail::SingleKeyLock::Attempt> ScriptLock::attempt(const std::string& key, const std::string& token,
                                                         bool /*after_lost_reply*/) {
  Attempt result;
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token, ttl_ms(), std::to_string(clock_.wall_now().count())};
  result.call = contract_reply(co_await run_script(acquire_, std::move(keys), std::move(args)), acquire_name_);
  result.granted = result.call.replied() && result.call.reply.is_integer(1);
  co_return result;
}

Task<CallResult> ScriptLock::release_call(const std::string& key, const std::string& token,
                                          const Request& /*request*/) {
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token};
  CallResult call = co_await run_script(release_, std::move(keys), std::move(args));
  co_return contract_reply(std::move(call), release_name_);
}

Task<CallResult> ScriptLock::renew_call(const std::string& key, const std::string& token) {
  if (!renew_) throw InvalidArgument("this script lock has no renew.lua");
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token, ttl_ms()};
  CallResult call = co_await run_script(*renew_, std::move(keys), std::move(args));
  co_return contract_reply(std::move(call), renew_name_);
}

}  // namespace lockcheck
