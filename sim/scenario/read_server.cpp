// server = "redis-server" | "serve": what the real backend (`lockcheck run --backend redis`, `lockcheck judge`)
// runs each node on. "serve" is `lockcheck serve`, the embedded mock over RESP: one process per node, no
// replication, no cluster, no sentinel, no persistence. So with it every part of the file that needs those is
// refused at its own line, before any process starts.
#include <fmt/format.h>

#include "scenario/readers.hpp"

namespace lockcheck::sim::scenario_detail {
namespace {

constexpr std::string_view kWhy = "`lockcheck serve` runs single nodes (no replication, cluster, sentinel or persistence)";

}  // namespace

void read_server(const Section& top, Scenario& out, std::string_view forced) {
  if (auto server = top.choice("server", {"redis-server", "serve"})) out.server = *server;
  if (!forced.empty()) out.server = std::string(forced);
  if (out.server != "serve") return;
  // The setting's own line when the file has it; else the command line's --server asked for it.
  const std::string asked = top.has("server") && forced.empty() ? "server = \"serve\"" : "--server serve";
  const auto refuse = [&](const Section& where, std::string_view key, std::string_view what) {
    where.fail_at(key, fmt::format("{} cannot run {}: {}", asked, what, kWhy));
  };
  if (top.has("cluster")) refuse(top, "cluster", "a [cluster]");
  if (top.has("sentinel")) refuse(top, "sentinel", "a [sentinel]");
  for (const Section& node : top.array_of_tables("nodes")) {
    if (node.has("replica_of")) refuse(node, "replica_of", "a replica");
  }
  for (const Section& fault : top.array_of_tables("faults")) {
    const std::optional<FaultKind> kind = fault_kind_named(fault.string("kind").value_or(""));
    if (!kind) continue;  // the faults' reader names an unknown kind at its line
    if (!fault_row(*kind).on_serve) refuse(fault, "kind", fmt::format("fault '{}'", to_string(*kind)));
    // A restart keeps its data unless told otherwise; a served mock keeps nothing.
    if (fault_row(*kind).fields.mode && fault.string("mode").value_or("kept") != "lost") {
      refuse(fault, fault.has("mode") ? "mode" : "kind", "a node_restart that keeps data (mode = \"lost\" is fine)");
    }
  }
  if (const auto nemesis = top.table("nemesis"); nemesis && nemesis->has("node_crash_every_ms")) {
    if (nemesis->string("restart_mode").value_or("lost") != "lost") {
      refuse(*nemesis, "restart_mode", "restarts that keep data (restart_mode = \"lost\" is fine)");
    }
  }
}

}  // namespace lockcheck::sim::scenario_detail
