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

namespace scenario_detail {

void read_client(const Section& top, Scenario& out) {
  const auto table = top.table("client");
  if (!table) return;
  table->allow_only({"command", "keys"});
  ExternalClientConfig& client = out.config.external;
  client.command = strings(*table, "command");
  client.keys = strings(*table, "keys");
  // Keys alone are a file's say on the library's keys, for a client named on the command line
  // (`lockcheck judge FILE --client CMD`): the same file serves every version of that library's adapter.
  if (client.command.empty() && client.keys.empty()) {
    table->fail_here("[client] names nothing: give command = [\"python3\", \"adapter.py\"], or keys alone (the keys its "
                     "library writes) for a client given by lockcheck judge --client");
  }
  if (top.has("backend") && out.backend != "redis") {
    top.fail_at("backend", "an external [client] runs against real redis-server: backend = \"redis\" (or leave it out)");
  }
  out.backend = "redis";
  if (const std::string refusal = external_client_refusal(out.config); !refusal.empty()) {
    if (table->has("command")) table->fail_at("command", refusal);
    table->fail_here(refusal);
  }
}

}  // namespace scenario_detail
}  // namespace lockcheck::sim
