#pragma once
// Writes schema-1 JSONL lines for hand-made histories, numbering `i` itself, so a test reads as a timeline.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "properties/checkers.hpp"
#include "properties/history.hpp"

namespace lockcheck::properties::testing {

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

class HistoryBuilder {
 public:
  using json = nlohmann::ordered_json;

  // end_us: the run's end (meta "end"); -1 leaves it out (then the last event's t ends the run).
  explicit HistoryBuilder(std::int64_t ttl_ms = 1000, bool fencing = false, std::int64_t end_us = 10'000'000) {
    json meta{{"schema", 1}, {"scenario", "test"}, {"seed", 1},       {"variant", "token"},
              {"ttl_ms", ttl_ms}, {"clients", 3},   {"nodes", 1},     {"fencing", fencing}};
    if (end_us >= 0) meta["end"] = end_us;
    meta_ = std::move(meta);
    next_i_ = 1;
  }

  // Extra meta fields (quorum, lock_keys, nodes, variant, ...), before or after the events are written.
  void meta(const std::string& name, json value) { meta_[name] = std::move(value); }

  // --- ops --------------------------------------------------------------------------------------------
  std::int64_t invoke(std::int64_t t, std::int64_t process, const std::string& f, const std::string& token = "",
                      const std::string& key = "lock") {
    json op{{"type", "invoke"}, {"process", process}, {"f", f}, {"key", key}, {"local", t}};
    if (!token.empty()) op["token"] = token;
    return line(t, "op", op);
  }
  // An invoke in read (shared) mode of a read-write lock.
  std::int64_t read_invoke(std::int64_t t, std::int64_t process, const std::string& f, const std::string& token = "") {
    json op{{"type", "invoke"}, {"process", process}, {"f", f}, {"key", "lock"}, {"local", t}, {"mode", "read"}};
    if (!token.empty()) op["token"] = token;
    return line(t, "op", op);
  }
  std::int64_t acquire_ok(std::int64_t t, std::int64_t process, const std::string& token, std::int64_t valid_until,
                          std::int64_t fencing = 0, const std::string& key = "lock") {
    return line(t, "op",
                {{"type", "ok"}, {"process", process}, {"f", "acquire"}, {"key", key}, {"local", t},
                 {"token", token}, {"valid_until", valid_until}, {"valid_until_local", valid_until},
                 {"fencing", fencing}});
  }
  // A shared (read) acquire of a read-write lock: the acquire ok carries "mode":"read".
  std::int64_t read_acquire_ok(std::int64_t t, std::int64_t process, const std::string& token,
                               std::int64_t valid_until, const std::string& key = "lock") {
    return line(t, "op",
                {{"type", "ok"}, {"process", process}, {"f", "acquire"}, {"key", key}, {"local", t},
                 {"mode", "read"}, {"token", token}, {"valid_until", valid_until},
                 {"valid_until_local", valid_until}, {"fencing", 0}});
  }
  std::int64_t complete(std::int64_t t, std::int64_t process, const std::string& f, const std::string& type,
                        const std::string& result = "", const std::string& token = "",
                        const std::string& key = "lock") {
    json op{{"type", type}, {"process", process}, {"f", f}, {"key", key}, {"local", t}};
    if (!token.empty()) op["token"] = token;
    if (!result.empty()) op["result"] = result;
    return line(t, "op", op);
  }
  std::int64_t renew_ok(std::int64_t t, std::int64_t process, const std::string& token, std::int64_t valid_until,
                        const std::string& key = "lock") {
    return line(t, "op",
                {{"type", "ok"}, {"process", process}, {"f", "renew"}, {"key", key}, {"local", t}, {"token", token},
                 {"result", "renewed"}, {"valid_until", valid_until}, {"valid_until_local", valid_until}});
  }

  // --- server facts (node clock = true time in ms plus node_offset_ms unless given) -----------------------
  std::int64_t server(std::int64_t t, std::int64_t node, const std::string& event, std::int64_t by,
                      const std::string& value, std::int64_t node_time_ms, std::int64_t expire_at_ms,
                      const std::string& command = "SET", const std::string& key = "lock",
                      bool replicated = false) {
    json fact{{"node", node},        {"event", event},           {"key", key},
              {"value", value},      {"by", by},                 {"command", command},
              {"node_time_ms", node_time_ms}, {"expire_at_ms", expire_at_ms}};
    if (replicated) fact["replicated"] = true;
    return line(t, "server", fact);
  }
  // A read-write hash lock's event listing its holders ({token, "read" | "write"}), as the simulator reports it.
  std::int64_t hash_event(std::int64_t t, const std::string& event, std::int64_t by,
                          const std::vector<std::pair<std::string, std::string>>& holders, std::int64_t ttl_ms,
                          std::int64_t node = 0) {
    std::int64_t node_ms = t / 1000;
    json list = json::array();
    for (const auto& [token, mode] : holders) list.push_back({{"token", token}, {"mode", mode}});
    return line(t, "server",
                {{"node", node}, {"event", event}, {"key", "lock"}, {"value", ""}, {"by", by},
                 {"command", "EVALSHA"}, {"holders", list}, {"node_time_ms", node_ms},
                 {"expire_at_ms", ttl_ms >= 0 ? node_ms + ttl_ms : -1}});
  }

  // SET NX PX as the mock reports it: created (no deadline yet), then expire_set.
  std::int64_t set_nx_px(std::int64_t t, std::int64_t process, const std::string& token, std::int64_t ttl_ms,
                         std::int64_t node = 0, std::int64_t node_offset_ms = 0) {
    std::int64_t node_ms = t / 1000 + node_offset_ms;
    std::int64_t created = server(t, node, "created", process, token, node_ms, -1);
    server(t, node, "expire_set", process, token, node_ms, node_ms + ttl_ms);
    return created;
  }

  // A renewal's PEXPIRE landing on `node`: the key's deadline moved to ttl_ms from the node's now.
  std::int64_t pexpire(std::int64_t t, std::int64_t process, const std::string& token, std::int64_t ttl_ms,
                       std::int64_t node = 0) {
    return server(t, node, "expire_set", process, token, t / 1000, t / 1000 + ttl_ms, "PEXPIRE");
  }

  // --- resource and faults -------------------------------------------------------------------------------
  std::int64_t read(std::int64_t t, std::int64_t process, std::int64_t version) {
    return line(t, "resource", {{"process", process}, {"f", "read"}, {"value", version}, {"version", version}});
  }
  std::int64_t write(std::int64_t t, std::int64_t process, std::int64_t read_version, std::int64_t version,
                     bool accepted, bool stale, std::int64_t fencing = 0) {
    return line(t, "resource",
                {{"process", process}, {"f", "write"}, {"value", version}, {"read_version", read_version},
                 {"version", version}, {"fencing", fencing}, {"accepted", accepted}, {"stale", stale}});
  }
  std::int64_t fault(std::int64_t t, json fields) { return line(t, "fault", std::move(fields)); }
  // Any op line as given (a "thread" of a process sharing one lock object, say).
  std::int64_t op(std::int64_t t, json fields) { return line(t, "op", std::move(fields)); }

  std::string text() const {
    json object{{"i", 0}, {"t", 0}, {"kind", "meta"}};
    for (auto& [name, value] : meta_.items()) object[name] = value;
    return object.dump() + "\n" + text_;
  }
  History parse() const { return parse_history(text()); }

 private:
  std::int64_t line(std::int64_t t, const char* kind, json fields) {
    json object{{"i", next_i_}, {"t", t}, {"kind", kind}};
    for (auto& [name, value] : fields.items()) object[name] = value;
    text_ += object.dump() + "\n";
    return next_i_++;
  }

  json meta_;
  std::int64_t next_i_ = 0;
  std::string text_;
};

// The verdict check_all gives `property` (a test failure, and an empty verdict, when it gives none).
inline Verdict verdict_of(const History& history, const std::string& property) {
  for (Verdict& verdict : check_all(history)) {
    if (verdict.property == property) return verdict;
  }
  ADD_FAILURE() << "no verdict for " << property;
  return {};
}

}  // namespace lockcheck::properties::testing
