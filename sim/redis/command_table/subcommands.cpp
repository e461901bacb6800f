#include "redis/command_table/subcommands.hpp"

#include <string>
#include <vector>

#include "redis/command_table/command.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock {
namespace {

// Whether `name` (any case) names a container.
bool is_container(std::string_view name) {
  const CommandSpec* spec = find_command(name);
  return spec != nullptr && !spec->subcommands.empty();
}

}  // namespace

bool is_container_command(const CommandSpec& spec) { return !spec.subcommands.empty(); }

std::optional<Reply> subcommand_error(const Command& args) {
  if (args.size() < 2) return std::nullopt;  // the container's own arity answers
  const CommandSpec* spec = find_command(args[0]);
  if (spec == nullptr || spec->subcommands.empty()) return std::nullopt;
  const std::string name = to_lower(args[1]);
  for (const SubcommandSpec& sub : spec->subcommands) {
    if (sub.name != name) continue;
    const std::size_t argc = args.size();
    const bool arity_ok = sub.arity > 0 ? argc == static_cast<std::size_t>(sub.arity)
                                        : argc >= static_cast<std::size_t>(-sub.arity);
    if (arity_ok) return std::nullopt;
    return err::arity(std::string(spec->name) + "|" + name);
  }
  return Reply::error("ERR unknown subcommand '" + args[1].substr(0, 128) + "'. Try " + to_upper(args[0]) +
                      " HELP.");
}

Reply subcommand_help(std::string_view container_upper, std::initializer_list<std::string_view> lines) {
  std::vector<Reply> out;
  out.push_back(Reply::status(std::string(container_upper) + " <subcommand> [<arg> [value] [opt] ...]. Subcommands are:"));
  for (std::string_view line : lines) out.push_back(Reply::status(std::string(line)));
  out.push_back(Reply::status("HELP"));
  out.push_back(Reply::status("    Prints this help."));
  return Reply::array(std::move(out));
}

bool subcommand_denied_in_scripts(const Command& args) {
  return args.size() >= 2 && iequals(args[0], "cluster") && iequals(args[1], "reset");
}

std::string full_command_name(const Command& args) {
  if (args.empty()) return {};
  std::string name = to_lower(args[0]);
  if (args.size() >= 2 && is_container(name)) name += "|" + to_lower(args[1]);
  return name;
}

}  // namespace lockcheck::mock
