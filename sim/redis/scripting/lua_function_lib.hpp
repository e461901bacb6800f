#pragma once
// Redis 7 functions on the Lua side: redis.register_function, and the environment a library's code and
// its callbacks share. While FUNCTION LOAD runs the code, only Redis's library API is in scope
// (redis.register_function, redis.log, the LOG_* levels and the version); when a callback runs, the whole
// sandbox is (as Redis switches the globals' __index between the two).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct lua_State;

namespace lockcheck::mock {

// The flags a function may declare, in the order FUNCTION LIST prints them (Redis's scripts_flags_def).
enum FunctionFlag : std::uint8_t {
  kFlagNoWrites = 1u << 0,
  kFlagAllowOom = 1u << 1,
  kFlagAllowStale = 1u << 2,
  kFlagNoCluster = 1u << 3,
  kFlagAllowCrossSlot = 1u << 4,
};
struct FunctionFlagName {
  FunctionFlag flag;
  std::string_view name;
};
inline constexpr FunctionFlagName kFunctionFlagNames[] = {
    {kFlagNoWrites, "no-writes"},   {kFlagAllowOom, "allow-oom"},
    {kFlagAllowStale, "allow-stale"}, {kFlagNoCluster, "no-cluster"},
    {kFlagAllowCrossSlot, "allow-cross-slot-keys"},
};

// One redis.register_function call: the callback is kept in the Lua registry under `callback_ref`.
struct RegisteredFunction {
  std::string name;
  std::optional<std::string> description;
  std::uint8_t flags = 0;
  int callback_ref = 0;
};

// Function names, like library names: letters, digits and '_', at least one.
bool valid_function_name(std::string_view name);

// Pushes the shared environment (a proxy) and a C closure switching it: switch(true) = load scope,
// switch(false) = the sandbox `env`. Expects `env` (the script environment) at `env_index`.
void push_function_environment(lua_State* L, int env_index);

// Called with the list FUNCTION LOAD fills; nullptr outside FUNCTION LOAD.
using RegisterSink = std::vector<RegisteredFunction>;

}  // namespace lockcheck::mock
