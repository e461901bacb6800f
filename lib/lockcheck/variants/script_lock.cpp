#include "lockcheck/variants/script_lock.hpp"

#include <fmt/format.h>

#include "lockcheck/errors.hpp"

namespace lockcheck {
namespace {

const std::string& require(const std::string& source, const char* name) {
  if (source.empty()) throw InvalidArgument(fmt::format("the script variant needs {}.lua", name));
  return source;
}

// A reply outside the contract is an error, not a guess about what the script meant.
CallResult contract_error(CallResult call, const std::string& script, const char* wanted) {
  call.reply = Reply::error(fmt::format("ERR {} broke the lock script contract: it returned {}; {}", script,
                                        to_string(call.reply), wanted));
  return call;
}

// Error replies name the user's file; a release or renew's "not owned" in any shape becomes 0, so the loop
// around it (single_key_lock.cpp) reads one shape.
CallResult owner_check_reply(CallResult call, const std::string& script) {
  if (!call.replied()) return call;
  if (call.reply.is_error()) {
    call.reply.text = name_script_in_error(call.reply.text, script);
    return call;
  }
  switch (owner_check_answer(call.reply)) {
    case ScriptAnswer::yes: call.reply = Reply::integer_reply(1); break;
    case ScriptAnswer::no: call.reply = Reply::integer_reply(0); break;
    case ScriptAnswer::outside_contract:
      call = contract_error(std::move(call), script, "the contract wants 1 or true, 0, false or nil");
      break;
  }
  return call;
}

bool is_sha1_hex(std::string_view text) {
  return text.size() == 40 && text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

}  // namespace

ScriptAnswer acquire_answer(const Reply& reply) {
  if (reply.is_integer(1) || (reply.kind == Reply::Kind::status && reply.text == "OK")) return ScriptAnswer::yes;
  if (reply.is_integer(0) || reply.is_nil()) return ScriptAnswer::no;
  return ScriptAnswer::outside_contract;
}

ScriptAnswer owner_check_answer(const Reply& reply) {
  if (reply.is_integer(1)) return ScriptAnswer::yes;
  if (reply.is_integer(0) || reply.is_nil()) return ScriptAnswer::no;
  return ScriptAnswer::outside_contract;
}

std::string name_script_in_error(std::string_view error_text, std::string_view file) {
  std::string out;
  out.reserve(error_text.size());
  // One match per round, each consuming at least its own length.
  while (!error_text.empty()) {
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
      continue;
    }
    if (at == std::string_view::npos) break;
    out.append(error_text.substr(0, at));
    out.append(file);
    out += ':';
    error_text.remove_prefix(at + 12);
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
}

Task<detail::SingleKeyLock::Attempt> ScriptLock::attempt(const std::string& key, const std::string& token,
                                                         bool /*after_lost_reply*/) {
  Attempt result;
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token, ttl_ms(), std::to_string(clock_.wall_now().count())};
  result.call = co_await run_script(acquire_, std::move(keys), std::move(args));
  if (!result.call.replied()) co_return result;
  if (result.call.reply.is_error()) {
    result.call.reply.text = name_script_in_error(result.call.reply.text, acquire_name_);
    co_return result;
  }
  switch (acquire_answer(result.call.reply)) {
    case ScriptAnswer::yes: result.granted = true; break;
    case ScriptAnswer::no: break;
    case ScriptAnswer::outside_contract:
      result.call = contract_error(std::move(result.call), acquire_name_,
                                   "the contract wants 1, true or OK, or 0, false or nil");
      break;
  }
  co_return result;
}

Task<CallResult> ScriptLock::release_call(const std::string& key, const std::string& token,
                                          const Request& /*request*/) {
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token};
  CallResult call = co_await run_script(release_, std::move(keys), std::move(args));
  co_return owner_check_reply(std::move(call), release_name_);
}

Task<CallResult> ScriptLock::renew_call(const std::string& key, const std::string& token) {
  if (!renew_) throw InvalidArgument("this script lock has no renew.lua");
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token, ttl_ms()};
  CallResult call = co_await run_script(*renew_, std::move(keys), std::move(args));
  co_return owner_check_reply(std::move(call), renew_name_);
}

}  // namespace lockcheck
