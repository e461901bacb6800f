// Parsing a schema-1 history. Strict about what the checkers rely on (integer times, known kinds, order),
// lenient about fields it does not know, so a newer simulator can add fields without breaking old checkers.
#include "history.hpp"

#include "flat_line.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <algorithm>

namespace lockcheck::properties {

namespace {

using nlohmann::json;

// Thrown by a Fields over a scanned line when the line needs the JSON parser after all: a value of another
// type than the field wants (the parser's message names it), or a field whose value is an array or object.
struct NeedsJsonParser {};

// Reads typed fields of one line, scanned (FlatLine) or parsed (a JSON object); every error names the line
// and the field. A scanned line hands every case it cannot answer exactly as the parsed one would to the
// parser, by throwing NeedsJsonParser: only lines whose fields all have the wanted types are read scanned.
class Fields {
 public:
  Fields(const json& object, std::int64_t line) : object_(&object), line_(line) {}
  Fields(const FlatLine& flat, std::int64_t line) : flat_(&flat), line_(line) {}

  // Cold and out of line, with the formatting inside: the accessors below run for every field of every line,
  // and inline message formatting kept the compiler from inlining them.
  [[noreturn, gnu::cold, gnu::noinline]] void fail(const std::string& what) const { throw ParseError(line_, what); }
  template <typename... Args>
  [[noreturn, gnu::cold, gnu::noinline]] void fail(fmt::format_string<Args...> format, Args&&... args) const {
    throw ParseError(line_, fmt::format(format, std::forward<Args>(args)...));
  }

  // The scanned line's case inline (nearly every line is scanned), the parsed one's out of line: these run for
  // every field of every line.
  [[gnu::always_inline]] bool has(FieldName name) const {
    if (flat_ != nullptr) [[likely]] {
      const FlatValue* value = flat_->field(name);
      return value != nullptr && value->kind != FlatValue::Kind::null;
    }
    return json_has(name);
  }

  std::int64_t integer(FieldName name) const {
    if (!has(name)) fail("missing integer field '{}'", name.text());
    return as_integer(name);
  }
  std::int64_t integer_or(FieldName name, std::int64_t fallback) const {
    return has(name) ? as_integer(name) : fallback;
  }
  std::optional<std::int64_t> optional_integer(FieldName name) const {
    if (!has(name)) return std::nullopt;
    return as_integer(name);
  }
  std::uint64_t unsigned_or(FieldName name, std::uint64_t fallback) const {
    if (!has(name)) return fallback;
    if (flat_ != nullptr) {
      const FlatValue& value = flat(name, FlatValue::Kind::non_negative, FlatValue::Kind::integer);
      if (value.kind == FlatValue::Kind::non_negative) return value.non_negative;
      if (value.integer >= 0) return static_cast<std::uint64_t>(value.integer);
      fail("field '{}' must be a non-negative integer", name.text());
    }
    const json& value = object_->at(std::string(name.text()));
    if (value.is_number_unsigned()) return value.get<std::uint64_t>();
    if (value.is_number_integer() && value.get<std::int64_t>() >= 0) {
      return static_cast<std::uint64_t>(value.get<std::int64_t>());
    }
    fail("field '{}' must be a non-negative integer", name.text());
  }
  std::string string(FieldName name) const { return std::string(text(name)); }
  // A required string field's characters without a copy, valid while the line is (its fields or its JSON object).
  std::string_view text(FieldName name) const {
    if (!has(name)) fail("missing string field '{}'", name.text());
    return as_text(name);
  }
  std::string string_or(FieldName name, const char* fallback) const {
    return has(name) ? as_string(name) : std::string(fallback);
  }
  // "lock_keys": [{"key": ..., "lock": ..., "mode": "read" | "write"}, ...]; absent: none.
  std::vector<Meta::DerivedKey> derived_keys() const {
    std::vector<Meta::DerivedKey> keys;
    if (!has("lock_keys")) return keys;
    const json& list = nested("lock_keys");
    if (!list.is_array()) fail("field 'lock_keys' must be an array");
    for (const json& entry : list) {
      if (!entry.is_object()) fail("each of 'lock_keys' must be an object");
      Fields derived(entry, line_);
      std::string mode = derived.string("mode");
      if (mode != "read" && mode != "write") fail("lock_keys mode '{}' must be read or write", mode);
      keys.push_back(Meta::DerivedKey{derived.string("key"), derived.string("lock"), mode == "read"});
    }
    return keys;
  }

  // "script_files": {"<sha1>": "renew.lua", ...}; absent: none.
  std::map<std::string, std::string> string_map(FieldName name) const {
    std::map<std::string, std::string> out;
    if (!has(name)) return out;
    const json& map = nested(name);
    if (!map.is_object()) fail("field '{}' must be an object", name.text());
    for (const auto& [key, value] : map.items()) {
      if (!value.is_string()) fail("each value of '{}' must be a string", name.text());
      out.emplace(key, value.get<std::string>());
    }
    return out;
  }

  // "estimated_validity": [2, 0]; absent: none.
  std::set<std::int64_t> integer_set(FieldName name) const {
    std::set<std::int64_t> out;
    if (!has(name)) return out;
    const json& list = nested(name);
    if (!list.is_array()) fail("field '{}' must be an array", name.text());
    for (const json& value : list) {
      if (!value.is_number_integer()) fail("each of '{}' must be an integer", name.text());
      out.insert(value.get<std::int64_t>());
    }
    return out;
  }

  // "holders": [{"token": ..., "mode": "read" | "write"}, ...]; absent: nullopt.
  std::optional<std::vector<Holder>> holders() const {
    if (!has("holders")) return std::nullopt;
    const json& list = nested("holders");
    if (!list.is_array()) fail("field 'holders' must be an array");
    std::vector<Holder> holders;
    for (const json& entry : list) {
      if (!entry.is_object()) fail("each of 'holders' must be an object");
      Fields holder(entry, line_);
      const std::string mode = holder.string("mode");
      if (mode != "read" && mode != "write") fail("holder mode '{}' (expected read or write)", mode);
      holders.push_back(Holder{holder.string("token"), mode == "write"});
    }
    return holders;
  }
  bool boolean_or(FieldName name, bool fallback) const {
    if (!has(name)) return fallback;
    if (flat_ != nullptr) return flat(name, FlatValue::Kind::boolean, FlatValue::Kind::boolean).boolean;
    const json& value = object_->at(std::string(name.text()));
    if (!value.is_boolean()) fail("field '{}' must be true or false", name.text());
    return value.get<bool>();
  }

 private:
  // A present field of a scanned line, of one of two kinds; of another, the parser answers.
  const FlatValue& flat(FieldName name, FlatValue::Kind kind, FlatValue::Kind other) const {
    const FlatValue& value = *flat_->field(name);
    if (value.kind != kind && value.kind != other) throw NeedsJsonParser{};
    return value;
  }
  // An array or object field: a scanned line has none (scan() leaves such lines to the parser).
  const json& nested(FieldName name) const {
    if (flat_ != nullptr) throw NeedsJsonParser{};
    return object_->at(std::string(name.text()));
  }
  [[gnu::always_inline]] std::int64_t as_integer(FieldName name) const {
    if (flat_ != nullptr) [[likely]] {
      const FlatValue& value = flat(name, FlatValue::Kind::integer, FlatValue::Kind::non_negative);
      if (value.kind == FlatValue::Kind::integer) return value.integer;
      if (value.non_negative > static_cast<std::uint64_t>(INT64_MAX)) {
        fail("field '{}' does not fit in a signed 64-bit integer", name.text());
      }
      return static_cast<std::int64_t>(value.non_negative);
    }
    return json_integer(name);
  }
  [[gnu::noinline]] bool json_has(FieldName name) const {
    return object_->contains(std::string(name.text())) && !object_->at(std::string(name.text())).is_null();
  }
  [[gnu::noinline]] std::int64_t json_integer(FieldName name) const {
    const json& value = object_->at(std::string(name.text()));
    // Times are integers by contract; a float means the writer lost precision somewhere.
    if (value.is_number_integer()) {
      if (value.is_number_unsigned() &&
          value.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) {
        fail("field '{}' does not fit in a signed 64-bit integer", name.text());
      }
      return value.get<std::int64_t>();
    }
    fail("field '{}' must be an integer, got {}", name.text(), value.dump());
  }
  std::string as_string(FieldName name) const { return std::string(as_text(name)); }
  [[gnu::always_inline]] std::string_view as_text(FieldName name) const {
    if (flat_ != nullptr) [[likely]] return flat(name, FlatValue::Kind::string, FlatValue::Kind::string).text;
    return json_text(name);
  }
  [[gnu::noinline]] std::string_view json_text(FieldName name) const {
    const json& value = object_->at(std::string(name.text()));
    if (!value.is_string()) fail("field '{}' must be a string, got {}", name.text(), value.dump());
    return value.get_ref<const std::string&>();
  }

  const json* object_ = nullptr;
  const FlatLine* flat_ = nullptr;
  std::int64_t line_;
};

// Times the checkers add, subtract and turn from a node's milliseconds into microseconds: bounded so that a sum of
// two, or a difference of two millisecond times in microseconds, stays within 64 bits (the history fuzzer found
// a node time of 1.7e17 ms overflowing a grant's deadline). 2^60 us is 36,000 years.
constexpr std::int64_t kMaxTimeUs = std::int64_t{1} << 60;
constexpr std::int64_t kMaxTimeMs = kMaxTimeUs / 1000;

std::int64_t bounded(const Fields& in, FieldName name, std::int64_t value, std::int64_t bound) {
  if (value > bound || value < -bound) in.fail("field '{}' is out of range ({} is beyond {})", name.text(), value, bound);
  return value;
}
std::optional<std::int64_t> bounded(const Fields& in, FieldName name, std::optional<std::int64_t> value) {
  if (value) bounded(in, name, *value, kMaxTimeUs);
  return value;
}
std::int64_t time_us_or(const Fields& in, FieldName name, std::int64_t fallback) {
  return bounded(in, name, in.integer_or(name, fallback), kMaxTimeUs);
}

Meta parse_meta(const Fields& in) {
  Meta meta;
  meta.schema = in.integer("schema");
  if (meta.schema != 1) in.fail("unsupported schema {} (this checker reads schema 1)", meta.schema);
  meta.scenario = in.string_or("scenario", "");
  meta.seed = in.unsigned_or("seed", 0);
  meta.variant = in.string_or("variant", "");
  meta.ttl_ms = bounded(in, "ttl_ms", in.integer("ttl_ms"), kMaxTimeMs);
  if (meta.ttl_ms < 0) in.fail("field 'ttl_ms' must not be negative");
  meta.clients = in.integer_or("clients", 0);
  meta.nodes = in.integer_or("nodes", 0);
  meta.fencing = in.boolean_or("fencing", false);
  meta.end_us = time_us_or(in, "end", -1);
  meta.replication_lag_max_us = time_us_or(in, "replication_lag_max_us", -1);
  if (meta.replication_lag_max_us < -1) in.fail("field 'replication_lag_max_us' must not be negative");
  meta.quorum = in.integer_or("quorum", 0);
  if (meta.quorum < 0) in.fail("field 'quorum' must not be negative");
  meta.permits = in.integer_or("permits", 0);
  if (meta.permits < 0) in.fail("field 'permits' must not be negative");
  meta.latch = in.integer_or("latch", 0);
  if (meta.latch < 0) in.fail("field 'latch' must not be negative");
  meta.fair = in.boolean_or("fair", false);
  meta.lossy_links = in.boolean_or("lossy_links", false);
  meta.lock_keys = in.derived_keys();
  meta.script_files = in.string_map("script_files");
  meta.estimated_validity = in.integer_set("estimated_validity");
  return meta;
}

OpType parse_op_type(const Fields& in) {
  std::string type = in.string("type");
  if (type == "invoke") return OpType::invoke;
  if (type == "ok") return OpType::ok;
  if (type == "fail") return OpType::fail;
  if (type == "info") return OpType::info;
  in.fail("unknown op type '{}' (expected invoke, ok, fail or info)", type);
}

Op parse_op(const Fields& in) {
  Op op;
  op.type = parse_op_type(in);
  op.process = in.integer("process");
  op.thread = in.integer_or("thread", 0);
  if (op.thread < 0) in.fail("field 'thread' must not be negative");
  const std::string_view f = in.text("f");
  op.f = std::string(f);
  if (f == "acquire") {
    op.fn = OpFn::acquire;
  } else if (f == "release") {
    op.fn = OpFn::release;
  } else if (f == "renew") {
    op.fn = OpFn::renew;
  } else if (f == "renewal_stop") {
    op.fn = OpFn::renewal_stop;
  } else {
    op.fn = OpFn::other;  // a function a newer workload added; the checkers here ignore it
  }
  op.key = in.string_or("key", "");
  op.local_us = bounded(in, "local", in.optional_integer("local"));
  op.token = in.string_or("token", "");
  op.valid_until_us = bounded(in, "valid_until", in.optional_integer("valid_until"));
  op.valid_until_local_us = bounded(in, "valid_until_local", in.optional_integer("valid_until_local"));
  op.fencing = in.optional_integer("fencing");
  op.detail = in.string_or("detail", "");
  op.result = in.string_or("result", "");
  op.refused_at_us = bounded(in, "refused_at", in.optional_integer("refused_at"));
  op.attempts = in.integer_or("attempts", 1);
  op.error = in.boolean_or("error", false);
  const std::string mode = in.string_or("mode", "write");
  if (mode != "read" && mode != "write") in.fail("unknown op mode '{}' (expected read or write)", mode);
  op.shared = mode == "read";
  if (op.fn == OpFn::acquire && op.type == OpType::ok && op.token.empty() && !in.has("token")) {
    in.fail("acquire ok without 'token'");
  }
  return op;
}

ResourceEvent parse_resource(const Fields& in) {
  ResourceEvent event;
  event.process = in.integer("process");
  event.thread = in.integer_or("thread", 0);
  if (event.thread < 0) in.fail("field 'thread' must not be negative");
  event.f = in.string("f");
  if (event.f != "read" && event.f != "write") {
    in.fail("unknown resource f '{}' (expected read or write)", event.f);
  }
  event.value = in.integer_or("value", 0);
  event.version = in.integer("version");
  event.read_version = in.optional_integer("read_version");
  event.fencing = in.optional_integer("fencing");
  event.accepted = in.boolean_or("accepted", true);
  event.stale = in.boolean_or("stale", false);
  return event;
}

FaultEvent parse_fault(const Fields& in) {
  FaultEvent event;
  const std::string_view name = in.text("fault");
  event.kind = sim::fault_kind_named(name);
  if (!event.kind) {
    const std::optional<sim::FaultFollowUp> follow_up = sim::fault_follow_up_named(name);
    if (!follow_up) in.fail("unknown fault '{}'", name);
    event.follow_up = *follow_up;
  }
  event.process = in.integer_or("process", -1);
  event.node = in.integer_or("node", -1);
  event.from = in.integer_or("from", -1);
  event.duration_us = time_us_or(in, "duration_us", 0);
  event.delta_us = time_us_or(in, "delta_us", 0);
  event.drift_ppm = in.integer_or("drift_ppm", 0);
  event.delay_us = time_us_or(in, "delay_us", 0);
  event.request_ppm = in.integer_or("request_ppm", 0);
  event.reply_ppm = in.integer_or("reply_ppm", 0);
  event.mode = in.string_or("mode", "");
  event.from_serving = in.boolean_or("from_serving", false);
  if ((event.is(sim::FaultKind::crash) || event.is(sim::FaultKind::pause) || event.is(sim::FaultFollowUp::resume) ||
       event.is(sim::FaultKind::restart)) &&
      event.process < 0) {
    in.fail("fault '{}' needs 'process'", event.name());
  }
  if (event.is(sim::FaultKind::failover) && (event.node < 0 || event.from < 0)) {
    in.fail("fault 'failover' needs 'node' (the promoted replica) and 'from' (the old master)");
  }
  return event;
}

ServerEventKind parse_server_kind(const Fields& in) {
  static constexpr ServerEventKind kAll[] = {
      ServerEventKind::created,        ServerEventKind::overwritten, ServerEventKind::modified,
      ServerEventKind::expire_set,     ServerEventKind::expire_removed, ServerEventKind::deleted,
      ServerEventKind::expired,        ServerEventKind::evicted,     ServerEventKind::lost,
  };
  const std::string_view name = in.text("event");
  for (ServerEventKind kind : kAll) {
    if (to_string(kind) == name) return kind;
  }
  in.fail("unknown server event '{}'", name);
}

ServerEvent parse_server(const Fields& in) {
  ServerEvent event;
  event.node = in.integer("node");
  event.event = parse_server_kind(in);
  event.key = in.string("key");
  event.value = in.string_or("value", "");
  event.by = in.integer_or("by", -1);
  event.command = in.string_or("command", "");
  event.script = in.string_or("script", "");
  event.node_time_ms = bounded(in, "node_time_ms", in.integer("node_time_ms"), kMaxTimeMs);
  event.expire_at_ms = bounded(in, "expire_at_ms", in.integer_or("expire_at_ms", -1), kMaxTimeMs);
  event.since_us = time_us_or(in, "since_us", -1);
  event.replicated = in.boolean_or("replicated", false);
  event.holders = in.holders();
  return event;
}

}  // namespace

ParseError::ParseError(std::int64_t line, const std::string& what)
    : std::runtime_error(fmt::format("history line {}: {}", line, what)), line_(line) {}

bool FaultEvent::is_own_kind_end() const {
  // A slow_node line carries its size as delay_us (the row's line), the others as duration_us.
  return kind && sim::fault_row(*kind).ended_by == kind && request_ppm == 0 && reply_ppm == 0 && duration_us == 0 &&
         delay_us == 0;
}

bool FaultEvent::ends(const FaultEvent& earlier) const {
  if (!kind || !earlier.kind || sim::fault_row(*earlier.kind).ended_by != kind) return false;
  const sim::FaultFields reads = sim::fields_of(*kind);
  return (!reads.process || process == earlier.process) && (!reads.node || node == earlier.node);
}

std::string_view to_string(ServerEventKind kind) {
  switch (kind) {
    case ServerEventKind::created: return "created";
    case ServerEventKind::overwritten: return "overwritten";
    case ServerEventKind::modified: return "modified";
    case ServerEventKind::expire_set: return "expire_set";
    case ServerEventKind::expire_removed: return "expire_removed";
    case ServerEventKind::deleted: return "deleted";
    case ServerEventKind::expired: return "expired";
    case ServerEventKind::evicted: return "evicted";
    case ServerEventKind::lost: return "lost";
  }
  return "unknown";
}

std::int64_t event_index(const Event& event) {
  return std::visit([](const auto& e) { return e.i; }, event);
}

std::int64_t event_time(const Event& event) {
  return std::visit([](const auto& e) { return e.t; }, event);
}

std::int64_t History::end_us() const {
  if (meta.end_us >= 0) return meta.end_us;
  return events.empty() ? 0 : event_time(events.back());
}

namespace {

// Reads a history line by line, each line into an event, whichever way the lines arrive.
class HistoryReader {
 public:
  // `lines`: how many lines are coming, when known (an event per line at most).
  explicit HistoryReader(std::size_t lines = 0) { history_.events.reserve(lines); }

  // A line the simulator recorded: its fields read as they were recorded, or (a value only the JSON parser
  // reads) its text.
  void recorded(const sim::History& history, std::size_t index) {
    if (flat_.assign(static_cast<std::int64_t>(index), history.line(index))) {
      ++line_number_;
      try {
        take(Fields(flat_, line_number_));
        return;
      } catch (const NeedsJsonParser&) {
        // A field of another type than wanted: the parser reads the line's text and says what is wrong.
      }
      --line_number_;
    }
    line(history.line_text(index));
  }

  void line(std::string_view text) {
    ++line_number_;
    if (text.find_first_not_of(" \t\r") == std::string_view::npos) return;
    if (flat_.scan(text)) {
      try {
        take(Fields(flat_, line_number_));
        return;
      } catch (const NeedsJsonParser&) {
        // A field of another type than wanted: the parser reads the line again and says what is wrong.
      }
    }
    json object;
    try {
      object = json::parse(text);
    } catch (const json::exception& error) {
      // parse_error, and out_of_range for a number too large for a double (found by history_fuzzer).
      throw ParseError(line_number_, fmt::format("not valid JSON ({})", error.what()));
    }
    if (!object.is_object()) throw ParseError(line_number_, "not a JSON object");
    take(Fields(object, line_number_));
  }

  History finish() && {
    if (history_.events.empty()) throw ParseError(line_number_, "empty history (no meta line)");
    return std::move(history_);
  }

 private:
  // One line's event; the history changes only once the whole line was read (a scanned line that needs the
  // parser is read again from the start).
  void take(const Fields& fields) {
    std::int64_t i = fields.integer("i");
    std::int64_t t = bounded(fields, "t", fields.integer("t"), kMaxTimeUs);
    const std::string_view kind = fields.text("kind");
    // Witnesses are line indices, so they must be unique and in order; checkers walk events in time order.
    auto expected_i = static_cast<std::int64_t>(history_.events.size());
    if (i != expected_i) fields.fail("'i' is {}, expected {}", i, expected_i);
    if (t < previous_t_) fields.fail("'t' goes backwards ({} after {})", t, previous_t_);
    if (history_.events.empty() && kind != "meta") fields.fail("the first line must be the 'meta' line");
    if (history_.closed) fields.fail("a line after the closing 'end' line");
    if (kind == "end") {
      previous_t_ = t;
      history_.closed = true;
      history_.closed_at_us = t;
      return;
    }
    if (kind == "meta") {
      if (!history_.events.empty()) fields.fail("a second 'meta' line");
      Meta meta = parse_meta(fields);
      meta.i = i;
      meta.t = t;
      history_.meta = meta;
      history_.events.emplace_back(std::move(meta));
    } else if (kind == "op") {
      Op op = parse_op(fields);
      op.i = i;
      op.t = t;
      history_.events.emplace_back(std::move(op));
    } else if (kind == "resource") {
      ResourceEvent resource = parse_resource(fields);
      resource.i = i;
      resource.t = t;
      history_.events.emplace_back(std::move(resource));
    } else if (kind == "fault") {
      FaultEvent fault = parse_fault(fields);
      fault.i = i;
      fault.t = t;
      history_.events.emplace_back(std::move(fault));
    } else if (kind == "server") {
      ServerEvent server = parse_server(fields);
      server.i = i;
      server.t = t;
      if (auto file = history_.meta.script_files.find(server.script); file != history_.meta.script_files.end()) {
        server.script = file->second;
      }
      history_.events.emplace_back(std::move(server));
    } else {
      fields.fail("unknown kind '{}' (expected meta, op, resource, fault, server or end)", kind);
    }
    previous_t_ = t;
  }

  History history_;
  FlatLine flat_;
  std::int64_t line_number_ = 0;
  std::int64_t previous_t_ = 0;
};

}  // namespace

History parse_history(std::istream& in) {
  HistoryReader reader;
  std::string text;
  while (std::getline(in, text)) reader.line(text);
  return std::move(reader).finish();
}

History parse_history(std::string_view text) {
  // Lines as std::getline splits them: a last line without its newline is a line, an empty tail is not.
  HistoryReader reader;
  std::size_t begin = 0;
  while (begin < text.size()) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    reader.line(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return std::move(reader).finish();
}

History parse_history(const sim::History& recorded) {
  HistoryReader reader(recorded.size());
  for (std::size_t index = 0; index < recorded.size(); ++index) reader.recorded(recorded, index);
  return std::move(reader).finish();
}

History parse_history_lines(std::span<const std::string> lines) {
  HistoryReader reader(lines.size());
  for (const std::string& line : lines) reader.line(line);
  return std::move(reader).finish();
}

}  // namespace lockcheck::properties
