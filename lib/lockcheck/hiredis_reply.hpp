#pragma once
// hiredis reply -> lockcheck::Reply (RESP2: lockcheck never sends HELLO 3, and Debian's hiredis 0.14 has
// no RESP3 reply types). Shared by the production port and the test clients.
#include <hiredis/hiredis.h>

#include "lockcheck/reply.hpp"

namespace lockcheck {

Reply reply_from_hiredis(const redisReply* reply);

}  // namespace lockcheck
