#include "redis/server/notifications.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "redis/util/text.hpp"

namespace lockcheck::mock {
namespace {

struct CommandEvent {
  std::string_view command;
  char event_class;
  std::string_view event;
};

// What a command announces when it changes a key (Redis 7.0's notifyKeyspaceEvent calls). A command not
// listed announces its own name in the class of its family (the first letter of hash/list/zset/set/stream commands).
constexpr std::array kCommandEvents = std::to_array<CommandEvent>({
    {"decr", '$', "incrby"},   {"decrby", '$', "incrby"}, {"getset", '$', "set"},       {"hmset", 'h', "hset"},
    {"hsetnx", 'h', "hset"},   {"incr", '$', "incrby"},   {"incrby", '$', "incrby"},    {"incrbyfloat", '$', "incrbyfloat"},
    {"mset", '$', "set"},      {"msetnx", '$', "set"},    {"psetex", '$', "set"},       {"set", '$', "set"},
    {"setex", '$', "set"},     {"setnx", '$', "set"},     {"append", '$', "append"},    {"setrange", '$', "setrange"},
    {"zincrby", 'z', "zincr"}, {"getex", 'g', "expire"},  {"lpushx", 'l', "lpush"},     {"rpushx", 'l', "rpush"},
    {"setbit", '$', "setbit"}, {"bitop", '$', "set"},     {"restore", 'g', "restore"},
    {"sort", 'l', "sortstore"},  {"geoadd", 'z', "zadd"},    {"georadius", 'z', "georadiusstore"},
    {"georadiusbymember", 'z', "georadiusstore"},              {"geosearchstore", 'z', "geosearchstore"},
});

// LMOVE, BLMOVE, RPOPLPUSH, BRPOPLPUSH: the destination announces its push (lpush/rpush), the source its pop
// (lpop/rpop), in that order, both when they are one key. SMOVE: srem on the source, sadd on the destination.
std::vector<CommandEvent> moved_element_events(std::string_view command, std::string_view key,
                                               const std::vector<std::string>& args) {
  std::vector<CommandEvent> out;
  if (args.size() < 3) return out;
  if (command == "smove") {
    if (key == args[1]) out.push_back({command, 's', "srem"});
    if (key == args[2]) out.push_back({command, 's', "sadd"});
    return out;
  }
  const bool by_sides = command == "lmove" || command == "blmove";
  if (!by_sides && command != "rpoplpush" && command != "brpoplpush") return out;
  if (by_sides && args.size() < 5) return out;
  const bool from_left = by_sides && iequals(args[3], "left");
  const bool to_left = !by_sides || iequals(args[4], "left");
  if (key == args[2]) out.push_back({command, 'l', to_left ? "lpush" : "rpush"});
  if (key == args[1]) out.push_back({command, 'l', from_left ? "lpop" : "rpop"});
  return out;
}

CommandEvent command_event(std::string_view command) {
  for (const CommandEvent& known : kCommandEvents) {
    if (known.command == command) return known;
  }
  if (command.empty()) return {command, 'g', "del"};
  char family = '$';
  if (command[0] == 'h') family = 'h';
  else if (command[0] == 'z' || command.starts_with("bz")) family = 'z';
  else if (command[0] == 'l' || command == "rpush" || command == "rpop" || command == "rpushx" || command == "rpoplpush" ||
           command.starts_with("bl") || command.starts_with("br")) family = 'l';
  else if (command[0] == 's' && command != "set" && command != "setnx" && command != "setex") family = 's';
  else if (command[0] == 'x') family = 't';  // xadd, xtrim, xdel, xsetid, xgroup-create...
  return {command, family, command};
}

bool is_expire_command(std::string_view command) {
  return command == "expire" || command == "pexpire" || command == "expireat" || command == "pexpireat";
}

// A *STORE command (and SORT ... STORE) whose result is empty deletes its destination and announces only "del".
bool is_store_command(std::string_view command) {
  constexpr std::array kStores = std::to_array<std::string_view>(
      {"sinterstore", "sunionstore", "sdiffstore", "zunionstore", "zinterstore", "zdiffstore", "zrangestore", "sort",
       "georadius", "georadiusbymember", "geosearchstore"});
  return std::find(kStores.begin(), kStores.end(), command) != kStores.end();
}

}  // namespace

void KeyspaceNotifier::configure(std::string_view flags) {
  classes_.clear();
  keyspace_ = keyevent_ = false;
  for (char c : flags) {
    if (c == 'K') keyspace_ = true;
    else if (c == 'E') keyevent_ = true;
    else if (c == 'A') classes_ += "g$lshzxetd";
    else classes_ += c;
  }
}

void KeyspaceNotifier::notify(char event_class, std::string_view event_name, std::string_view key, int db) {
  if (classes_.find(event_class) == std::string::npos) return;
  const std::string at = "@" + std::to_string(db) + "__:";
  if (keyspace_) publish_("__keyspace" + at + std::string(key), std::string(event_name));
  if (keyevent_) publish_("__keyevent" + at + std::string(event_name), std::string(key));
}

void KeyspaceNotifier::on_key_event(const KeyEvent& event) {
  if (downstream_ != nullptr) downstream_->on_key_event(event);
  if (!keyspace_ && !keyevent_) return;
  const std::string_view command = event.command;
  const int db = event.db;
  // MOVE, COPY and RENAME announce move_from/move_to, copy_to, rename_from/rename_to themselves (MOVE across
  // two databases); the keys they add announce only "new", their deadlines and the keys they remove or replace
  // nothing, as Redis's dbAdd/setExpire/dbDelete.
  const bool moving = command == "move" || command == "copy" || command == "rename" || command == "renamenx";
  // RESTORE announces "restore" only: the key it replaces and the deadline it sets go unannounced.
  const bool quiet_side_effects = moving || command == "restore";
  const std::vector<CommandEvent> moved =
      arguments_ == nullptr ? std::vector<CommandEvent>{} : moved_element_events(command, event.key, *arguments_);
  switch (event.kind) {
    case KeyEventKind::created:
      notify('n', "new", event.key, db);
      if (moving) return;
      [[fallthrough]];
    case KeyEventKind::overwritten:
    case KeyEventKind::modified: {
      for (const CommandEvent& each : moved) notify(each.event_class, each.event, event.key, db);
      if (!moved.empty()) return;
      CommandEvent what = command_event(command);
      if (command == "zadd" && arguments_ != nullptr &&
          std::any_of(arguments_->begin(), arguments_->end(), [](const std::string& arg) { return iequals(arg, "incr"); })) {
        what.event = "zincr";
      }
      notify(what.event_class, what.event, event.key, db);
      return;
    }
    case KeyEventKind::expire_set:
      if (!quiet_side_effects) notify('g', "expire", event.key, db);
      return;
    case KeyEventKind::expire_removed:
      if (command == "persist" || command == "getex") notify('g', "persist", event.key, db);
      return;
    case KeyEventKind::deleted: {
      if (quiet_side_effects) return;
      // A type command that emptied its key announces itself, then the generic "del"; a *STORE (or SORT ... STORE)
      // with an empty result only "del".
      const CommandEvent what = moved.empty() ? command_event(command) : moved.back();
      if (command != "del" && command != "unlink" && command != "getdel" && command != "getex" && !is_expire_command(command) &&
          command != "flushall" && command != "flushdb" && what.event_class != '$' && !is_store_command(command)) {
        notify(what.event_class, what.event, event.key, db);
      }
      if (command != "flushall" && command != "flushdb") notify('g', "del", event.key, db);
      return;
    }
    case KeyEventKind::expired: notify('x', "expired", event.key, db); return;
    case KeyEventKind::evicted: notify('e', "evicted", event.key, db); return;
  }
}

}  // namespace lockcheck::mock
