// The scripting family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags and handler, as Redis 7.0's command table has them.
#include "redis/commands/scripting/scripting_family.hpp"

#include "redis/server/command_table.hpp"

namespace lockcheck::mock {

void register_scripting_commands(CommandTable& table) {
  table.add({
      {"eval", -3, kNoScript, cmd::eval},
      {"eval_ro", -3, kNoScript, cmd::eval_ro},
      {"evalsha", -3, kNoScript, cmd::evalsha},
      {"evalsha_ro", -3, kNoScript, cmd::evalsha_ro},
      {"fcall", -3, kNoScript, cmd::fcall},
      {"fcall_ro", -3, kNoScript, cmd::fcall_ro},
      {"function", -2, kNoScript, cmd::function},
      {"script", -2, kNoScript, cmd::script},
  });
}

}  // namespace lockcheck::mock
