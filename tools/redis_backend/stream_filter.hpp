#pragma once
// A change a LinkProxy makes to one proxied connection's bytes (link_proxy.hpp), one object per connection
// so it may keep state (a message cut across reads, which request a reply answers). The proxy's fault
// handling (delay, partition) applies to what the filter returns.
#include <memory>
#include <string>
#include <string_view>

namespace lockcheck::redis_backend {

class StreamFilter {
 public:
  virtual ~StreamFilter() = default;
  // `bytes` just read; `to_server`: read from the client (else from the server). Returns what to forward
  // now (bytes held back are forwarded by a later call). Throws std::runtime_error when the connection must
  // be closed (bytes it cannot make sense of).
  virtual std::string pass(bool to_server, std::string_view bytes) = 0;
};

}  // namespace lockcheck::redis_backend
