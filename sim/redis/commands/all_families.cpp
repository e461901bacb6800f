// lockcheck_mock, the composed whole: every family's rows in one command table. A family left out of this list
// (and out of lockcheck_mock's links) is a mock without those commands: they answer "unknown command".
#include "redis/commands/acl/acl_family.hpp"
#include "redis/commands/admin/admin_family.hpp"
#include "redis/commands/blocking/blocking_family.hpp"
#include "redis/commands/cluster/cluster_family.hpp"
#include "redis/commands/connection/connection_family.hpp"
#include "redis/commands/dump/dump_family.hpp"
#include "redis/commands/keys/keys_family.hpp"
#include "redis/commands/pubsub/pubsub_family.hpp"
#include "redis/commands/scripting/scripting_family.hpp"
#include "redis/commands/transactions/transactions_family.hpp"
#include "redis/command_table/command_table.hpp"
#include "redis/types/geo/geo_family.hpp"
#include "redis/types/hash/hash_family.hpp"
#include "redis/types/list/list_family.hpp"
#include "redis/types/set/set_family.hpp"
#include "redis/types/stream/stream_family.hpp"
#include "redis/types/string/string_family.hpp"
#include "redis/types/zset/zset_family.hpp"

namespace lockcheck::mock {
namespace {

CommandTable compose() {
  CommandTable table;
  register_keys_commands(table);
  register_string_commands(table);
  register_hash_commands(table);
  register_list_commands(table);
  register_set_commands(table);
  register_zset_commands(table);
  register_geo_commands(table);
  register_stream_commands(table);
  register_blocking_commands(table);
  register_pubsub_commands(table);
  register_transactions_commands(table);
  register_scripting_commands(table);
  register_connection_commands(table);
  register_admin_commands(table);
  register_acl_commands(table);
  register_dump_commands(table);
  register_cluster_commands(table);
  table.freeze();
  return table;
}

}  // namespace

const CommandTable& all_families_commands() {
  static const CommandTable table = compose();
  return table;
}

}  // namespace lockcheck::mock
