// Fuzzes the request path of `lockcheck serve`: raw bytes into a RespConnection (RESP parser, requirepass,
// command dispatch, reply encoding) on a fresh mock node. Three connections see the same bytes:
//  1. all at once, 2. in 7-byte pieces (the parser must be incremental: output identical to 1),
//  3. in one piece on a server that requires a password (nothing may run before AUTH).
// Must never crash, leak, hang or exceed its limits. Running it: tools/README.md, "Hardening".
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_node.hpp"
#include "redis/wire/resp_connection.hpp"

namespace {

using lockcheck::mock::ConnectionLimits;
using lockcheck::mock::Node;
using lockcheck::mock::RespConnection;

std::string serve(std::string_view input, std::size_t piece_bytes, const std::string& requirepass) {
  Node node(lockcheck::mock::fuzzing::fuzz_node_options());
  RespConnection connection(1, ConnectionLimits{}, requirepass);
  for (std::size_t at = 0; at < input.size() && !connection.closing(); at += piece_bytes) {
    connection.receive(input.substr(at, piece_bytes), node);
  }
  std::string output = std::move(connection.output());
  node.disconnect(connection.session());
  return output;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::string whole = serve(input, input.size() + 1, "");
  const std::string pieces = serve(input, 7, "");
  if (whole != pieces) {
    std::fprintf(stderr, "replies differ when the same bytes arrive in pieces:\n%s\n---\n%s\n", whole.c_str(),
                 pieces.c_str());
    std::abort();
  }
  (void)serve(input, input.size() + 1, "fuzz-password");
  return 0;
}
