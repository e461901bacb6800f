#pragma once
// Lua 5.4 under Redis 7.0's rules: one lua_State per node, created on the first command that needs it (most
// simulated nodes never run a script, and the sandbox's setup was a third of a short run), as a copy of the
// state its region's setup made (lua_region.hpp); scripts compiled
// once and cached by sha1; KEYS/ARGV; the redis.* library; a read-only sandbox; Redis's reply conversions; a bound on
// instructions and memory so a runaway script becomes an error reply, never a hang or a crash.
#include <utility>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lockcheck/reply.hpp"
#include "redis/scripting/lua_block_pool.hpp"
#include "redis/scripting/lua_function_lib.hpp"
#include "redis/scripting/lua_region.hpp"
#include "redis/scripting/script_host.hpp"

struct lua_State;
struct lua_Debug;

namespace lockcheck::mock {

class LuaEngine {
 public:
  LuaEngine(ScriptHost& host, std::uint64_t instruction_limit, std::size_t memory_limit_bytes);
  ~LuaEngine();
  LuaEngine(const LuaEngine&) = delete;
  LuaEngine& operator=(const LuaEngine&) = delete;

  // Compiles `body` and caches it under `sha` (sha1 of body). Returns the error reply when it does not
  // compile, or uses syntax Redis's Lua 5.1 lacks.
  std::optional<Reply> load(const std::string& sha, std::string_view body);
  bool has(std::string_view sha) const { return scripts_.find(sha) != scripts_.end(); }
  std::size_t script_count() const { return scripts_.size(); }
  void flush();

  // Runs a cached script for `caller` (the EVAL command), or answers NOSCRIPT. `read_only` (EVAL_RO, or a
  // `#!lua flags=no-writes` script) refuses writes.
  Reply run(std::string_view sha, std::span<const std::string> keys, std::span<const std::string> argv,
            bool read_only, const Command& caller);

  // FUNCTION LOAD: runs a library's code (the payload after its shebang line, starting at that line's
  // newline, so line numbers stay) in the load scope; fills `registered` or returns Redis's error text.
  std::optional<std::string> load_library(std::string_view code, std::vector<RegisteredFunction>& registered);
  void release_function(int callback_ref);
  // FCALL / FCALL_RO: calls a registered function with (keys, args) as Redis does.
  Reply call_function(const RegisteredFunction& function, std::span<const std::string> keys,
                      std::span<const std::string> argv, bool read_only, const Command& caller);

  // The script or function running now (busy mode, SCRIPT/FUNCTION KILL, FUNCTION STATS). `name` is the
  // sha or the function's name; `timed_out` once it has run past busy-reply-threshold on the served mock.
  struct Running {
    bool is_eval = true;
    std::string_view name;
    const Command* caller = nullptr;
    std::int64_t start_ms = 0;
    bool timed_out = false;
    bool killed = false;
    bool wrote = false;
  };
  const Running* running() const { return running_state_ ? &*running_state_ : nullptr; }
  bool busy() const { return running_state_ && running_state_->timed_out; }
  void note_write() {
    if (running_state_) running_state_->wrote = true;
  }
  void request_kill() { running_state_->killed = true; }

  // Until the state exists this is what a fresh state would hold (after a flush: a fresh state collected),
  // so INFO's used_memory_lua and the maxmemory accounting read the same whether or not a script ran yet.
  std::size_t memory_used_bytes() const;
  // Creates the Lua state now (a node with a small script memory limit does so at construction, where a
  // setup that does not fit fails as it always did). Idempotent.
  void start();
  bool started() const { return L_ != nullptr; }

  // Internals reached from the Lua C functions (lua_redis_lib.cpp).
  static LuaEngine& of(lua_State* L);
  ScriptHost& host() { return host_; }
  bool read_only() const { return read_only_; }
  bool allow_oom() const { return running_ != nullptr && running_->allow_oom; }
  // redis.setresp(3) for the rest of this run; every run starts on RESP2, as in Redis.
  bool resp3() const { return resp3_; }
  // True once after a script ended with an error its redis.call/pcall already counted in INFO errorstats
  // (Redis's ignore_error_stats_update), so the EVAL/FCALL reply does not count it again.
  bool take_counted_error() { return std::exchange(result_error_counted_, false); }
  void set_resp3(bool on) { resp3_ = on; }
  Command& scratch() { return scratch_; }
  RegisterSink* loading_functions() { return loading_; }

 private:
  // A script's shebang ("#!lua flags=...") as Redis 7.0 reads it; without one a script runs in
  // compatibility mode (writes allowed, OOM checked per write command).
  struct Script {
    int function_ref = 0;
    bool shebang = false;
    bool no_writes = false;
    bool allow_oom = false;
  };
  static void* allocate(void* ud, void* ptr, std::size_t old_size, std::size_t new_size);
  static void* allocate_in_region(void* ud, void* ptr, std::size_t old_size, std::size_t new_size);
  // Both: Lua's own figures (memory_used_bytes_, the limit) whichever holds the blocks.
  template <typename Blocks>
  void* allocate_from(Blocks& blocks, void* ptr, std::size_t old_size, std::size_t new_size);
  static void count_hook(lua_State* L, ::lua_Debug* ar);
  static int protected_setup(lua_State* L);
  lua_State* state() {
    if (L_ == nullptr) start();
    return L_;
  }
  static int protected_run(lua_State* L);
  void run_inside(lua_State* L);
  Reply run_script(const Script& script, std::string_view name, std::span<const std::string> keys,
                   std::span<const std::string> argv, bool read_only, bool is_eval, const Command& caller);
  void check_busy(lua_State* L);

  ScriptHost& host_;
  LuaBlockPool blocks_;  // the state's blocks; ~LuaEngine closes the state before members are destroyed
  // Where the state lives instead, for the limits regions serve (lua_region.hpp): made by copying the region's
  // template back when it has one; never closed, the region goes back to this thread's next state.
  std::unique_ptr<LuaRegion> region_;
  lua_State* L_ = nullptr;  // made by start(); every use goes through state()
  bool collect_at_start_ = false;  // flush() ran once before the state existed: the new state collects once
  std::map<std::string, Script, std::less<>> scripts_;
  int env_ref_ = 0;  // the read-only proxy every script sees as _ENV
  int function_env_ref_ = 0;     // the proxy function libraries see as _ENV (lua_function_lib.hpp)
  int function_scope_ref_ = 0;   // switch(loading) for that proxy
  RegisterSink* loading_ = nullptr;  // set while FUNCTION LOAD runs a library's code
  std::int64_t load_start_ms_ = 0;    // when it started (served mock: the load timeout)
  std::optional<Running> running_state_;
  std::int64_t busy_threshold_ms_ = 5000;
  std::uint64_t instruction_limit_;
  std::uint64_t instructions_ = 0;
  std::size_t memory_limit_bytes_;
  std::size_t memory_used_bytes_ = 0;
  bool read_only_ = false;
  bool resp3_ = false;
  Command scratch_;  // redis.call argument buffer, reused: scripts cannot nest

  // The script being run by run(), for protected_run.
  const Script* running_ = nullptr;
  std::string_view running_name_;
  bool running_function_ = false;  // callbacks get (keys, args); scripts get KEYS and ARGV
  std::span<const std::string> running_keys_, running_argv_;
  Reply result_;
  bool result_error_counted_ = false;
};

}  // namespace lockcheck::mock
