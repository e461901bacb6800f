#include "redis/topology/sentinel.hpp"

#include "redis/command_table/errors.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock {
namespace {

void field(std::vector<Reply>& fields, std::string name, std::string value) {
  fields.push_back(Reply::bulk(std::move(name)));
  fields.push_back(Reply::bulk(std::move(value)));
}

// The fields clients read of SENTINEL MASTER, in redis-sentinel's order (the timing fields it also prints,
// last-ping-sent and the like, are left out: the mock keeps no pings).
Reply master_fields(const SentinelKnowledge& knowledge) {
  std::vector<Reply> fields;
  field(fields, "name", knowledge.master_name);
  field(fields, "ip", knowledge.master.host);
  field(fields, "port", std::to_string(knowledge.master.port));
  field(fields, "runid", knowledge.master.run_id);
  field(fields, "flags", knowledge.master_down ? "master,s_down,o_down" : "master");
  field(fields, "down-after-milliseconds", std::to_string(knowledge.down_after_ms));
  field(fields, "role-reported", "master");
  field(fields, "config-epoch", std::to_string(knowledge.config_epoch));
  field(fields, "num-slaves", std::to_string(knowledge.replicas.size()));
  field(fields, "num-other-sentinels", std::to_string(knowledge.sentinels.size() - 1));
  field(fields, "quorum", std::to_string(knowledge.quorum));
  field(fields, "failover-timeout", "180000");
  field(fields, "parallel-syncs", "1");
  return Reply::array(std::move(fields));
}

Reply replica_fields(const SentinelKnowledge& knowledge, const SentinelAddress& replica) {
  std::vector<Reply> fields;
  field(fields, "name", replica.host + ":" + std::to_string(replica.port));
  field(fields, "ip", replica.host);
  field(fields, "port", std::to_string(replica.port));
  field(fields, "runid", replica.run_id);
  field(fields, "flags", "slave");
  field(fields, "role-reported", "slave");
  field(fields, "master-link-status", knowledge.master_down ? "err" : "ok");
  field(fields, "master-host", knowledge.master.host);
  field(fields, "master-port", std::to_string(knowledge.master.port));
  field(fields, "slave-priority", "100");
  return Reply::array(std::move(fields));
}

Reply sentinel_fields(const SentinelAddress& sentinel) {
  std::vector<Reply> fields;
  field(fields, "name", sentinel.run_id);
  field(fields, "ip", sentinel.host);
  field(fields, "port", std::to_string(sentinel.port));
  field(fields, "runid", sentinel.run_id);
  field(fields, "flags", "sentinel");
  return Reply::array(std::move(fields));
}

struct Subcommand {
  std::string_view name;
  int arity;  // as in Redis's command table: negative = at least
};

constexpr Subcommand kSubcommands[] = {
    {"get-master-addr-by-name", 3}, {"master", 3}, {"masters", 2}, {"replicas", 3}, {"slaves", 3},
    {"sentinels", 3},               {"ckquorum", 3}, {"myid", 2},
};

Reply no_such_master() { return Reply::error("ERR No such master with that name"); }

Reply sentinel_subcommand(const SentinelKnowledge& knowledge, const Command& command) {
  const std::string name = to_lower(command[1]);
  const Subcommand* spec = nullptr;
  for (const Subcommand& candidate : kSubcommands) {
    if (candidate.name == name) spec = &candidate;
  }
  if (spec == nullptr) return Reply::error("ERR unknown subcommand '" + command[1] + "'. Try SENTINEL HELP.");
  if (command.size() != static_cast<std::size_t>(spec->arity)) {
    return Reply::error("ERR wrong number of arguments for 'sentinel|" + name + "' command");
  }
  if (name == "masters") return Reply::array({master_fields(knowledge)});
  if (name == "myid") return Reply::bulk(knowledge.sentinels[knowledge.myself].run_id);
  const bool known = command[2] == knowledge.master_name;
  if (name == "get-master-addr-by-name") {
    if (!known) return Reply::null_array();
    return Reply::array({Reply::bulk(knowledge.master.host), Reply::bulk(std::to_string(knowledge.master.port))});
  }
  if (!known) return no_such_master();
  if (name == "master") return master_fields(knowledge);
  if (name == "ckquorum") {
    const std::size_t usable = knowledge.sentinels.size();
    return Reply::status("OK " + std::to_string(usable) + " usable Sentinels. Quorum and failover authorization can be reached");
  }
  std::vector<Reply> entries;
  if (name == "sentinels") {
    for (std::size_t i = 0; i < knowledge.sentinels.size(); ++i) {
      if (i != knowledge.myself) entries.push_back(sentinel_fields(knowledge.sentinels[i]));
    }
  } else {
    for (const SentinelAddress& replica : knowledge.replicas) entries.push_back(replica_fields(knowledge, replica));
  }
  return Reply::array(std::move(entries));
}

}  // namespace

Reply sentinel_execute(const SentinelKnowledge& knowledge, const Command& command) {
  if (command.empty()) return Reply::error("ERR empty command");
  const std::string name = to_lower(command[0]);
  if (name == "ping" && command.size() <= 2) return command.size() == 2 ? Reply::bulk(command[1]) : Reply::status("PONG");
  if (name == "role" && command.size() == 1) {
    return Reply::array({Reply::bulk("sentinel"), Reply::array({Reply::bulk(knowledge.master_name)})});
  }
  if (name == "sentinel") {
    if (command.size() < 2) return err::arity("sentinel");
    return sentinel_subcommand(knowledge, command);
  }
  if (name == "ping" || name == "role") return err::arity(name);
  return err::unknown_command(command);
}

}  // namespace lockcheck::mock
