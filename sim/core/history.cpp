#include "core/history.hpp"

namespace lockcheck::sim {

void History::record(std::int64_t t_us, const char* kind, const Json& fields) {
  Json line;
  line["i"] = static_cast<std::int64_t>(lines_.size());
  line["t"] = t_us;
  line["kind"] = kind;
  for (const auto& [name, value] : fields.items()) line[name] = value;
  lines_.push_back(line.dump());
}

std::string History::jsonl() const {
  std::string text;
  for (const auto& line : lines_) {
    text += line;
    text += '\n';
  }
  return text;
}

std::uint64_t History::hash() const {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const auto& line : lines_) {
    for (unsigned char c : line) {
      hash ^= c;
      hash *= 0x100000001b3ULL;
    }
    hash ^= '\n';
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

}  // namespace lockcheck::sim
