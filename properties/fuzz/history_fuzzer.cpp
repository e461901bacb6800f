// Fuzzes what `lockcheck check` does with a file: parse a JSONL history, then run every checker on it.
// Any input must either be judged or throw ParseError (with the line); any other exception, a crash, a leak
// or a hang is a bug. Running it: tools/README.md, "Hardening".
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "properties/checkers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    (void)lockcheck::properties::check_jsonl(in);
  } catch (const lockcheck::properties::ParseError&) {
    // A clean error naming the line: the expected outcome for most inputs.
  }
  return 0;
}
