#pragma once
// The command table a node dispatches through. The ground knows no command: each family adds its rows
// to a table (register_<family>_commands, in the family's <family>_family.cpp), lockcheck_mock composes every
// family's into one (commands/all_families.cpp), and a node looks names up in it.
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>
#include <vector>

#include "redis/command_table/command.hpp"

namespace lockcheck::mock {

class CommandTable {
 public:
  // A family's rows, in `family_group` unless a row names its own (kOfFamily here: std::logic_error). A name
  // added twice is refused (std::logic_error) when the table is frozen.
  void add(CommandGroup family_group, std::initializer_list<CommandSpec> rows);
  // Sorts the rows by name (COMMAND's listings, INFO commandstats), checks them (unique, lower case, keys
  // COMMAND INFO and GETKEYS can read) and builds the name index. Rows added after freeze() are refused.
  void freeze();
  bool frozen() const { return frozen_; }

  // `name` in any case (Redis's names are case-insensitive ASCII); nullptr when unknown.
  const CommandSpec* find(std::string_view name) const;
  // Every row, sorted by name.
  std::span<const CommandSpec> all() const { return specs_; }

 private:
  std::vector<CommandSpec> specs_;
  std::vector<std::uint16_t> slots_;  // slot -> index + 1 into specs_, 0 for an empty slot
  bool frozen_ = false;
};

// Every family's commands: defined by lockcheck_mock, the composed whole (commands/all_families.cpp), built and
// frozen on first use. The ground never calls it: NodeOptions::commands defaults to it, so the code that builds
// a Node (and links lockcheck_mock) is what names it. A program linking the ground and chosen families passes
// its own frozen table instead.
const CommandTable& all_families_commands();

// The table find_command() and all_commands() answer from: one per process (the ACL's command ids, INFO
// commandstats and the containers' flags are indexed by it). A Node installs its NodeOptions::commands when it
// is built; installing a second, different table throws std::logic_error, as does asking before any is installed.
void install_command_table(const CommandTable& table);

}  // namespace lockcheck::mock
