// Fuzzes the mock's script runner: the input is a Lua script, then NUL-separated arguments (the first half
// become KEYS, the rest ARGV). The script runs with EVAL, again from the cache with EVALSHA, and read-only
// with EVAL_RO. Any script (syntax errors, runaway loops, huge allocations, odd replies) must end in a
// reply, never a crash, leak or hang: the node bounds instructions and memory.
// Running it: tools/README.md, "Hardening".
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_node.hpp"
#include "lockcheck/sha1.hpp"

namespace {

using lockcheck::Command;

std::vector<std::string> split_on_nul(std::string_view input) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t at = 0; at <= input.size(); ++at) {
    if (at == input.size() || input[at] == '\0') {
      parts.emplace_back(input.substr(start, at - start));
      start = at + 1;
    }
  }
  return parts;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::string> parts = split_on_nul(std::string_view(reinterpret_cast<const char*>(data), size));
  const std::string& script = parts.front();
  const std::size_t arguments = parts.size() - 1;
  const std::string numkeys = std::to_string((arguments + 1) / 2);

  lockcheck::mock::Node node(lockcheck::mock::fuzzing::fuzz_node_options());
  lockcheck::mock::Session session{.client_id = 1};
  const std::string sha = lockcheck::sha1_hex(script);
  for (const std::string& verb : {std::string("EVAL"), std::string("EVALSHA"), std::string("EVAL_RO")}) {
    Command command{verb, verb == "EVALSHA" ? sha : script, numkeys};
    command.insert(command.end(), parts.begin() + 1, parts.end());
    (void)node.execute(command, session);
  }
  return 0;
}
