// INFO and COMMAND: what clients read about the server. COMMAND's answers are generated from the command
// table (name, arity, flags); key positions and groups follow from the command's family.
#include <algorithm>
#include <array>
#include <cstdio>
#include <type_traits>
#include <variant>

#include "commands.hpp"
#include "errors.hpp"
#include "lua_engine.hpp"
#include "node.hpp"
#include "text.hpp"

namespace lockcheck::mock::cmd {
namespace {

struct KeyPositions {
  int first = 1, last = 1, step = 1;
};

// Commands whose keys are not just argument 1: none, all remaining, pairs, or given by numkeys (EVAL: movable).
KeyPositions key_positions(std::string_view name) {
  constexpr std::array kNoKeys = std::to_array<std::string_view>(
      {"auth", "client", "command", "config", "dbsize", "echo", "eval", "eval_ro", "evalsha", "evalsha_ro", "fcall",
       "fcall_ro", "flushall", "flushdb", "function", "hello", "info", "ping", "publish", "psubscribe", "pubsub",
       "punsubscribe", "quit", "randomkey", "reset", "script", "select", "subscribe", "swapdb", "time", "unsubscribe",
       "wait", "multi", "exec", "discard", "unwatch", "keys", "scan", "lastsave", "save", "bgsave", "role", "debug"});
  constexpr std::array kAllKeys = std::to_array<std::string_view>(
      {"del", "exists", "unlink", "touch", "mget", "watch", "sinter", "sunion", "sdiff", "pfcount"});
  if (std::find(kNoKeys.begin(), kNoKeys.end(), name) != kNoKeys.end()) return {0, 0, 0};
  if (std::find(kAllKeys.begin(), kAllKeys.end(), name) != kAllKeys.end()) return {1, -1, 1};
  if (name == "mset" || name == "msetnx") return {1, -1, 2};
  if (name == "rename" || name == "renamenx" || name == "copy" || name == "lmove" || name == "rpoplpush" ||
      name == "smove" || name == "blmove") {
    return {1, 2, 1};
  }
  if (name == "blpop" || name == "brpop" || name == "bzpopmin" || name == "bzpopmax") return {1, -2, 1};
  return {};
}

std::string_view group_of(std::string_view name) {
  if (name.starts_with("eval") || name == "script" || name.starts_with("fcall") || name == "function") return "scripting";
  if (name == "publish" || name.find("subscribe") != std::string_view::npos || name == "pubsub") return "pubsub";
  if (name == "multi" || name == "exec" || name == "discard" || name == "watch" || name == "unwatch") return "transactions";
  if (name == "auth" || name == "client" || name == "echo" || name == "hello" || name == "ping" || name == "quit" ||
      name == "select" || name == "reset") {
    return "connection";
  }
  if (name == "command" || name == "config" || name == "dbsize" || name == "flushall" || name == "flushdb" ||
      name == "info" || name == "time" || name == "wait" || name == "swapdb") {
    return "server";
  }
  if (name[0] == 'h') return "hash";
  if (name[0] == 'z' || name.starts_with("bz")) return "sorted-set";
  if (name[0] == 'l' || name == "rpop" || name == "rpush" || name.starts_with("bl") || name.starts_with("br") ||
      name == "rpoplpush" || name == "rpushx") {
    return "list";
  }
  if (name[0] == 's' && name != "set" && name != "setnx" && name != "setex" && name != "setrange" && name != "strlen" &&
      name != "scan") {
    return "set";
  }
  const KeyPositions keys = key_positions(name);
  if (name == "del" || name == "exists" || name == "unlink" || name == "type" || name.find("expire") != std::string_view::npos ||
      name == "ttl" || name == "pttl" || name == "persist" || name == "keys" || name == "scan" || name == "rename" ||
      name == "renamenx" || name == "copy" || name == "touch" || name == "randomkey" || name == "move" || keys.first == 0) {
    return "generic";
  }
  return "string";
}

std::string to_upper_ascii(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

// Payload bytes of a value, roughly (INFO's used_memory is an estimate on the mock).
std::size_t approximate_size(const Value& value) {
  constexpr std::size_t kPerElement = 48;
  return std::visit(
      [](const auto& held) -> std::size_t {
        using Held = std::decay_t<decltype(held)>;
        if constexpr (std::is_same_v<Held, std::string>) {
          return held.size();
        } else if constexpr (requires { held.size(); }) {
          return held.size() * kPerElement;
        } else {
          return held.score_of.size() * kPerElement;
        }
      },
      value);
}

Reply status_set(std::vector<std::string_view> words) {
  std::vector<Reply> elements;
  for (std::string_view word : words) elements.push_back(Reply::status(std::string(word)));
  return Reply::set(std::move(elements));
}

Reply command_info(const CommandSpec& spec) {
  const KeyPositions keys = key_positions(spec.name);
  std::vector<std::string_view> flags;
  if (spec.flags & kWrite) flags.push_back("write");
  else if (keys.first != 0) flags.push_back("readonly");
  if (spec.flags & kDenyOom) flags.push_back("denyoom");
  if (spec.flags & kNoScript) flags.push_back("noscript");
  if (spec.flags & kPubSub) flags.push_back("pubsub");
  if (spec.flags & kNoAuth) flags.push_back("no_auth");
  if (spec.name.starts_with("eval") || spec.name.starts_with("fcall")) flags.push_back("movablekeys");
  const std::string group(group_of(spec.name));
  const std::string category = "@" + (group == "sorted-set" ? std::string("sortedset") : group);
  std::vector<Reply> key_specs;
  if (keys.first != 0) {
    key_specs.push_back(Reply::map({
        Reply::bulk("flags"), Reply::array({Reply::status((spec.flags & kWrite) ? "RW" : "RO")}),
        Reply::bulk("begin_search"), Reply::map({Reply::bulk("type"), Reply::bulk("index"), Reply::bulk("spec"),
                                                 Reply::map({Reply::bulk("index"), Reply::integer_reply(keys.first)})}),
        Reply::bulk("find_keys"),
        Reply::map({Reply::bulk("type"), Reply::bulk("range"), Reply::bulk("spec"),
                    Reply::map({Reply::bulk("lastkey"), Reply::integer_reply(keys.last < 0 ? keys.last : keys.last - keys.first),
                                Reply::bulk("keystep"), Reply::integer_reply(keys.step), Reply::bulk("limit"),
                                Reply::integer_reply(0)})}),
    }));
  }
  std::vector<Reply> flag_replies;
  return Reply::array({Reply::bulk(std::string(spec.name)), Reply::integer_reply(spec.arity), status_set(flags),
                       Reply::integer_reply(keys.first), Reply::integer_reply(keys.last), Reply::integer_reply(keys.step),
                       status_set({(spec.flags & kWrite) ? "@write" : "@read", category}), Reply::set({}),
                       Reply::array(std::move(key_specs)), Reply::array({})});
}

Reply command_docs(const CommandSpec& spec) {
  return Reply::map({Reply::bulk("summary"), Reply::bulk("The " + to_upper_ascii(spec.name) + " command (lockcheck mock)"),
                     Reply::bulk("since"), Reply::bulk("1.0.0"), Reply::bulk("group"),
                     Reply::bulk(std::string(group_of(spec.name)))});
}

Reply subcommand_arity(std::string_view sub) {
  return Reply::error("ERR wrong number of arguments for 'command|" + to_lower(sub) + "' command");
}

// Appends "# Title\r\n" + lines, with the blank line Redis puts between sections.
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

// An estimate in the spirit of used_memory: Redis's start-up overhead plus each key's bytes and overheads.
std::int64_t used_memory_bytes(Node& node) {
  constexpr std::int64_t kStartup = 876'096;  // redis-server 7.0.15's used_memory_startup
  constexpr std::int64_t kPerKey = 72;        // dict entry + key sds + object header, roughly
  std::int64_t bytes = kStartup + static_cast<std::int64_t>(node.lua().memory_used_bytes());
  for (const auto& [key, entry] : node.keyspace().dataset().entries) {
    bytes += kPerKey + static_cast<std::int64_t>(key.size()) + static_cast<std::int64_t>(approximate_size(entry.value));
  }
  return bytes;
}

std::string info_lines(Node& node, std::string_view section, const Session& session) {
  const std::int64_t now_ms = node.now_ms();
  const std::int64_t uptime_s = std::max<std::int64_t>(0, (now_ms - node.start_ms()) / 1000);
  const std::size_t clients = node.clients().list ? node.clients().list().size() : 1;
  if (section == "server") {
    return "redis_version:7.0.15\r\nredis_git_sha1:00000000\r\nredis_git_dirty:0\r\nredis_build_id:0\r\n"
           "redis_mode:standalone\r\nos:Linux lockcheck-mock\r\narch_bits:64\r\nmonotonic_clock:POSIX clock_gettime\r\n"
           "multiplexing_api:epoll\r\natomicvar_api:c11-builtin\r\ngcc_version:0.0.0\r\nprocess_id:1\r\n"
           "process_supervised:no\r\nrun_id:0000000000000000000000000000000000000000\r\ntcp_port:" +
           std::to_string(node.tcp_port()) + "\r\nserver_time_usec:" + std::to_string(now_ms * 1000) +
           "\r\nuptime_in_seconds:" + std::to_string(uptime_s) + "\r\nuptime_in_days:" + std::to_string(uptime_s / 86400) +
           "\r\nhz:10\r\nconfigured_hz:10\r\nlru_clock:0\r\nexecutable:lockcheck-mock\r\nconfig_file:\r\n"
           "io_threads_active:0\r\n";
  }
  if (section == "clients") {
    return "connected_clients:" + std::to_string(clients) + "\r\ncluster_connections:0\r\nmaxclients:" +
           node.config().value("maxclients") +
           "\r\nclient_recent_max_input_buffer:0\r\nclient_recent_max_output_buffer:0\r\nblocked_clients:0\r\n"
           "tracking_clients:0\r\nclients_in_timeout_table:0\r\n";
  }
  if (section == "memory") {
    const std::int64_t used = used_memory_bytes(node);
    const std::int64_t maxmemory = std::stoll(node.config().value("maxmemory"));
    return "used_memory:" + std::to_string(used) + "\r\nused_memory_human:" + human_bytes(used) +
           "\r\nused_memory_rss:" + std::to_string(used) + "\r\nused_memory_rss_human:" + human_bytes(used) +
           "\r\nused_memory_peak:" + std::to_string(used) + "\r\nused_memory_peak_human:" + human_bytes(used) +
           "\r\nused_memory_startup:876096\r\nused_memory_lua:" + std::to_string(node.lua().memory_used_bytes()) +
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
           "keyspace_hits:0\r\nkeyspace_misses:0\r\npubsub_channels:" + std::to_string(node.subscribed_channels()) +
           "\r\npubsub_patterns:0\r\ntotal_error_replies:0\r\n";
  }
  if (section == "replication") {
    const ReplicationInfo& replication = node.replication();
    return "role:" + replication.role + "\r\nconnected_slaves:" + std::to_string(replication.connected_slaves) + "\r\n" +
           replication.extra_lines;
  }
  if (section == "cpu") {
    return "used_cpu_sys:0.000000\r\nused_cpu_user:0.000000\r\nused_cpu_sys_children:0.000000\r\n"
           "used_cpu_user_children:0.000000\r\n";
  }
  if (section == "cluster") return "cluster_enabled:0\r\n";
  if (section == "keyspace") {
    const Dataset& data = node.keyspace().dataset();
    if (data.entries.empty()) return {};
    return "db0:keys=" + std::to_string(data.entries.size()) + ",expires=" + std::to_string(data.deadlines.size()) +
           ",avg_ttl=0\r\n";
  }
  (void)session;
  return {};
}

constexpr std::array kDefaultSections = std::to_array<std::string_view>(
    {"server", "clients", "memory", "persistence", "stats", "replication", "cpu", "modules", "errorstats", "cluster",
     "keyspace"});

std::string_view title_of(std::string_view section) {
  static constexpr std::array kTitles = std::to_array<std::string_view>(
      {"Server", "Clients", "Memory", "Persistence", "Stats", "Replication", "CPU", "Modules", "Errorstats", "Cluster",
       "Keyspace"});
  for (std::size_t i = 0; i < kDefaultSections.size(); ++i) {
    if (kDefaultSections[i] == section) return kTitles[i];
  }
  return section;
}

}  // namespace

Reply info(CommandContext& ctx) {
  std::vector<std::string> wanted;
  for (std::size_t i = 1; i < ctx.args.size(); ++i) {
    std::string section = to_lower(ctx.args[i]);
    if (section == "default" || section == "all" || section == "everything") {
      wanted.assign(kDefaultSections.begin(), kDefaultSections.end());
      break;
    }
    wanted.push_back(section);
  }
  if (ctx.args.size() == 1) wanted.assign(kDefaultSections.begin(), kDefaultSections.end());
  std::string text;
  for (std::string_view section : kDefaultSections) {
    if (std::find(wanted.begin(), wanted.end(), section) == wanted.end()) continue;
    add_section(text, title_of(section), info_lines(ctx.node, section, ctx.session));
  }
  return Reply::verbatim(std::move(text));
}

Reply command(CommandContext& ctx) {
  const std::span<const CommandSpec> table = all_commands();
  if (ctx.args.size() == 1) {
    std::vector<Reply> infos;
    for (const CommandSpec& spec : table) infos.push_back(command_info(spec));
    return Reply::array(std::move(infos));
  }
  const std::string sub = to_lower(ctx.args[1]);
  if (sub == "count") {
    if (ctx.args.size() != 2) return subcommand_arity(sub);
    return Reply::integer_reply(static_cast<std::int64_t>(table.size()));
  }
  if (sub == "list") {
    std::vector<Reply> names;
    for (const CommandSpec& spec : table) names.push_back(Reply::bulk(std::string(spec.name)));
    return Reply::array(std::move(names));
  }
  if (sub == "info" || sub == "docs") {
    std::vector<Reply> replies;
    const bool docs = sub == "docs";
    for (std::size_t i = 2; i < ctx.args.size(); ++i) {
      const CommandSpec* spec = find_command(to_lower(ctx.args[i]));
      if (docs) {
        if (spec == nullptr) continue;  // DOCS leaves unknown names out
        replies.push_back(Reply::bulk(std::string(spec->name)));
        replies.push_back(command_docs(*spec));
      } else {
        replies.push_back(spec == nullptr ? Reply::nil() : command_info(*spec));
      }
    }
    if (ctx.args.size() == 2) {
      for (const CommandSpec& spec : table) {
        if (docs) {
          replies.push_back(Reply::bulk(std::string(spec.name)));
          replies.push_back(command_docs(spec));
        } else {
          replies.push_back(command_info(spec));
        }
      }
    }
    return docs ? Reply::map(std::move(replies)) : Reply::array(std::move(replies));
  }
  return Reply::error("ERR unknown subcommand '" + ctx.args[1].substr(0, 128) + "'. Try COMMAND HELP.");
}

}  // namespace lockcheck::mock::cmd
