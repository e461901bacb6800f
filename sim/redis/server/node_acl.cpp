// The node's ACL checks and ACL LOG entries (Redis 7.0.15's processCommand, scriptCall and execCommand).
#include "redis/acl/acl_commands.hpp"
#include "redis/acl/acl_texts.hpp"
#include "redis/command_table/command.hpp"
#include "redis/server/client_line.hpp"
#include "redis/server/node.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock {

std::optional<Reply> Node::acl_refusal(const Session& session, const CommandSpec& spec, const Command& command,
                                       AclLogContext context) {
  const AclUser& user = user_of(session);
  if (user.unrestricted()) return std::nullopt;
  const AclVerdict verdict = acl_check(user, command, (spec.flags & kNoAuth) != 0);
  if (verdict.allowed()) return std::nullopt;
  log_acl_denial(session, verdict, command, context);
  return Reply::error(acl_noperm_error(verdict.denial, acl_full_name(command)));
}

void Node::log_acl_denial(const Session& session, const AclVerdict& verdict, const Command& command,
                          AclLogContext context) {
  AclLogEntry entry;
  entry.reason = verdict.denial;
  entry.context = context;
  entry.object = verdict.denial == AclDenial::command ? acl_full_name(command) : command[verdict.arg_index];
  entry.username = user_of(session).name;
  entry.created_ms = options_.clock();
  entry.client_info = client_line(session, keyspace_.now_ms());
  if (!entry.client_info.empty() && entry.client_info.back() == '\n') entry.client_info.pop_back();
  acl_.log(std::move(entry));
}

std::optional<bool> Node::script_user_may_run(const Command& command) const {
  if (!acl_command_id_of(command)) return std::nullopt;
  if (script_session_ == nullptr) return true;
  char name_buffer[32];
  const CommandSpec* spec = find_command(lower_into(command[0], name_buffer));
  return acl_check(user_of(*script_session_), command, spec != nullptr && (spec->flags & kNoAuth)).allowed();
}

}  // namespace lockcheck::mock
