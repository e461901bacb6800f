#include "model/hash_holders.hpp"

#include <array>
#include <utility>

namespace lockcheck::sim {

std::optional<HashHolder> hash_holder(const std::string& field_name) {
  static constexpr std::array<std::pair<const char*, const char*>, 4> kPrefixes{
      {{"r:", "read"}, {"read:", "read"}, {"w:", "write"}, {"write:", "write"}}};
  for (const auto& [prefix, mode] : kPrefixes) {
    const std::string_view p(prefix);
    if (field_name.size() > p.size() && field_name.compare(0, p.size(), p) == 0) {
      return HashHolder{field_name.substr(p.size()), mode};
    }
  }
  return std::nullopt;
}

std::optional<Json> holders_json(const std::vector<std::string>& field_names) {
  Json holders = Json::array();
  for (const std::string& name : field_names) {
    if (auto holder = hash_holder(name)) holders.push_back(Json{{"token", holder->token}, {"mode", holder->mode}});
  }
  if (holders.empty()) return std::nullopt;
  return holders;
}

}  // namespace lockcheck::sim
