#pragma once
// The run's history, one JSON object per line in the schema of sim/README.md. Lines are rendered as they
// are recorded (fields in a fixed order, integers only), so equal runs give byte-identical text.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lockcheck::sim {

using Json = nlohmann::ordered_json;

class History {
 public:
  // Appends one line: `fields` are written after "i", "t" and "kind", in their order.
  void record(std::int64_t t_us, const char* kind, const Json& fields);

  const std::vector<std::string>& lines() const { return lines_; }
  std::string jsonl() const;
  // FNV-1a 64 over the JSONL text: what determinism tests compare.
  std::uint64_t hash() const;

 private:
  std::vector<std::string> lines_;
};

}  // namespace lockcheck::sim
