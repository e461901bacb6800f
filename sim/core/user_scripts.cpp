#include "core/user_scripts.hpp"

#include <fmt/format.h>

#include "core/clock_model.hpp"
#include "redis/node.hpp"

namespace lockcheck::sim {

std::string check_user_script(const std::string& which, const std::string& source) {
  mock::Node node(mock::NodeOptions{.clock = [] { return kWallEpochUs / 1000; }});
  mock::Session session;
  const Reply loaded = node.execute({"SCRIPT", "LOAD", source}, session);
  if (loaded.is_error()) return loaded.text;

  // A probe on an empty key: acquire must grant or refuse, release and renew must say 0 or 1.
  const std::string token = "0123456789abcdef0123456789abcdef";
  Command probe = which == "acquire" ? Command{"EVALSHA", loaded.text, "1", "lockcheck:probe", token, "1000",
                                              std::to_string(kWallEpochUs / 1000)}
                  : which == "renew" ? Command{"EVALSHA", loaded.text, "1", "lockcheck:probe", token, "1000"}
                                     : Command{"EVALSHA", loaded.text, "1", "lockcheck:probe", token};
  const Reply reply = node.execute(probe, session);
  if (reply.is_error()) return fmt::format("failed on a probe call: {}", reply.text);
  const bool allowed = reply.is_integer(0) || reply.is_integer(1) || (which == "acquire" && reply.is_nil());
  if (!allowed) {
    return fmt::format("returned {} on a probe call; the contract wants {}", to_string(reply),
                       which == "acquire" ? "1, 0 or nil" : "1 or 0");
  }
  return "";
}

}  // namespace lockcheck::sim
