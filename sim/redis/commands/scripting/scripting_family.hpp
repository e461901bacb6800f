#pragma once
// The scripting family: EVAL/EVALSHA (and _RO), SCRIPT, FUNCTION (with DUMP/RESTORE), FCALL/FCALL_RO.
// Its handlers, and register_scripting_commands, which adds their rows to a command table (scripting_family.cpp).
#include "redis/command_table/command.hpp"

namespace lockcheck::mock {

class CommandTable;

void register_scripting_commands(CommandTable& table);

}  // namespace lockcheck::mock

namespace lockcheck::mock::cmd {

// commands_function_dump.cpp
Reply function_dump(CommandContext&);
Reply function_restore(CommandContext&);
// commands_script.cpp
Reply eval(CommandContext&);
Reply evalsha(CommandContext&);
Reply eval_ro(CommandContext&);
Reply evalsha_ro(CommandContext&);
Reply script(CommandContext&);
// commands_function.cpp
Reply function(CommandContext&);
Reply fcall(CommandContext&);
Reply fcall_ro(CommandContext&);
// SCRIPT KILL / FUNCTION KILL of the running script; `is_eval`: asked by SCRIPT KILL.
Reply kill_running_script(CommandContext&, bool is_eval);

}  // namespace lockcheck::mock::cmd
