#include "core/user_scripts.hpp"

#include <fmt/format.h>

#include "core/clock_model.hpp"
#include "redis/server/node.hpp"

namespace lockcheck::sim {

std::string check_user_script(const std::string& which, const std::string& source, const std::string& file) {
  const std::string name = file.empty() ? which + ".lua" : file;
  mock::Node node(mock::NodeOptions{.clock = [] { return kWallEpochUs / 1000; }});
  mock::Session session;
  const Reply loaded = node.execute({"SCRIPT", "LOAD", source}, session);
  if (loaded.is_error()) return name_script_in_error(loaded.text, name);

  // A probe on an empty key: acquire must grant or refuse, release and renew must say yes or no.
  const std::string token = "0123456789abcdef0123456789abcdef";
  Command probe = which == "acquire" ? Command{"EVALSHA", loaded.text, "1", "lockcheck:probe", token, "1000",
                                              std::to_string(kWallEpochUs / 1000)}
                  : which == "renew" ? Command{"EVALSHA", loaded.text, "1", "lockcheck:probe", token, "1000"}
                                     : Command{"EVALSHA", loaded.text, "1", "lockcheck:probe", token};
  const Reply reply = node.execute(probe, session);
  if (reply.is_error()) return fmt::format("failed on a probe call: {}", name_script_in_error(reply.text, name));
  const bool acquire = which == "acquire";
  if ((acquire ? acquire_answer(reply) : owner_check_answer(reply)) == ScriptAnswer::outside_contract) {
    return fmt::format("returned {} on a probe call; the contract wants {}", to_string(reply),
                       acquire ? "1, true or OK (acquired), or 0, false or nil (not)"
                               : "1 or true (done), or 0, false or nil (not owned)");
  }
  return "";
}

}  // namespace lockcheck::sim
