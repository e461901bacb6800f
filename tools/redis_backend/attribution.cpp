#include "attribution.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>

#include "model/hash_holders.hpp"
#include "lockcheck/sha1.hpp"

namespace lockcheck::redis_backend {
namespace {

constexpr std::string_view kWorkerNamePrefix = "lockcheck-p";

std::string upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::optional<std::int64_t> integer(std::string_view text) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

bool is_script_call(const std::string& name) {
  return name == "EVAL" || name == "EVALSHA" || name == "EVAL_RO" || name == "EVALSHA_RO" || name == "FCALL" ||
         name == "FCALL_RO";
}

// The server's own doing, whoever happened to touch the key (as in the simulator).
bool is_servers_own(const std::string& event) { return event == "expired" || event == "evicted"; }
bool is_removal(const std::string& event) { return event == "del" || event == "expired" || event == "evicted"; }
bool is_hash_write(const std::string& event) {
  return event == "hset" || event == "hsetnx" || event == "hincrby" || event == "hincrbyfloat";
}
bool is_write(const std::string& event) { return event == "set" || is_hash_write(event); }

// A key moved between cluster nodes by a slot migration: the source's MIGRATE deletes it, the target's
// RESTORE-ASKING (sent by the source node itself) creates it. The cluster's doing, no client's (by -1), named
// as the simulator names it.
std::optional<std::string> cluster_move_of(const MonitorLine* line) {
  if (line == nullptr) return std::nullopt;
  const std::string name = line->name();
  if (name == "MIGRATE") return "migrate";
  if (name == "RESTORE-ASKING") return "restore";
  return std::nullopt;
}

// The value a `set` notification's command stored under `key`.
std::optional<std::string> set_value(const MonitorLine& line, const std::string& key) {
  const std::string name = line.name();
  const std::vector<std::string>& argv = line.argv;
  if ((name == "SET" || name == "SETNX" || name == "GETSET") && argv.size() >= 3 && argv[1] == key) return argv[2];
  if ((name == "SETEX" || name == "PSETEX") && argv.size() >= 4 && argv[1] == key) return argv[3];
  if (name == "MSET" || name == "MSETNX") {
    std::optional<std::string> value;
    for (std::size_t i = 1; i + 1 < argv.size(); i += 2) {
      if (argv[i] == key) value = argv[i + 1];  // the last one wins, as in Redis
    }
    return value;
  }
  return std::nullopt;
}

bool keeps_ttl(const MonitorLine& line) {
  if (line.name() != "SET") return false;
  for (std::size_t i = 3; i < line.argv.size(); ++i) {
    if (upper(line.argv[i]) == "KEEPTTL") return true;
  }
  return false;
}

// The deadline an `expire` notification's command set, on the node clock: relative forms count from the
// command's MONITOR line (written right after it ran).
std::optional<std::int64_t> deadline(const MonitorLine& line, const std::string& key) {
  const std::string name = line.name();
  const std::vector<std::string>& argv = line.argv;
  if (argv.size() < 3 || argv[1] != key) return std::nullopt;
  const std::int64_t now_ms = line.unix_us / 1000;
  auto at = [&](const std::string& unit, const std::string& number) -> std::optional<std::int64_t> {
    const std::optional<std::int64_t> n = integer(number);
    if (!n) return std::nullopt;
    if (unit == "EX") return now_ms + *n * 1000;
    if (unit == "PX") return now_ms + *n;
    if (unit == "EXAT") return *n * 1000;
    if (unit == "PXAT") return *n;
    return std::nullopt;
  };
  if (name == "SET" || name == "GETEX") {
    for (std::size_t i = name == "SET" ? 3 : 2; i + 1 < argv.size(); ++i) {
      if (std::optional<std::int64_t> when = at(upper(argv[i]), argv[i + 1])) return when;
    }
    return std::nullopt;
  }
  if (name == "SETEX") return at("EX", argv[2]);
  if (name == "PSETEX") return at("PX", argv[2]);
  if (name == "EXPIRE") return at("EX", argv[2]);
  if (name == "PEXPIRE") return at("PX", argv[2]);
  if (name == "EXPIREAT") return at("EXAT", argv[2]);
  if (name == "PEXPIREAT") return at("PXAT", argv[2]);
  return std::nullopt;
}

// How much an `incrby` notification's command (INCR, DECR, INCRBY, DECRBY) added to `key`.
std::optional<std::int64_t> increment(const MonitorLine& line, const std::string& key) {
  const std::string name = line.name();
  const std::vector<std::string>& argv = line.argv;
  if (argv.size() < 2 || argv[1] != key) return std::nullopt;
  if (name == "INCR" && argv.size() == 2) return 1;
  if (name == "DECR" && argv.size() == 2) return -1;
  if ((name == "INCRBY" || name == "DECRBY") && argv.size() == 3) {
    const std::optional<std::int64_t> by = integer(argv[2]);
    if (by && name == "DECRBY") return -*by;
    return by;
  }
  return std::nullopt;
}

// The hash fields a hash-write notification's command wrote under `key`.
std::optional<std::vector<std::string>> written_fields(const MonitorLine& line, const std::string& key) {
  const std::string name = line.name();
  const std::vector<std::string>& argv = line.argv;
  if (argv.size() < 4 || argv[1] != key) return std::nullopt;
  if (name == "HSET" || name == "HMSET") {
    std::vector<std::string> fields;
    for (std::size_t i = 2; i + 1 < argv.size(); i += 2) fields.push_back(argv[i]);
    return fields;
  }
  if (name == "HSETNX" || name == "HINCRBY" || name == "HINCRBYFLOAT") return std::vector<std::string>{argv[2]};
  return std::nullopt;
}

void add_field(std::vector<std::string>& fields, const std::string& field) {
  if (std::find(fields.begin(), fields.end(), field) == fields.end()) fields.push_back(field);  // insertion order
}

bool same_content(const KeyState& a, const KeyState& b) {
  if (a.present != b.present) return false;
  if (!a.present) return true;
  std::vector<std::string> fa = a.fields, fb = b.fields;
  std::sort(fa.begin(), fa.end());
  std::sort(fb.begin(), fb.end());
  return a.value == b.value && fa == fb && (a.expire_at_ms < 0) == (b.expire_at_ms < 0);
}

// What a line shows as the key's `value`: a string's value, or the one field of a single-owner hash (the
// hold field of reentrant-hash and redisson-like), as the simulator's nodes report it.
std::string shown_value(const KeyState& state) {
  if (!state.present) return {};
  if (state.value.empty() && state.fields.size() == 1) return state.fields.front();
  return state.value;
}

}  // namespace

std::string worker_client_name(int process, std::uint64_t incarnation) {
  return fmt::format("{}{}-{}", kWorkerNamePrefix, process, incarnation);
}

std::optional<std::int64_t> process_of_client_name(std::string_view name) {
  if (name.substr(0, kWorkerNamePrefix.size()) != kWorkerNamePrefix) return std::nullopt;
  name.remove_prefix(kWorkerNamePrefix.size());
  const std::size_t dash = name.find('-');
  if (dash == std::string_view::npos || !integer(name.substr(dash + 1))) return std::nullopt;
  const std::optional<std::int64_t> process = integer(name.substr(0, dash));
  if (!process || *process < 0) return std::nullopt;
  return process;
}

void place_server_events(std::vector<Record>& records, bool commands_outside_ops) {
  constexpr std::int64_t kOpen = std::numeric_limits<std::int64_t>::max();
  struct Span {
    std::int64_t from_us;
    std::int64_t to_us;  // kOpen: no answer bounds its commands (never completed, or `info`)
  };
  std::map<std::int64_t, std::vector<Span>> spans;  // process -> its ops
  std::vector<const Record*> ops;
  for (const Record& record : records) {
    if (record.kind == "op") ops.push_back(&record);
  }
  std::stable_sort(ops.begin(), ops.end(), [](const Record* a, const Record* b) { return a->t_us < b->t_us; });
  // A process's workload and its renewal thread have ops in flight at once, each of its own `f`.
  std::map<std::pair<std::int64_t, std::string>, std::size_t> open;
  for (const Record* op : ops) {
    const std::int64_t process = op->fields.value("process", -1);
    const std::pair<std::int64_t, std::string> id{process, op->fields.value("f", "")};
    std::vector<Span>& mine = spans[process];
    if (op->fields.value("type", "") == "invoke") {
      open[id] = mine.size();  // an op still open here never completed (its worker crashed): it stays open
      mine.push_back(Span{op->t_us, kOpen});
    } else if (auto it = open.find(id); it != open.end()) {
      if (op->fields.value("type", "") != "info") mine[it->second].to_us = op->t_us;
      open.erase(it);
    }
  }
  std::map<std::int64_t, std::vector<Record*>> lines;  // node -> the observers' lines, in stream order
  for (Record& record : records) {
    if (record.kind == "server" && record.fields.contains("since_us")) lines[record.fields.value("node", -1)].push_back(&record);
  }
  for (auto& [node, stream] : lines) {
    for (Record* line : stream) {
      const std::int64_t by = line->fields.value("by", -1);
      if (by < 0 || spans.count(by) == 0) continue;
      // The command ran before the observer read it (t), inside one of the process's ops invoked by then.
      std::int64_t latest = std::numeric_limits<std::int64_t>::min();
      for (const Span& span : spans.at(by)) {
        if (span.from_us < line->t_us) latest = std::max(latest, std::min(line->t_us, span.to_us == kOpen ? kOpen : span.to_us - 1));
      }
      if (latest == std::numeric_limits<std::int64_t>::min()) continue;
      if (commands_outside_ops && line->t_us - latest > kObserverLagUs) continue;
      line->t_us = latest;
    }
    for (std::size_t i = stream.size(); i-- > 1;) stream[i - 1]->t_us = std::min(stream[i - 1]->t_us, stream[i]->t_us);
  }
}

void Gaps::add(const Gaps& other) {
  unobserved += other.unobserved;
  unattributed += other.unattributed;
  for (const auto& [reason, n] : other.reasons) reasons[reason] += n;
}

NodeAttribution::NodeAttribution(int node, std::set<std::string> keys, std::map<std::string, KeyState> initial,
                                 RecordSink& sink, NameLookup lookup, WhenRan when_ran)
    : node_(node), keys_(std::move(keys)), sink_(sink), lookup_(std::move(lookup)), when_ran_(std::move(when_ran)) {
  for (auto& [key, state] : initial) state_[key] = Derived{std::move(state), true};
}

std::map<std::string, KeyState> NodeAttribution::state() const {
  std::map<std::string, KeyState> out;
  for (const auto& [key, derived] : state_) out[key] = derived.state;
  return out;
}

void NodeAttribution::count(std::int64_t Gaps::*counter, const std::string& reason, std::int64_t n) {
  gaps_.*counter += n;
  gaps_.reasons[reason] += n;
}

void NodeAttribution::notification(std::int64_t t_us, std::int64_t since_us, const std::string& event,
                                   const std::string& key) {
  if (keys_.count(key) == 0) return;
  notes_.push_back(Note{t_us, since_us, event, key});
}

void NodeAttribution::attach_notes(Unit& unit, int line) {
  for (Note& note : notes_) unit.changes.push_back(Change{std::move(note), line});
  notes_.clear();
}

void NodeAttribution::command(const MonitorLine& line) {
  last_line_ms_ = line.unix_us / 1000;
  const std::string name = line.name();
  if (line.from_script()) {
    if (!unit_ || unit_->script.empty()) {  // no script call was seen before it: its caller is unknown
      close_unit();
      unit_ = Unit{"", "?", {}, {}};
    }
    unit_->lines.push_back(line);
    attach_notes(*unit_, static_cast<int>(unit_->lines.size()) - 1);
    return;
  }
  close_unit();
  if (name == "CLIENT" && line.argv.size() >= 3 && upper(line.argv[1]) == "SETNAME") names_[line.source] = line.argv[2];
  if (is_script_call(name)) {
    // Its line comes before the script runs: notifications before it are not its doing.
    if (!notes_.empty()) {
      unit_ = Unit{};
      attach_notes(*unit_, -1);
      close_unit();
    }
    std::string script;
    if (line.argv.size() >= 2) {
      script = name.rfind("EVALSHA", 0) == 0 ? lower(line.argv[1]) : name.rfind("EVAL", 0) == 0 ? sha1_hex(line.argv[1]) : line.argv[1];
    }
    unit_ = Unit{line.source, std::move(script), {line}, {}};
    return;
  }
  unit_ = Unit{line.source, "", {line}, {}};
  attach_notes(*unit_, 0);
  close_unit();
}

std::int64_t NodeAttribution::by_of(const Unit& unit, const Change& change) {
  if (change.line < 0) {
    count(&Gaps::unattributed, "a change with no command line after it");
    return -1;
  }
  if (unit.source.empty()) {
    count(&Gaps::unattributed, "a script's command whose script call was not seen");
    return -1;
  }
  auto name = names_.find(unit.source);
  if (name == names_.end() && lookup_) {
    if (std::optional<std::string> found = lookup_(unit.source)) name = names_.emplace(unit.source, *found).first;
  }
  if (name != names_.end()) {
    if (std::optional<std::int64_t> process = process_of_client_name(name->second)) return *process;
  }
  count(&Gaps::unattributed, "a change by a connection without a worker's client name");
  return -1;
}

void NodeAttribution::close_unit() {
  if (!unit_) return;
  Unit unit = std::move(*unit_);
  unit_.reset();
  if (unit.changes.empty()) return;
  Closed closed;
  for (std::size_t j = 0; j < unit.changes.size(); ++j) {
    const Change& change = unit.changes[j];
    const Note& note = change.note;
    const MonitorLine* line = change.line >= 0 ? &unit.lines[static_cast<std::size_t>(change.line)] : nullptr;
    auto [slot, fresh] = closed.after.try_emplace(note.key);
    if (fresh) slot->second = state_[note.key];
    Derived& key = slot->second;
    const KeyState before = key.state;
    const bool before_known = key.known;
    std::string event;
    if (note.event == "set") {
      event = before.present ? "overwritten" : "created";
      const std::optional<std::string> value = line != nullptr ? set_value(*line, note.key) : std::nullopt;
      const bool keep = line != nullptr && keeps_ttl(*line);
      key.known = value.has_value() && (!keep || before_known);
      key.state = KeyState{true, value.value_or(""), {}, keep ? before.expire_at_ms : -1};
    } else if (note.event == "incrby") {
      // INCR and friends: a counter (rw-two-keys' readers); an absent key counts from 0, the TTL is kept.
      event = before.present ? "modified" : "created";
      const std::optional<std::int64_t> delta = line != nullptr ? increment(*line, note.key) : std::nullopt;
      const std::optional<std::int64_t> base = before.present ? integer(before.value) : std::optional<std::int64_t>(0);
      key.known = (before_known || !before.present) && delta && base;
      key.state = KeyState{true, key.known ? std::to_string(*base + *delta) : "", {}, before.present ? before.expire_at_ms : -1};
    } else if (is_hash_write(note.event)) {
      event = before.present ? "modified" : "created";
      const auto fields = line != nullptr ? written_fields(*line, note.key) : std::nullopt;
      if (!before.present) key = Derived{KeyState{true, "", {}, -1}, true};
      if (fields) {
        for (const std::string& field : *fields) add_field(key.state.fields, field);
      } else {
        key.known = false;
      }
    } else if (note.event == "hdel") {
      event = "modified";
      if (line != nullptr && line->name() == "HDEL" && line->argv.size() >= 3 && line->argv[1] == note.key) {
        for (std::size_t i = 2; i < line->argv.size(); ++i) std::erase(key.state.fields, line->argv[i]);
      } else {
        key.known = false;
      }
    } else if (note.event == "expire") {
      // SET k v PX n notifies `set` then `expire`: one write, judged once (its line carries the deadline).
      const bool same_write = j > 0 && unit.changes[j - 1].line == change.line && change.line >= 0 &&
                              unit.changes[j - 1].note.key == note.key && is_write(unit.changes[j - 1].note.event);
      if (!same_write) event = "expire_set";
      const std::optional<std::int64_t> when = line != nullptr ? deadline(*line, note.key) : std::nullopt;
      key.state.present = true;
      key.state.expire_at_ms = when.value_or(-1);
      if (!when) key.known = false;
    } else if (note.event == "persist") {
      event = "expire_removed";
      key.state.expire_at_ms = -1;
    } else if (note.event == "restore") {
      // The value is in DUMP's binary format: unknown until the read that follows; the TTL is in ms from now.
      event = before.present ? "overwritten" : "created";
      std::int64_t expire_at_ms = -1;
      if (line != nullptr && line->argv.size() >= 3) {
        const std::int64_t ttl_ms = integer(line->argv[2]).value_or(0);
        if (ttl_ms > 0) expire_at_ms = line->unix_us / 1000 + ttl_ms;
      }
      key = Derived{KeyState{true, "", {}, expire_at_ms}, false};
    } else if (note.event == "del") {
      event = "deleted";
    } else if (note.event == "expired") {
      event = "expired";
    } else if (note.event == "evicted") {
      event = "evicted";
    } else {
      // A command the checkers have no event for (RENAME, APPEND, ...): the key's content is no longer known.
      count(&Gaps::unobserved, fmt::format("a change the checkers have no event for ('{}')", note.event));
      key.known = false;
      key.state.present = note.event != "rename_from" && note.event != "move_from";
      continue;
    }
    if (is_removal(note.event)) key = Derived{KeyState{}, true};
    if (event.empty()) continue;
    const bool servers_own = is_servers_own(note.event);
    const std::optional<std::string> moved = cluster_move_of(line);
    const std::int64_t by = servers_own || moved ? -1 : by_of(unit, change);
    Json fields{{"node", node_}, {"event", event}, {"key", note.key}, {"value", ""}, {"by", by},
                {"command", moved ? *moved : servers_own || line == nullptr ? std::string() : lower(line->argv.front())}};
    if (!servers_own && !unit.script.empty() && line != nullptr && line->from_script()) fields["script"] = unit.script;
    fields["notification"] = note.event;
    // Read at `t`, it ran by then; its line's stamp says when (a line read late arrived with a backlog).
    std::int64_t t_us = note.t_us;
    std::int64_t stamp_node_ms = -1;
    if (line != nullptr && when_ran_) {
      // Stamps follow the stream's order; a millisecond's leeway for how two readings of the clocks differ.
      const std::int64_t not_before_us =
          last_ran_us_ == std::numeric_limits<std::int64_t>::min() ? last_ran_us_ : last_ran_us_ - 1000;
      const std::optional<std::int64_t> ran_us = when_ran_(line->unix_us, not_before_us);
      if (ran_us) last_ran_us_ = std::max(last_ran_us_, *ran_us);
      if (ran_us && *ran_us < t_us) {
        t_us = *ran_us;
        stamp_node_ms = (line->unix_us + 999) / 1000;
      }
    }
    const std::int64_t since_us = std::min(note.since_us, t_us);
    fields["since_us"] = since_us;
    fields["node_time_ms"] = 0;
    fields["expire_at_ms"] = note.event == "expired" && before_known ? before.expire_at_ms : -1;
    closed.records.push_back(Pending{t_us, since_us, line != nullptr ? line->unix_us / 1000 : last_line_ms_,
                                     stamp_node_ms, is_removal(note.event), std::move(fields)});
  }
  for (const auto& [key, after] : closed.after) state_[key] = after;
  if (!closed.records.empty() || !closed.after.empty()) closed_.push_back(std::move(closed));
}

void NodeAttribution::state_read(const StateRead& read) {
  close_unit();
  if (!notes_.empty()) {  // cannot happen (a command's notifications and its line are written together)
    unit_ = Unit{};
    attach_notes(*unit_, -1);
    close_unit();
  }
  flush(&read);
}

void NodeAttribution::finish() {
  close_unit();
  if (!notes_.empty()) {
    count(&Gaps::unobserved, "a notification whose command line never came (the node went away)",
          static_cast<std::int64_t>(notes_.size()));
    notes_.clear();
  }
  flush(nullptr);
}

void NodeAttribution::flush(const StateRead* read) {
  if (read != nullptr) {
    // The read shows the state after the last unit that changed each key: exact, and a check of the derivation.
    std::map<std::string, std::size_t> last;
    for (std::size_t i = 0; i < closed_.size(); ++i) {
      for (const auto& [key, after] : closed_[i].after) last[key] = i;
    }
    for (const auto& [key, index] : last) {
      const auto it = read->state.find(key);
      if (it == read->state.end()) continue;
      Derived& after = closed_[index].after[key];
      if (after.known && !same_content(after.state, it->second)) {
        count(&Gaps::unobserved, "a derived state that the next read contradicted");
      }
      after = Derived{it->second, true};
    }
  }
  for (Closed& closed : closed_) {
    for (Pending& pending : closed.records) {
      Json& fields = pending.fields;
      const std::string key = fields.at("key").get<std::string>();
      const Derived& after = closed.after.at(key);
      fields["node_time_ms"] = pending.stamp_node_ms >= 0 ? pending.stamp_node_ms
                               : read != nullptr      ? read->node_ms
                                                      : pending.line_ms + (pending.t_us - pending.since_us + 999) / 1000;
      if (!pending.removal && !after.known) {
        fields["state_unread"] = true;  // value "", no deadline: nothing is claimed
        count(&Gaps::unobserved, "a change whose state could neither be derived nor read");
      } else if (!pending.removal) {
        fields["value"] = shown_value(after.state);
        fields["expire_at_ms"] = after.state.expire_at_ms;
        if (!after.state.fields.empty()) fields["fields"] = after.state.fields;
        // The simulator's rule for read-write hashes (a field per holder), so the checker sees every holder.
        if (auto holders = sim::holders_json(after.state.fields)) fields["holders"] = std::move(*holders);
      }
      sink_.add(pending.t_us, "server", std::move(fields));
    }
  }
  closed_.clear();
  if (read != nullptr) {
    for (const auto& [key, state] : read->state) state_[key] = Derived{state, true};
  }
}

}  // namespace lockcheck::redis_backend
