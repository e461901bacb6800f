// [client]: an external lock client for `lockcheck judge` (tools/judge/PROTOCOL.md), its command and the keys
// its library writes. The protocol drives one lease at a time on one thread, renewed by the client's own
// library, so the workload settings that need more are refused here, at their line, not when the run starts.
#include <fmt/format.h>

#include "scenario/readers.hpp"

namespace lockcheck::sim {
namespace {

using scenario_detail::Section;

std::vector<std::string> strings(const Section& table, std::string_view key) {
  std::vector<std::string> out;
  const toml::array* list = table.array(key);
  if (list == nullptr) return out;
  for (const toml::node& element : *list) {
    const std::optional<std::string> text = element.value<std::string>();
    if (!text || text->empty()) scenario_detail::fail(table.path(), element.source(), fmt::format("{} takes non-empty strings", table.name(key)));
    out.push_back(*text);
  }
  return out;
}

}  // namespace

std::string external_client_refusal(const SimConfig& config) {
  const auto refusal = [](std::string_view setting) {
    return fmt::format("an external client holds one lease at a time on one thread and renews by its own library; {} "
                       "needs more of the lock than the protocol drives", setting);
  };
  const WorkloadConfig& workload = config.workload;
  if (workload.threads_per_process > 1) return refusal("[workload] threads_per_process > 1");
  if (workload.nest_every > 0) return refusal("[workload] nest_every (reentrant acquires)");
  if (workload.readers_ppm > 0) return refusal("[workload] readers (shared holds)");
  if (workload.permits > 1) return refusal("[workload] permits (a semaphore's holders)");
  if (config.renewal.watchdog) return refusal("[lock] watchdog");
  // A careful holder asks its library's lease; an external client's library answers `use` itself.
  if (workload.check_lease_before_write) return refusal("[workload] check_lease_before_write (the client's `use` decides)");
  return {};
}

namespace scenario_detail {

void read_client(const Section& top, Scenario& out) {
  const auto table = top.table("client");
  if (!table) return;
  table->allow_only({"command", "keys"});
  ExternalClientConfig& client = out.config.external;
  client.command = strings(*table, "command");
  client.keys = strings(*table, "keys");
  if (client.command.empty()) table->fail_at("command", "[client] command must name the client program, e.g. [\"python3\", \"adapter.py\"]");
  if (top.has("backend") && out.backend != "redis") {
    top.fail_at("backend", "an external [client] runs against real redis-server: backend = \"redis\" (or leave it out)");
  }
  out.backend = "redis";
  if (const std::string refusal = external_client_refusal(out.config); !refusal.empty()) table->fail_at("command", refusal);
}

}  // namespace scenario_detail
}  // namespace lockcheck::sim
