#pragma once
// One CLIENT LIST / CLIENT INFO line, in Redis 7.0's field order: CLIENT (commands/connection) writes it, and so
// does the ground's ACL LOG (its client-info, node_acl.cpp).
#include <cstdint>
#include <string>

#include "redis/server/session.hpp"

namespace lockcheck::mock {

std::string client_line(const Session& session, std::int64_t now_ms);

}  // namespace lockcheck::mock
