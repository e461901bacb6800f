// INFO [section ...]: the sections clients read, with the mock's own figures (see README, known differences).
#include <algorithm>
#include <array>
#include <cstdio>
#include <type_traits>
#include <variant>

#include "redis/commands/admin/admin_family.hpp"
#include "redis/scripting/lua_engine.hpp"
#include "redis/server/node.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {
namespace {

void add_section(std::string& text, std::string_view title, const std::string& lines) {
  if (!text.empty()) text += "\r\n";
  text += "# ";
  text += title;
  text += "\r\n";
  text += lines;
}

std::string human_bytes(std::int64_t bytes) {
  char buffer[32];
  if (bytes < 1024) std::snprintf(buffer, sizeof buffer, "%lldB", static_cast<long long>(bytes));
  else if (bytes < 1024 * 1024) std::snprintf(buffer, sizeof buffer, "%.2fK", static_cast<double>(bytes) / 1024);
  else if (bytes < 1024LL * 1024 * 1024) std::snprintf(buffer, sizeof buffer, "%.2fM", static_cast<double>(bytes) / (1024 * 1024));
  else std::snprintf(buffer, sizeof buffer, "%.2fG", static_cast<double>(bytes) / (1024.0 * 1024 * 1024));
  return buffer;
}

std::string info_lines(Node& node, std::string_view section) {
  const std::int64_t now_ms = node.now_ms();
  const std::int64_t uptime_s = std::max<std::int64_t>(0, (now_ms - node.start_ms()) / 1000);
  const std::size_t clients = node.clients().list ? node.clients().list().size() : 1;
  if (section == "server") {
    return "redis_version:7.0.15\r\nredis_git_sha1:00000000\r\nredis_git_dirty:0\r\nredis_build_id:0\r\n"
           "redis_mode:standalone\r\nos:Linux lockcheck-mock\r\narch_bits:64\r\nmonotonic_clock:POSIX clock_gettime\r\n"
           "multiplexing_api:epoll\r\natomicvar_api:c11-builtin\r\ngcc_version:0.0.0\r\nprocess_id:" +
           std::to_string(node.process_id()) + "\r\nprocess_supervised:no\r\nrun_id:0000000000000000000000000000000000000000\r\ntcp_port:" +
           std::to_string(node.tcp_port()) + "\r\nserver_time_usec:" + std::to_string(now_ms * 1000) +
           "\r\nuptime_in_seconds:" + std::to_string(uptime_s) + "\r\nuptime_in_days:" + std::to_string(uptime_s / 86400) +
           "\r\nhz:10\r\nconfigured_hz:10\r\nlru_clock:0\r\nexecutable:lockcheck-mock\r\nconfig_file:\r\n"
           "io_threads_active:0\r\n";
  }
  if (section == "clients") {
    return "connected_clients:" + std::to_string(clients) + "\r\ncluster_connections:0\r\nmaxclients:" +
           node.config().value("maxclients") +
           "\r\nclient_recent_max_input_buffer:0\r\nclient_recent_max_output_buffer:0\r\nblocked_clients:" +
           std::to_string(node.blocked().count()) + "\r\ntracking_clients:0\r\nclients_in_timeout_table:" +
           std::to_string(node.blocked().with_deadline()) + "\r\n";
  }
  if (section == "memory") {
    const std::int64_t used = node.used_memory_estimate();
    const std::int64_t maxmemory = std::stoll(node.config().value("maxmemory"));
    return "used_memory:" + std::to_string(used) + "\r\nused_memory_human:" + human_bytes(used) +
           "\r\nused_memory_rss:" + std::to_string(used) + "\r\nused_memory_rss_human:" + human_bytes(used) +
           "\r\nused_memory_peak:" + std::to_string(used) + "\r\nused_memory_peak_human:" + human_bytes(used) +
           "\r\nused_memory_startup:876096\r\nused_memory_lua:" + std::to_string(node.lua().memory_used_bytes()) +
           "\r\nnumber_of_cached_scripts:" + std::to_string(node.lua().script_count()) +
           "\r\nmaxmemory:" + std::to_string(maxmemory) + "\r\nmaxmemory_human:" + human_bytes(maxmemory) +
           "\r\nmaxmemory_policy:" + node.config().value("maxmemory-policy") +
           "\r\nmem_fragmentation_ratio:1.00\r\nmem_allocator:libc\r\nlazyfree_pending_objects:0\r\n";
  }
  if (section == "persistence") {
    return "loading:0\r\nasync_loading:0\r\nrdb_changes_since_last_save:0\r\nrdb_bgsave_in_progress:0\r\n"
           "rdb_last_save_time:" + std::to_string(node.start_ms() / 1000) +
           "\r\nrdb_last_bgsave_status:ok\r\naof_enabled:" + std::string(node.config().value("appendonly") == "yes" ? "1" : "0") +
           "\r\naof_rewrite_in_progress:0\r\naof_rewrite_scheduled:0\r\naof_last_bgrewrite_status:ok\r\n"
           "aof_last_write_status:ok\r\n";
  }
  if (section == "stats") {
    return "total_connections_received:" + std::to_string(clients) + "\r\ntotal_commands_processed:" +
           std::to_string(node.stats().commands_processed) +
           "\r\ninstantaneous_ops_per_sec:0\r\nrejected_connections:0\r\nexpired_keys:0\r\nevicted_keys:0\r\n"
           "keyspace_hits:0\r\nkeyspace_misses:0\r\npubsub_channels:" + std::to_string(node.pubsub().size(SubscriptionKind::channel)) +
           "\r\npubsub_patterns:" + std::to_string(node.pubsub().size(SubscriptionKind::pattern)) +
           // No MIGRATE, so no cached sockets; RESTORE validates every payload whole without counting it.
           "\r\nmigrate_cached_sockets:0\r\ntotal_error_replies:" + std::to_string(node.stats().errors.total_replies) +
           "\r\ndump_payload_sanitizations:0\r\n";
  }
  if (section == "replication") {
    const ReplicationInfo& replication = node.replication();
    return "role:" + replication.role + "\r\nconnected_slaves:" + std::to_string(replication.connected_slaves) + "\r\n" +
           replication.extra_lines +
           "master_failover_state:no-failover\r\nmaster_replid:0000000000000000000000000000000000000000\r\n"
           "master_replid2:0000000000000000000000000000000000000000\r\nmaster_repl_offset:0\r\n"
           "second_repl_offset:-1\r\nrepl_backlog_active:0\r\nrepl_backlog_size:1048576\r\n"
           "repl_backlog_first_byte_offset:0\r\nrepl_backlog_histlen:0\r\n";
  }
  if (section == "cpu") {
    return "used_cpu_sys:0.000000\r\nused_cpu_user:0.000000\r\nused_cpu_sys_children:0.000000\r\n"
           "used_cpu_user_children:0.000000\r\n";
  }
  if (section == "cluster") return "cluster_enabled:0\r\n";
  if (section == "commandstats") {
    std::string lines;
    const std::span<const CommandSpec> table = all_commands();
    for (std::size_t i = 0; i < table.size(); ++i) {
      const CommandCounters& counters = node.stats().commands;
      const std::int64_t calls = counters.calls[i], rejected = counters.rejected[i], failed = counters.failed[i];
      if (calls == 0 && rejected == 0 && failed == 0) continue;
      lines += "cmdstat_" + std::string(table[i].name) + ":calls=" + std::to_string(calls) +
               ",usec=0,usec_per_call=0.00,rejected_calls=" + std::to_string(rejected) +
               ",failed_calls=" + std::to_string(failed) + "\r\n";
    }
    return lines;
  }
  if (section == "errorstats") {
    std::string lines;
    for (const auto& [code, count] : node.stats().errors.by_code) {
      lines += "errorstat_" + code + ":count=" + std::to_string(count) + "\r\n";
    }
    return lines;
  }
  if (section == "keyspace") {
    std::string lines;
    for (int index = 0; index < kDatabases; ++index) {
      const Database& db = node.keyspace().database(index);
      if (db.entries.empty()) continue;
      lines += "db" + std::to_string(index) + ":keys=" + std::to_string(db.entries.size()) +
               ",expires=" + std::to_string(db.deadlines.size()) + ",avg_ttl=0\r\n";
    }
    return lines;
  }
  return {};
}

constexpr std::array kDefaultSections = std::to_array<std::string_view>(
    {"server", "clients", "memory", "persistence", "stats", "replication", "cpu", "modules", "errorstats", "cluster",
     "keyspace"});
// What INFO ALL / EVERYTHING print, in Redis's order: the default sections plus commandstats.
constexpr std::array kAllSections = std::to_array<std::string_view>(
    {"server", "clients", "memory", "persistence", "stats", "replication", "cpu", "modules", "commandstats",
     "errorstats", "cluster", "keyspace"});

std::string_view title_of(std::string_view section) {
  static constexpr std::array kTitles = std::to_array<std::string_view>(
      {"Server", "Clients", "Memory", "Persistence", "Stats", "Replication", "CPU", "Modules", "Commandstats",
       "Errorstats", "Cluster", "Keyspace"});
  for (std::size_t i = 0; i < kAllSections.size(); ++i) {
    if (kAllSections[i] == section) return kTitles[i];
  }
  return section;
}
}  // namespace

Reply info(CommandContext& ctx) {
  std::vector<std::string> wanted;
  for (std::size_t i = 1; i < ctx.args.size(); ++i) {
    std::string section = to_lower(ctx.args[i]);
    if (section == "default") {
      wanted.insert(wanted.end(), kDefaultSections.begin(), kDefaultSections.end());
    } else if (section == "all" || section == "everything") {
      wanted.insert(wanted.end(), kAllSections.begin(), kAllSections.end());
    } else {
      wanted.push_back(section);
    }
  }
  if (ctx.args.size() == 1) wanted.assign(kDefaultSections.begin(), kDefaultSections.end());
  std::string text;
  for (std::string_view section : kAllSections) {
    if (std::find(wanted.begin(), wanted.end(), section) == wanted.end()) continue;
    add_section(text, title_of(section), info_lines(ctx.node, section));
  }
  return Reply::verbatim(std::move(text));
}

}  // namespace lockcheck::mock::cmd

namespace lockcheck::mock::cmd {

// ROLE: a master answers ["master", offset, replicas]; a replica ["slave", host, port, state, offset]. The
// mock keeps no replication offset (0) and lists no replicas under a master.
Reply role(CommandContext& ctx) {
  const ReplicationInfo& replication = ctx.node.replication();
  if (replication.role != "slave") {
    return Reply::array({Reply::bulk("master"), Reply::integer_reply(0), Reply::array({})});
  }
  return Reply::array({Reply::bulk("slave"), Reply::bulk(replication.master_host),
                       Reply::integer_reply(replication.master_port), Reply::bulk("connected"), Reply::integer_reply(0)});
}

}  // namespace lockcheck::mock::cmd
