#include "attribution.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

namespace lockcheck::redis_backend {
namespace {

constexpr std::int64_t kOpen = std::numeric_limits<std::int64_t>::max();
// Redis writes a notification in the same event-loop pass as the reply to the client that caused it; the
// writes of one pass land within microseconds of each other. This margin covers that, nothing more.
constexpr std::int64_t kSamePassMarginUs = 1'000;

struct Interval {
  std::int64_t process;
  std::string f;
  std::int64_t from_us;
  std::int64_t to_us;  // kOpen: never completed (crashed, or still running at the end)
  bool changed_nothing = false;  // a release that found the key not ours, a renew that found it lost
};

std::vector<Interval> op_intervals(const std::vector<Record>& records) {
  std::vector<Interval> intervals;
  std::map<std::int64_t, std::size_t> open;  // process -> index of its pending invoke
  for (const Record& record : records) {
    if (record.kind != "op") continue;
    const std::int64_t process = record.fields.value("process", -1);
    if (record.fields.value("type", "") == "invoke") {
      open[process] = intervals.size();
      intervals.push_back(Interval{process, record.fields.value("f", ""), record.t_us, kOpen});
    } else if (auto it = open.find(process); it != open.end()) {
      Interval& op = intervals[it->second];
      op.to_us = record.t_us;
      const std::string result = record.fields.value("result", "");
      op.changed_nothing = result == "not_owned" || result == "lost";
      open.erase(it);
    }
  }
  return intervals;
}

std::set<std::string> causes_of(const std::string& event) {
  if (event == "created" || event == "overwritten") return {"acquire"};
  // A hash field changes when a holder joins, leaves (its own release) or renews (a deadline kept in a field).
  if (event == "modified") return {"acquire", "release", "renew"};
  if (event == "deleted") return {"release", "acquire"};  // an acquire cleans up its partial or unknown attempts
  if (event == "expire_set" || event == "expire_removed") return {"renew", "acquire"};
  return {};
}

// The one process that can have caused `record`, or -1.
std::int64_t sole_cause(const Record& record, const std::vector<Interval>& intervals, std::int64_t since_us,
                        std::int64_t owner, const std::set<std::pair<std::int64_t, std::int64_t>>& partitioned,
                        const std::map<std::string, std::set<std::int64_t>>& token_holders,
                        const std::string& joined_token) {
  const std::string event = record.fields.value("event", "");
  // A holder that joined a read-write hash (its field is new) names the writer: only its acquire writes it.
  const auto joined = joined_token.empty() ? token_holders.end() : token_holders.find(joined_token);
  if (joined != token_holders.end() && joined->second.size() == 1) return *joined->second.begin();
  // A write puts its writer's token in the key: a string value that carries exactly one acquired token
  // (alone, or inside "deadline:token" and the like), or, for a hash the write created, field names that do.
  // Deadline changes and deletions say nothing of their actor this way (a foreign renew leaves the owner's
  // token in place), so they are judged by the ops in flight only.
  if (event == "created" || event == "overwritten") {
    std::vector<std::string> carriers{record.fields.value("value", "")};
    if (event == "created" && record.fields.contains("fields")) {
      for (const auto& field : record.fields.at("fields")) carriers.push_back(field.get<std::string>());
    }
    std::set<std::int64_t> token_owner;
    for (const auto& [token, holders] : token_holders) {
      for (const std::string& carrier : carriers) {
        if (!token.empty() && carrier.find(token) != std::string::npos) token_owner.insert(holders.begin(), holders.end());
      }
    }
    if (token_owner.size() == 1) return *token_owner.begin();
  }
  const std::int64_t node = record.fields.value("node", -1);
  const std::set<std::string> causes = causes_of(event);
  std::set<std::int64_t> candidates, releasing;
  for (const Interval& op : intervals) {
    if (causes.count(op.f) > 0 && !op.changed_nothing && op.from_us <= record.t_us && op.to_us >= since_us - kSamePassMarginUs &&
        partitioned.count({op.process, node}) == 0) {
      candidates.insert(op.process);
      if (op.f != "acquire") releasing.insert(op.process);
    }
  }
  if (candidates.size() == 1) return *candidates.begin();
  // The owner's release while every other candidate was acquiring: an acquire deletes only its own attempts.
  const bool owner_alone_releasing = releasing.empty() || (releasing.size() == 1 && releasing.count(owner) > 0);
  if (event == "deleted" && owner >= 0 && candidates.count(owner) > 0 && owner_alone_releasing) return owner;
  return -1;
}

// The one holder token that this event's read state lists and the node's previous read state did not (a
// created key had none before), or "" when that cannot be told. Updates `known_holders`.
std::string joined_holder(const Record& record, std::map<std::int64_t, std::set<std::string>>& known_holders) {
  const std::int64_t node = record.fields.value("node", -1);
  const std::string event = record.fields.value("event", "");
  if (event == "deleted" || event == "expired" || event == "evicted" || event == "lost") {
    known_holders[node].clear();
    return "";
  }
  if (!record.fields.contains("holders")) {  // not read, or not a read-write hash: the next diff means nothing
    known_holders.erase(node);
    return "";
  }
  std::set<std::string> now;
  for (const auto& holder : record.fields.at("holders")) now.insert(holder.value("token", ""));
  const auto before = known_holders.find(node);
  std::string joined;
  if (event == "created" || before != known_holders.end()) {
    std::vector<std::string> fresh;
    for (const std::string& token : now) {
      if (event == "created" || before->second.count(token) == 0) fresh.push_back(token);
    }
    if (fresh.size() == 1) joined = fresh.front();
  }
  known_holders[node] = std::move(now);
  return joined;
}

}  // namespace

std::int64_t attribute_server_events(std::vector<Record>& records) {
  std::map<std::string, std::set<std::int64_t>> token_holders;
  for (const Record& record : records) {
    if (record.kind == "op" && record.fields.value("type", "") == "ok" && record.fields.value("f", "") == "acquire") {
      token_holders[record.fields.value("token", "")].insert(record.fields.value("process", -1));
    }
  }
  const std::vector<Interval> intervals = op_intervals(records);
  std::map<std::int64_t, std::int64_t> previous_event_us;  // node -> when its previous event was observed
  std::map<std::int64_t, std::int64_t> owner_of;           // node -> whose instance it holds (one lock key per run)
  std::set<std::pair<std::int64_t, std::int64_t>> partitioned;  // (process, node) that cannot reach each other
  // node -> the read-write hash's holder tokens as last read; absent after an event whose state was not read.
  std::map<std::int64_t, std::set<std::string>> known_holders;
  std::int64_t unattributed = 0;
  for (Record& record : records) {
    if (record.kind == "fault") {
      const std::string fault = record.fields.value("fault", "");
      if (fault == "partition") partitioned.insert({record.fields.value("process", -1), record.fields.value("node", -1)});
      if (fault == "heal") partitioned.clear();
    }
    if (record.kind != "server") continue;
    const std::int64_t node = record.fields.value("node", -1);
    // The observer says when the event certainly came after; else the node's previous event does.
    const std::int64_t since_us = record.fields.value("since_us", previous_event_us.count(node) > 0 ? previous_event_us[node] : 0);
    previous_event_us[node] = record.t_us;
    const std::string event = record.fields.value("event", "");
    const std::string joined = joined_holder(record, known_holders);
    if (!causes_of(event).empty() && record.fields.value("by", -1) < 0) {
      const std::int64_t owner = owner_of.count(node) > 0 ? owner_of[node] : -1;
      const std::int64_t by = sole_cause(record, intervals, since_us, owner, partitioned, token_holders, joined);
      if (by >= 0) record.fields["by"] = by;
      else ++unattributed;
    }
    if (event == "created" || event == "overwritten") owner_of[node] = record.fields.value("by", -1);
    if (event == "deleted" || event == "expired" || event == "evicted" || event == "lost") owner_of.erase(node);
  }
  return unattributed;
}

}  // namespace lockcheck::redis_backend
