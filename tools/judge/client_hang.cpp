#include "client_hang.hpp"

#include <fmt/format.h>

namespace lockcheck::judge {

nlohmann::ordered_json ClientHang::to_json() const {
  return {{"process", process}, {"id", id},           {"op", op},
          {"bound_ms", bound_ms}, {"running_ms", running_ms}, {"waited_ms", waited_ms}, {"stderr_tail", stderr_tail}};
}

ClientHang ClientHang::from_json(const nlohmann::ordered_json& fields) {
  ClientHang hang;
  hang.process = fields.value("process", 0);
  hang.id = fields.value("id", std::int64_t{0});
  hang.op = fields.value("op", std::string());
  hang.bound_ms = fields.value("bound_ms", std::int64_t{0});
  hang.running_ms = fields.value("running_ms", std::int64_t{0});
  hang.waited_ms = fields.value("waited_ms", std::int64_t{0});
  hang.stderr_tail = fields.value("stderr_tail", std::string());
  return hang;
}

std::string ClientHang::describe() const {
  std::string tail = stderr_tail;
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) tail.pop_back();
  const std::int64_t stopped_ms = waited_ms - running_ms;
  return fmt::format("process {}'s client did not answer request {} ({}) within its bound of {} ms; killed after {:.1f} s{}. "
                     "Its standard error ended: {}",
                     process, id, op, bound_ms, static_cast<double>(waited_ms) / 1000.0,
                     stopped_ms >= 1000 ? fmt::format(" ({:.1f} s of it paused or not scheduled)", static_cast<double>(stopped_ms) / 1000.0) : "",
                     tail.empty() ? "(nothing)" : tail);
}

}  // namespace lockcheck::judge
