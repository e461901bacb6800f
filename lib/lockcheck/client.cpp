#include "lockcheck/client.hpp"

namespace lockcheck {

Client::Client(ConnectionOptions options) : port_({std::move(options)}) { port_.connect(0); }

Client::Client(std::vector<ConnectionOptions> nodes) : port_(std::move(nodes)) {}

}  // namespace lockcheck
