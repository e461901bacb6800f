#pragma once
// The ports a topology's servers name each other by, mapped to one external client's fronts for the same
// servers (routed_fronts.hpp). Every server and every front listens on 127.0.0.1, so a port alone names a
// server; a port not in the map is left as it is. What the replies that name servers look like is the
// business of cluster_reply_rewrite.hpp and sentinel_reply_rewrite.hpp; this is what they share.
#include <map>
#include <string>
#include <string_view>

namespace lockcheck::redis_backend {

using PortMap = std::map<int, int>;  // a port a server is named by -> the client's front for that server

// The front for `port` written as `port` was; `port` itself when it is not a number or not mapped.
std::string mapped_port(std::string_view port, const PortMap& ports);
// "host:port" -> "host:front"; anything without a colon as it is.
std::string mapped_address(std::string_view address, const PortMap& ports);

}  // namespace lockcheck::redis_backend
