#include "redis/scripting/lua_engine.hpp"

#include <cstdlib>
#include <lua.hpp>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "lockcheck/assert.hpp"
#include "redis/scripting/embedded_chunk.hpp"
#include "redis/scripting/lua51_lib.hpp"
#include "redis/scripting/lua51_rewrite.hpp"
#include "redis/scripting/lua51_syntax.hpp"
#include "redis/scripting/lua_cjson.hpp"
#include "redis/scripting/lua_cmsgpack.hpp"
#include "redis/scripting/lua_struct.hpp"
#include "redis/scripting/lua_convert.hpp"
#include "redis/scripting/lua_prelude.hpp"
#include "redis/scripting/prepared_script.hpp"
#include "redis/scripting/lua_redis_lib.hpp"

namespace lockcheck::mock {
namespace {

// The instruction hook fires every kHookEvery VM instructions; the limit is checked there.
constexpr int kHookEvery = 10'000;

// The sandbox's setup needs well under 1 MiB (scripting_test runs a node limited to that), so from this limit
// on it cannot fail and the state is made lazily; under it, at construction, where a setup that does not fit
// has always failed.
constexpr std::size_t kLazyFromLimitBytes = 16u << 20;

void push_string_array(lua_State* L, std::span<const std::string> values) {
  lua_createtable(L, static_cast<int>(values.size()), 0);
  for (std::size_t i = 0; i < values.size(); ++i) {
    lua_pushlstring(L, values[i].data(), values[i].size());
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
}

// Sets (or, with `remove`, clears) the global arrays KEYS and ARGV, in that order, fetching the globals table
// once for both.
void set_key_and_argument_globals(lua_State* L, std::span<const std::string> keys, std::span<const std::string> argv,
                                  bool remove) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  for (const auto& [name, values] : {std::pair{"KEYS", keys}, std::pair{"ARGV", argv}}) {
    lua_pushstring(L, name);
    if (remove) lua_pushnil(L);
    else push_string_array(L, values);
    lua_rawset(L, -3);  // raw: the globals table refuses ordinary writes
  }
  lua_pop(L, 1);
}

}  // namespace

LuaEngine& LuaEngine::of(lua_State* L) { return **static_cast<LuaEngine**>(lua_getextraspace(L)); }

template <typename Blocks>
void* LuaEngine::allocate_from(Blocks& blocks, void* ptr, std::size_t old_size, std::size_t new_size) {
  std::size_t previous = ptr == nullptr ? 0 : old_size;  // with ptr == NULL, old_size is a type tag
  if (new_size == 0) {
    memory_used_bytes_ -= previous;
    if (ptr != nullptr) blocks.release(ptr, previous);
    return nullptr;
  }
  if (new_size > previous && memory_used_bytes_ + (new_size - previous) > memory_limit_bytes_) {
    return nullptr;  // Lua raises "not enough memory"
  }
  void* block = blocks.resize(ptr, previous, new_size);
  if (block == nullptr) return nullptr;
  memory_used_bytes_ = memory_used_bytes_ - previous + new_size;
  return block;
}

void* LuaEngine::allocate(void* ud, void* ptr, std::size_t old_size, std::size_t new_size) {
  auto* engine = static_cast<LuaEngine*>(ud);
  return engine->allocate_from(engine->blocks_, ptr, old_size, new_size);
}

void* LuaEngine::allocate_in_region(void* ud, void* ptr, std::size_t old_size, std::size_t new_size) {
  auto* engine = static_cast<LuaEngine*>(ud);
  return engine->allocate_from(*engine->region_, ptr, old_size, new_size);
}

void LuaEngine::count_hook(lua_State* L, lua_Debug*) {
  LuaEngine& engine = of(L);
  // Served on a socket, a long script behaves as on Redis: no instruction bound, but past
  // busy-reply-threshold other clients are served (BUSY) and SCRIPT KILL / FUNCTION KILL can stop it.
  if (engine.host_.serves_while_busy() && engine.running_state_) {
    engine.check_busy(L);
    return;
  }
  // FUNCTION LOAD on the served mock: Redis gives a library's code 500 ms of real time to register. That
  // bound is the only one there: the instruction limit could fire first on a fast machine, with another text.
  constexpr std::int64_t kLoadTimeoutMs = 500;
  if (engine.host_.serves_while_busy() && engine.loading_ != nullptr) {
    if (engine.host_.now_ms() - engine.load_start_ms_ <= kLoadTimeoutMs) return;
    lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
    push_error_table(L, "FUNCTION LOAD timeout");
    lua_error(L);
  }
  engine.instructions_ += kHookEvery;
  if (engine.instructions_ <= engine.instruction_limit_) return;
  // Fire on every instruction from now on, so a pcall in the script cannot swallow the abort for long.
  lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
  push_error_table(L, "-BUSY script aborted by the lockcheck mock after " +
                          std::to_string(engine.instruction_limit_) + " instructions (a runaway script)");
  lua_error(L);
}

void LuaEngine::check_busy(lua_State* L) {
  Running& run = *running_state_;
  if (!run.timed_out) {
    if (host_.now_ms() - run.start_ms < busy_threshold_ms_) return;
    run.timed_out = true;
  }
  const bool keep_serving = host_.service_while_busy();
  if (!run.killed && keep_serving) return;
  // Fire on every instruction from now on, so a pcall in the script cannot swallow the kill.
  lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
  push_error_table(L, keep_serving ? "Script killed by user with SCRIPT KILL..." : "server shutting down");
  lua_error(L);
}

int LuaEngine::protected_setup(lua_State* L) {
  luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
  luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
  luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
  luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
  luaL_requiref(L, LUA_COLIBNAME, luaopen_coroutine, 1);
  lua_settop(L, 0);
  open_redis_lib(L);
  open_lua51_lib(L);  // leaves the prelude's helpers table on the stack
  int helpers = lua_gettop(L);
  if (load_embedded_chunk(L, kLuaCjson, "=cjson") != LUA_OK) return lua_error(L);
  lua_pushlightuserdata(L, nullptr);
  lua_getglobal(L, std::string(kConcatOperand).c_str());
  lua_getfield(L, helpers, "as_c_function");
  lua_call(L, 3, 1);
  lua_setglobal(L, "cjson");
  if (load_embedded_chunk(L, kLuaCmsgpack, "=cmsgpack") != LUA_OK) return lua_error(L);
  lua_getfield(L, helpers, "as_c_function");
  lua_call(L, 1, 1);
  lua_setglobal(L, "cmsgpack");
  if (load_embedded_chunk(L, kLuaStruct, "=struct") != LUA_OK) return lua_error(L);
  lua_getfield(L, helpers, "as_c_function");
  lua_call(L, 1, 1);
  lua_setglobal(L, "struct");
  if (load_embedded_chunk(L, kLuaPrelude, "=prelude") != LUA_OK) return lua_error(L);
  lua_pushcfunction(L, lua_readonly_error);
  lua_pushcfunction(L, lua_nonexistent_global);
  lua_pushvalue(L, helpers);
  lua_call(L, 3, 1);
  push_function_environment(L, -1);
  of(L).function_scope_ref_ = luaL_ref(L, LUA_REGISTRYINDEX);
  of(L).function_env_ref_ = luaL_ref(L, LUA_REGISTRYINDEX);
  of(L).env_ref_ = luaL_ref(L, LUA_REGISTRYINDEX);
  return 0;
}

LuaEngine::LuaEngine(ScriptHost& host, std::uint64_t instruction_limit, std::size_t memory_limit_bytes)
    : host_(host), instruction_limit_(instruction_limit), memory_limit_bytes_(memory_limit_bytes) {
  if (memory_limit_bytes_ < kLazyFromLimitBytes) start();
}

void LuaEngine::start() {
  if (L_ != nullptr) return;
  region_ = LuaRegion::take(memory_limit_bytes_);
  if (region_ != nullptr && region_->has_template()) {
    // The state the setup made in this region, to the byte (lua_region.hpp); only its owner is new.
    const LuaRegion::Owner& made = region_->restore_template();
    L_ = made.state;
    memory_used_bytes_ = made.memory_used_bytes;
    env_ref_ = made.env_ref;
    function_env_ref_ = made.function_env_ref;
    function_scope_ref_ = made.function_scope_ref;
    lua_setallocf(L_, &LuaEngine::allocate_in_region, this);
    *static_cast<LuaEngine**>(lua_getextraspace(L_)) = this;
  } else {
    L_ = lua_newstate(region_ != nullptr ? &LuaEngine::allocate_in_region : &LuaEngine::allocate, this);
    LOCKCHECK_ASSERT(L_ != nullptr);
    *static_cast<LuaEngine**>(lua_getextraspace(L_)) = this;
    lua_pushcfunction(L_, protected_setup);
    if (lua_pcall(L_, 0, 0, 0) != LUA_OK) {
      std::string message = lua_tostring(L_, -1) ? lua_tostring(L_, -1) : "?";
      lua_close(L_);
      L_ = nullptr;
      region_.reset();
      throw std::runtime_error("lockcheck mock: Lua sandbox setup failed: " + message);
    }
    lua_sethook(L_, count_hook, LUA_MASKCOUNT, kHookEvery);
    if (region_ != nullptr) {
      region_->keep_template({.state = L_, .memory_used_bytes = memory_used_bytes_, .env_ref = env_ref_,
                              .function_env_ref = function_env_ref_, .function_scope_ref = function_scope_ref_});
    }
  }
  if (collect_at_start_) lua_gc(L_, LUA_GCCOLLECT);  // what flush() did to the state it had then
}

std::size_t LuaEngine::memory_used_bytes() const {
  if (L_ != nullptr) return memory_used_bytes_;
  // Every fresh state allocates the same blocks (the setup reads nothing of its host), so one probe per
  // process gives both figures (lazy_lua_state_test compares them with a state made at construction).
  struct Fresh {
    std::size_t bytes = 0;
    std::size_t collected_bytes = 0;
  };
  static const Fresh fresh = [this] {
    LuaEngine probe(host_, instruction_limit_, memory_limit_bytes_);
    probe.start();
    Fresh figures{.bytes = probe.memory_used_bytes_};
    probe.flush();
    figures.collected_bytes = probe.memory_used_bytes_;
    return figures;
  }();
  return collect_at_start_ ? fresh.collected_bytes : fresh.bytes;
}

LuaEngine::~LuaEngine() {
  // A region's state is dropped with its bytes: its next state is copied over them (no finalizer of the
  // sandbox's own frees anything outside the region).
  if (region_ != nullptr) LuaRegion::give_back(std::move(region_));
  else if (L_ != nullptr) lua_close(L_);
}

std::optional<Reply> LuaEngine::load(const std::string& sha, std::string_view body) {
  const std::shared_ptr<const PreparedScript> prepared = prepared_script(body);
  if (prepared->refusal) return Reply::error(*prepared->refusal);
  lua_State* L = state();
  lua_settop(L, 0);
  // A binary chunk this process compiled (prepared_script.hpp); a node short of memory may still refuse it.
  if (luaL_loadbufferx(L, prepared->bytecode.data(), prepared->bytecode.size(), "@user_script", "b") != LUA_OK) {
    std::string message = lua51_error_wording(lua_tostring(L, -1) ? lua_tostring(L, -1) : "?");
    lua_settop(L, 0);
    return Reply::error(std::string(kScriptCompileError) + message);
  }
  // The chunk's first upvalue is _ENV: point it at the read-only proxy.
  lua_rawgeti(L, LUA_REGISTRYINDEX, env_ref_);
  lua_setupvalue(L, -2, 1);
  scripts_[sha] = Script{luaL_ref(L, LUA_REGISTRYINDEX), prepared->shebang, prepared->no_writes, prepared->allow_oom};
  return std::nullopt;
}

void LuaEngine::flush() {
  // Nothing is loaded before the state exists (a load starts it): the first flush is a collection owed to
  // the state made later. A second one starts it: collecting twice leaves a state that differs from
  // collecting once (the next allocations read other figures), and one owed collection is all that is kept.
  if (L_ == nullptr && !collect_at_start_) {
    collect_at_start_ = true;
    return;
  }
  state();
  for (auto& [sha, script] : scripts_) luaL_unref(L_, LUA_REGISTRYINDEX, script.function_ref);
  scripts_.clear();
  lua_gc(L_, LUA_GCCOLLECT);
}

std::optional<std::string> LuaEngine::load_library(std::string_view code, std::vector<RegisteredFunction>& registered) {
  constexpr std::string_view kFunctionCompileError = "Error compiling function: ";
  std::string source(code);
  if (auto issue = find_lua54_only_syntax(source)) {
    return std::string(kFunctionCompileError) + "user_function:" + std::to_string(issue->line) + ": " + issue->message;
  }
  source = rewrite_for_lua51_numbers(source);
  lua_State* L = state();
  lua_settop(L, 0);
  if (luaL_loadbufferx(L, source.data(), source.size(), "@user_function", "t") != LUA_OK) {
    std::string message = lua51_error_wording(lua_tostring(L, -1) ? lua_tostring(L, -1) : "?");
    lua_settop(L, 0);
    return std::string(kFunctionCompileError) + message;
  }
  // The chunk and every callback it defines share this _ENV; its scope is switched around the load.
  lua_rawgeti(L, LUA_REGISTRYINDEX, function_env_ref_);
  lua_setupvalue(L, -2, 1);
  auto set_scope = [this, L](bool loading) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, function_scope_ref_);
    lua_pushboolean(L, loading ? 1 : 0);
    lua_call(L, 1, 0);
  };
  set_scope(true);
  loading_ = &registered;
  load_start_ms_ = host_.serves_while_busy() ? host_.now_ms() : 0;
  instructions_ = 0;
  const int status = lua_pcall(L, 0, 0, 0);
  loading_ = nullptr;
  set_scope(false);
  if (status == LUA_OK) {
    lua_settop(L, 0);
    return std::nullopt;
  }
  // Redis reports the error's text with an error code: a raised error table's err, "ERR " + anything else.
  std::string message;
  if (lua_istable(L, -1)) {
    lua_getfield(L, -1, "err");
    message = lua_isstring(L, -1) ? lua_tostring(L, -1) : "ERR unknown error";
  } else {
    reword_error_at(L, -1);
    message = std::string("ERR ") + (lua_isstring(L, -1) ? lua_tostring(L, -1) : "unknown error");
  }
  lua_settop(L, 0);
  for (const RegisteredFunction& function : registered) release_function(function.callback_ref);
  registered.clear();
  return "Error registering functions: " + message;
}

void LuaEngine::release_function(int callback_ref) { luaL_unref(state(), LUA_REGISTRYINDEX, callback_ref); }

Reply LuaEngine::call_function(const RegisteredFunction& function, std::span<const std::string> keys,
                               std::span<const std::string> argv, bool read_only, const Command& caller) {
  // A function always runs with declared flags (Redis's non-compatibility mode), like a script with a shebang.
  Script script{.function_ref = function.callback_ref, .shebang = true,
                .no_writes = (function.flags & kFlagNoWrites) != 0, .allow_oom = (function.flags & kFlagAllowOom) != 0};
  return run_script(script, function.name, keys, argv, read_only, false, caller);
}

int LuaEngine::protected_run(lua_State* L) {
  of(L).run_inside(L);
  return 0;
}

void LuaEngine::run_inside(lua_State* L) {
  // Scripts read KEYS and ARGV; a function gets them as arguments and has no such globals.
  if (running_function_) set_key_and_argument_globals(L, {}, {}, true);
  else set_key_and_argument_globals(L, running_keys_, running_argv_, false);
  lua_pushcfunction(L, lua_error_handler);
  int handler = lua_gettop(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, running_->function_ref);
  int arguments = 0;
  if (running_function_) {
    push_string_array(L, running_keys_);
    push_string_array(L, running_argv_);
    arguments = 2;
  }
  instructions_ = 0;
  lua_sethook(L, count_hook, LUA_MASKCOUNT, kHookEvery);
  int status = lua_pcall(L, arguments, 1, handler);
  lua_sethook(L, count_hook, LUA_MASKCOUNT, kHookEvery);
  result_error_counted_ = error_stats_counted(L);
  if (status == LUA_OK) {
    result_ = to_reply(L, running_name_, resp3_);
  } else if (lua_istable(L, -1)) {
    result_ = error_table_to_reply(L, running_name_);
  } else {
    // Memory errors skip the message handler and leave a plain string.
    const char* message = lua_tostring(L, -1);
    result_ = Reply::error("ERR Error running script " + std::string(running_name_) + ", " + (message ? message : "unknown error"));
  }
}

Reply LuaEngine::run(std::string_view sha, std::span<const std::string> keys, std::span<const std::string> argv,
                     bool read_only, const Command& caller) {
  auto it = scripts_.find(sha);
  if (it == scripts_.end()) return Reply::error("NOSCRIPT No matching script. Please use EVAL.");
  return run_script(it->second, it->first, keys, argv, read_only, true, caller);
}

Reply LuaEngine::run_script(const Script& script, std::string_view name, std::span<const std::string> keys,
                            std::span<const std::string> argv, bool read_only, bool is_eval, const Command& caller) {
  result_error_counted_ = false;
  // Redis 7.0's checks for scripts that declare flags (scriptPrepareForRun); no-writes implies allow-oom.
  if (script.shebang && !script.no_writes) {
    if (!script.allow_oom && !host_.make_room()) return Reply::error("OOM command not allowed when used memory > 'maxmemory'.");
    if (read_only) return Reply::error("ERR Can not execute a script with write flag using *_ro command.");
  }
  running_ = &script;
  running_name_ = name;
  running_function_ = !is_eval;
  running_keys_ = keys;
  running_argv_ = argv;
  read_only_ = read_only || script.no_writes;
  resp3_ = false;
  result_ = Reply::nil();
  running_state_.emplace(Running{.is_eval = is_eval, .name = name, .caller = &caller});
  if (host_.serves_while_busy()) {
    running_state_->start_ms = host_.now_ms();
    busy_threshold_ms_ = host_.busy_reply_threshold_ms();
  }
  host_.set_script_context(name);
  lua_State* L = state();
  lua_settop(L, 0);
  lua_pushcfunction(L, protected_run);
  // Conversions allocate inside Lua too, so they run protected as well: nothing can reach the panic handler.
  if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
    const char* message = lua_tostring(L, -1);
    result_ = Reply::error("ERR Error running script " + std::string(name) + ", " + (message ? message : "unknown error"));
  }
  lua_settop(L, 0);
  running_ = nullptr;
  running_state_.reset();
  read_only_ = false;
  host_.set_script_context({});
  return std::move(result_);
}

}  // namespace lockcheck::mock
