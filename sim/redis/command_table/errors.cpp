#include "redis/command_table/errors.hpp"

namespace lockcheck::mock {

// "ERR unknown command 'foo', with args beginning with: 'a' 'b' " as Redis prints it (args up to ~128 bytes).
Reply err::unknown_command(const Command& command) {
  std::string args;
  for (std::size_t i = 1; i < command.size() && args.size() < 128; ++i) {
    args += "'" + command[i].substr(0, 128 - args.size()) + "' ";
  }
  std::string text = "ERR unknown command '" + command[0].substr(0, 128) + "', with args beginning with: " + args;
  for (char& c : text) {
    if (c == '\r' || c == '\n') c = ' ';
  }
  return Reply::error(std::move(text));
}

}  // namespace lockcheck::mock
