#include "port_map.hpp"

#include <charconv>

namespace lockcheck::redis_backend {

std::string mapped_port(std::string_view port, const PortMap& ports) {
  int value = 0;
  const auto [stop, error] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (error != std::errc() || stop != port.data() + port.size()) return std::string(port);
  const auto it = ports.find(value);
  return it == ports.end() ? std::string(port) : std::to_string(it->second);
}

std::string mapped_address(std::string_view address, const PortMap& ports) {
  const std::size_t colon = address.rfind(':');
  if (colon == std::string_view::npos) return std::string(address);
  return std::string(address.substr(0, colon + 1)) + mapped_port(address.substr(colon + 1), ports);
}

}  // namespace lockcheck::redis_backend
