#pragma once
// What the Lua engine asks of the server it runs in: redis.call's commands, redis.acl_check_cmd's ACL answer,
// room under maxmemory, the running script's name, and the served mock's busy-script service. The node
// implements it (server/node.hpp), so scripting/ sits below the server and names no node, command table or ACL.
#include <cstdint>
#include <optional>
#include <string_view>

#include "lockcheck/reply.hpp"

namespace lockcheck::mock {

class ScriptHost {
 public:
  // redis.call / redis.pcall: runs `command` for the script's client. allow_oom: the script's shebang has
  // flags=allow-oom, so its writes skip the maxmemory check.
  virtual Reply call_from_script(const Command& command, bool read_only, bool allow_oom) = 0;
  // redis.acl_check_cmd: may the running script's user run `command`? nullopt when ACL knows no such command.
  virtual std::optional<bool> script_user_may_run(const Command& command) const = 0;
  // A flagged script's up-front OOM check: evicts as the policy allows; false when still over the limit.
  virtual bool make_room() = 0;
  // The sha or function name the script's commands are reported under (key events' actor); empty after the run.
  virtual void set_script_context(std::string_view name) = 0;

  // Served over a socket (lua_engine.hpp's Running): the clock a busy script is timed on, whether other clients
  // are served while it runs, serving them once (false: the server is stopping), and busy-reply-threshold.
  virtual std::int64_t now_ms() const = 0;
  virtual bool serves_while_busy() const = 0;
  virtual bool service_while_busy() = 0;
  virtual std::int64_t busy_reply_threshold_ms() const = 0;

 protected:
  ~ScriptHost() = default;  // never owned through this interface
};

}  // namespace lockcheck::mock
