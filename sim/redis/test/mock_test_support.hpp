#pragma once
// A node on a hand-driven clock, and shorthand to run commands on it.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "redis/server/node.hpp"

namespace lockcheck::mock::testing {

struct MockFixture {
  std::int64_t now_ms = 1'700'000'000'000;
  Node node{NodeOptions{.clock = [this] { return now_ms; }}};
  Session session{.client_id = 1};

  Reply run(std::initializer_list<std::string> args) { return node.execute(Command(args), session); }
  Reply eval(const std::string& body, std::initializer_list<std::string> keys = {},
             std::initializer_list<std::string> argv = {}) {
    Command command{"EVAL", body, std::to_string(keys.size())};
    command.insert(command.end(), keys);
    command.insert(command.end(), argv);
    return node.execute(command, session);
  }
};

// Blocked clients: late replies (a parked client served, timed out or unblocked) kept as "id reply" lines, and
// two more sessions to park.
class BlockedClientsFixture : public ::testing::Test, public MockFixture {
 protected:
  BlockedClientsFixture() {
    node.set_unblock_sink([this](std::int64_t client_id, const Reply& reply) { late.push_back(late_reply(client_id, reply)); });
  }
  std::string late_reply(std::int64_t client_id, const Reply& reply) { return std::to_string(client_id) + " " + to_string(reply); }
  std::vector<std::string> late;
  Session second{.client_id = 2};
  Session third{.client_id = 3};
};

inline Reply I(std::int64_t value) { return Reply::integer_reply(value); }
inline Reply B(std::string text) { return Reply::bulk(std::move(text)); }
inline Reply S(std::string text) { return Reply::status(std::move(text)); }
inline Reply E(std::string text) { return Reply::error(std::move(text)); }
inline Reply N() { return Reply::nil(); }
inline Reply A(std::vector<Reply> elements) { return Reply::array(std::move(elements)); }

// One field of INFO memory on `node` (used_memory_lua, used_memory, ...), or "(no FIELD)".
inline std::string info_field(Node& node, Session& session, const std::string& field) {
  const std::string info = node.execute({"info", "memory"}, session).text;
  const std::size_t at = info.find("\r\n" + field + ":");
  if (at == std::string::npos) return "(no " + field + ")";
  const std::size_t start = at + field.size() + 3;
  return info.substr(start, info.find("\r\n", start) - start);
}

}  // namespace lockcheck::mock::testing
